"""The fold-equity unit: bet or raise after the flop whenever the opponent's learned fold
rate makes aggression pay, whatever the hand.

The postflop rule unit bets for value only: when the hand is strong against the part of the
range that would call. Against an opponent that folds to bets often that is backwards — the
more it folds, the narrower (and stronger) its calling range, so the fewer hands PLICAS bets,
while each fold would hand it the pot. This unit compares the two ways to go on, one street
deep, with the opponent's fold rate ``f`` to one more bet and the agent's equities from the
reading (``e`` against the range, ``e_c`` against the part of it that does not fold):

* passive: check, or the better of calling ``t`` and folding — ``e · (pot + t) − t``, and
  at least 0 when a fold is open (a raise has to beat giving the hand up, not only calling);
* aggressive (bet or raise, price ``t + b``):
  ``f · pot + (1 − f) · (e_c · (pot + t + 2b) − (t + b))``.

The raise probability rises from 0 where the two are equal to 1 where aggression gains
:data:`SCALE` of its price; the agent raises at least that often (the rule unit's own raise
probability stands when it is higher). Against a calling station (``f = 0``) it asks for the
same as a value bet, more than half the equity; against a frequent folder it bets nearly
everything.

>>> from acpcbot.game import bundled_game
>>> from acpcbot.protocol.matchstate import decode_match_state
>>> s = Situation.of(*decode_match_state("MATCHSTATE:1:0:cc/c:|7c2d/Ah9s5d", bundled_game()))
>>> weak = Reading(0.2, 0.15, 0.2, 8)
>>> fold_equity_raise(s, weak, fold=0.0), fold_equity_raise(s, weak, fold=0.6)
(0.0, 1.0)
>>> at_least_raise(Triple(0.5, 0.5, 0.0), 0.5)
Triple(fold=0.25, call=0.25, raise_=0.5)
"""

from __future__ import annotations

from agents.plicas.reading import Reading
from agents.plicas.situation import Situation
from agents.triple import Triple

SCALE = 0.3
"""Gain, as a share of the bet's price, at which aggression becomes certain."""


def fold_equity_raise(situation: Situation, reading: Reading, fold: float) -> float:
    """How often to bet or raise against an opponent that folds to it with probability
    ``fold``; 0 where a raise is not legal."""
    if not situation.can_raise:
        return 0.0
    pot, to_call, bet = situation.pot, situation.to_call, situation.bet
    price = to_call + bet
    passive = reading.strength * (pot + to_call) - to_call
    if situation.can_fold:
        passive = max(passive, 0.0)
    called = reading.strength_called * (pot + to_call + 2 * bet) - price
    aggressive = fold * pot + (1.0 - fold) * called
    gain = (aggressive - passive) / price
    return min(1.0, max(0.0, gain / SCALE))


def at_least_raise(triple: Triple, raise_: float) -> Triple:
    """``triple`` raising at least ``raise_`` of the time, its fold and call shrunk in
    proportion."""
    if raise_ <= triple.raise_:  # also when the triple raises always: nothing to shrink
        return triple
    scale = (1.0 - raise_) / (1.0 - triple.raise_)
    return Triple(triple.fold * scale, triple.call * scale, raise_)
