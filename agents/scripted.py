"""The deterministic scripted policy the reference-dealer corpus was recorded with.

``hash`` depends only on the state it is shown: ``v = (hand*7 + len(betting)*3 +
position*5) mod 10``; fold when ``v == 0`` and a fold is legal, raise when ``v >= 6`` and a
raise is legal, otherwise call. With ``always-call`` (the corpus's ``caller``) and
``always-raise`` (its ``raiser``) it reproduces the recorded logs and transcripts byte for
byte, which is what the conformance tests use it for. Its strategy is fixed and the same for
every holding (:meth:`HashPlayer.strategy_table`).
"""

from __future__ import annotations

from collections.abc import Sequence

from acpcbot.actions import CALL, FOLD, RAISE, Action, format_betting
from acpcbot.cards import Card
from acpcbot.player import BettingView
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent
from agents.known import StrategyTable, constant_table
from agents.triple import CALL_ONLY, Triple

_FOLD_ONLY = Triple(1.0, 0.0, 0.0)
_RAISE_ONLY = Triple(0.0, 0.0, 1.0)


class HashPlayer(Agent):
    """The corpus's ``hash`` client: a deterministic function of the state it is shown."""

    name = "hash"
    decides_instantly = True
    fixed_strategy = True

    def act(self, state: MatchState, betting: BettingView) -> Action:
        v = (state.hand_number * 7 + len(state.betting_text()) * 3 + state.position * 5) % 10
        if v == 0 and betting.can_fold():
            self.said(_FOLD_ONLY, betting)
            return FOLD
        if v >= 6 and betting.can_raise():
            self.said(_RAISE_ONLY, betting)
            return RAISE
        self.said(CALL_ONLY, betting)
        return CALL

    def strategy_table(self, betting: BettingView, board: Sequence[Card]) -> StrategyTable:
        length = len(format_betting(betting.actions))
        v = (betting.hand_number * 7 + length * 3 + betting.current_player * 5) % 10
        choice = _FOLD_ONLY if v == 0 else _RAISE_ONLY if v >= 6 else CALL_ONLY
        return constant_table(self.game, choice, betting, board)
