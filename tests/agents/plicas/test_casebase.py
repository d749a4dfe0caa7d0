"""The case base: similarity by the opponent's line, threshold, stronger buckets fold more."""

from __future__ import annotations

from acpcbot.game import Game
from acpcbot.protocol.matchstate import decode_match_state
from agents.plicas.casebase import Case, CaseBase, case_triple
from agents.plicas.situation import Situation

RIVER_BET = "MATCHSTATE:1:3:cc/crc/cc/r:|9s8s/Ah7c2d/3c/Kd"
"""Position 1 (the agent) bet the flop and was called, both checked the turn; the opponent
bets the river."""


def situation(game: Game, text: str = RIVER_BET) -> Situation:
    return Situation.of(*decode_match_state(text, game))


def base_with(buckets: list[int], line: tuple[str, ...] = ("k", "kc", "k", "b")) -> CaseBase:
    base = CaseBase()
    for bucket in buckets:
        base.add(
            Case(
                opponent_line=line,
                own_line=("c", "b", "c", "k"),
                opponent_buckets=(4, bucket, bucket, bucket),
            )
        )
    return base


def test_situation_line_is_what_the_cases_are_indexed_by(limit_game: Game) -> None:
    s = situation(limit_game)
    assert s.round == 3 and s.facing_bet
    assert s.opponent_line == ("k", "kc", "k", "b")


def test_nothing_at_or_below_the_threshold(limit_game: Game) -> None:
    s = situation(limit_game)
    assert case_triple(s, 5, base_with([3] * 10), threshold=10) is None
    found = case_triple(s, 5, base_with([3] * 11), threshold=10)
    assert found is not None and found[1] == 11


def test_other_lines_are_not_similar(limit_game: Game) -> None:
    s = situation(limit_game)
    other = base_with([3] * 50, line=("c", "kc", "k", "b"))
    assert case_triple(s, 5, other, threshold=10) is None
    checked = base_with([3] * 50, line=("k", "kc", "k", "k"))  # checked, not bet, the river
    assert case_triple(s, 5, checked, threshold=10) is None


def test_nothing_before_the_river_or_without_a_bet_to_call(limit_game: Game) -> None:
    # Cases are showdowns: before the river its weak hands that fold later are missing
    # from them, so the unit stays silent however many similar cases there are.
    turn_bet = situation(limit_game, "MATCHSTATE:1:3:cc/crc/r:|9s8s/Ah7c2d/3c")
    assert turn_bet.facing_bet
    assert case_triple(turn_bet, 8, base_with([1] * 50, line=("k", "kc", "b", "")), 10) is None
    river_check = situation(limit_game, "MATCHSTATE:1:3:cc/crc/cc/c:|9s8s/Ah7c2d/3c/Kd")
    assert not river_check.facing_bet
    assert case_triple(river_check, 1, base_with([8] * 50, line=("k", "kc", "k", "k")), 10) is None


def test_stronger_opponent_buckets_raise_the_fold_probability(limit_game: Game) -> None:
    s = situation(limit_game)
    folds = []
    for opponent_bucket in (7, 5, 4, 3, 1):  # weaker .. stronger than our bucket 5
        found = case_triple(s, 5, base_with([opponent_bucket] * 30), threshold=10)
        assert found is not None
        triple = found[0]
        assert abs(triple.fold + triple.call + triple.raise_ - 1) < 1e-12
        folds.append(triple.fold)
    assert folds == sorted(folds)
    assert folds[0] == 0.0 and folds[-1] > 0.9


def test_weaker_opponent_buckets_raise(limit_game: Game) -> None:
    s = situation(limit_game)
    found = case_triple(s, 2, base_with([6, 7, 8] * 10), threshold=10)
    assert found is not None and found[0].raise_ == 1.0


def test_prefixes_of_a_street_match() -> None:
    base = base_with([2] * 3, line=("k", "kc", "b", ""))
    histogram = base.histogram(2, ("k", "kc", ""))  # the opponent has not acted on the turn
    assert histogram is not None and int(histogram[1]) == 3
    assert base.histogram(3, ("k", "kc", "b", "")) is not None
    assert len(base) == 3
