"""Every holding's bucket on a board: what the exploitation unit's action model conditions on.

An opponent's strategy is read as a function of the betting and of how strong its hand is;
*how strong* is a bucket of its holding, computed for all 1326 holdings at once:

* **preflop** — the holding's starting-hand class (169 fine buckets), grouped for the coarse
  levels into :data:`COARSE` buckets of equal mass by equity against a random hand;
* **flop, turn, river** — E[HS²], the expected square of the river hand strength against a
  uniformly random holding over the cards to come (HS² on the river), cut into
  :data:`FINE` bins of equal width; :data:`COARSE` coarse buckets join neighbouring bins.
  E[HS²] is the standard hand-strength feature of card abstractions (Johanson et al.): it
  ranks made hands by strength and counts a draw as the strong hand it may become. The bins
  are absolute (the same value falls in the same bin on every board), as an opponent's own
  reading of its hand is.

The flop's values come from a table shipped in ``agents/data/`` (one row per flop up to
renaming suits, built by ``scripts/build_flop_squares.py``); the turn's and the river's are
computed (the turn's cost: docs/agents/plicas.md, "Speed") and kept for the boards of the
last hands.

>>> from acpcbot.cards import parse_cards
>>> from acpcbot.handeval.combos import combo_index
>>> buckets = fine_buckets(parse_cards("AhKd2c"))
>>> int(buckets[combo_index(*parse_cards("AsAc"))]), int(buckets[combo_index(*parse_cards("7s3d"))])
(18, 2)
>>> int(buckets[combo_index(*parse_cards("Ah5s"))])  # meets a board card: dead
-1
>>> int(fine_buckets(())[combo_index(*parse_cards("AsAc"))]) == parse_class_index("AA")
True
>>> coarse_map(1)[[0, 19]].tolist(), int(coarse_map(0)[parse_class_index("AA")])
([0, 9], 9)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from acpcbot.cards import Card
from acpcbot.handeval.combos import (
    CLASS_SIZES,
    COMBO_CARDS,
    COMBO_CLASS,
    NUM_CLASSES,
    NUM_COMBOS,
    PERMUTED_COMBOS,
    canonical_board,
    parse_class,
)
from agents.common.manifest import DATA_DIR
from agents.common.weights import COMBOS_WITH_CARD, ordered_percentiles

__all__ = [
    "COARSE",
    "FINE",
    "FLOP_SQUARES_FILE",
    "coarse_map",
    "fine_bucket",
    "fine_buckets",
    "fine_count",
    "flop_squares",
    "parse_class_index",
    "squared_strengths",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

FINE = 20
"""Fine buckets after the flop: E[HS²] bins of width 1/20."""
COARSE = 10
"""Coarse buckets in every round (the fine ones joined)."""
FLOP_SQUARES_FILE = "plicas-flop-squares.npz"
"""The flop table: ``flops`` (1755 × 3 cards, each flop's least renaming) and ``squares``
(1755 × 1326, E[HS²] × 255 rounded, 0 for holdings that meet the flop)."""
_SCALE = 255


def parse_class_index(name: str) -> int:
    """The fine preflop bucket of a starting-hand class (its index)."""
    return parse_class(name)


@cache
def _preflop() -> tuple[IntArray, IntArray]:
    from agents.common.tables import preflop_equity  # a table file: read when first used

    equity = preflop_equity()
    order = np.argsort(equity, kind="stable")
    place = ordered_percentiles(order, equity, CLASS_SIZES.astype(np.float64))
    coarse = np.minimum(COARSE - 1, (place * COARSE).astype(np.int64))
    fine = COMBO_CLASS.astype(np.int64)
    for array in (fine, coarse):
        array.setflags(write=False)
    return fine, coarse


@cache
def _postflop_coarse() -> IntArray:
    coarse = (np.arange(FINE) * COARSE) // FINE
    coarse.setflags(write=False)
    return coarse


def coarse_map(round_: int) -> IntArray:
    """``[fine bucket]``: its coarse bucket in ``round_``."""
    return _preflop()[1] if round_ == 0 else _postflop_coarse()


def fine_count(round_: int) -> int:
    """Fine buckets in ``round_``."""
    return NUM_CLASSES if round_ == 0 else FINE


@cache
def flop_squares() -> tuple[dict[tuple[int, ...], int], npt.NDArray[np.uint8]]:
    """The shipped flop table: each flop class's row, and the rows."""
    with np.load(DATA_DIR / FLOP_SQUARES_FILE, allow_pickle=False) as data:
        flops = data["flops"].astype(np.int64)
        squares = np.asarray(data["squares"], dtype=np.uint8)
    rows = {tuple(int(c) for c in flop): i for i, flop in enumerate(flops)}
    squares.setflags(write=False)
    return rows, squares


def squared_strengths(board: Sequence[Card]) -> FloatArray:
    """E[HS²] of every holding on a 3-5 card board (0 where it meets a board card); on the
    flop read from the shipped table, to 1/255."""
    if len(board) == 3:
        canonical, permutation = canonical_board(board)
        rows, squares = flop_squares()
        row = squares[rows[canonical]]
        values: FloatArray = row[PERMUTED_COMBOS[permutation]].astype(np.float64) / _SCALE
        return values
    from acpcbot.handeval.holdings import holdings_squared_strength  # numba: when first used

    return holdings_squared_strength(board)


_KEPT = 32
"""Boards whose buckets are kept, the most recently used (a hand's three, and the boards of
the hands before it)."""
_KEPT_BUCKETS: OrderedDict[tuple[Card, ...], IntArray] = OrderedDict()


def _board_buckets(board: tuple[Card, ...]) -> IntArray:
    kept = _KEPT_BUCKETS.get(board)
    if kept is not None:
        _KEPT_BUCKETS.move_to_end(board)
        return kept
    squares = squared_strengths(board)
    dead = np.zeros(NUM_COMBOS, dtype=np.bool_)
    for card in board:
        dead[COMBOS_WITH_CARD[card]] = True
    buckets = np.where(dead, -1, np.minimum(FINE - 1, (squares * FINE).astype(np.int64)))
    buckets.setflags(write=False)
    _KEPT_BUCKETS[board] = buckets
    if len(_KEPT_BUCKETS) > _KEPT:
        _KEPT_BUCKETS.popitem(last=False)
    return buckets


def fine_buckets(board: Sequence[Card]) -> IntArray:
    """Every holding's fine bucket with ``board`` visible (-1: it meets a board card)."""
    if not board:
        return _preflop()[0]
    return _board_buckets(tuple(board))


def fine_bucket(board: Sequence[Card], holding: int) -> int:
    """``fine_buckets(board)[holding]``, the same number: on a turn or river whose buckets
    are not kept, from the one holding's E[HS²] rather than every holding's (a turn's
    sweep of all 1326 is most of what they cost)."""
    key = tuple(board)
    if len(key) < 4 or key in _KEPT_BUCKETS:
        return int(fine_buckets(key)[holding])
    cards = COMBO_CARDS[holding]
    if int(cards[0]) in key or int(cards[1]) in key:
        return -1
    from acpcbot.handeval.holdings import holding_squared_strength  # numba: when first used

    square = holding_squared_strength((int(cards[0]), int(cards[1])), key)
    return min(FINE - 1, int(square * FINE))
