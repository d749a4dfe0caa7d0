"""The preflop rule unit: the hand's class (1..8), position and the betting so far.

The own range r_p (set by DPRC, or fixed when DPRC is off) decides the small blind's first
action: hands inside it are raised, hands outside it folded — folding there costs exactly
the one small blind DPRC's objective charges — unless the opponent folds to a raise so
often that a steal pays: an outside hand raises with a probability that grows with the
steal's expected value (see :func:`steal_probability`). The small blind never limps: a
limp gives the big blind a free choice to raise with the initiative, equilibrium strategies
of this game almost never limp, and against dpp raising the hands it used to limp paid
(docs/results/plicas.md, "The small blind never limps"). Later decisions follow
expert tables per class and situation (the big blind after a limp, facing a raise, facing a
re-raise), with a value raise whenever the hand is strong enough against the part of the
opponent's modelled range that would call; facing a raise, the call is by the pot odds
(plus a margin for the equity a hand fails to realise) against the range that raised.

>>> from acpcbot.game import bundled_game
>>> from acpcbot.protocol.matchstate import decode_match_state
>>> state, betting = decode_match_state("MATCHSTATE:1:0::|AsAd", bundled_game())
>>> aces = Reading(0.85, 0.85, 0.85, 1, top_share=0.005)
>>> preflop_triple(Situation.of(state, betting), aces, 0.5)
Triple(fold=0.0, call=0.0, raise_=1.0)
>>> trash = Reading(0.3, 0.3, 0.3, 8, top_share=0.99)
>>> preflop_triple(Situation.of(state, betting), trash, 0.5).fold
1.0
"""

from __future__ import annotations

from agents.plicas.reading import Reading
from agents.plicas.rules_common import continue_probability, needed_strength, raise_probability
from agents.plicas.situation import Situation
from agents.triple import Triple

# Raise probability by class 1..8 in each preflop situation after the small blind's opening.
AFTER_LIMP = (1.0, 1.0, 0.9, 0.7, 0.4, 0.2, 0.05, 0.0)
"""The big blind after the small blind called."""
AGAINST_RAISE = (1.0, 0.9, 0.6, 0.3, 0.1, 0.0, 0.0, 0.0)
AGAINST_RERAISE = (1.0, 0.6, 0.2, 0.0, 0.0, 0.0, 0.0, 0.0)
FOLD_OUTSIDE_RANGE = Triple(1.0, 0.0, 0.0)
OPEN_RAISE = Triple(0.0, 0.0, 1.0)
PLAY_WITHOUT_RAISE = Triple(0.0, 1.0, 0.0)
"""Inside the range in a game that allows no raise here."""
REALISATION_MARGIN = 0.05
"""Equity a preflop call wants above the pot odds: hands do not realise all their equity
after the flop (they fold some of it away), nor do they pay every later bet."""


STEAL_SCALE = 0.3
"""A steal is certain once its expected value reaches this share of its price."""


def steal_probability(situation: Situation, fold: float, strength_called: float) -> float:
    """How often to open-raise a hand outside r_p: ramps from 0 at a break-even steal to 1
    at an expected gain of :data:`STEAL_SCALE` of the price. The opponent folds with
    probability ``fold`` (we take the pot) or calls, after which the hand is worth its
    equity ``strength_called`` against the calling range in the pot both built.

    >>> from acpcbot.game import bundled_game
    >>> from acpcbot.protocol.matchstate import decode_match_state
    >>> s = Situation.of(*decode_match_state("MATCHSTATE:1:0::|7c2d", bundled_game()))
    >>> steal_probability(s, 0.0, 0.3), steal_probability(s, 0.8, 0.3)
    (0.0, 1.0)
    """
    price = situation.to_call + situation.bet
    called_pot = situation.pot + price + situation.bet
    value = fold * situation.pot + (1 - fold) * (strength_called * called_pot - price)
    return min(1.0, max(0.0, value / (STEAL_SCALE * price)))


def table_raise(situation: Situation, bucket: int) -> float:
    """The expert table's raise probability for this class and situation (after the small
    blind's opening)."""
    if situation.num_raises == 0:
        table = AFTER_LIMP
    elif situation.num_raises == 1:
        table = AGAINST_RAISE
    else:
        table = AGAINST_RERAISE
    return table[bucket - 1]


def opening_triple(
    situation: Situation, reading: Reading, own_range: float, steal_fold: float
) -> Triple:
    """The small blind's first action: raise every hand inside ``own_range`` (never limp),
    fold the rest or steal with them (:func:`steal_probability`)."""
    inside = reading.top_share <= own_range
    if not situation.can_raise:
        return PLAY_WITHOUT_RAISE if inside else FOLD_OUTSIDE_RANGE
    if inside:
        return OPEN_RAISE
    steal = steal_probability(situation, steal_fold, reading.strength_called)
    return Triple.of(1.0 - steal, 0.0, steal)


def preflop_triple(
    situation: Situation,
    reading: Reading,
    own_range: float,
    steal_fold: float = 0.0,
) -> Triple:
    """The rule unit's preflop triple with own range ``own_range`` (r_p), against an
    opponent that folds to an opening raise with probability ``steal_fold``."""
    if situation.facing_bet and situation.num_raises == 0:
        return opening_triple(situation, reading, own_range, steal_fold)
    raise_ = 0.0
    if situation.can_raise:
        value = raise_probability(reading.strength_called, situation.num_raises, shift=0)
        raise_ = max(table_raise(situation, reading.bucket), value)
    if not situation.facing_bet:
        return Triple.of(0.0, 1.0 - raise_, raise_)
    needed = needed_strength(situation, 0.0) + REALISATION_MARGIN
    keep = continue_probability(reading.strength, needed)
    return Triple.of((1 - raise_) * (1 - keep), (1 - raise_) * keep, raise_)
