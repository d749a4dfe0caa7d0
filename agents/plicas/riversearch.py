"""The river search unit: the rest of the river betting searched against the opponent model.

On the river no card is to come, so the value of each action can be computed rather than
ruled on: a miximax over the remaining betting of the round (Billings et al.'s adaptive
game-tree search, the expectimax that Loki-2's selective sampling approximates). The
opponent's cards are the weighted range, not the deal; at each of its hypothetical turns
every combo it may hold takes fold / call / raise with the probability the model gives it
(the opponent's frequencies in that context, placed in the range by strength, and the
shapes its showdowns revealed — exactly the likelihood the weight table updates with), so
each branch carries the range that would take it. The agent's own turns take the best
action. A showdown compares hand values exactly.

Values are chips won over the whole hand, weighted by the range's mass; the unit turns the
values of fold, call and raise at the root into a triple that takes the best action, mixing
two actions only when their values are within :data:`MIX_WIDTH` of a bet.

Off by default (``plicas:river-search=on``): against dpp it *lost* 48 mbb/g on two card
seeds (−44.2 and −52.3 against +3.6 and −3.7 without it, 100,000 duplicate hands each). It
plays the river polarised — facing a bet it raises 44% and calls 7% (the rules: 8% and 51%)
— because the model says dpp re-raises only its best hands and folds its worst, and that
aggression feeds back: fewer of dpp's weak hands reach a showdown, the showdown-calibrated
readings grow stronger, and PLICAS folds 25% of turn bets instead of 20%.

>>> import numpy as np
>>> from agents.plicas.model import PRIOR
>>> spot = RiverSpot(mine=20, theirs=30, bet=20, raises=1, max_raises=4, position=1)
>>> weights = np.array([1.0, 1.0])      # two combos it may hold ...
>>> values = np.array([100, 300])       # ... one our hand (200) beats, one it does not
>>> ev = river_values(spot, 200, values, weights, profile=PRIOR)
>>> ev.fold, ev.call                    # fold what we put in, or win or lose 30 alike
(-20.0, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from acpcbot.actions import ActionType
from agents.common.weights import ordered_percentiles
from agents.plicas.calibration import Calibration
from agents.plicas.model import OpponentAction, OpponentProfile, context_level
from agents.plicas.situation import RIVER
from agents.plicas.weights import likelihood
from agents.triple import Triple

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

MIX_WIDTH = 0.1
"""Difference in value, as a share of the bet, below which two actions are mixed."""
NEGLIGIBLE = 1e-9
"""Range mass below which a branch is not searched further."""


@dataclass(frozen=True, slots=True)
class RiverSpot:
    """The betting of one river decision point, from the agent's side."""

    mine: int
    """Chips the agent has put in this hand."""
    theirs: int
    """Chips the opponent has put in this hand."""
    bet: int
    raises: int
    """Bets and raises made this round."""
    max_raises: int
    position: int
    """The agent's position (the opponent is at ``1 - position``)."""
    acted: bool = False
    """Someone has already acted this round (a check now closes the round)."""

    @property
    def facing(self) -> bool:
        """The agent has a bet to call."""
        return self.theirs > self.mine

    @property
    def facing_them(self) -> bool:
        """The opponent has a bet to call."""
        return self.mine > self.theirs


@dataclass(frozen=True, slots=True)
class RiverValues:
    """Expected chips won over the hand for each action at the root (``None``: illegal)."""

    fold: float | None
    call: float
    raise_: float | None

    def triple(self, bet: int) -> Triple:
        """The best action; two actions within :data:`MIX_WIDTH` of a bet are mixed, the
        better one more often."""
        options = [(self.fold, 0), (self.call, 1), (self.raise_, 2)]
        legal = sorted(((v, i) for v, i in options if v is not None), reverse=True)
        probs = [0.0, 0.0, 0.0]
        best, first = legal[0]
        if len(legal) > 1:
            second, other = legal[1]
            gap = (best - second) / (MIX_WIDTH * bet)
            if gap < 1.0:
                share = 0.5 * (1.0 - gap)
                probs[other] = share
                probs[first] = 1.0 - share
                return Triple(*probs)
        probs[first] = 1.0
        return Triple(*probs)


class _Search:
    """One search: the root's constants and the recursion over betting nodes."""

    def __init__(
        self,
        own_value: int,
        values: IntArray,
        profile: OpponentProfile,
        calibration: Calibration | None,
    ) -> None:
        self.profile = profile
        self.calibration = calibration
        self.values = values
        self.order = np.argsort(values, kind="stable")
        self.sign = np.sign(own_value - values).astype(np.float64)
        """+1 where the agent's hand wins the showdown, -1 where it loses, 0 on a tie."""

    def showdown(self, spot: RiverSpot, weights: FloatArray) -> float:
        # both have put in the same amount; a win takes the opponent's chips
        return float(spot.theirs * (self.sign @ weights))

    def own_turn(self, spot: RiverSpot, weights: FloatArray) -> float:
        return max(v for v in self.own_actions(spot, weights) if v is not None)

    def own_actions(
        self, spot: RiverSpot, weights: FloatArray
    ) -> tuple[float | None, float, float | None]:
        mass = float(weights.sum())
        fold = -spot.mine * mass if spot.facing else None
        if spot.facing or spot.acted:
            call = self.showdown(replace(spot, mine=spot.theirs), weights)
        else:
            call = self.their_turn(replace(spot, acted=True), weights)
        raise_ = None
        if spot.raises < spot.max_raises:
            raised = replace(spot, mine=spot.theirs + spot.bet, raises=spot.raises + 1, acted=True)
            raise_ = self.their_turn(raised, weights)
        return fold, call, raise_

    def their_turn(self, spot: RiverSpot, weights: FloatArray) -> float:
        if weights.sum() <= NEGLIGIBLE:
            return 0.0
        fold, call, raise_ = self.responses(spot, weights)
        # the search starts at the agent's turn, so the opponent always acts after it: its
        # call or check closes the round
        total = spot.theirs * float(fold @ weights)
        total += self.showdown(replace(spot, theirs=spot.mine), weights * call)
        if spot.raises < spot.max_raises:
            raised = replace(spot, theirs=spot.mine + spot.bet, raises=spot.raises + 1, acted=True)
            total += self.own_turn(raised, weights * raise_)
        return total

    def responses(
        self, spot: RiverSpot, weights: FloatArray
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Per combo, the probability that the opponent folds, calls or raises here."""
        opponent = 1 - spot.position
        facing = spot.facing_them
        level = spot.raises
        place = ordered_percentiles(self.order, self.values, weights)
        frequencies = self.profile.response(RIVER, opponent, facing, level)
        probs = []
        for kind, frequency in zip(
            (ActionType.FOLD, ActionType.CALL, ActionType.RAISE), frequencies, strict=True
        ):
            fit = likelihood(place, frequencies, kind)
            if self.calibration is not None:
                event = OpponentAction(RIVER, opponent, facing, context_level(level), kind, ())
                shape = self.calibration.blend(event, place, fit, weights)
                fit = frequency * shape
            probs.append(fit)
        fold, call, raise_ = probs
        if not facing:  # a check: nothing to fold to
            call = call + fold
            fold = np.zeros_like(fold)
        if spot.raises >= spot.max_raises:
            call = call + raise_
            raise_ = np.zeros_like(raise_)
        total = np.maximum(fold + call + raise_, 1e-12)
        return fold / total, call / total, raise_ / total


def river_values(
    spot: RiverSpot,
    own_value: int,
    values: IntArray,
    weights: FloatArray,
    *,
    profile: OpponentProfile,
    calibration: Calibration | None = None,
) -> RiverValues:
    """The value of each action of the agent at ``spot``, its hand worth ``own_value``
    against the combos' ``values`` weighted by ``weights`` (combos with value 0 or weight 0
    are not in the range); per unit of range mass."""
    live = weights * (values > 0)
    mass = float(live.sum())
    if mass <= 0:
        live = (values > 0).astype(np.float64)
        mass = max(float(live.sum()), 1.0)
    search = _Search(own_value, values, profile, calibration)
    fold, call, raise_ = search.own_actions(spot, live / mass)
    return RiverValues(fold, call, raise_)
