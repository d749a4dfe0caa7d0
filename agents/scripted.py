"""The deterministic scripted policy the reference-dealer corpus was recorded with.

``hash`` depends only on the state it is shown: ``v = (hand*7 + len(betting)*3 +
position*5) mod 10``; fold when ``v == 0`` and a fold is legal, raise when ``v >= 6`` and a
raise is legal, otherwise call. With ``always-call`` (the corpus's ``caller``) and
``always-raise`` (its ``raiser``) it reproduces the recorded logs and transcripts byte for
byte, which is what the conformance tests use it for.
"""

from __future__ import annotations

from acpcbot.actions import CALL, FOLD, RAISE, Action
from acpcbot.player import BettingView
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent


class HashPlayer(Agent):
    """The corpus's ``hash`` client: a deterministic function of the state it is shown."""

    name = "hash"
    decides_instantly = True

    def act(self, state: MatchState, betting: BettingView) -> Action:
        v = (state.hand_number * 7 + len(state.betting_text()) * 3 + state.position * 5) % 10
        if v == 0 and betting.can_fold():
            return FOLD
        if v >= 6 and betting.can_raise():
            return RAISE
        return CALL
