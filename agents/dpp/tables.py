"""Building the HULHE abstraction's tables by exhaustive enumeration (numba; minutes).

Everything is counted exactly, in integers, over every deal the tables describe, so the
build is deterministic (and independent of the order threads add things up):

1. River: every canonical five-card board (134,459 classes, weighted) gives the distribution
   of the river value (:mod:`agents.dpp.handstrength`) → :data:`LEVELS` percentile levels;
   the same boards give, for every pair of river levels, the sum of showdown results
   (+1 win, -1 loss) and the number of deals — the showdown table.
2. Flop and turn values: for every canonical flop (1755) and every unordered (turn, river)
   pair, the river values of all 1081 live hole pairs, squared, summed per turn card and in
   all → flop and turn values of every (flop, turn, hole) → percentile levels.
3. Transitions: the same walk again counts (preflop class, flop level), (flop level, turn
   level) and (turn level, river level) over every deal.

A *level* is the percentile of a value among all (hole, board) combinations of the round,
``floor(256 * P(V < v))``: ties share a level, and every power-of-two bucket count up to 256
is a grouping of consecutive levels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from acpcbot.handeval.combos import COMBO_CARDS, COMBO_CLASS, NUM_CLASSES
from acpcbot.handeval.jitcache import cache_enabled
from agents.dpp.handstrength import (
    MAX_RIVER_VALUE,
    NUM_COMBOS,
    board_river_values,
    card_pairs,
)
from agents.dpp.isomorphism import CanonicalFlops, canonical_boards
from agents.dpp.strategy import write_arrays

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

LEVELS = 256
"""Percentile levels per postflop round."""
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class FineTables:
    """Everything the abstraction needs, at :data:`LEVELS` levels per postflop round."""

    flop_levels: npt.NDArray[np.uint8]
    """``[canonical flop, combo]``: the flop level (0 where the combo meets the flop)."""
    breakpoints: IntArray
    """``[round - 1, k - 1]``: the least value of level ``k`` or more (flop, turn, river)."""
    class_to_flop: IntArray
    """``[preflop class, flop level]``: weighted count of deals."""
    flop_to_turn: IntArray
    turn_to_river: IntArray
    showdown_sum: IntArray
    """``[river level of position 0, of position 1]``: sum of results (+1/-1) for 0."""
    showdown_count: IntArray


def build_tables(progress: bool = False) -> FineTables:
    """Enumerate everything (a few minutes on two cores)."""

    def say(text: str) -> None:
        if progress:
            print(f"tables: {text}", flush=True)

    boards5, weights5 = canonical_boards(5)
    say(f"{len(boards5)} canonical rivers")
    histogram = _river_histogram(boards5, weights5, _chunks())
    river_breaks = breakpoints_of(np.arange(MAX_RIVER_VALUE + 1), histogram.sum(axis=0))
    river_level = levels_of(np.arange(MAX_RIVER_VALUE + 1), river_breaks).astype(np.int64)
    say("river levels done")
    total, count = _showdown(boards5, weights5, river_level, _chunks())
    upper_sum, upper_count = total.sum(axis=0), count.sum(axis=0)
    showdown_sum = upper_sum - upper_sum.T
    showdown_count = upper_count + upper_count.T
    say("showdown table done")

    flops = CanonicalFlops.build()
    flop_values = np.zeros((len(flops.boards), NUM_COMBOS), dtype=np.int64)
    turn_values = np.zeros((len(flops.boards), 52, NUM_COMBOS), dtype=np.int32)
    _flop_turn_values(flops.boards, flop_values, turn_values)
    say("flop and turn values done")
    flop_breaks = _weighted_breakpoints(flop_values, flop_values >= 0, flops.weights[:, None])
    live_turns = np.zeros(turn_values.shape, dtype=np.bool_)
    _mark_live_turns(flops.boards, live_turns)
    turn_breaks = _weighted_breakpoints(turn_values, live_turns, flops.weights[:, None, None])
    del live_turns
    say("flop and turn levels done")
    flop_levels = np.where(flop_values >= 0, levels_of(flop_values, flop_breaks), 0)
    class_to_flop = np.zeros((_chunks(), NUM_CLASSES, LEVELS), dtype=np.int64)
    flop_to_turn = np.zeros((_chunks(), LEVELS, LEVELS), dtype=np.int64)
    turn_to_river = np.zeros((_chunks(), LEVELS, LEVELS), dtype=np.int64)
    _transitions(
        flops.boards, flops.weights, flop_levels.astype(np.int64), turn_values, turn_breaks,
        river_level, class_to_flop, flop_to_turn, turn_to_river,
    )  # fmt: skip
    say("transitions done")
    return FineTables(
        flop_levels=flop_levels.astype(np.uint8),
        breakpoints=np.stack([flop_breaks, turn_breaks, river_breaks]),
        class_to_flop=class_to_flop.sum(axis=0),
        flop_to_turn=flop_to_turn.sum(axis=0),
        turn_to_river=turn_to_river.sum(axis=0),
        showdown_sum=showdown_sum,
        showdown_count=showdown_count,
    )


def breakpoints_of(values: IntArray, weights: IntArray) -> IntArray:
    """Least value of each level 1..255 for distinct sorted ``values`` with ``weights``;
    a level no value reaches gets the largest int64."""
    below = np.concatenate(([0], np.cumsum(weights)[:-1]))
    level = (below * LEVELS) // int(weights.sum())
    result = np.full(LEVELS - 1, np.iinfo(np.int64).max, dtype=np.int64)
    for k in range(LEVELS - 1, 0, -1):
        reached = np.flatnonzero(level >= k)
        if reached.size:
            result[k - 1] = values[reached[0]]
    return result


def levels_of(values: npt.ArrayLike, breakpoints: IntArray) -> IntArray:
    """The level of each value: how many breakpoints are at or below it."""
    return np.searchsorted(breakpoints, np.asarray(values), side="right").astype(np.int64)


def _weighted_breakpoints(
    values: npt.NDArray[np.integer], live: npt.NDArray[np.bool_], weights: IntArray
) -> IntArray:
    """Breakpoints of the ``live`` entries of ``values``, each weighted by ``weights``
    broadcast over them."""
    live_values = values[live]
    live_weights = np.broadcast_to(weights, values.shape)[live]
    distinct, inverse = np.unique(live_values, return_inverse=True)
    summed = np.bincount(inverse, weights=live_weights).astype(np.int64)
    return breakpoints_of(distinct.astype(np.int64), summed)


def _chunks() -> int:
    from numba import get_num_threads

    return int(4 * get_num_threads())


@njit(cache=CACHE)
def _mark_live_turns(boards, live):  # type: ignore[no-untyped-def]
    """``live[flop, turn, combo]``: the combo meets neither the flop nor the turn."""
    for f in range(boards.shape[0]):
        used = (1 << boards[f, 0]) | (1 << boards[f, 1]) | (1 << boards[f, 2])
        for t in range(52):
            if used >> t & 1:
                continue
            for k in range(NUM_COMBOS):
                hole = (1 << COMBO_CARDS[k, 0]) | (1 << COMBO_CARDS[k, 1])
                if not hole & (used | (1 << t)):
                    live[f, t, k] = True


@njit(cache=CACHE, parallel=True)
def _river_histogram(boards, weights, chunks):  # type: ignore[no-untyped-def]
    histogram = np.zeros((chunks, MAX_RIVER_VALUE + 1), dtype=np.int64)
    for chunk in prange(chunks):
        values = np.empty(NUM_COMBOS, dtype=np.int64)
        ranks = np.empty(NUM_COMBOS, dtype=np.int64)
        for b in range(chunk, boards.shape[0], chunks):
            board_river_values(boards[b], values, ranks)
            for k in range(NUM_COMBOS):
                if values[k] >= 0:
                    histogram[chunk, values[k]] += weights[b]
    return histogram


@njit(cache=CACHE, parallel=True)
def _showdown(boards, weights, river_level, chunks):  # type: ignore[no-untyped-def]
    total = np.zeros((chunks, LEVELS, LEVELS), dtype=np.int64)
    count = np.zeros((chunks, LEVELS, LEVELS), dtype=np.int64)
    for chunk in prange(chunks):
        values = np.empty(NUM_COMBOS, dtype=np.int64)
        ranks = np.empty(NUM_COMBOS, dtype=np.int64)
        live = np.empty(NUM_COMBOS, dtype=np.int64)
        for b in range(chunk, boards.shape[0], chunks):
            board_river_values(boards[b], values, ranks)
            w = weights[b]
            n = 0
            for k in range(NUM_COMBOS):
                if values[k] >= 0:
                    live[n] = k
                    n += 1
            for x in range(n):
                i = live[x]
                hole_i = (1 << COMBO_CARDS[i, 0]) | (1 << COMBO_CARDS[i, 1])
                li = river_level[values[i]]
                for y in range(x + 1, n):
                    j = live[y]
                    if hole_i & ((1 << COMBO_CARDS[j, 0]) | (1 << COMBO_CARDS[j, 1])):
                        continue
                    lj = river_level[values[j]]
                    count[chunk, li, lj] += w
                    if ranks[i] > ranks[j]:
                        total[chunk, li, lj] += w
                    elif ranks[i] < ranks[j]:
                        total[chunk, li, lj] -= w
    return total, count


@njit(cache=CACHE, parallel=True)
def _flop_turn_values(flops, flop_values, turn_values):  # type: ignore[no-untyped-def]
    for f in prange(flops.shape[0]):
        used = (1 << flops[f, 0]) | (1 << flops[f, 1]) | (1 << flops[f, 2])
        board = np.empty(5, dtype=np.int64)
        board[:3] = flops[f]
        values = np.empty(NUM_COMBOS, dtype=np.int64)
        ranks = np.empty(NUM_COMBOS, dtype=np.int64)
        for t, r in card_pairs(used):
            board[3] = t
            board[4] = r
            board_river_values(board, values, ranks)
            for k in range(NUM_COMBOS):
                v = values[k]
                if v >= 0:
                    turn_values[f, t, k] += v * v
                    turn_values[f, r, k] += v * v
        for k in range(NUM_COMBOS):
            c, d = COMBO_CARDS[k, 0], COMBO_CARDS[k, 1]
            if (used >> c & 1) or (used >> d & 1):
                flop_values[f, k] = -1
                continue
            total = 0
            for t in range(52):
                total += turn_values[f, t, k]
            flop_values[f, k] = total


@njit(cache=CACHE, parallel=True)
def _transitions(  # type: ignore[no-untyped-def]  # noqa: PLR0917
    flops,
    flop_weights,
    flop_levels,
    turn_values,
    turn_breaks,
    river_level,
    class_to_flop,
    flop_to_turn,
    turn_to_river,
):
    chunks = class_to_flop.shape[0]
    for chunk in prange(chunks):
        values = np.empty(NUM_COMBOS, dtype=np.int64)
        ranks = np.empty(NUM_COMBOS, dtype=np.int64)
        turn_level = np.empty((52, NUM_COMBOS), dtype=np.int64)
        board = np.empty(5, dtype=np.int64)
        for f in range(chunk, flops.shape[0], chunks):
            w = flop_weights[f]
            used = (1 << flops[f, 0]) | (1 << flops[f, 1]) | (1 << flops[f, 2])
            for k in range(NUM_COMBOS):
                c, d = COMBO_CARDS[k, 0], COMBO_CARDS[k, 1]
                if not ((used >> c & 1) or (used >> d & 1)):
                    class_to_flop[chunk, COMBO_CLASS[k], flop_levels[f, k]] += w
            for t in range(52):
                if used >> t & 1:
                    continue
                for k in range(NUM_COMBOS):
                    hole = (1 << COMBO_CARDS[k, 0]) | (1 << COMBO_CARDS[k, 1])
                    if hole & (used | (1 << t)):
                        turn_level[t, k] = -1
                        continue
                    level = np.searchsorted(turn_breaks, turn_values[f, t, k], side="right")
                    turn_level[t, k] = level
                    flop_to_turn[chunk, flop_levels[f, k], level] += w
            board[:3] = flops[f]
            for t, r in card_pairs(used):
                board[3] = t
                board[4] = r
                board_river_values(board, values, ranks)
                for k in range(NUM_COMBOS):
                    v = values[k]
                    if v >= 0:
                        level = river_level[v]
                        turn_to_river[chunk, turn_level[t, k], level] += w
                        turn_to_river[chunk, turn_level[r, k], level] += w


def save_tables(tables: FineTables, path: str) -> None:
    """Write the tables (an ``.npz`` file; a cache for the training script)."""
    from dataclasses import asdict

    write_arrays(path, dict(asdict(tables).items()))


def load_tables(path: str) -> FineTables:
    with np.load(path, allow_pickle=False) as data:
        return FineTables(**{name: data[name] for name in data.files})
