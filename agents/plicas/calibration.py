"""What the opponent's actions really say about its cards, learned at showdowns.

Each time the opponent acts, the weight table ranks every combo it may hold (its percentile
within the modelled range, 0 weakest, 1 strongest). When a hand reaches a showdown, the
revealed combo's percentile at each of its actions is recorded per ``(round, position,
facing, action)``. The histograms of those percentiles are the likelihood shapes the
opponent has actually shown: flat when its bets say nothing (a maniac, a well-balanced
player), piled at the top when it bets only its best hands, two-humped when it bluffs with
its worst.
:meth:`Calibration.blend` mixes them into the parametric likelihood of
:func:`agents.plicas.weights.likelihood` as evidence accumulates (Loki-2's "hindsight
observations" from the cards seen at showdown).

>>> import numpy as np
>>> from acpcbot.actions import ActionType
>>> c = Calibration()
>>> flop_raise = OpponentAction(1, 0, True, 1, ActionType.RAISE, ())
>>> for q in (0.91, 0.95, 0.97, 0.99) * 25:
...     c.record(flop_raise, q)
>>> model = np.ones(5)
>>> c.blend(flop_raise, np.array([0.05, 0.3, 0.5, 0.7, 0.95]), model).round(2)
array([0.27, 0.27, 0.27, 0.27, 7.59])
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.plicas.memory import Memory
from agents.plicas.model import ACTIONS, ROUNDS, OpponentAction

FloatArray = npt.NDArray[np.float64]

BINS = 10
PRIOR_WEIGHT = 30.0
"""Showdown observations the parametric likelihood counts for."""
SMOOTHING = 0.5
"""Pseudo-count added to every bin of a histogram."""


class Calibration:
    """Histograms of the opponent's revealed percentiles, per round, position, facing and
    action."""

    def __init__(self, counts: FloatArray | None = None, memory: Memory | None = None) -> None:
        shape = (ROUNDS, 2, 2, len(ACTIONS), BINS)
        self.counts = np.zeros(shape) if counts is None else counts
        """Stored through :attr:`memory` (times its scale)."""
        if self.counts.shape != shape:
            raise ValueError(f"calibration counts must have shape {shape}, not {self.counts.shape}")
        self.memory = Memory() if memory is None else memory
        self.memory.register(self)

    def rescale(self, factor: float) -> None:
        """Multiply every stored count by ``factor`` (the memory folds its scale in)."""
        self.counts = self.counts * factor

    def _stored(self, event: OpponentAction) -> FloatArray:
        histogram: FloatArray = self.counts[
            event.round, event.position, int(event.facing), ACTIONS.index(event.action)
        ]
        return histogram

    def _histogram(self, event: OpponentAction) -> FloatArray:
        """The revealed places at ``event``, as the observations they are worth now."""
        histogram: FloatArray = self._stored(event) / self.memory.scale
        return histogram

    def record(self, event: OpponentAction, place: float) -> None:
        """The revealed combo stood at ``place`` when the opponent took ``event``."""
        self._stored(event)[min(BINS - 1, max(0, int(place * BINS)))] += self.memory.weight

    def observations(self, event: OpponentAction) -> float:
        return float(self._histogram(event).sum())

    def blend(
        self,
        event: OpponentAction,
        place: FloatArray,
        model: FloatArray,
        weights: FloatArray | None = None,
    ) -> FloatArray:
        """The likelihood of the opponent's action at each ``place``: the observed density
        (mean 1 over percentiles) mixed with ``model`` (scaled to mean 1 over the range,
        weighted by ``weights``) in proportion of observations to :data:`PRIOR_WEIGHT`."""
        histogram = self._histogram(event)
        n = float(histogram.sum())
        mean = float(np.average(model, weights=weights)) if weights is not None else model.mean()
        shaped = model / mean if mean > 0 else model
        if n == 0:
            return shaped
        density = (histogram + SMOOTHING) / (n + SMOOTHING * BINS) * BINS
        bins = np.minimum(BINS - 1, (place * BINS).astype(np.int64))
        blended: FloatArray = (n * density[bins] + PRIOR_WEIGHT * shaped) / (n + PRIOR_WEIGHT)
        return blended
