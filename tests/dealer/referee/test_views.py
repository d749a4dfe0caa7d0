from __future__ import annotations

import random

import pytest

from acpcbot.actions import Action, ActionType
from acpcbot.game import Game, parse_game
from acpcbot.protocol.matchstate import MatchState, format_match_state, view_of
from acpcbot.rules import HandState
from agents.dpp.chance import LEDUC_TEXT
from dealer.referee.dealing import DealStream
from dealer.referee.views import state_view
from tests.leduc import LEDUC

ONE_ROUND = parse_game(
    LEDUC_TEXT.replace("numRounds = 2", "numRounds = 1")
    .replace("raiseSize = 2 4", "raiseSize = 2")
    .replace("firstPlayer = 1 1", "firstPlayer = 1")
    .replace("maxRaises = 2 2", "maxRaises = 2")
    .replace("numBoardCards = 0 1", "numBoardCards = 0")
)
THREE_PLAYERS = parse_game(
    LEDUC_TEXT.replace("numPlayers = 2", "numPlayers = 3")
    .replace("blind = 1 1", "blind = 1 1 1")
    .replace("numRanks = 3", "numRanks = 6")
)


@pytest.mark.parametrize(
    "game_name", ["limit_game", "nolimit_game", "leduc", "one_round", "three_players"]
)
def test_views_equal_the_core_view_and_keep_their_moment(
    request: pytest.FixtureRequest, game_name: str
) -> None:
    games = {"leduc": LEDUC, "one_round": ONE_ROUND, "three_players": THREE_PLAYERS}
    game: Game = games.get(game_name) or request.getfixturevalue(game_name)
    assert game.num_players == (3 if game_name == "three_players" else 2)
    rng = random.Random(3)
    deals = DealStream(game, 8)
    for hand_number in range(100):
        deal = deals.next_deal()
        hand = HandState(game, hand_number)

        kept: list[tuple[MatchState, str]] = []
        while not hand.finished:
            for position in range(game.num_players):
                shown = deal.visible_board(game, hand.round)
                lazy = state_view(hand.copy(), deal.hole_cards[position], shown, position)
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
