"""The case base: similarity by the opponent's line, threshold, stronger buckets fold more."""

from __future__ import annotations

from acpcbot.game import Game
from acpcbot.matchstate import decode_match_state
from agents.plicas.casebase import Case, CaseBase, case_triple
from agents.plicas.situation import Situation


def facing_turn_bet(game: Game) -> Situation:
    # Position 1 (the agent) bet the flop, was called; the opponent bets the turn.
    state, betting = decode_match_state("MATCHSTATE:1:3:cc/crc/r:|9s8s/Ah7c2d/3c", game)
    return Situation.of(state, betting)


def base_with(buckets: list[int], line: tuple[str, ...] = ("k", "kc", "b", "")) -> CaseBase:
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
    s = facing_turn_bet(limit_game)
    assert s.round == 2 and s.facing_bet
    assert s.opponent_line == ("k", "kc", "b")


def test_nothing_at_or_below_the_threshold(limit_game: Game) -> None:
    s = facing_turn_bet(limit_game)
    assert case_triple(s, 5, base_with([3] * 10), threshold=10) is None
    found = case_triple(s, 5, base_with([3] * 11), threshold=10)
    assert found is not None and found[1] == 11


def test_other_lines_are_not_similar(limit_game: Game) -> None:
    s = facing_turn_bet(limit_game)
    other = base_with([3] * 50, line=("c", "kc", "b", ""))
    assert case_triple(s, 5, other, threshold=10) is None
    checked = base_with([3] * 50, line=("k", "kc", "kc", "k"))  # checked, not bet, the turn
    assert case_triple(s, 5, checked, threshold=10) is None


def test_stronger_opponent_buckets_raise_the_fold_probability(limit_game: Game) -> None:
    s = facing_turn_bet(limit_game)
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
    s = facing_turn_bet(limit_game)
    found = case_triple(s, 2, base_with([6, 7, 8] * 10), threshold=10)
    assert found is not None and found[0].raise_ == 1.0


def test_prefixes_of_a_street_match() -> None:
    base = base_with([2] * 3)
    histogram = base.histogram(2, ("k", "kc", ""))  # the opponent has not acted on the turn
    assert histogram is not None and int(histogram[1]) == 3
    assert base.histogram(3, ("k", "kc", "b", "")) is not None
    assert len(base) == 3
