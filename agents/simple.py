"""The simplest reference opponents: always-call and the ACPC example player."""

from __future__ import annotations

from acpcbot.actions import CALL, Action
from acpcbot.player import BettingView
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent
from agents.triple import Triple, raise_action


class AlwaysCall(Agent):
    """Checks or calls every time (a calling station)."""

    name = "always-call"
    decides_instantly = True

    def act(self, state: MatchState, betting: BettingView) -> Action:
        return CALL


class AlwaysRaise(Agent):
    """Bets or raises whenever the cap allows, else calls (a maniac)."""

    name = "always-raise"
    decides_instantly = True

    def act(self, state: MatchState, betting: BettingView) -> Action:
        return raise_action(betting) if betting.can_raise() else CALL


class ExamplePlayer(Agent):
    """The ACPC ``example_player`` policy: fold .06 / call .47 / raise .47 over the legal
    actions, drawn from the agent's seeded RNG (the original seeds from the clock)."""

    name = "example"
    decides_instantly = True
    TRIPLE = Triple(0.06, 0.47, 0.47)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        return self.TRIPLE.sample(betting, self.rng)
