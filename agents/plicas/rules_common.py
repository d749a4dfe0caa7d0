"""What the preflop and postflop rule units share: ramps, effective odds, value raising.

>>> ramp(0.75, 0.5, 1.0)
0.5
>>> [round(raise_probability(s, level=0, shift=k), 3) for s, k in ((0.55, 0), (0.45, 1))]
[0.714, 0.714]
"""

from __future__ import annotations

from agents.plicas.buckets import shift_strength
from agents.plicas.model import ROUNDS, OpponentProfile
from agents.plicas.situation import Situation

RAISE_CENTER = 0.52
"""Strength against the calling range at which a bet or raise is as likely as not."""
RAISE_WIDTH = 0.14
"""Strength over which the raise probability climbs from 0 to 1."""
LEVEL_STEP = 0.02
"""Extra strength wanted per raise already made this round."""
FUTURE_DISCOUNT = 0.5
"""Share of the opponent's expected later bets a caller counts as a cost (it can still
fold later, and wins some of them back)."""
CALL_WIDTH = 0.06
"""Strength over which calling climbs from 0 to 1 around the effective odds."""


def ramp(x: float, low: float, high: float) -> float:
    """0 below ``low``, 1 above ``high``, linear in between."""
    if x <= low:
        return 0.0
    if x >= high:
        return 1.0
    return (x - low) / (high - low)


def raise_probability(strength_called: float, level: int, shift: int, center: float = 0.0) -> float:
    """Probability to bet or raise with ``strength_called``, ``level`` raises made this
    round, the own bucket moved by ``shift`` (DPAC) and the centre moved by ``center``."""
    strength = shift_strength(strength_called, shift)
    middle = RAISE_CENTER + LEVEL_STEP * min(level, 3) + center
    return ramp(strength, middle - RAISE_WIDTH / 2, middle + RAISE_WIDTH / 2)


def future_cost(
    situation: Situation, profile: OpponentProfile, bet_sizes: tuple[int, ...]
) -> float:
    """Chips a caller expects to put in on the streets after this one: the opponent's bet
    frequency on each later street times its bet, discounted by :data:`FUTURE_DISCOUNT`."""
    cost = 0.0
    for r in range(situation.round + 1, ROUNDS):
        bets = profile.bets_when_checked_to(r, situation.opponent)
        cost += bet_sizes[r] * max(bets, profile.aggression[r])
    return FUTURE_DISCOUNT * cost


def needed_strength(situation: Situation, future: float) -> float:
    """Equity at which calling breaks even (Saund's effective odds): the call plus the
    expected later bets against the pot they can win."""
    if not situation.facing_bet:
        return 0.0
    t = situation.to_call
    return (t + future) / (situation.pot + t + 2 * future)


def continue_probability(strength: float, needed: float) -> float:
    """Probability to continue (call) rather than fold around the break-even equity."""
    return ramp(strength, needed - CALL_WIDTH / 2, needed + CALL_WIDTH / 2)
