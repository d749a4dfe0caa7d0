"""The numba kernels of the information-gain report: who wins between two weighted ranges.

For a complete five-card board, :func:`runout_values` gives every holding's hand value (0
for a holding that uses a board card) and :func:`range_share` the chance that the first
player's range beats the second's: ``Σ w0(l0) w1(l1) ([v0 > v1] + ½ [v0 = v1])`` over the
pairs of holdings that share no card, over ``Σ w0(l0) w1(l1)`` over the same pairs. One
sweep over the holdings in value order does it: the weight below a value and the weight
tied with it, less what meets either of the first player's cards (per-card sums, plus the
holding itself, counted twice), card removal exact. A street's boards are completed by
every runout (or a sample of them, :func:`runouts`) and the shares summed.

This module imports numba.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from acpcbot.handeval.evaluator import CARD_BIT, CARD_KEY, KEY_BASE, value_of_key
from acpcbot.handeval.jitcache import cache_enabled

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

__all__ = ["range_share", "runout_values", "runouts_share"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

_MOST_VALUE = 7462
"""A royal flush: the highest hand value."""


@njit(cache=CACHE)
def runout_values(
    boards: IntArray, combo_cards: IntArray
) -> tuple[IntArray, IntArray, npt.NDArray[np.int8]]:  # pragma: no cover - numba
    """For each five-card board (a row of ``boards``), the holdings in increasing order of
    their value on it: the values (0 for a holding that uses a board card, first), the
    holdings' indices and their two cards."""
    values = np.zeros((len(boards), len(combo_cards)), np.int64)
    orders = np.empty((len(boards), len(combo_cards)), np.int64)
    cards = np.empty((len(boards), len(combo_cards), 2), np.int8)
    counts = np.zeros(_MOST_VALUE + 2, np.int64)
    unsorted = np.zeros(len(combo_cards), np.int64)
    for r in range(len(boards)):
        key = KEY_BASE
        bits = 0
        used = 0
        for c in boards[r]:
            key += CARD_KEY[c]
            bits |= CARD_BIT[c]
            used |= 1 << c
        for i in range(len(combo_cards)):
            a, b = combo_cards[i, 0], combo_cards[i, 1]
            if (used >> a) & 1 or (used >> b) & 1:
                unsorted[i] = 0
                continue
            own = key + CARD_KEY[a] + CARD_KEY[b]
            unsorted[i] = value_of_key(own, bits | CARD_BIT[a] | CARD_BIT[b])
        _order_by_value(unsorted, counts, orders[r])
        for k in range(len(combo_cards)):
            h = orders[r, k]
            values[r, k] = unsorted[h]
            cards[r, k, 0] = combo_cards[h, 0]
            cards[r, k, 1] = combo_cards[h, 1]
    return values, orders, cards


@njit(cache=CACHE)
def _order_by_value(
    values: IntArray, counts: IntArray, out: IntArray
) -> None:  # pragma: no cover - numba
    """``out``: the indices of ``values`` (0..7462) in increasing order of value (a counting
    sort: much faster than a comparison sort for 1326 small integers)."""
    counts[:] = 0
    for v in values:
        counts[v + 1] += 1
    for v in range(1, len(counts)):
        counts[v] += counts[v - 1]
    for i in range(len(values)):
        v = values[i]
        out[counts[v]] = i
        counts[v] += 1


@njit(cache=CACHE)
def range_share(
    values: IntArray,
    order: IntArray,
    cards: npt.NDArray[np.int8],
    w0: FloatArray,
    w1: FloatArray,
) -> tuple[float, float]:  # pragma: no cover - numba
    """``(won, pairs)`` on one board (one row of :func:`runout_values`): the weight of
    disjoint pairs of live holdings the first range wins (ties half), and of all of
    them."""
    n = len(values)
    start = 0
    while start < n and values[start] == 0:
        start += 1
    x1 = np.empty(n)
    total = 0.0
    per_card = np.zeros(52)
    for k in range(start, n):
        x = w1[order[k]]
        x1[k] = x
        total += x
        per_card[cards[k, 0]] += x
        per_card[cards[k, 1]] += x
    below = 0.0
    below_card = np.zeros(52)
    tie_card = np.zeros(52)
    won = 0.0
    pairs = 0.0
    i = start
    while i < n:
        v = values[i]
        j = i
        tie = 0.0
        while j < n and values[j] == v:
            x = x1[j]
            tie += x
            tie_card[cards[j, 0]] += x
            tie_card[cards[j, 1]] += x
            j += 1
        for k in range(i, j):
            y = w0[order[k]]
            if y > 0.0:
                a, b = cards[k, 0], cards[k, 1]
                x = x1[k]
                beaten = below - below_card[a] - below_card[b]
                tied = tie - tie_card[a] - tie_card[b] + x
                won += y * (beaten + 0.5 * tied)
                pairs += y * (total - per_card[a] - per_card[b] + x)
        for k in range(i, j):
            x = x1[k]
            a, b = cards[k, 0], cards[k, 1]
            below += x
            below_card[a] += x
            below_card[b] += x
            tie_card[a] -= x
            tie_card[b] -= x
        i = j
    return won, pairs


@njit(cache=CACHE)
def runouts_share(
    values: IntArray,
    orders: IntArray,
    cards: npt.NDArray[np.int8],
    w0: FloatArray,
    w1: FloatArray,
) -> float:  # pragma: no cover - numba
    """The first range's chance to win over every board of :func:`runout_values` (0.5 when
    no pair of holdings is possible)."""
    won = 0.0
    pairs = 0.0
    for r in range(len(values)):
        a, b = range_share(values[r], orders[r], cards[r], w0, w1)
        won += a
        pairs += b
    return won / pairs if pairs > 0.0 else 0.5
