"""A trap: an opponent that bluffs the river rarely, then, from one hand on, all the time.

``river-bluffer:base=dpp-coarse,rate=0.05,jump=1,at=10000,weak=0.3`` plays ``base`` (any
agent, written as a log names it) everywhere but with a weak hand on the river: a hand whose
strength on the full board (the share of the live holdings it beats, ties half:
:func:`agents.common.weights.holding_strengths`) is below ``weak``. There it bets or raises
with probability ``rate`` for its first ``at`` hands and ``jump`` from then on, and otherwise
checks or folds (it never calls with such a hand). A learner that has seen it bet the river
only with strong hands folds its bluff-catchers to its river bets; from hand ``at`` those
bets are mostly bluffs.

>>> from agents.registry import create_agent
>>> trap = create_agent("river-bluffer:rate=0,jump=1,at=3", 5)
>>> trap.base.name, trap.rate_now(), trap.at
('dpp-coarse', 0.0, 3)
"""

from __future__ import annotations

from collections.abc import Mapping

from acpcbot.actions import Action
from acpcbot.errors import UnsupportedGameError
from acpcbot.player import BettingView, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent
from agents.common.weights import holding_strengths
from agents.delegating import (
    Delegating,
    hand_count,
    inner_agent,
    options_of,
    probability,
    warm_strengths,
)
from agents.errors import AgentOptionError
from agents.known import holding_index
from agents.triple import Triple

__all__ = ["RiverBluffer"]

BASE, RATE, JUMP, AT, WEAK = "dpp-coarse", 0.05, 1.0, 10_000, 0.3
"""The defaults of the options ``base``, ``rate``, ``jump``, ``at`` and ``weak``."""


class RiverBluffer(Delegating):
    """``base`` but for its weak river hands (see the module's docstring)."""

    name = "river-bluffer"

    def __init__(  # noqa: PLR0917  (the options, one by one)
        self,
        seed: int,
        base: Agent | None = None,
        rate: float = RATE,
        jump: float = JUMP,
        at: int = AT,
        weak: float = WEAK,
    ) -> None:
        if base is None:  # by its name alone: its defaults
            base = inner_agent(self.name, "base", BASE, seed)
        super().__init__(seed, [base])
        self.base = base
        self.rate, self.jump, self.at, self.weak = rate, jump, at, weak

    @classmethod
    def from_options(cls, seed: int, options: Mapping[str, str]) -> RiverBluffer:
        """``base``, ``rate``, ``jump``, ``at`` and ``weak``, each with its default."""
        unknown = sorted(set(options) - {"base", "rate", "jump", "at", "weak"})
        if unknown:
            raise AgentOptionError(
                f"unknown river-bluffer option {unknown[0]!r}; it takes: {options_of(cls.name)}"
            )
        base = inner_agent(cls.name, "base", options.get("base", BASE), seed)
        return cls(
            seed,
            base,
            rate=probability(cls.name, "rate", options.get("rate", str(RATE))),
            jump=probability(cls.name, "jump", options.get("jump", str(JUMP))),
            at=hand_count(cls.name, "at", options.get("at", str(AT))),
            weak=probability(cls.name, "weak", options.get("weak", str(WEAK))),
        )

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        if info.game.num_rounds != 4 or info.game.num_hole_cards != 2:
            raise UnsupportedGameError(f"{self.name} plays hold'em only")
        warm_strengths()

    def rate_now(self) -> float:
        """How often a weak river hand bets or raises in the coming hand."""
        return self.rate if self.hands < self.at else self.jump

    def act(self, state: MatchState, betting: BettingView) -> Action:
        game = self.game
        if betting.round != game.num_rounds - 1:
            return self.delegate(state, betting)
        strength = holding_strengths(state.board_cards)[holding_index(game, state.own_cards)]
        if strength >= self.weak:
            return self.delegate(state, betting)
        bluff = self.rate_now() if betting.can_raise() else 0.0
        if betting.amount_to_call() > 0:
            return self.sample(Triple(1.0 - bluff, 0.0, bluff), betting)
        return self.sample(Triple(0.0, 1.0 - bluff, bluff), betting)
