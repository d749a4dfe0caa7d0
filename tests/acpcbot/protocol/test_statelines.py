from __future__ import annotations

import random

import pytest

from acpcbot.actions import Action, ActionType
from acpcbot.game import Game
from acpcbot.protocol.matchstate import format_match_state, view_of
from acpcbot.protocol.statelines import StateLines
from acpcbot.rules import HandState
from dealer.referee.dealing import DealStream
from tests.dealer.conftest import THREE_PLAYERS


@pytest.mark.parametrize("game_name", ["limit_game", "nolimit_game", "three_players"])
def test_every_line_equals_the_core_codec(request: pytest.FixtureRequest, game_name: str) -> None:
    game: Game = (
        THREE_PLAYERS if game_name == "three_players" else request.getfixturevalue(game_name)
    )
    rng = random.Random(11)
    deals = DealStream(game, 99)
    checked = 0
    for hand_number in range(300):
        dealt = deals.next_hand()
        deal = dealt.deal
        hand = HandState(game, hand_number)
        if hand_number % 2:  # the dealer's way, and the cards worked out from the deal
            lines = StateLines(hand, deal, deals.layout, dealt.full_field)
        else:
            lines = StateLines(hand, deal)
        while True:
            for position in range(game.num_players):
                expected = format_match_state(view_of(hand, deal, position))
                assert lines.line(position) == expected.encode()
                assert lines.messages()[position] == expected.encode() + b"\r\n"
                checked += 1
            if hand.finished:
                break
            kind = rng.choices(hand.legal_action_types(), k=1)[0]
            action = Action(kind)
            if kind is ActionType.RAISE and not game.is_limit:
                low, high = hand.raise_bounds() or (0, 0)
                action = Action(kind, rng.choice([low, high, rng.randint(low, high)]))
            hand.apply(action)
            lines.record(action)
    assert checked > 2000
