"""Reading the agent's hand: equities against the opponent's weighted range (the engine).

Before the flop the class-against-class equity table answers at once. On the flop and turn
the engine samples showdowns; on the river the combos' hand values (which the range
percentiles need anyway) give the exact answer. Three equities: against the whole weighted
range, against the part of it that would still be in after one more bet (the opponent's
observed fold rate taken off the bottom of the range), and against a random hand (the scale
of the buckets the case base compares).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from acpcbot.cards import Card
from acpcbot.handeval.combos import COMBO_CARDS, class_of
from acpcbot.handeval.evaluator import rank7
from acpcbot.handeval.montecarlo import sample_counts
from agents.common.weights import COMBOS_WITH_CARD, board_ranking, ordered_percentiles
from agents.plicas.buckets import bucket_of
from agents.plicas.model import OpponentProfile
from agents.plicas.reading import Reading
from agents.plicas.situation import RIVER, Situation
from agents.plicas.tables import PlicasTables
from agents.plicas.weights import continuing

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

NEGLIGIBLE_FOLD = 0.01
_UNIFORM = np.zeros((0, len(COMBO_CARDS)))
"""No weight table: the sampler draws the opponent uniformly from the unseen cards."""


class HandReader:
    """Turns a situation and the opponent's weights into a :class:`Reading`."""

    def __init__(self, tables: PlicasTables, samples: int) -> None:
        self.tables = tables
        self.samples = max(1, samples)

    def preflop(
        self, situation: Situation, weights: FloatArray, profile: OpponentProfile
    ) -> Reading:
        tables = self.tables
        k = class_of(*situation.hole)
        fold = profile.fold_to_bet(0, situation.opponent, situation.num_raises + 1)
        place = ordered_percentiles(tables.combo_order, tables.combo_score, weights)
        equity_row = tables.class_equity[k]

        def against(w: FloatArray) -> float:
            by_class = tables.class_weights(w)
            return _clip(float(by_class @ equity_row / by_class.sum()))

        strength = against(weights)
        called = weights * continuing(place, fold)
        return Reading(
            strength=strength,
            strength_called=against(called) if called.sum() > 0 else strength,
            hand_strength=_clip(float(tables.class_vs_random[k])),
            bucket=int(tables.class_bucket[k]),
            top_share=_clip(float(tables.class_top_share[k])),
        )

    def preflop_by_class(
        self, situation: Situation, weights: FloatArray, profile: OpponentProfile
    ) -> list[Reading]:
        """:meth:`preflop`'s reading of every starting-hand class at once (a frozen PLICAS's
        strategy for every holding)."""
        tables = self.tables
        fold = profile.fold_to_bet(0, situation.opponent, situation.num_raises + 1)
        place = ordered_percentiles(tables.combo_order, tables.combo_score, weights)
        called = weights * continuing(place, fold)
        if called.sum() <= 0:
            called = weights
        against = [tables.class_weights(w) for w in (weights, called)]
        strength, strength_called = (
            tables.class_equity @ by_class / by_class.sum() for by_class in against
        )
        return [
            Reading(
                strength=_clip(float(strength[k])),
                strength_called=_clip(float(strength_called[k])),
                hand_strength=_clip(float(tables.class_vs_random[k])),
                bucket=int(tables.class_bucket[k]),
                top_share=_clip(float(tables.class_top_share[k])),
            )
            for k in range(len(tables.class_bucket))
        ]

    def postflop(
        self, situation: Situation, weights: FloatArray, profile: OpponentProfile, seed: int
    ) -> Reading:
        hole, board = situation.hole, situation.board
        weights = weights.copy()
        for card in board:  # a card dealt since the opponent last acted
            weights[COMBOS_WITH_CARD[card]] = 0.0
        ranking = board_ranking(tuple(board))
        values = ranking.values
        fold = profile.fold_to_bet(situation.round, situation.opponent, situation.num_raises + 1)
        called = weights
        if fold > NEGLIGIBLE_FOLD:
            called = weights * continuing(ranking.percentiles(weights), fold)
            if called.sum() <= 0:
                called = weights
        if situation.round == RIVER:
            own = rank7(*hole, *board)
            strength = _showdown_share(own, values, weights)
            strength_called = _showdown_share(own, values, called)
            hand_strength = _showdown_share(own, values, self._uniform(hole))
        else:
            strength = self._equity(hole, board, weights, seed)
            strength_called = strength
            if called is not weights:
                strength_called = self._equity(hole, board, called, seed + 1)
            hand_strength = self._equity(hole, board, None, seed + 2)
        return Reading(strength, strength_called, hand_strength, bucket_of(hand_strength))

    def postflop_ranges(
        self, situation: Situation, weights: FloatArray, profile: OpponentProfile
    ) -> FloatArray:
        """The two ranges :meth:`postflop` reads the hand against, ``(2, 1326)``: the
        weighted range (the board's holdings out) and its part that stays in after one more
        bet (a frozen PLICAS reads every holding against them at once)."""
        board = situation.board
        weights = weights.copy()
        for card in board:
            weights[COMBOS_WITH_CARD[card]] = 0.0
        fold = profile.fold_to_bet(situation.round, situation.opponent, situation.num_raises + 1)
        called = weights
        if fold > NEGLIGIBLE_FOLD:
            called = weights * continuing(board_ranking(tuple(board)).percentiles(weights), fold)
            if called.sum() <= 0:
                called = weights
        return np.stack([weights, called])

    def bucket_of(self, hole: Sequence[Card], board: Sequence[Card], seed: int = 0) -> int:
        """The bucket of a hand on a board (preflop: its class's), as the case base keeps
        the opponent's shown hands."""
        if not board:
            return int(self.tables.class_bucket[class_of(*hole)])
        if len(board) < 5:
            return bucket_of(self._equity(hole, board, None, seed))
        values = board_ranking(tuple(board)).values
        return bucket_of(_showdown_share(rank7(*hole, *board), values, self._uniform(hole)))

    def _uniform(self, hole: Sequence[Card]) -> FloatArray:
        """Weight 1 on every combo that does not hold one of ``hole``."""
        weights = np.ones(len(self.tables.combo_class))
        for card in hole:
            weights[COMBOS_WITH_CARD[card]] = 0.0
        return weights

    def _equity(
        self, hole: Sequence[Card], board: Sequence[Card], weights: FloatArray | None, seed: int
    ) -> float:
        """Sampled equity against ``weights`` (``None``: a random hand). The engine's
        sampling kernel is called directly: the weights of combos holding a known card are
        already 0, which spares the checks of :func:`acpcbot.handeval.equity.hand_vs_range`."""
        holes = np.array([hole, (-1, -1)], dtype=np.int64)
        table = _UNIFORM if weights is None else weights.reshape(1, -1)
        counts = np.zeros((2, 3))
        sample_counts(
            holes, np.asarray(board, dtype=np.int64), table, COMBO_CARDS, self.samples, seed, counts
        )
        # counts[0, k]: showdowns won outright (k = 1) or shared two ways (k = 2)
        return _clip((counts[0, 1] + counts[0, 2] / 2) / self.samples)


def _showdown_share(own: int, values: IntArray, weights: FloatArray) -> float:
    """Weighted share of the combos that ``own`` (a hand value) beats, ties half; combos
    with value 0 (they use a board card) do not count."""
    live = weights * (values > 0)
    total = float(live.sum())
    if total <= 0:
        return 0.5
    won = float(live[values < own].sum()) + 0.5 * float(live[values == own].sum())
    return _clip(won / total)


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))
