"""The preflop rule unit: the hand's class (1..8), position and the betting so far.

Hands outside the own range r_p (set by DPRC, or fixed when DPRC is off) are folded when a
bet is to be called and checked otherwise. Hands inside it are played by expert tables per
class and situation — the small blind's first action, the big blind after a limp, facing a
raise, facing a re-raise — with a value raise whenever the hand is strong enough against
the part of the opponent's modelled range that would call, and calls by effective odds.

>>> from agents.plicas.model import PRIOR
>>> from acpcbot.game import bundled_game
>>> from acpcbot.matchstate import decode_match_state
>>> state, betting = decode_match_state("MATCHSTATE:1:0::|AsAd", bundled_game())
>>> aces = Reading(0.85, 0.85, 0.85, 1, top_share=0.005)
>>> preflop_triple(Situation.of(state, betting), aces, PRIOR, 0.5, (10, 10, 20, 20))
Triple(fold=0.0, call=0.0, raise_=1.0)
>>> trash = Reading(0.3, 0.3, 0.3, 8, top_share=0.99)
>>> preflop_triple(Situation.of(state, betting), trash, PRIOR, 0.5, (10, 10, 20, 20)).fold
1.0
"""

from __future__ import annotations

from agents.plicas.model import OpponentProfile
from agents.plicas.reading import Reading
from agents.plicas.rules_common import (
    continue_probability,
    future_cost,
    needed_strength,
    raise_probability,
)
from agents.plicas.situation import Situation
from agents.triple import Triple

# Raise probability by class 1..8 in each preflop situation.
OPEN = (1.0, 1.0, 1.0, 0.95, 0.85, 0.7, 0.5, 0.3)
"""The small blind's first action."""
AFTER_LIMP = (1.0, 1.0, 0.9, 0.7, 0.4, 0.2, 0.05, 0.0)
"""The big blind after the small blind called."""
AGAINST_RAISE = (1.0, 0.9, 0.6, 0.3, 0.1, 0.0, 0.0, 0.0)
AGAINST_RERAISE = (1.0, 0.6, 0.2, 0.0, 0.0, 0.0, 0.0, 0.0)
FOLD_OUTSIDE_RANGE = Triple(1.0, 0.0, 0.0)
"""Out of range: fold, or check when that is free (the fold is renormalised away)."""


def table_raise(situation: Situation, bucket: int) -> float:
    """The expert table's raise probability for this class and situation."""
    if situation.num_raises == 0:
        table = OPEN if situation.facing_bet else AFTER_LIMP
    elif situation.num_raises == 1:
        table = AGAINST_RAISE
    else:
        table = AGAINST_RERAISE
    return table[bucket - 1]


def preflop_triple(
    situation: Situation,
    reading: Reading,
    profile: OpponentProfile,
    own_range: float,
    bet_sizes: tuple[int, ...],
) -> Triple:
    """The rule unit's preflop triple with own range ``own_range`` (r_p)."""
    if reading.top_share > own_range and situation.facing_bet:
        return FOLD_OUTSIDE_RANGE
    raise_ = 0.0
    if situation.can_raise:
        value = raise_probability(reading.strength_called, situation.num_raises, shift=0)
        raise_ = max(table_raise(situation, reading.bucket), value)
    if not situation.facing_bet:
        return Triple.of(0.0, 1.0 - raise_, raise_)
    if situation.num_raises == 0:
        keep = 1.0  # the small blind's first action: the range decides, not the odds
    else:
        needed = needed_strength(situation, future_cost(situation, profile, bet_sizes))
        keep = continue_probability(reading.strength, needed)
    return Triple.of((1 - raise_) * (1 - keep), (1 - raise_) * keep, raise_)
