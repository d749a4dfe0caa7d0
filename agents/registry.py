"""Every agent by name, imported lazily so that listing them is instant.

An *agent spec* names an agent and, for agents that take them, options:
``NAME[:KEY=VALUE[,KEY=VALUE...]]``, e.g. ``plicas:dprc=off,bluff=off``. Every command that
takes an agent name takes a spec, because :func:`create_agent` parses it.

>>> sorted(AGENTS)[:3]
['always-call', 'always-raise', 'dpp']
>>> create_agent("always-call", seed=3).seed
3
>>> parse_agent_spec("plicas:dprc=off, bluff=off")
('plicas', {'dprc': 'off', 'bluff': 'off'})
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


class AgentOptionError(AcpcError, ValueError):
    """An agent spec with malformed options, or options the agent does not take."""


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """Where an agent lives and what it does."""

    name: str
    target: str
    """``module:Class`` of the agent."""
    description: str
    options: str = ""
    """The options it takes (``KEY=VALUE`` in the spec), one line; empty when none."""

    def load(self) -> type[Agent]:
        module, _, cls = self.target.partition(":")
        agent_class: object = getattr(importlib.import_module(module), cls)
        if not (isinstance(agent_class, type) and issubclass(agent_class, Agent)):
            raise TypeError(f"{self.target} is not an Agent")
        return agent_class


_PLICAS_OPTIONS = (
    "dprc, dpac, case-base, bluff, fold-equity, model, river-search = on|off; "
    "dprc-hands, case-threshold, samples = N; static-range, case-weight = X"
)

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
        AgentSpec(
            "plicas",
            "agents.plicas.agent:Plicas",
            "PLICAS with every dynamic unit on (DPRC, DPAC, case base, bluff, fold equity, model)",
            _PLICAS_OPTIONS,
        ),
        AgentSpec(
            "plicas-static",
            "agents.plicas.agent:PlicasStatic",
            "PLICAS without adaptation: fixed rules against a frozen, sound opponent",
            _PLICAS_OPTIONS,
        ),
        AgentSpec(
            "loose-passive",
            "agents.kendall:LoosePassive",
            "Kendall's loose-passive style: plays most hands, rarely raises",
        ),
        AgentSpec(
            "loose-aggressive",
            "agents.kendall:LooseAggressive",
            "Kendall's loose-aggressive style: plays most hands, raises often",
        ),
        AgentSpec(
            "tight-passive",
            "agents.kendall:TightPassive",
            "Kendall's tight-passive style: plays few hands, rarely raises",
        ),
        AgentSpec(
            "tight-aggressive",
            "agents.kendall:TightAggressive",
            "Kendall's tight-aggressive style: plays few hands, raises often",
        ),
    )
}


def parse_agent_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``NAME[:KEY=VALUE,...]`` into the name and its options."""
    name, _, text = spec.partition(":")
    options: dict[str, str] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise AgentOptionError(f"agent option {item.strip()!r} in {spec!r} is not KEY=VALUE")
        options[key.strip()] = value.strip()
    return name.strip(), options


def player_name(spec: str) -> str:
    """A spec as a player name an ACPC log can hold (no ``:``, ``|`` or spaces).

    >>> player_name("plicas: dprc=off, bluff=off")
    'plicas+dprc=off+bluff=off'
    """
    name, options = parse_agent_spec(spec)
    return name + "".join(f"+{key}={value}" for key, value in options.items())


def create_agent(spec: str, seed: int = 0) -> Agent:
    """A fresh agent from its spec: a registered name, optionally with options."""
    name, options = parse_agent_spec(spec)
    try:
        entry = AGENTS[name]
    except KeyError:
        known = ", ".join(sorted(AGENTS))
        raise UnknownAgentError(f"unknown agent {name!r}; known agents: {known}") from None
    agent_class = entry.load()
    if not options:
        return agent_class(seed)
    from_options = getattr(agent_class, "from_options", None)
    if from_options is None:
        raise AgentOptionError(f"agent {name!r} takes no options (got {spec!r})")
    agent: Agent = from_options(seed, options)
    return agent
