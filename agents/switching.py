"""An opponent that changes its style during a match: one agent for the first hands, then
another.

``switch:first=loose-passive,then=tight-aggressive,after=25000`` plays ``loose-passive``
for its first 25,000 hands, then ``tight-aggressive`` for the rest of the match. It tests a
learning agent that must notice a change (a model that never forgets keeps exploiting the
style that is gone). Each agent is made from its name (built-in agents without options)
with the switcher's seed; each sees only the hands it plays.

>>> from agents.registry import create_agent
>>> switcher = create_agent("switch:first=always-call,then=always-raise,after=2", 7)
>>> switcher.name, switcher.after, [a.name for a in switcher.agents]
('switch', 2, ['always-call', 'always-raise'])
"""

from __future__ import annotations

from collections.abc import Mapping

from acpcbot.actions import Action
from acpcbot.game import Game
from acpcbot.player import BettingView, HandResult, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent
from agents.errors import AgentOptionError

__all__ = ["Switching"]

_OPTIONS = "first = NAME, then = NAME (agents without options), after = hands (1..10^9)"


class Switching(Agent):
    """Plays ``first`` for ``after`` hands, then ``then`` (see the module's docstring)."""

    name = "switch"
    OPTIONS = _OPTIONS

    def __init__(self, seed: int, first: Agent, then: Agent, after: int) -> None:
        super().__init__(seed)
        self.agents = (first, then)
        self.after = after
        self._hands = 0

    @classmethod
    def from_options(cls, seed: int, options: Mapping[str, str]) -> Switching:
        """``first=NAME,then=NAME,after=N`` (all three required)."""
        # the registry reads the plug-ins' entry points (importlib.metadata): only here
        from agents.registry import create_agent

        first, then, after = cls._parsed(options)
        return cls(seed, create_agent(first, seed), create_agent(then, seed), after)

    @classmethod
    def check_options(cls, options: Mapping[str, str]) -> None:
        cls._parsed(options)

    @classmethod
    def check(cls, options: Mapping[str, str], game: Game) -> None:
        """Also the two agents: each plays ``game``."""
        super().check(options, game)
        # the registry reads the plug-ins' entry points (importlib.metadata): only here
        from agents.registry import check_agent

        for name in cls._parsed(options)[:2]:
            check_agent(name, game)

    @classmethod
    def _parsed(cls, options: Mapping[str, str]) -> tuple[str, str, int]:
        """The first agent, the next one, and the hands after which the next one plays."""
        unknown = sorted(set(options) - {"first", "then", "after"})
        if unknown:
            raise AgentOptionError(f"unknown switch option {unknown[0]!r}; it takes: {_OPTIONS}")
        missing = [key for key in ("first", "then", "after") if key not in options]
        if missing:
            raise AgentOptionError(f"switch needs {missing[0]}= ({_OPTIONS})")
        after = options["after"]
        if not (after.isdigit() and 1 <= int(after) <= 10**9):
            raise AgentOptionError(f"switch option after={after}: a number of hands, 1..10^9")
        for key in ("first", "then"):
            name = options[key]
            if ":" in name or name == cls.name:
                raise AgentOptionError(f"switch option {key}={name}: an agent's name, no options")
        return options["first"], options["then"], int(after)

    @property
    def playing(self) -> Agent:
        """The agent playing now."""
        return self.agents[self._hands >= self.after]

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        self._hands = 0
        for agent in self.agents:
            agent.begin_match(info)

    def observe(self, state: MatchState, betting: BettingView) -> None:
        self.playing.observe(state, betting)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        agent = self.playing
        action = agent.act(state, betting)
        self.last_triple, self.last_triple_at = agent.last_triple, agent.last_triple_at
        return action

    def end_hand(self, result: HandResult) -> None:
        self.playing.end_hand(result)
        self._hands += 1
