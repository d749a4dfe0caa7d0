"""Weight tables: a distribution over the 1326 holdings a player may have (Loki-2 §4).

A :class:`WeightTable` holds one weight per two-card combo (indexed as in
:mod:`acpcbot.handeval.combos`). It starts uniform, loses the combos that meet a card known
to be elsewhere (ours, the board's), and after each of the player's actions is multiplied by
that action's likelihood for every holding: Bayes' rule, Saund's eq. 4,

    p(holding | action) ∝ p(action | holding) · p(holding),

the likelihood coming from a triple generator run for every holding (Loki-2: "the Triple
Generator is called for each possible two-card hand"; :mod:`agents.common.betpolicy` is
Saund's factored one). Only relative sizes matter until :meth:`WeightTable.normalise` turns
them into probabilities. PLICAS, ``loki2``, the ``infogain`` report and anything else that
tracks a range use this one table.

The board machinery every reader needs lives here too: the value of every holding on a board
(:func:`holding_values`), its chance to improve (:func:`holding_potentials`), their
*effective strength* and order (:func:`board_ranking`, cached per board) and each holding's
place within a weighted range (:func:`percentiles`).

Loki-2's own example: a weight of 0.7 for a holding and a call the holding would make with
probability 0.2 leave 0.14.

>>> from acpcbot.cards import parse_cards
>>> from acpcbot.handeval.combos import combo_index
>>> table = WeightTable()
>>> table.remove(parse_cards("2c7d"))
>>> aces = combo_index(*parse_cards("AsAh"))
>>> table.weights[aces] = 0.7
>>> likelihood = np.full(NUM_COMBOS, 0.5); likelihood[aces] = 0.2
>>> table.multiply(likelihood)
>>> round(float(table.weights[aces]), 2), int(table.live())
(0.14, 1225)
>>> round(float(table.normalise().sum()), 12)
1.0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from acpcbot.cards import Card
from acpcbot.handeval.combos import COMBO_CARDS, COMBO_CLASS, COMBOS_WITH_CARD, NUM_COMBOS
from acpcbot.handeval.evaluator import rank5, rank6, rank7
from acpcbot.handeval.jitcache import cache_enabled
from agents.common.tables import preflop_equity

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

__all__ = [
    "COMBOS_WITH_CARD",
    "BoardRanking",
    "WeightTable",
    "board_ranking",
    "holding_potentials",
    "holding_strengths",
    "holding_values",
    "ordered_percentiles",
    "percentiles",
    "potential",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


class WeightTable:
    """One player's weights over the 1326 holdings, for the current hand.

    The general operations are all it has: :meth:`reset` (uniform), :meth:`remove` (dead
    cards get weight 0 and keep it), :meth:`multiply` (by a likelihood per holding) and
    :meth:`normalise` (to probabilities). :attr:`weights` is the array itself.
    """

    def __init__(self) -> None:
        self.weights = np.ones(NUM_COMBOS)
        self._dead: set[Card] = set()

    def reset(self, dead: Iterable[Card] = ()) -> None:
        """A new hand: every holding equally likely, except those meeting ``dead`` cards."""
        self.weights = np.ones(NUM_COMBOS)
        self._dead = set()
        self.remove(dead)

    def remove(self, cards: Iterable[Card]) -> None:
        """Cards the player cannot hold (ours, the board's): weight 0 from now on."""
        for card in cards:
            self._dead.add(card)
            self.weights[COMBOS_WITH_CARD[card]] = 0.0

    @property
    def dead(self) -> frozenset[Card]:
        """The cards removed so far this hand."""
        return frozenset(self._dead)

    def live(self) -> int:
        """Holdings with a positive weight."""
        return int(np.count_nonzero(self.weights))

    def multiply(self, likelihood: FloatArray) -> None:
        """Bayes' rule without the normaliser: each weight times its holding's likelihood of
        what was observed (1326 non-negative numbers)."""
        self.weights *= likelihood

    def normalise(self) -> FloatArray:
        """Scale the weights to sum to 1 and return them. A table that every observation
        has ruled out (all zero) starts over from uniform on the live cards rather than
        divide by nothing."""
        total = float(self.weights.sum())
        if total <= 0.0:
            self.reset(tuple(self._dead))
            total = float(self.weights.sum())
        self.weights /= total
        return self.weights


@njit(cache=CACHE)
def holding_values(board: IntArray, combos: IntArray) -> IntArray:  # pragma: no cover - numba
    """Value of every combo with the 3-5 board cards; 0 for combos that use a board card."""
    out = np.zeros(len(combos), dtype=np.int64)
    used = np.zeros(52, dtype=np.bool_)
    for c in board:
        used[c] = True
    n = len(board)
    for i in range(len(combos)):
        a, b = combos[i, 0], combos[i, 1]
        if used[a] or used[b]:
            continue
        if n == 3:
            out[i] = rank5(a, b, board[0], board[1], board[2])
        elif n == 4:
            out[i] = rank6(a, b, board[0], board[1], board[2], board[3])
        else:
            out[i] = rank7(a, b, board[0], board[1], board[2], board[3], board[4])
    return out


@njit(cache=CACHE, inline="always")
def _potential(
    a: int, b: int, n: int, board_suits: IntArray, board_ranks: int
) -> float:  # pragma: no cover - numba
    """:func:`potential` from the board's suit counts and rank bits."""
    if n >= 5:
        return 0.0
    unseen = 52 - n - 2
    outs = 0
    for suit in range(4):
        own = (a & 3 == suit) + (b & 3 == suit)
        if own > 0 and board_suits[suit] + own == 4:
            outs += 9
    # Bit r + 1 stands for rank r; bit 0 for the ace played low.
    hole_ranks = (2 << (a >> 2)) | (2 << (b >> 2))
    ranks = (board_ranks << 1) | hole_ranks
    if ranks & (1 << 13):
        ranks |= 1
    if hole_ranks & (1 << 13):
        hole_ranks |= 1
    completing = 0  # ranks that would complete a straight the hole cards take part in
    for low in range(10):
        window = 0x1F << low
        have = ranks & window
        count = 0
        for bit in range(low, low + 5):
            count += (have >> bit) & 1
        if count == 5:
            completing = 0
            break
        if count == 4 and hole_ranks & window:
            completing |= window & ~have
    if completing & 1:  # the low ace and the high ace are one rank
        completing = (completing & ~1) | (1 << 13)
    kinds = 0
    while completing:
        kinds += completing & 1
        completing >>= 1
    outs += 8 if kinds >= 2 else 4 * kinds
    outs = min(outs, 15)
    if n == 3:
        return 1.0 - (1.0 - outs / unseen) * (1.0 - outs / (unseen - 1))
    return outs / unseen


@njit(cache=CACHE)
def potential(a: int, b: int, board: IntArray) -> float:  # pragma: no cover - numba
    """One holding's chance to improve on the cards to come (flop or turn board): a flush
    draw (9 outs), an open-ended straight draw (8) or a gutshot (4), counted together up to
    15 outs, as the chance that one of the next one or two cards is an out; 0 on the river.
    The holding must not use a board card."""
    board_suits = np.zeros(4, dtype=np.int64)
    board_ranks = 0
    for c in board:
        board_suits[c & 3] += 1
        board_ranks |= 1 << (c >> 2)
    return _potential(a, b, len(board), board_suits, board_ranks)


@njit(cache=CACHE)
def holding_potentials(board: IntArray, combos: IntArray) -> FloatArray:  # pragma: no cover
    """:func:`potential` of every combo on a flop or turn board; 0 on the river and for
    combos that use a board card."""
    out = np.zeros(len(combos))
    n = len(board)
    if n >= 5:
        return out
    used = np.zeros(52, dtype=np.bool_)
    board_suits = np.zeros(4, dtype=np.int64)
    board_ranks = 0
    for c in board:
        used[c] = True
        board_suits[c & 3] += 1
        board_ranks |= 1 << (c >> 2)
    for i in range(len(combos)):
        a, b = combos[i, 0], combos[i, 1]
        if used[a] or used[b]:
            continue
        out[i] = _potential(a, b, n, board_suits, board_ranks)
    return out


def percentiles(values: npt.NDArray[Any], weights: FloatArray) -> FloatArray:
    """Each combo's place in the weighted range, 0 (weakest) to 1 (strongest): the weight
    below it plus half the weight tied with it, over the total.

    >>> percentiles(np.array([5, 1, 3, 3, 9]), np.array([1.0, 1.0, 1.0, 1.0, 0.0])).tolist()
    [0.875, 0.125, 0.5, 0.5, 1.0]
    """
    return ordered_percentiles(np.argsort(values), values, weights)


@njit(cache=CACHE)
def ordered_percentiles(
    order: IntArray, values: npt.NDArray[Any], weights: FloatArray
) -> FloatArray:  # pragma: no cover - numba
    """:func:`percentiles` with ``order`` (``argsort(values)``) already known."""
    total = weights.sum()
    out = np.zeros(len(values))
    if total <= 0:
        return out
    below = 0.0
    i = 0
    n = len(values)
    while i < n:
        j = i
        tied = 0.0
        while j < n and values[order[j]] == values[order[i]]:
            tied += weights[order[j]]
            j += 1
        middle = (below + tied / 2) / total
        for k in range(i, j):
            out[order[k]] = middle
        below += tied
        i = j
    return out


@dataclass(frozen=True, slots=True, eq=False)
class BoardRanking:
    """Every combo on one board: hand values, effective strengths and their order."""

    values: IntArray
    """Hand value with the board (0: the combo uses a board card)."""
    strengths: FloatArray
    """Effective strength: the hand's place among all live combos now (ties half), raised
    by its chance to improve (draws count as the strong hands they may become),
    ``hs + (1 - hs) * potential``; 0 for dead combos."""
    order: IntArray
    """``argsort(strengths)``."""

    def percentiles(self, weights: FloatArray) -> FloatArray:
        """Each combo's place by strength in the range ``weights``."""
        return ordered_percentiles(self.order, self.strengths, weights)


@lru_cache(maxsize=32)
def board_ranking(board: tuple[Card, ...]) -> BoardRanking:
    """The :class:`BoardRanking` of a 3-5 card board (cached: a street's decisions share
    it)."""
    cards = np.asarray(board, dtype=np.int64)
    values = holding_values(cards, COMBO_CARDS)
    live = (values > 0).astype(np.float64)
    hs = percentiles(values, live)
    strengths = (hs + (1.0 - hs) * holding_potentials(cards, COMBO_CARDS)) * live
    for array in (values, strengths):
        array.setflags(write=False)
    return BoardRanking(values, strengths, np.argsort(strengths))


@lru_cache(maxsize=1)
def _preflop_strengths() -> FloatArray:
    strengths: FloatArray = preflop_equity()[COMBO_CLASS]
    strengths.setflags(write=False)
    return strengths


def holding_strengths(board: Sequence[Card]) -> FloatArray:
    """Every holding's strength on ``board``, the win probability a betting policy reads:
    before the flop its class's equity against a random hand, after it the effective
    strength of :func:`board_ranking` (0 for holdings that use a board card).

    >>> from acpcbot.cards import parse_cards
    >>> from acpcbot.handeval.combos import combo_index
    >>> aces = combo_index(*parse_cards("AsAh"))
    >>> round(float(holding_strengths(())[aces]), 3)
    0.852
    >>> float(holding_strengths(parse_cards("AsKd2c7h9d"))[aces])  # uses a board card
    0.0
    """
    if not board:
        return _preflop_strengths()
    return board_ranking(tuple(board)).strengths
