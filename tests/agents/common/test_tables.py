from __future__ import annotations

import numpy as np
import pytest

from acpcbot.handeval.combos import CLASS_SIZES, NUM_CLASSES, class_name, parse_class, parse_range
from agents.common import ranges, tables
from agents.common.manifest import DATA_DIR
from agents.common.preflop import class_matchup, flop_connect_class


def test_shipped_tables_are_small() -> None:
    # Their checksums: tests/agents/test_data.py.
    files = sorted(DATA_DIR.glob("*.npy"))
    assert len(files) == 6
    assert sum(f.stat().st_size for f in files) < 1_000_000


@pytest.mark.parametrize(
    ("hand", "other"), [("AA", "KK"), ("AKs", "QQ"), ("AKo", "QJo"), ("72o", "32s"), ("T9s", "T9s")]
)
def test_rebuilding_matrix_entries_reproduces_them(hand: str, other: str) -> None:
    i, j = parse_class(hand), parse_class(other)
    assert class_matchup(i, j) == pytest.approx(tables.class_equity_matrix()[i, j], abs=1e-12)


def test_rebuilding_derived_tables_reproduces_them() -> None:
    matrix = tables.class_equity_matrix()
    pairs = ranges.compatible_pairs()
    equity = ranges.equity_against_random(matrix, pairs)
    assert np.allclose(equity, tables.preflop_equity(), rtol=0, atol=1e-12)
    ranking = ranges.ranking_of(equity)
    assert tuple(ranking.tolist()) == tables.preflop_ranking()
    assert (ranges.buckets_of(ranking) == tables.preflop_buckets()).all()
    grid = ranges.range_ev_grid(matrix, pairs, ranking)
    assert np.allclose(grid, tables.range_ev_table(), rtol=0, atol=1e-12)
    connect = tables.flop_connect_classes()
    for name in ("AKs", "72o", "55", "T9s"):
        k = parse_class(name)
        assert np.allclose(flop_connect_class(k), connect[k], rtol=0, atol=1e-12)
    rebuilt = ranges.flop_connect_grid(connect, ranking)
    assert np.allclose(rebuilt, tables.flop_connect_table(), rtol=0, atol=1e-12)


def test_the_matrix_is_a_zero_sum_game() -> None:
    matrix = tables.class_equity_matrix()
    assert np.allclose(matrix + matrix.T, 1.0, rtol=0, atol=1e-12)
    assert ((matrix > 0) & (matrix < 1)).all()


def test_known_preflop_equities() -> None:
    matrix = tables.class_equity_matrix()
    equity = tables.preflop_equity()
    aa, kk, aks, qq = (parse_class(n) for n in ("AA", "KK", "AKs", "QQ"))
    assert round(100 * matrix[aa, kk], 2) == 81.95  # averaged over the suit combinations
    assert matrix[aks, qq] == pytest.approx(0.46, abs=0.005)
    assert round(100 * equity[aa], 1) == 85.2
    assert round(100 * equity[parse_class("72o")], 1) == 34.6
    assert [class_name(k) for k in tables.preflop_ranking()[:4]] == ["AA", "KK", "QQ", "JJ"]
    assert class_name(tables.preflop_ranking()[-1]) == "32o"


def test_the_papers_range_figures() -> None:
    assert tables.range_ev(0.10, 0.15) == pytest.approx(0.55, abs=0.01)
    # "A range of 0.1 represents {88+, A9s+, KTs+, QTs+, AJo+, KQo}": most combos agree.
    ours = tables.top_range(0.10) * CLASS_SIZES
    paper = np.zeros(NUM_CLASSES)
    paper[list(parse_range("88+, A9s+, KTs+, QTs+, AJo+, KQo"))] = 1.0
    paper *= CLASS_SIZES
    shared = np.minimum(ours, paper).sum()
    assert ours.sum() == pytest.approx(132.6)
    assert shared >= 0.75 * paper.sum() and shared >= 0.75 * ours.sum()


def test_range_ev_interpolates_the_exact_equity() -> None:
    matrix = tables.class_equity_matrix()
    pairs = ranges.compatible_pairs()
    for mine, theirs in ((0.10, 0.15), (0.333, 0.9), (0.005, 1.0), (1.0, 1.0)):
        exact = ranges.range_equity(
            matrix, pairs, tables.top_range(max(mine, 0.01)), tables.top_range(theirs)
        )
        assert tables.range_ev(mine, theirs) == pytest.approx(exact, abs=2e-3)
    assert tables.range_ev(1.0, 1.0) == pytest.approx(0.5, abs=1e-12)
    assert tables.range_ev(0.05, 0.5) > tables.range_ev(0.2, 0.5) > tables.range_ev(0.6, 0.5)
    with pytest.raises(ValueError):
        tables.range_ev(1.5, 0.5)


def test_buckets_follow_the_paper() -> None:
    buckets = tables.preflop_buckets()
    first = sorted(class_name(int(k)) for k in np.flatnonzero(buckets == 1))
    assert first == sorted(["AA", "KK", "QQ", "JJ", "AKs"])
    assert set(np.unique(buckets).tolist()) == set(range(1, 9))
    ranking = tables.preflop_ranking()
    later = [int(buckets[k]) for k in ranking if buckets[k] != 1]
    assert later == sorted(later)  # after bucket 1, buckets follow the ranking
    unplayable = CLASS_SIZES[buckets == 8].sum() / CLASS_SIZES.sum()
    assert 0.55 < unplayable < 0.65
    assert tables.preflop_bucket(parse_class("72o")) == 8


def test_flop_connect_table() -> None:
    tight, loose = tables.flop_connect(0.05), tables.flop_connect(1.0)
    assert tight.pair_or_better > loose.pair_or_better and tight.any > loose.any
    assert loose.two_overcards < tight.two_overcards
    for row in (tight, loose, tables.flop_connect(0.37)):
        parts = (row.pair_or_better, row.two_overcards, row.flush_draw, row.straight_draw)
        assert max(parts) <= row.any <= min(1.0, sum(parts)) + 1e-12
    # A random hand pairs the flop or better about 37% of the time (overcards, 8.6%).
    assert loose.pair_or_better == pytest.approx(0.370, abs=0.001)
    aks = tables.flop_connect_classes()[parse_class("AKs")]
    assert aks[4] == 1.0  # AK always pairs the flop or holds two overcards
