"""Exact enumeration kernels: every seven-card hand, and every board that completes a deal.

The loops add one card per level to running key sums (see :mod:`acpcbot.handeval.evaluator`),
so the innermost level costs one table lookup per player. A showdown's result is counted in
``counts[p, k]``: the boards on which player ``p`` is one of ``k`` players with the best hand
(``k = 1`` is an outright win); player ``p``'s equity is ``sum_k counts[p, k] / k`` over the
number of boards.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from acpcbot.handeval.evaluator import CARD_BIT, CARD_KEY, KEY_BASE, cards_state, value_of_key
from acpcbot.handeval.jitcache import cache_enabled

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@njit(cache=CACHE)
def seven_card_histogram() -> IntArray:
    """How many of the 133,784,560 seven-card hands have each value (index 0..7462)."""
    hist = np.zeros(7463, np.int64)
    for a in range(52):
        ka = KEY_BASE + CARD_KEY[a]
        ba = CARD_BIT[a]
        for b in range(a + 1, 52):
            kb = ka + CARD_KEY[b]
            bb = ba | CARD_BIT[b]
            for c in range(b + 1, 52):
                kc = kb + CARD_KEY[c]
                bc = bb | CARD_BIT[c]
                for d in range(c + 1, 52):
                    kd = kc + CARD_KEY[d]
                    bd = bc | CARD_BIT[d]
                    for e in range(d + 1, 52):
                        ke = kd + CARD_KEY[e]
                        be = bd | CARD_BIT[e]
                        for f in range(e + 1, 52):
                            kf = ke + CARD_KEY[f]
                            bf = be | CARD_BIT[f]
                            for g in range(f + 1, 52):
                                hist[value_of_key(kf + CARD_KEY[g], bf | CARD_BIT[g])] += 1
    return hist


@njit(cache=CACHE)
def _score(values: IntArray, counts: FloatArray, weight: float) -> None:
    best = values[0]
    for p in range(1, len(values)):
        best = max(best, values[p])
    winners = 0
    for p in range(len(values)):
        winners += values[p] == best
    for p in range(len(values)):
        if values[p] == best:
            counts[p, winners] += weight


@njit(cache=CACHE)
def deck_without(used: int) -> IntArray:
    """The cards whose bit ``1 << card`` is not set in ``used``, ascending."""
    deck = np.empty(52, np.int64)
    n = 0
    for card in range(52):
        if not (used >> card) & 1:
            deck[n] = card
            n += 1
    return deck[:n]


@njit(cache=CACHE)
def board_counts(holes: IntArray, board: IntArray, counts: FloatArray, weight: float) -> int:
    """Add ``weight`` to ``counts`` for every completion of ``board`` to five cards among the
    cards not in ``holes`` (``(P, 2)``) or ``board``; returns the number of completions."""
    players = len(holes)
    used, board_key, board_bits = cards_state(board)
    hole_key = np.empty(players, np.int64)
    hole_bits = np.empty(players, np.int64)
    for p in range(players):
        used |= (1 << holes[p, 0]) | (1 << holes[p, 1])
        hole_key[p] = CARD_KEY[holes[p, 0]] + CARD_KEY[holes[p, 1]]
        hole_bits[p] = CARD_BIT[holes[p, 0]] | CARD_BIT[holes[p, 1]]
    deck = deck_without(used)
    missing = 5 - len(board)
    # Levels beyond ``missing`` run once over a blank card (key 0, bit 0) past the deck's end.
    n = len(deck)
    keys = np.zeros(n + 5, np.int64)
    bits = np.zeros(n + 5, np.int64)
    for i in range(n):
        keys[i] = CARD_KEY[deck[i]]
        bits[i] = CARD_BIT[deck[i]]
    lo = np.empty(5, np.int64)
    hi = np.empty(5, np.int64)
    for level in range(5):
        lo[level] = n + level if level >= missing else level
        hi[level] = n + level + 1 if level >= missing else n - missing + level + 1
    values = np.empty(players, np.int64)
    total = first = second = tied = 0
    for i0 in range(lo[0], hi[0]):
        k0 = board_key + keys[i0]
        b0 = board_bits | bits[i0]
        for i1 in range(max(lo[1], i0 + 1), hi[1]):
            k1 = k0 + keys[i1]
            b1 = b0 | bits[i1]
            for i2 in range(max(lo[2], i1 + 1), hi[2]):
                k2 = k1 + keys[i2]
                b2 = b1 | bits[i2]
                for i3 in range(max(lo[3], i2 + 1), hi[3]):
                    k3 = k2 + keys[i3]
                    b3 = b2 | bits[i3]
                    for i4 in range(max(lo[4], i3 + 1), hi[4]):
                        k4 = k3 + keys[i4]
                        b4 = b3 | bits[i4]
                        if players == 2:  # the common case, without the general scoring
                            v0 = value_of_key(k4 + hole_key[0], b4 | hole_bits[0])
                            v1 = value_of_key(k4 + hole_key[1], b4 | hole_bits[1])
                            first += v0 > v1
                            second += v0 < v1
                            tied += v0 == v1
                        else:
                            for p in range(players):
                                values[p] = value_of_key(k4 + hole_key[p], b4 | hole_bits[p])
                            _score(values, counts, weight)
                        total += 1
    if players == 2:
        counts[0, 1] += first * weight
        counts[1, 1] += second * weight
        counts[0, 2] += tied * weight
        counts[1, 2] += tied * weight
    return total


@njit(cache=CACHE)
def range_counts(  # noqa: PLR0917  (numba kernels take positional arguments)
    holes: IntArray,
    seat: int,
    board: IntArray,
    weights: FloatArray,
    combo_cards: IntArray,
    counts: FloatArray,
) -> float:
    """:func:`board_counts` for every combo the player in ``seat`` may hold, weighted by
    ``weights`` (combos meeting a known card are skipped); returns the total weight."""
    known, _, _ = cards_state(board)
    for p in range(len(holes)):
        if p != seat:
            known |= (1 << holes[p, 0]) | (1 << holes[p, 1])
    hand = holes.copy()
    total = 0.0
    for i in range(len(combo_cards)):
        c0, c1 = combo_cards[i, 0], combo_cards[i, 1]
        if weights[i] <= 0.0 or (known >> c0) & 1 or (known >> c1) & 1:
            continue
        hand[seat, 0] = c0
        hand[seat, 1] = c1
        total += weights[i] * board_counts(hand, board, counts, weights[i])
    return total
