"""Probability triples ``(fold, call, raise)``: the one currency of decisions (Loki-2).

A triple is non-negative and sums to 1. :meth:`Triple.legal` renormalises it over the
actions the rules allow (fold only when facing a bet, raise only below the cap), so a
sampled action is always legal.

>>> from acpcbot.game import bundled_game
>>> from acpcbot.rules import HandState, CALL
>>> hand = HandState(bundled_game()); hand.apply(CALL)  # the big blind may check
>>> Triple(0.5, 0.25, 0.25).legal(hand)
Triple(fold=0.0, call=0.5, raise_=0.5)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from acpcbot.actions import CALL, FOLD, RAISE, Action, ActionType
from acpcbot.player import BettingView


@dataclass(frozen=True, slots=True)
class Triple:
    """Probabilities of fold, call and raise."""

    fold: float
    call: float
    raise_: float

    def __post_init__(self) -> None:
        if min(self.fold, self.call, self.raise_) < 0:
            raise ValueError(f"negative probability in {self}")

    @classmethod
    def of(cls, fold: float, call: float, raise_: float) -> Triple:
        """A triple from any non-negative weights (normalised; all zero means call)."""
        total = fold + call + raise_
        if total <= 0:
            return CALL_ONLY
        return cls(fold / total, call / total, raise_ / total)

    def legal(self, betting: BettingView) -> Triple:
        """Renormalised over the legal actions of ``betting``."""
        fold = self.fold if betting.can_fold() else 0.0
        raise_ = self.raise_ if betting.can_raise() else 0.0
        return Triple.of(fold, self.call, raise_)

    def probability(self, kind: ActionType) -> float:
        if kind is ActionType.FOLD:
            return self.fold
        if kind is ActionType.CALL:
            return self.call
        return self.raise_

    def sample(self, betting: BettingView, rng: random.Random) -> Action:
        """Draw a legal action (one uniform draw from ``rng``)."""
        legal = self.legal(betting)
        u = rng.random()
        if u < legal.fold:
            return FOLD
        if u < legal.fold + legal.call or legal.raise_ == 0.0:
            return CALL
        return raise_action(betting, rng)

    def mix(self, other: Triple, weight: float) -> Triple:
        """``(1 - weight) * self + weight * other``."""
        w = min(max(weight, 0.0), 1.0)
        return Triple.of(
            (1 - w) * self.fold + w * other.fold,
            (1 - w) * self.call + w * other.call,
            (1 - w) * self.raise_ + w * other.raise_,
        )


CALL_ONLY = Triple(0.0, 1.0, 0.0)


def raise_action(betting: BettingView, rng: random.Random | None = None) -> Action:
    """The raise to send: size-less in limit games; in no-limit a raise-to drawn uniformly
    from the legal range when ``rng`` is given (the ACPC example player), else the minimum."""
    bounds = betting.raise_bounds()
    if bounds is None:
        raise ValueError("raise is not legal here")
    if betting.game.is_limit:
        return RAISE
    low, high = bounds
    size = low if rng is None else rng.randint(low, high)
    return Action(ActionType.RAISE, size)
