"""Agents that play through other agents: the base of the traps (``switch``,
``river-bluffer``, ``reshuffler``).

A :class:`Delegating` agent holds its inner agents, starts each of them with the match,
counts the hands it has played, hands every state and every finished hand to the inner agent
:attr:`~Delegating.playing` now, and by default lets it decide, keeping the probabilities it
drew its action from (for AIVAT) as its own.

The inner agents are given as agent specs in the way a log names an agent
(:func:`agents.registry.nested_spec`): ``river-bluffer+rate=0.05+at=20000`` for
``river-bluffer:rate=0.05,at=20000``, since an option's value cannot hold ``:`` or ``,``.
"""

from __future__ import annotations

from collections.abc import Sequence

from acpcbot.actions import Action
from acpcbot.player import BettingView, HandResult, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent
from agents.errors import AgentOptionError

__all__ = [
    "Delegating",
    "hand_count",
    "inner_agent",
    "options_of",
    "probability",
    "warm_strengths",
]

MAX_HANDS = 10**9


def hand_count(owner: str, key: str, text: str) -> int:
    """A number of hands (1..10^9) from option ``key``'s text; an
    :class:`AgentOptionError` naming ``owner`` otherwise."""
    if not (text.isdigit() and 1 <= int(text) <= MAX_HANDS):
        raise AgentOptionError(f"{owner} option {key}={text}: a number of hands, 1..10^9")
    return int(text)


def warm_strengths() -> None:
    """Compile (or load) the kernels of :func:`agents.common.weights.holding_strengths`
    before the match: the traps read every holding's strength at their decisions."""
    # numba: the traps' kernels, compiled or loaded only for an agent that plays one
    from acpcbot.cards import parse_cards
    from acpcbot.handeval.jitcache import compiling
    from agents.common.weights import holding_strengths

    with compiling("the traps' hand-strength kernels"):
        holding_strengths(parse_cards("2c7d9sKhAs"))


def probability(owner: str, key: str, text: str) -> float:
    """A number from 0 to 1 from option ``key``'s text; an :class:`AgentOptionError` naming
    ``owner`` otherwise."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise AgentOptionError(f"{owner} option {key}={text}: a number from 0 to 1")
    return value


def options_of(name: str) -> str:
    """The options the registry lists for agent ``name`` (one text, for the messages)."""
    from agents.registry import AGENTS  # the registry lists the traps: imported when asked

    return AGENTS[name].options


def inner_agent(owner: str, key: str, text: str, seed: int) -> Agent:
    """The agent option ``key`` of ``owner`` names (a nested spec), made with ``seed``. A
    ``switch`` cannot be inside another agent: its phases would need a second level of
    nesting."""
    # the registry lists the traps, and reads the plug-ins' entry points: only here
    from agents.registry import create_agent, nested_spec

    spec = nested_spec(text)
    if spec.partition(":")[0] == "switch":
        raise AgentOptionError(f"{owner} option {key}={text}: a switch cannot be inside another")
    return create_agent(spec, seed)


class Delegating(Agent):
    """Plays through inner agents (see the module's docstring)."""

    def __init__(self, seed: int, agents: Sequence[Agent]) -> None:
        super().__init__(seed)
        self.agents = tuple(agents)
        self.hands = 0
        """Hands finished in this match."""

    @property
    def playing(self) -> Agent:
        """The inner agent that sees the states now (the first by default)."""
        return self.agents[0]

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        self.hands = 0
        for agent in self.agents:
            agent.begin_match(info)

    def observe(self, state: MatchState, betting: BettingView) -> None:
        self.playing.observe(state, betting)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        return self.delegate(state, betting)

    def delegate(self, state: MatchState, betting: BettingView) -> Action:
        """The action :attr:`playing` takes, its probabilities kept as this agent's."""
        agent = self.playing
        action = agent.act(state, betting)
        self.last_triple, self.last_triple_at = agent.last_triple, agent.last_triple_at
        return action

    def end_hand(self, result: HandResult) -> None:
        self.playing.end_hand(result)
        self.hands += 1
