"""Preflop ranges as top fractions of the starting-hand ranking, and the tables built on them.

Plain numpy, so loading the tables never imports numba. A range ``x`` (0 < x ≤ 1) is the
best ``x · 1326`` combos of the ranking: whole classes in ranking order, and the class where
the count runs out taken in part (weight = the fraction of its combos still needed). The
showdown equity of range ``p`` against range ``o`` weighs every pair of combos that share no
card equally::

    EV(p, o) = Σ_ij wp_i wo_j n_ij M_ij / Σ_ij wp_i wo_j n_ij

with ``M`` the class-against-class equity matrix and ``n_ij`` the number of disjoint pairs
of combos of classes ``i`` and ``j``.

**Preflop buckets.** PLICAS's Table 1 sorts the 169 classes into 8 buckets; its text names
bucket 1 (AA, KK, QQ, JJ, AKs) and marks bucket 8 unplayable, and the extracted table gives
roughly how many combos each bucket holds. Here bucket 1 is exactly that set, and the other
classes, in ranking order, fill buckets 2–7 until the running count of combos (bucket 1's 28
included) reaches :data:`BUCKET_BOUNDS` — 58, 92, 150, 256, 386 and 530 combos, i.e. 4.4%,
6.9%, 11.3%, 19.3%, 29.1% and 40% of all hands, as read off Table 1 — a class joining the
bucket that holds the middle of its combos. The rest (60%) is bucket 8.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from acpcbot.handeval.combos import CLASS_SIZES, COMBO_CARDS, COMBO_CLASS, NUM_CLASSES, parse_class

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

BUCKET_ONE = ("AA", "KK", "QQ", "JJ", "AKs")
BUCKET_BOUNDS = (58, 92, 150, 256, 386, 530)
"""Combos counted (in ranking order, bucket 1 first) when buckets 2..7 are full."""
UNPLAYABLE = 8
RANGE_GRID = np.arange(1, 101) / 100
"""The range levels the shipped range tables are computed at: 1%, 2%, ..., 100%."""


def compatible_pairs() -> IntArray:
    """``n[i, j]``: the pairs of combos of classes ``i`` and ``j`` that share no card."""
    masks = (1 << COMBO_CARDS[:, 0]) | (1 << COMBO_CARDS[:, 1])
    disjoint = (np.bitwise_and.outer(masks, masks) == 0).astype(np.float64)
    onehot = np.zeros((len(COMBO_CARDS), NUM_CLASSES))
    onehot[np.arange(len(COMBO_CARDS)), COMBO_CLASS] = 1.0
    counts: FloatArray = onehot.T @ disjoint @ onehot
    return np.rint(counts).astype(np.int64)


def equity_against_random(matrix: FloatArray, pairs: IntArray) -> FloatArray:
    """Each class's equity against a uniformly random hand, from the class matrix."""
    result: FloatArray = (pairs * matrix).sum(axis=1) / pairs.sum(axis=1)
    return result


def ranking_of(equities: FloatArray) -> IntArray:
    """Classes best first (by equity, then by class index)."""
    return np.lexsort((np.arange(len(equities)), -equities))


def range_weights(ranking: IntArray, x: float) -> FloatArray:
    """How much of each class the top-``x`` range holds (1 whole, 0 none)."""
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"a range is a fraction of all hands in 0..1, not {x}")
    wanted = x * len(COMBO_CARDS)
    sizes = CLASS_SIZES[ranking].astype(np.float64)
    before = np.concatenate([[0.0], np.cumsum(sizes)[:-1]])
    taken = np.clip((wanted - before) / sizes, 0.0, 1.0)
    weights = np.zeros(NUM_CLASSES)
    weights[ranking] = taken
    return weights


def range_equity(
    matrix: FloatArray, pairs: IntArray, mine: FloatArray, theirs: FloatArray
) -> float:
    """Showdown equity of the class weights ``mine`` against ``theirs``."""
    both = np.outer(mine, theirs) * pairs
    return float((both * matrix).sum() / both.sum())


def range_ev_grid(matrix: FloatArray, pairs: IntArray, ranking: IntArray) -> FloatArray:
    """``EV(p, o)`` for p and o on :data:`RANGE_GRID`."""
    weights = np.array([range_weights(ranking, x) for x in RANGE_GRID])
    numerator = weights @ (pairs * matrix) @ weights.T
    denominator = weights @ pairs @ weights.T
    result: FloatArray = numerator / denominator
    return result


def flop_connect_grid(per_class: FloatArray, ranking: IntArray) -> FloatArray:
    """Per range level on :data:`RANGE_GRID`, the combo-weighted average of ``per_class``."""
    rows = []
    for x in RANGE_GRID:
        combos = range_weights(ranking, x) * CLASS_SIZES
        rows.append(combos @ per_class / combos.sum())
    return np.array(rows)


def buckets_of(ranking: IntArray) -> IntArray:
    """PLICAS-style bucket (1..8) of every class; see the module text."""
    buckets = np.full(NUM_CLASSES, UNPLAYABLE, dtype=np.int64)
    first = [parse_class(name) for name in BUCKET_ONE]
    buckets[first] = 1
    counted = float(CLASS_SIZES[first].sum())
    for k in ranking:
        if buckets[k] == 1:
            continue
        middle = counted + CLASS_SIZES[k] / 2
        counted += CLASS_SIZES[k]
        for bucket, bound in enumerate(BUCKET_BOUNDS, start=2):
            if middle <= bound:
                buckets[k] = bucket
                break
    return buckets
