"""The opponent's weight table: 1326 hole-card combos, re-weighted after each of its actions.

Loki-2 §4 multiplies each combo's weight by the probability that the opponent takes the
action it took holding that combo; Saund's eq. 4 is the same Bayes update. The likelihood
comes from the opponent profile's frequencies in the action's context: within the current
weighted range the opponent is taken to fold its weakest ``f`` share, raise its strongest
``r`` share and call in between (soft edges), and to take any action regardless of its
cards :data:`NOISE` of the time (bluffs and slow plays). An opponent that always raises or
always calls therefore leaves its range as wide as it was.

Combo strength is the class's place in the preflop ranking before the flop and the hand's
value with the board after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from acpcbot.actions import ActionType
from acpcbot.cards import Card
from acpcbot.handeval.combos import COMBO_CARDS, NUM_COMBOS
from acpcbot.handeval.evaluator import rank5, rank6, rank7
from acpcbot.handeval.jitcache import cache_enabled
from agents.plicas.calibration import Calibration
from agents.plicas.model import OpponentAction, OpponentProfile
from agents.plicas.tables import PlicasTables

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

NOISE = 0.5
"""Share of the opponent's actions taken regardless of its cards (bluffs, slow plays, draws
played like made hands: the percentile is the hand's value now)."""
FLOOR = 0.01
"""No live combo falls below this share of the heaviest one: however a hand was played,
some chance remains that it was a bluff."""
SOFTNESS = 0.1
"""Width (in range percentile) of the edges between the fold, call and raise regions."""


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


@njit(cache=CACHE)
def holding_potentials(board: IntArray, combos: IntArray) -> FloatArray:  # pragma: no cover
    """Every combo's chance to improve on the cards to come (flop or turn board): a flush
    draw (9 outs), an open-ended straight draw (8) or a gutshot (4), counted together up to
    15 outs, as the chance that one of the next one or two cards is an out. 0 on the river
    and for combos that use a board card."""
    out = np.zeros(len(combos))
    n = len(board)
    if n >= 5:
        return out
    unseen = 52 - n - 2
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
            out[i] = 1.0 - (1.0 - outs / unseen) * (1.0 - outs / (unseen - 1))
        else:
            out[i] = outs / unseen
    return out


def percentiles(values: npt.NDArray[Any], weights: FloatArray) -> FloatArray:
    """Each combo's place in the weighted range, 0 (weakest) to 1 (strongest): the weight
    below it plus half the weight tied with it, over the total."""
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


def _edge(x: FloatArray, share: float) -> FloatArray:
    """1 where ``x < share``, 0 above, linear over a width of at most ``SOFTNESS``."""
    width = min(SOFTNESS, 2 * share)
    if width <= 0:
        return np.zeros_like(x)
    return np.clip((share - x) / width + 0.5, 0.0, 1.0)


def continuing(place: FloatArray, fold: float) -> FloatArray:
    """Share of each combo at ``place`` that stays in when the opponent folds its weakest
    ``fold`` share to a bet (the complement of the fold region of :func:`likelihood`)."""
    return 1.0 - _edge(place, fold)


def likelihood(
    place: FloatArray, response: tuple[float, float, float], action: ActionType
) -> FloatArray:
    """Probability of ``action`` for combos at ``place`` (percentile in the range), when the
    opponent folds / calls / raises with frequencies ``response``.

    >>> place = np.array([0.05, 0.5, 0.95])
    >>> likelihood(place, (0.2, 0.5, 0.3), ActionType.RAISE).round(3).tolist()
    [0.15, 0.15, 0.65]
    >>> likelihood(place, (0.0, 0.0, 1.0), ActionType.RAISE).tolist()  # always raises
    [1.0, 1.0, 1.0]
    """
    fold, call, raise_ = response
    folds = _edge(place, fold)
    raises = _edge(1.0 - place, raise_)
    overlap = folds + raises
    scale = np.where(overlap > 1.0, 1.0 / np.maximum(overlap, 1e-12), 1.0)
    folds, raises = folds * scale, raises * scale
    if action is ActionType.FOLD:
        pure, frequency = folds, fold
    elif action is ActionType.RAISE:
        pure, frequency = raises, raise_
    else:
        pure, frequency = 1.0 - folds - raises, call
    return (1.0 - NOISE) * pure + NOISE * frequency


class RangeWeights:
    """The opponent's weight table for the current hand."""

    def __init__(self, tables: PlicasTables) -> None:
        self.tables = tables
        self.weights = np.ones(NUM_COMBOS)
        self._dead: set[Card] = set()
        self.places: list[tuple[OpponentAction, FloatArray]] = []
        """This hand's opponent actions with every combo's percentile when it acted."""

    def reset(self, own_cards: Sequence[Card]) -> None:
        """A new hand: every combo the opponent can hold is equally likely."""
        self.weights = np.ones(NUM_COMBOS)
        self._dead = set()
        self.places = []
        self.remove(own_cards)

    def remove(self, cards: Sequence[Card]) -> None:
        """Cards the opponent cannot hold (ours, the board's)."""
        for card in cards:
            self._dead.add(card)
            self.weights[self.tables.combos_with_card[card]] = 0.0

    def percentiles(self, board: Sequence[Card]) -> FloatArray:
        """Every combo's place in the current range by strength on ``board`` (preflop, when
        it is empty: by the starting-hand ranking)."""
        if not board:
            return ordered_percentiles(
                self.tables.combo_order, self.tables.combo_score, self.weights
            )
        return board_ranking(tuple(board)).percentiles(self.weights)

    def update(
        self,
        event: OpponentAction,
        profile: OpponentProfile,
        calibration: Calibration | None = None,
    ) -> None:
        """Re-weight by the likelihood of the opponent's ``event`` under ``profile``, shaped
        by what its showdowns revealed when ``calibration`` is given."""
        self.remove(event.board)
        place = self.percentiles(event.board)
        self.places.append((event, place))
        response = profile.response(event.round, event.position, event.facing, event.level)
        live = self.weights > 0
        fit = likelihood(place, response, event.action)
        if calibration is not None:
            fit = calibration.blend(event, place, fit, self.weights)
        self.weights *= fit
        top = self.weights.max()
        if top <= 0:  # every combo ruled out: start over rather than divide by nothing
            self.weights[:] = 1.0
            self.remove(tuple(self._dead))
            return
        self.weights /= top
        np.maximum(self.weights, FLOOR * live, out=self.weights)
