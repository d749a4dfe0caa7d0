"""The fold-equity unit on concrete situations with hand-written readings."""

from __future__ import annotations

import pytest

from acpcbot.game import Game
from acpcbot.protocol.matchstate import decode_match_state
from agents.plicas.foldequity import at_least_raise, fold_equity_raise
from agents.plicas.reading import Reading
from agents.plicas.situation import Situation
from agents.triple import Triple

TRASH = Reading(0.2, 0.15, 0.2, 8)
MIDDLE = Reading(0.45, 0.4, 0.45, 6)
STRONG = Reading(0.8, 0.75, 0.8, 2)
CHECKED_TO = "MATCHSTATE:1:1:cc/c:|9c2d/AhKhQs"
FACING_BET = "MATCHSTATE:1:1:cc/r:|9c2d/AhKhQs"
AT_THE_CAP = "MATCHSTATE:1:1:cc/rrrr:|9c2d/AhKhQs"


def situation(game: Game, text: str) -> Situation:
    return Situation.of(*decode_match_state(text, game))


@pytest.mark.parametrize("text", [CHECKED_TO, FACING_BET])
def test_the_raise_probability_rises_with_the_fold_rate(limit_game: Game, text: str) -> None:
    s = situation(limit_game, text)
    probabilities = [fold_equity_raise(s, MIDDLE, f) for f in (0.0, 0.2, 0.4, 0.6, 0.8)]
    assert probabilities == sorted(probabilities)
    assert probabilities[0] < probabilities[-1] == 1.0


def test_against_a_calling_station_only_value_bets(limit_game: Game) -> None:
    s = situation(limit_game, CHECKED_TO)
    assert fold_equity_raise(s, TRASH, 0.0) == 0.0
    assert fold_equity_raise(s, MIDDLE, 0.0) == 0.0
    assert fold_equity_raise(s, STRONG, 0.0) == 1.0


def test_a_frequent_folder_is_bet_into_with_any_hand(limit_game: Game) -> None:
    assert fold_equity_raise(situation(limit_game, CHECKED_TO), TRASH, 0.7) == 1.0


def test_the_break_even_point_follows_the_one_street_values(limit_game: Game) -> None:
    s = situation(limit_game, CHECKED_TO)  # pot 20, a bet of 10, nothing to call
    # trash: check 0.2 * 20 = 4; bet f * 20 + (1 - f) * (0.15 * 40 - 10) = 24 f - 4
    assert fold_equity_raise(s, TRASH, 0.33) == 0.0
    assert 0.0 < fold_equity_raise(s, TRASH, 0.34) < 0.1


def test_facing_a_bet_a_bluff_raise_has_to_beat_folding(limit_game: Game) -> None:
    s = situation(limit_game, FACING_BET)  # pot 30, 10 to call, a raise of 10 more
    # trash: call 0.2 * 40 - 10 = -2, so fold (0); raise 30 f + (1 - f) * (0.15 * 60 - 20)
    # = 41 f - 11 breaks even with the fold at f = 0.268 (with the call already at 0.22)
    assert fold_equity_raise(s, TRASH, 0.26) == 0.0
    assert 0.0 < fold_equity_raise(s, TRASH, 0.27) < 0.05


def test_nothing_where_a_raise_is_illegal(limit_game: Game) -> None:
    assert fold_equity_raise(situation(limit_game, AT_THE_CAP), TRASH, 1.0) == 0.0


def test_at_least_raise_keeps_the_triple_normalised_and_in_proportion() -> None:
    rule = Triple(0.6, 0.3, 0.1)
    raised = at_least_raise(rule, 0.4)
    assert raised.raise_ == 0.4
    assert raised.fold + raised.call + raised.raise_ == pytest.approx(1.0)
    assert raised.fold / raised.call == pytest.approx(2.0)
    assert at_least_raise(rule, 0.05) is rule
