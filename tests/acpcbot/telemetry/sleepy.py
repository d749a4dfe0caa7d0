"""A caller that takes its time: it sleeps ``ms`` milliseconds at its first action of each
hand, so that a test's match lasts long enough to be watched, killed or have its broker
restarted under it (``tests.acpcbot.telemetry.sleepy:Sleepy:ms=3``)."""

from __future__ import annotations

import time

from acpcbot.actions import CALL, Action
from acpcbot.player import BettingView
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent

SPEC = "tests.acpcbot.telemetry.sleepy:Sleepy"


class Sleepy(Agent):
    """Checks or calls, slowly."""

    name = "sleepy"
    decides_instantly = True

    def __init__(self, seed: int = 0, ms: float | str = 1.0) -> None:
        super().__init__(seed)
        self.pause_s = float(ms) / 1000
        self._hand = -1

    @classmethod
    def from_options(cls, seed: int, options: dict[str, str]) -> Sleepy:
        return cls(seed, **options)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        if state.hand_number != self._hand:
            self._hand = state.hand_number
            time.sleep(self.pause_s)
        return CALL
