"""The bluff unit: at the first flop action, with an unplayable hand and an opponent who has
not bet this street, bet with a probability from the flop-connect table and the pot odds.

The table gives, for the opponent's preflop range r_o, the chance that its hand connects
with a random flop (pair or better, two overcards, a flush draw or a straight draw); the
opponent folds to a bet with roughly the rest. When the model has seen the opponent face
flop bets, that observed fold rate is blended in (a calling station, which never folds,
is not worth bluffing). A bluff of ``bet`` into ``pot`` breaks even when the opponent folds
``bet / (pot + bet)`` of the time; the bluff probability rises linearly from there to 1 at
certain folding:

``p = clip((fold - breakeven) / (1 - breakeven), 0, 1)``

>>> round(bluff_probability(fold=0.6, pot=40, bet=10), 3)
0.5
>>> bluff_probability(fold=0.1, pot=40, bet=10)
0.0
"""

from __future__ import annotations

from agents.plicas.buckets import UNPLAYABLE
from agents.plicas.model import OpponentProfile
from agents.plicas.reading import Reading
from agents.plicas.situation import Situation
from agents.triple import Triple

FLOP = 1
TABLE_WEIGHT = 20.0
"""Pseudo-observations the table's fold estimate counts for against observed folds."""


def bluff_applies(situation: Situation, reading: Reading) -> bool:
    """The paper's ``isFirstAction && isNotPlayableHand``: the agent's first flop action,
    the opponent has not bet, the hand is in the unplayable bucket, a bet is legal."""
    return (
        situation.round == FLOP
        and situation.first_action
        and not situation.opponent_invested
        and not situation.facing_bet
        and situation.can_raise
        and reading.bucket == UNPLAYABLE
    )


def fold_estimate(connect: float, profile: OpponentProfile, position: int) -> float:
    """The opponent's (at ``position``) chance to fold a flop bet: ``1 - connect`` from the
    table, blended with the fold rate observed when it faced a flop bet there."""
    observed = float(profile.evidence[FLOP, position, 1, 1])
    fold_observed = profile.fold_to_bet(FLOP, position, 1)
    return (TABLE_WEIGHT * (1.0 - connect) + observed * fold_observed) / (TABLE_WEIGHT + observed)


def bluff_probability(fold: float, pot: int, bet: int) -> float:
    """How often to bluff when the opponent folds a bet with probability ``fold``."""
    breakeven = bet / (pot + bet)
    if fold <= breakeven:
        return 0.0
    return min(1.0, (fold - breakeven) / (1.0 - breakeven))


def bluff_triple(
    situation: Situation, reading: Reading, profile: OpponentProfile, connect: float
) -> Triple | None:
    """The bluff triple, or ``None`` when the situation is not a bluffing spot.
    ``connect`` is the flop-connect table's value at the opponent's range."""
    if not bluff_applies(situation, reading):
        return None
    fold = fold_estimate(connect, profile, situation.opponent)
    p = bluff_probability(fold, situation.pot, situation.bet)
    return Triple.of(0.0, 1.0 - p, p)
