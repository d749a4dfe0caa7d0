"""PLICAS's reading of the opponent's weight table: the likelihood of each of its actions.

The table itself, the board rankings and the percentiles are the shared ones of
:mod:`agents.common.weights`. Loki-2 §4 multiplies each combo's weight by the probability
that the opponent takes the action it took holding that combo; Saund's eq. 4 is the same
Bayes update. The likelihood
comes from the opponent profile's frequencies in the action's context: within the current
weighted range the opponent is taken to fold its weakest ``f`` share, raise its strongest
``r`` share and call in between (soft edges), and to take any action regardless of its
cards :data:`NOISE` of the time (bluffs and slow plays). An opponent that always raises or
always calls therefore leaves its range as wide as it was.

Combo strength is the class's place in the preflop ranking before the flop and the hand's
value with the board after it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from acpcbot.actions import ActionType
from acpcbot.cards import Card
from agents.common.weights import WeightTable, board_ranking, ordered_percentiles
from agents.plicas.calibration import Calibration
from agents.plicas.model import OpponentAction, OpponentProfile
from agents.plicas.tables import PlicasTables

FloatArray = npt.NDArray[np.float64]

NOISE = 0.5
"""Share of the opponent's actions taken regardless of its cards (bluffs, slow plays, draws
played like made hands: the percentile is the hand's value now)."""
FLOOR = 0.01
"""No live combo falls below this share of the heaviest one: however a hand was played,
some chance remains that it was a bluff."""
SOFTNESS = 0.1
"""Width (in range percentile) of the edges between the fold, call and raise regions."""


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


class RangeWeights(WeightTable):
    """The opponent's weight table for the current hand, re-weighted PLICAS's way: scaled
    so that the heaviest combo weighs 1, no live combo below :data:`FLOOR`."""

    def __init__(self, tables: PlicasTables) -> None:
        super().__init__()
        self.tables = tables
        self.places: list[tuple[OpponentAction, FloatArray]] = []
        """This hand's opponent actions with every combo's percentile when it acted."""

    def reset(self, dead: Iterable[Card] = ()) -> None:
        """A new hand: every combo the opponent can hold (none meeting ``dead``, our cards)
        is equally likely."""
        super().reset(dead)
        self.places = []

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
        self.multiply(fit)
        top = self.weights.max()
        if top <= 0:  # every combo ruled out: start over rather than divide by nothing
            WeightTable.reset(self, tuple(self.dead))  # this hand's places stay
            return
        self.weights /= top
        np.maximum(self.weights, FLOOR * live, out=self.weights)
