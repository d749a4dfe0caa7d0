"""The precomputed preflop tables PLICAS needs, shipped in ``agents/data/``.

Built by ``scripts/build_tables.py`` (exactly, in a few minutes); loading them takes
milliseconds and never imports numba. Classes are indexed as in
:mod:`acpcbot.handeval.combos`, ranges are top fractions of the ranking as in
:mod:`agents.common.ranges`.

=========================  =================================================================
``class_equity.npy``       169×169 exact showdown equity of class i against class j
``preflop_equity.npy``     each class's equity against a random hand (from the matrix)
``preflop_buckets.npy``    PLICAS-style buckets 1..8 (see :mod:`agents.common.ranges`)
``range_ev.npy``           EV(r_p, r_o) for r_p, r_o = 1%, 2%, ..., 100% (DPRC's table)
``flop_connect.npy``       per range level 1%..100%: P(pair or better), P(two overcards),
                           P(flush draw), P(straight draw), P(any of these) on the flop
``flop_connect_classes``   the same five probabilities for each class
=========================  =================================================================

>>> from acpcbot.handeval.combos import class_name, parse_class
>>> [class_name(k) for k in preflop_ranking()[:3]]
['AA', 'KK', 'QQ']
>>> preflop_bucket(parse_class("AKs")), preflop_bucket(parse_class("72o"))
(1, 8)
>>> round(range_ev(0.10, 0.15), 2)
0.55
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from acpcbot.handeval.combos import CLASS_SIZES, NUM_CLASSES, NUM_COMBOS
from agents.common.manifest import DATA_DIR
from agents.common.ranges import RANGE_GRID, range_weights

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@cache
def _load(name: str) -> npt.NDArray[np.generic]:
    array: npt.NDArray[np.generic] = np.load(DATA_DIR / f"{name}.npy", allow_pickle=False)
    array.setflags(write=False)
    return array


def class_equity_matrix() -> FloatArray:
    """``M[i, j]``: showdown equity of class ``i`` against class ``j`` before the flop,
    averaged over all pairs of their combos that share no card (ties count half)."""
    return _load("class_equity").astype(np.float64, copy=False)


def preflop_equity() -> FloatArray:
    """Each class's equity against a uniformly random hand."""
    return _load("preflop_equity").astype(np.float64, copy=False)


@cache
def preflop_ranking() -> tuple[int, ...]:
    """The 169 classes by equity against a random hand, best first."""
    equity = preflop_equity()
    return tuple(int(k) for k in np.lexsort((np.arange(NUM_CLASSES), -equity)))


@cache
def class_top_share() -> FloatArray:
    """Each class's place in the ranking as a share of all combos: the share of combos in
    classes ranked at least as high as it (AA about 0.0045, the worst class 1)."""
    ranking = np.array(preflop_ranking())
    share = np.empty(NUM_CLASSES)
    share[ranking] = np.cumsum(CLASS_SIZES[ranking]) / NUM_COMBOS
    share.setflags(write=False)
    return share


def preflop_buckets() -> IntArray:
    """The PLICAS-style bucket (1 best .. 8 unplayable) of every class."""
    return _load("preflop_buckets").astype(np.int64)


def preflop_bucket(k: int) -> int:
    """The PLICAS-style bucket of class ``k``: 1 (AA, KK, QQ, JJ, AKs) to 8 (unplayable)."""
    return int(preflop_buckets()[k])


def top_range(x: float) -> FloatArray:
    """The class weights of the top-``x`` range (the boundary class in part)."""
    return range_weights(np.array(preflop_ranking()), x)


def range_ev_table() -> FloatArray:
    """``EV(p, o)`` on the grid 1%..100% × 1%..100%."""
    return _load("range_ev").astype(np.float64, copy=False)


def _grid_position(x: float) -> tuple[int, float]:
    """Index and fraction of ``x`` between grid points (clamped to 1%..100%)."""
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"a range is a fraction of all hands in 0..1, not {x}")
    t = (min(max(x, RANGE_GRID[0]), 1.0) - RANGE_GRID[0]) / (RANGE_GRID[1] - RANGE_GRID[0])
    index = min(int(t), len(RANGE_GRID) - 2)
    return index, t - index


def range_ev(r_p: float, r_o: float) -> float:
    """Showdown equity of the top-``r_p`` range against the top-``r_o`` range, interpolated
    bilinearly in the shipped grid (ranges below 1% read as 1%)."""
    table = range_ev_table()
    i, a = _grid_position(r_p)
    j, b = _grid_position(r_o)
    top = (1 - b) * table[i, j] + b * table[i, j + 1]
    bottom = (1 - b) * table[i + 1, j] + b * table[i + 1, j + 1]
    return float((1 - a) * top + a * bottom)


@dataclass(frozen=True)
class FlopConnect:
    """How often a hand of a range connects with a random flop (definitions in
    :func:`agents.common.preflop.flop_connect_counts`)."""

    pair_or_better: float
    two_overcards: float
    flush_draw: float
    straight_draw: float
    any: float


def flop_connect_table() -> FloatArray:
    """The five probabilities of :class:`FlopConnect` per range level 1%..100%."""
    return _load("flop_connect").astype(np.float64, copy=False)


def flop_connect_classes() -> FloatArray:
    """The five probabilities of :class:`FlopConnect` for each class."""
    return _load("flop_connect_classes").astype(np.float64, copy=False)


def flop_connect(r: float) -> FlopConnect:
    """How often the top-``r`` range connects with a random flop (interpolated linearly
    between grid levels; ranges below 1% read as 1%)."""
    table = flop_connect_table()
    i, a = _grid_position(r)
    row = (1 - a) * table[i] + a * table[i + 1]
    return FlopConnect(*(float(v) for v in row))
