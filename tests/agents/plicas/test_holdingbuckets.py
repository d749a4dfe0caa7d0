"""The holdings' buckets: the shipped flop table agrees with the exact sweep, the buckets
are absolute and every holding has one."""

from __future__ import annotations

import numpy as np
import pytest

from acpcbot.cards import parse_cards
from acpcbot.handeval.combos import CLASS_SIZES, NUM_CLASSES, NUM_COMBOS, combo_index
from acpcbot.handeval.holdings import holdings_squared_strength
from agents.plicas.holdingbuckets import (
    _KEPT_BUCKETS,
    COARSE,
    FINE,
    coarse_map,
    fine_bucket,
    fine_buckets,
    fine_count,
    flop_squares,
    squared_strengths,
)


@pytest.mark.parametrize("flop", ["2c7d9s", "AhKhQh", "5s5d5c", "Tc9c2h"])
def test_the_flop_table_holds_the_exact_values(flop: str) -> None:
    board = parse_cards(flop)
    exact = holdings_squared_strength(board)
    assert np.abs(squared_strengths(board) - exact).max() <= 0.5 / 255 + 1e-9


def test_the_flop_table_has_every_flop_class() -> None:
    rows, squares = flop_squares()
    assert len(rows) == 1755 == len(squares)
    assert squares.shape == (1755, NUM_COMBOS)


def test_a_renamed_board_gives_the_renamed_buckets() -> None:
    hearts = fine_buckets(parse_cards("AhKh2h"))
    spades = fine_buckets(parse_cards("AsKs2s"))
    for hole_h, hole_s in (("QhJh", "QsJs"), ("7c7d", "7c7d"), ("3h4d", "3s4d")):
        assert (
            hearts[combo_index(*parse_cards(hole_h))] == spades[combo_index(*parse_cards(hole_s))]
        )


@pytest.mark.parametrize("board", ["Qh7h2c", "Qh7h2c5d", "Qh7h2c5d9s"])
def test_every_live_holding_has_a_bucket_and_dead_ones_none(board: str) -> None:
    cards = parse_cards(board)
    buckets = fine_buckets(cards)
    dead = np.array([bool(set(pair) & set(cards)) for pair in _pairs()])
    assert (buckets[dead] == -1).all()
    assert ((buckets[~dead] >= 0) & (buckets[~dead] < FINE)).all()
    # absolute: a stronger hand never sits in a lower bucket than a weaker one
    values = squared_strengths(cards)[~dead]
    order = np.argsort(values, kind="stable")
    assert (np.diff(buckets[~dead][order]) >= 0).all()


def test_the_preflop_buckets_are_the_classes_grouped_by_strength() -> None:
    assert fine_count(0) == NUM_CLASSES and fine_count(2) == FINE
    coarse = coarse_map(0)
    mass = np.bincount(coarse, weights=CLASS_SIZES, minlength=COARSE)
    assert mass.sum() == NUM_COMBOS and mass.max() - mass.min() < 0.1 * NUM_COMBOS
    assert coarse_map(3).tolist() == [b * COARSE // FINE for b in range(FINE)]


def _pairs() -> list[tuple[int, int]]:
    from acpcbot.handeval.combos import COMBO_CARDS

    return [(int(a), int(b)) for a, b in COMBO_CARDS]


@pytest.mark.parametrize("board", ["Js8d3c6h", "Js8d3c6h6s"])
def test_one_holdings_bucket_is_its_bucket_among_all(board: str) -> None:
    """Asked before the board's buckets are kept (from the one holding's E[HS²]) and after
    (read from them): the same bucket as every holding's sweep gives it; -1 when dead."""
    cards = parse_cards(board)
    holdings = [combo_index(*parse_cards(h)) for h in ("AsAd", "9d7d", "3h4h", "TcTs", "8dKc")]
    assert cards not in _KEPT_BUCKETS  # no other test asks for this board
    before = [fine_bucket(cards, h) for h in holdings]
    buckets = fine_buckets(cards)
    after = [fine_bucket(cards, h) for h in holdings]
    assert before == after == [int(buckets[h]) for h in holdings]
    assert before[-1] == -1 and min(before[:-1]) >= 0
