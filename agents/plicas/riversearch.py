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

The betting is walked through the rules (:meth:`acpcbot.rules.HandState.children`), from
the state of the decision to the end of the round. Off by default
(``plicas:river-search=on``): it lost against dpp (docs/results/plicas.md, "A river search,
measured and left off").

>>> import numpy as np
>>> from acpcbot.game import bundled_game
>>> from acpcbot.protocol.matchstate import parse_betting
>>> from acpcbot.rules import replay
>>> from agents.plicas.model import PRIOR
>>> hand = replay(bundled_game(), parse_betting("cc/cc/cc/r"))  # we put in 10, it 30
>>> weights = np.array([1.0, 1.0])      # two combos it may hold ...
>>> values = np.array([100, 300])       # ... one our hand (200) beats, one it does not
>>> ev = river_values(hand, 200, values, weights, profile=PRIOR)
>>> ev.fold, ev.call                    # fold what we put in, or win or lose 30 alike
(-10.0, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from acpcbot.actions import ActionType
from acpcbot.rules import HandState
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
_COLUMN = {ActionType.FOLD: 0, ActionType.CALL: 1, ActionType.RAISE: 2}


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
    """One search: the root's constants and the recursion over the states of the round,
    walked with :meth:`~acpcbot.rules.HandState.children` (the rules decide who acts, what
    is legal and when the round ends)."""

    def __init__(
        self,
        me: int,
        own_value: int,
        values: IntArray,
        profile: OpponentProfile,
        calibration: Calibration | None,
    ) -> None:
        self.me = me
        self.profile = profile
        self.calibration = calibration
        self.values = values
        self.order = np.argsort(values, kind="stable")
        self.sign = np.sign(own_value - values).astype(np.float64)
        """+1 where the agent's hand wins the showdown, -1 where it loses, 0 on a tie."""

    def showdown(self, hand: HandState, weights: FloatArray) -> float:
        # both have put in the same amount; a win takes the opponent's chips
        return float(hand.spent[1 - self.me] * (self.sign @ weights))

    def after(self, hand: HandState, weights: FloatArray) -> float:
        """The value of a state reached by a call or a raise."""
        if hand.finished:
            return self.showdown(hand, weights)
        if hand.current_player == self.me:
            return self.own_turn(hand, weights)
        return self.their_turn(hand, weights)

    def own_turn(self, hand: HandState, weights: FloatArray) -> float:
        return max(v for v in self.own_actions(hand, weights) if v is not None)

    def own_actions(
        self, hand: HandState, weights: FloatArray
    ) -> tuple[float | None, float, float | None]:
        found: list[float | None] = [None, None, None]
        for action, child in hand.children():
            if action.type is ActionType.FOLD:
                found[0] = -hand.spent[self.me] * float(weights.sum())
            else:
                found[_COLUMN[action.type]] = self.after(child, weights)
        fold, call, raise_ = found
        assert call is not None  # a call (or check) is always legal
        return fold, call, raise_

    def their_turn(self, hand: HandState, weights: FloatArray) -> float:
        if weights.sum() <= NEGLIGIBLE:
            return 0.0
        fold, call, raise_ = self.responses(hand, weights)
        total = hand.spent[1 - self.me] * float(fold @ weights)
        for action, child in hand.children():
            if action.type is ActionType.CALL:
                total += self.after(child, weights * call)
            elif action.type is ActionType.RAISE:
                total += self.after(child, weights * raise_)
        return total

    def responses(
        self, hand: HandState, weights: FloatArray
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Per combo, the probability that the opponent folds, calls or raises here."""
        opponent = hand.current_player
        facing = hand.can_fold()
        level = hand.num_raises
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
        if not hand.can_raise():
            call = call + raise_
            raise_ = np.zeros_like(raise_)
        total = np.maximum(fold + call + raise_, 1e-12)
        return fold / total, call / total, raise_ / total


def river_values(
    hand: HandState,
    own_value: int,
    values: IntArray,
    weights: FloatArray,
    *,
    profile: OpponentProfile,
    calibration: Calibration | None = None,
) -> RiverValues:
    """The value of each action of the player to act at ``hand`` (a river state), its hand
    worth ``own_value`` against the combos' ``values`` weighted by ``weights`` (combos with
    value 0 or weight 0 are not in the range); per unit of range mass."""
    live = weights * (values > 0)
    mass = float(live.sum())
    if mass <= 0:
        live = (values > 0).astype(np.float64)
        mass = max(float(live.sum()), 1.0)
    search = _Search(hand.current_player, own_value, values, profile, calibration)
    fold, call, raise_ = search.own_actions(hand, live / mass)
    return RiverValues(fold, call, raise_)
