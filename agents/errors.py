"""What can be wrong with an agent spec: one class per kind, all one-line messages.

Every one is an :class:`AgentSpecError` (an :class:`~acpcbot.errors.AcpcError`), raised when
the spec is read, before any match starts; the command line prints its message.
"""

from __future__ import annotations

from acpcbot.errors import AcpcError

__all__ = [
    "AgentOptionError",
    "AgentPluginError",
    "AgentSpecError",
    "NoFixedStrategyError",
    "UnknownAgentError",
]


class AgentSpecError(AcpcError, ValueError):
    """An agent spec that gives no agent: malformed, unknown, bad options or a bad plug-in."""


class UnknownAgentError(AgentSpecError, KeyError):
    """No agent has that name."""

    def __str__(self) -> str:
        # KeyError's own __str__ quotes its argument; this is a sentence.
        return str(self.args[0])


class AgentOptionError(AgentSpecError):
    """An agent spec with malformed options, or options the agent does not take."""


class AgentPluginError(AgentSpecError):
    """A user's agent class that cannot be imported, is not an ``Agent`` or fails to build."""


class NoFixedStrategyError(AcpcError):
    """An agent asked for its strategy at every holding (local best response) that has no
    fixed strategy to give."""
