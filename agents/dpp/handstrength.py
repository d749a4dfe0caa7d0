"""Hand strength as exact integers, for the HULHE card abstraction (numba).

All values count against every opponent hole pair that shares no card with the hand or the
board (990 on the river), and use the engine's seven-card evaluator
(:func:`acpcbot.handeval.evaluator.rank7`):

* river: ``2 * wins + ties`` — hand strength HS times 1980;
* turn: the sum over the 46 river cards of the river value squared — E[HS²] up to a
  constant factor;
* flop: the sum over the 47 · 46 ordered (turn, river) pairs of the river value squared.

Being integers, they are the same whichever way they are computed: one hand at a time
(:func:`river_value`, :func:`turn_value`, :func:`flop_value`, what an agent does) or every
hole pair of a board at once (:func:`board_river_values`, what the table builder does), so
a bucket computed at the table never disagrees with one computed in the training tables.

This module imports numba.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from acpcbot.handeval.combos import COMBO_CARDS
from acpcbot.handeval.evaluator import rank7
from acpcbot.handeval.holdings import SweepSpace, showdown_sweep
from acpcbot.handeval.jitcache import cache_enabled

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

NUM_COMBOS = 1326
RIVER_OPPONENTS = 990
"""Opponent hole pairs on the river: C(45, 2)."""
MAX_RIVER_VALUE = 2 * RIVER_OPPONENTS


@njit(cache=CACHE)
def _mask(cards):  # type: ignore[no-untyped-def]
    used = 0
    for c in cards:
        used |= 1 << c
    return used


@njit(cache=CACHE)
def card_pairs(used):  # type: ignore[no-untyped-def]
    """Every unordered pair of cards outside the bit mask ``used`` (at least 3 cards used):
    opponent holes, or (turn, river) runouts."""
    pairs = np.empty((1176, 2), dtype=np.int64)  # C(49, 2)
    n = 0
    for c in range(52):
        if used >> c & 1:
            continue
        for d in range(c + 1, 52):
            if not used >> d & 1:
                pairs[n, 0] = c
                pairs[n, 1] = d
                n += 1
    return pairs[:n]


@njit(cache=CACHE)
def river_value(h0, h1, board):  # type: ignore[no-untyped-def]
    """``2 * wins + ties`` of hole ``h0 h1`` on the five-card ``board``."""
    b0, b1, b2, b3, b4 = board[0], board[1], board[2], board[3], board[4]
    mine = rank7(b0, b1, b2, b3, b4, h0, h1)
    value = 0
    for c, d in card_pairs(_mask(board) | (1 << h0) | (1 << h1)):
        theirs = rank7(b0, b1, b2, b3, b4, c, d)
        if mine > theirs:
            value += 2
        elif mine == theirs:
            value += 1
    return value


@njit(cache=CACHE)
def turn_value(h0, h1, board):  # type: ignore[no-untyped-def]
    """Sum over river cards of :func:`river_value` squared; ``board`` has four cards."""
    used = _mask(board) | (1 << h0) | (1 << h1)
    full = np.empty(5, dtype=np.int64)
    full[:4] = board[:4]
    total = 0
    for r in range(52):
        if used >> r & 1:
            continue
        full[4] = r
        v = river_value(h0, h1, full)
        total += v * v
    return total


@njit(cache=CACHE)
def flop_value(h0, h1, board):  # type: ignore[no-untyped-def]
    """Sum over ordered (turn, river) pairs of :func:`river_value` squared (slow: for
    checks; agents read flop buckets from a table)."""
    full = np.empty(5, dtype=np.int64)
    full[:3] = board[:3]
    total = 0
    for t, r in card_pairs(_mask(board) | (1 << h0) | (1 << h1)):
        full[3] = t
        full[4] = r
        v = river_value(h0, h1, full)
        total += 2 * v * v
    return total


@njit(cache=CACHE)
def board_river_values(board, values, ranks):  # type: ignore[no-untyped-def]
    """:func:`river_value` of every combo on the five-card ``board`` at once.

    ``values[combo]`` gets the value (``-1`` where the combo shares a card with the board)
    and ``ranks[combo]`` the hand's evaluator value. One sort of the 1081 live combos and a
    sweep with per-card counts replace the 990 comparisons per combo.
    """
    used = _mask(board)
    b0, b1, b2, b3, b4 = board[0], board[1], board[2], board[3], board[4]
    live = np.empty(NUM_COMBOS, dtype=np.int64)
    n = 0
    for k in range(NUM_COMBOS):
        c, d = COMBO_CARDS[k, 0], COMBO_CARDS[k, 1]
        if (used >> c & 1) or (used >> d & 1):
            values[k] = -1
            ranks[k] = -1
            continue
        ranks[k] = rank7(b0, b1, b2, b3, b4, c, d)
        live[n] = k
        n += 1
    live = live[:n]
    order = live[np.argsort(ranks[live])]
    below = 0  # live combos ranked below the current group
    card_below = np.zeros(52, dtype=np.int64)
    card_equal = np.zeros(52, dtype=np.int64)
    start = 0
    while start < n:
        end = start
        rank = ranks[order[start]]
        while end < n and ranks[order[end]] == rank:
            k = order[end]
            card_equal[COMBO_CARDS[k, 0]] += 1
            card_equal[COMBO_CARDS[k, 1]] += 1
            end += 1
        size = end - start
        for i in range(start, end):
            k = order[i]
            c, d = COMBO_CARDS[k, 0], COMBO_CARDS[k, 1]
            wins = below - card_below[c] - card_below[d]
            ties = size - card_equal[c] - card_equal[d] + 1  # +1: this combo shares both
            values[k] = 2 * wins + ties
        for i in range(start, end):
            k = order[i]
            c, d = COMBO_CARDS[k, 0], COMBO_CARDS[k, 1]
            card_below[c] += 1
            card_below[d] += 1
            card_equal[c] = 0
            card_equal[d] = 0
        below += size
        start = end


@njit(cache=CACHE)
def _turn_values(board, values, order, start, card_below, card_equal):  # type: ignore[no-untyped-def]  # noqa: PLR0917
    used = _mask(board[:4])
    b0, b1, b2, b3 = board[0], board[1], board[2], board[3]
    live = np.empty(NUM_COMBOS, dtype=np.int64)
    n_live = 0
    for k in range(NUM_COMBOS):
        hole = (1 << COMBO_CARDS[k, 0]) | (1 << COMBO_CARDS[k, 1])
        if hole & used:
            values[k] = -1
        else:
            values[k] = 0
            live[n_live] = k
            n_live += 1
    on_board = np.empty(NUM_COMBOS, dtype=np.int64)
    rank = np.empty(NUM_COMBOS, dtype=np.int64)
    cards = np.empty((NUM_COMBOS, 2), dtype=np.int64)
    wins = np.empty(NUM_COMBOS, dtype=np.int64)
    ties = np.empty(NUM_COMBOS, dtype=np.int64)
    for r in range(52):
        if used >> r & 1:
            continue
        n = 0
        for i in range(n_live):
            k = live[i]
            c, d = COMBO_CARDS[k, 0], COMBO_CARDS[k, 1]
            if ((1 << c) | (1 << d)) >> r & 1:
                continue
            on_board[n] = k
            rank[n] = rank7(b0, b1, b2, b3, r, c, d)
            cards[n, 0] = c
            cards[n, 1] = d
            n += 1
        showdown_sweep(rank, cards, n, wins, ties, order, start, card_below, card_equal)
        for i in range(n):
            v = 2 * wins[i] + ties[i]  # river_value
            values[on_board[i]] += v * v


def board_turn_values(board: npt.NDArray[np.int64], values: npt.NDArray[np.int64]) -> None:
    """:func:`turn_value` of every combo on the four-card ``board`` at once (``-1`` where
    the combo meets the board): for each river, every combo's :func:`river_value` from one
    sweep of the river's combos in order of value
    (:func:`acpcbot.handeval.holdings.showdown_sweep`), squared and summed."""
    space = SweepSpace()
    _turn_values(board, values, space.order, space.start, space.card_below, space.card_equal)
