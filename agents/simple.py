"""The simplest reference opponents: always-call, always-raise and the ACPC example player.

Their strategies are fixed and do not depend on the cards, so their strategy tables
(:meth:`agents.base.Agent.strategy_table`) hold one row for every live holding.
"""

from __future__ import annotations

from collections.abc import Sequence

from acpcbot.actions import CALL, Action
from acpcbot.cards import Card
from acpcbot.player import BettingView
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent
from agents.known import StrategyTable, constant_table
from agents.triple import CALL_ONLY, Triple, raise_action

RAISE_ONLY = Triple(0.0, 0.0, 1.0)


class AlwaysCall(Agent):
    """Checks or calls every time (a calling station)."""

    name = "always-call"
    decides_instantly = True
    fixed_strategy = True

    def act(self, state: MatchState, betting: BettingView) -> Action:
        self.said(CALL_ONLY, betting)
        return CALL

    def strategy_table(self, betting: BettingView, board: Sequence[Card]) -> StrategyTable:
        return constant_table(self.game, CALL_ONLY, betting, board)


class AlwaysRaise(Agent):
    """Bets or raises whenever the cap allows, else calls (a maniac)."""

    name = "always-raise"
    decides_instantly = True
    fixed_strategy = True

    def act(self, state: MatchState, betting: BettingView) -> Action:
        if betting.can_raise():
            self.said(RAISE_ONLY, betting)
            return raise_action(betting)
        self.said(CALL_ONLY, betting)
        return CALL

    def strategy_table(self, betting: BettingView, board: Sequence[Card]) -> StrategyTable:
        return constant_table(self.game, RAISE_ONLY, betting, board)


class ExamplePlayer(Agent):
    """The ACPC ``example_player`` policy: fold .06 / call .47 / raise .47 over the legal
    actions, drawn from the agent's seeded RNG (the original seeds from the clock)."""

    name = "example"
    decides_instantly = True
    fixed_strategy = True
    TRIPLE = Triple(0.06, 0.47, 0.47)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        return self.sample(self.TRIPLE, betting)

    def strategy_table(self, betting: BettingView, board: Sequence[Card]) -> StrategyTable:
        return constant_table(self.game, self.TRIPLE, betting, board)
