"""Every agent by name, imported lazily so that listing them is instant.

>>> sorted(AGENTS)[:3]
['always-call', 'always-raise', 'dpp']
>>> create_agent("always-call", seed=3).seed
3
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from acpcbot.errors import AcpcError
from agents.base import Agent


class UnknownAgentError(AcpcError, KeyError):
    """No agent has that name."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """Where an agent lives and what it does."""

    name: str
    target: str
    """``module:Class`` of the agent."""
    description: str

    def load(self) -> type[Agent]:
        module, _, cls = self.target.partition(":")
        agent_class: object = getattr(importlib.import_module(module), cls)
        if not (isinstance(agent_class, type) and issubclass(agent_class, Agent)):
            raise TypeError(f"{self.target} is not an Agent")
        return agent_class


AGENTS: dict[str, AgentSpec] = {
    spec.name: spec
    for spec in (
        AgentSpec("always-call", "agents.simple:AlwaysCall", "checks or calls every time"),
        AgentSpec(
            "always-raise",
            "agents.simple:AlwaysRaise",
            "bets or raises whenever the cap allows, otherwise calls",
        ),
        AgentSpec(
            "example",
            "agents.simple:ExamplePlayer",
            "the ACPC example player: fold 6% / call 47% / raise 47% over legal actions",
        ),
        AgentSpec(
            "dpp",
            "agents.dpp.agent:Dpp",
            "dpp-like static ε-equilibrium: CFR+ on 169-256-256-128 E[HS²] buckets",
        ),
        AgentSpec(
            "dpp-coarse",
            "agents.dpp.agent:DppCoarse",
            "dpp-like, weaker: the same CFR+ method on 169-4-4-4 buckets",
        ),
        AgentSpec(
            "hash",
            "agents.scripted:HashPlayer",
            "the deterministic scripted policy the reference-dealer corpus was recorded with",
        ),
    )
}


def create_agent(name: str, seed: int = 0) -> Agent:
    """A fresh agent by its registered name."""
    try:
        spec = AGENTS[name]
    except KeyError:
        known = ", ".join(sorted(AGENTS))
        raise UnknownAgentError(f"unknown agent {name!r}; known agents: {known}") from None
    return spec.load()(seed)
