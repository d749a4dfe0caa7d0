"""What can be wrong with an agent spec: one class per kind, all one-line messages.

Every one but :class:`AgentPluginError` is an :class:`AgentSpecError` (a
:class:`~acpcbot.errors.UsageError`: the spec is wrong, the command line exits 2), raised when
the spec is read, before any match starts; an :class:`AgentPluginError` is a plug-in whose
code cannot be loaded or built (status 1). The command line prints the message.
"""

from __future__ import annotations

from acpcbot.errors import AcpcError, UsageError

__all__ = [
    "AgentOptionError",
    "AgentPluginError",
    "AgentSpecError",
    "NoFixedStrategyError",
    "UnknownAgentError",
]


class AgentSpecError(UsageError, ValueError):
    """An agent spec that gives no agent: malformed, unknown, or bad options."""


class UnknownAgentError(AgentSpecError, KeyError):
    """No agent has that name."""

    def __str__(self) -> str:
        # KeyError's own __str__ quotes its argument; this is a sentence.
        return str(self.args[0])


class AgentOptionError(AgentSpecError):
    """An agent spec with malformed options, or options the agent does not take."""


class AgentPluginError(AcpcError, ValueError):
    """A user's agent class that cannot be imported, is not an ``Agent`` or fails to build."""


class NoFixedStrategyError(AcpcError):
    """An agent asked for its strategy at every holding (local best response) that has no
    fixed strategy to give."""
