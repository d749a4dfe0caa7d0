"""Merge and decide: the units' triples, weighted by confidence, become one legal action.

>>> from acpcbot.game import bundled_game
>>> from acpcbot.rules import HandState, CALL
>>> hand = HandState(bundled_game()); hand.apply(CALL)      # the big blind may check
>>> merge([(Triple(0.5, 0.5, 0.0), 1.0), (Triple(0.0, 0.0, 1.0), 1.0)], hand)
Triple(fold=0.0, call=0.3333333333333333, raise_=0.6666666666666666)
"""

from __future__ import annotations

from collections.abc import Sequence

from acpcbot.actions import Action
from acpcbot.player import BettingView
from agents.base import Agent
from agents.triple import Triple


def merge(weighted: Sequence[tuple[Triple, float]], betting: BettingView) -> Triple:
    """The confidence-weighted average of the triples, renormalised over the legal actions
    (an illegal action never keeps weight). Non-positive weights are ignored; with no
    weight at all the result is a check/call."""
    fold = call = raise_ = 0.0
    for triple, weight in weighted:
        if weight <= 0:
            continue
        fold += weight * triple.fold
        call += weight * triple.call
        raise_ += weight * triple.raise_
    return Triple.of(fold, call, raise_).legal(betting)


def decide(weighted: Sequence[tuple[Triple, float]], betting: BettingView, agent: Agent) -> Action:
    """Sample the merged triple with the agent's seeded RNG (:meth:`Agent.sample`, which
    keeps the probabilities drawn from)."""
    return agent.sample(merge(weighted, betting), betting)
