from __future__ import annotations

import random

import pytest

from acpcbot.actions import Action, ActionType
from acpcbot.game import Game
from acpcbot.protocol.matchstate import MatchState, format_match_state, view_of
from acpcbot.rules import HandState
from dealer.referee.dealing import DealStream
from dealer.referee.views import state_view


@pytest.mark.parametrize("game_name", ["limit_game", "nolimit_game"])
def test_views_equal_the_core_view_and_keep_their_moment(
    request: pytest.FixtureRequest, game_name: str
) -> None:
    game: Game = request.getfixturevalue(game_name)
    rng = random.Random(3)
    deals = DealStream(game, 8)
    for hand_number in range(100):
        deal = deals.next_deal()
        hand = HandState(game, hand_number)
        kept: list[tuple[MatchState, str]] = []
        while not hand.finished:
            for position in range(game.num_players):
                lazy = state_view(hand, deal, position)
                expected = view_of(hand, deal, position)
                if rng.random() < 0.5:  # read now, or only after the hand has moved on
                    assert lazy == expected and expected == lazy
                    assert hash(lazy) == hash(expected)
                else:
                    kept.append((lazy, format_match_state(expected)))
            kind = rng.choice(hand.legal_action_types())
            action = Action(kind)
            if kind is ActionType.RAISE and not game.is_limit:
                low, high = hand.raise_bounds() or (0, 0)
                action = Action(kind, rng.choice([low, high]))
            hand.apply(action)
        for lazy, text in kept:
            assert str(lazy) == text
            assert isinstance(lazy, MatchState) and lazy.round == lazy.round
