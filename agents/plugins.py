"""Agents from outside this project: a class named on the command line, or a plug-in.

A user's agent is a subclass of :class:`agents.base.Agent` in any importable module (or a
module in the current folder). It is
named either directly in an agent spec (``--agent mybot:MyBot``, see
:mod:`agents.registry`), or by an installed distribution that declares an entry point in
the group :data:`ENTRY_POINT_GROUP`, which gives it a name like a built-in agent's::

    [project.entry-points."acpcbot.agents"]
    my-bot = "mybot:MyBot"

Importing the module, finding the class and constructing the agent each end, when they
fail, in an :class:`~agents.errors.AgentPluginError` with a one-line message (an option the
agent rejects in an :class:`~agents.errors.AgentOptionError`), never a traceback.

>>> load_class("agents.simple:AlwaysCall", "agent x").name
'always-call'
>>> load_class("agents.simple:Nothing", "agent x")
Traceback (most recent call last):
agents.errors.AgentPluginError: agent x: module agents.simple has no attribute 'Nothing'
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType

from acpcbot.errors import AcpcError
from agents.base import Agent
from agents.errors import AgentOptionError, AgentPluginError, AgentSpecError

__all__ = ["ENTRY_POINT_GROUP", "Plugin", "construct", "guarded", "load_class", "plugins"]

ENTRY_POINT_GROUP = "acpcbot.agents"
"""The entry-point group whose entries name agent classes (``name = "module:Class"``)."""

_MESSAGE_LIMIT = 300
"""Characters of a plug-in's own error message kept in ours."""


@dataclass(frozen=True, slots=True)
class Plugin:
    """An agent an installed distribution declares."""

    name: str
    target: str
    """``module:Class`` (the entry point's value)."""
    distribution: str
    """``name version`` of the distribution that declares it (empty when unknown)."""

    def describe(self) -> str:
        """How errors name it, e.g. ``plug-in agent 'my-bot' (mybot:MyBot from mybot 1.0)``."""
        origin = f" from {self.distribution}" if self.distribution else ""
        return f"plug-in agent {self.name!r} ({self.target}{origin})"


def plugins() -> dict[str, Plugin]:
    """Every agent the installed distributions declare, by name (for a name declared twice,
    the first distribution on ``sys.path``, as an import would find it)."""
    # importlib.metadata (and the email package it loads) here: only a name that is no
    # built-in agent is looked for among the plug-ins, and a match of built-ins never asks.
    from importlib.metadata import entry_points

    found: dict[str, Plugin] = {}
    try:
        entries = entry_points(group=ENTRY_POINT_GROUP)
    except Exception as error:  # a damaged distribution's metadata
        raise AgentPluginError(f"cannot read the installed plug-ins: {one_line(error)}") from None
    for entry in entries:
        if entry.name in found:
            continue
        dist = entry.dist
        label = f"{dist.name} {dist.version}" if dist is not None else ""
        target = f"{entry.module}:{entry.attr}" if entry.attr else entry.module
        found[entry.name] = Plugin(entry.name, target, label)
    return found


def load_class(target: str, what: str) -> type[Agent]:
    """The :class:`Agent` subclass ``module:Class`` names; ``what`` names it in errors."""
    module_name, _, attribute = target.partition(":")
    try:
        found: object = _import(module_name)
    except (Exception, SystemExit) as error:  # a user's module may fail in any way
        raise AgentPluginError(
            f"{what}: cannot import module {module_name}: {one_line(error)}"
        ) from None
    for part in attribute.split(".") if attribute else ():
        try:
            found = getattr(found, part)
        except AttributeError:
            raise AgentPluginError(
                f"{what}: module {module_name} has no attribute {attribute!r}"
            ) from None
    if not (isinstance(found, type) and issubclass(found, Agent)):
        raise AgentPluginError(f"{what}: {target} is not a subclass of agents.base.Agent")
    return found


def _import(module_name: str) -> ModuleType:
    """Import a user's module; one not found on ``sys.path`` is looked for in the current
    folder too (as ``python -m`` would), after everything installed."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        here = os.getcwd()
        if error.name != module_name.partition(".")[0] or here in sys.path or "" in sys.path:
            raise
    sys.path.append(here)
    importlib.invalidate_caches()
    try:
        return importlib.import_module(module_name)
    except BaseException:
        sys.path.remove(here)
        raise


def construct(agent_class: type[Agent], seed: int, options: Mapping[str, str], what: str) -> Agent:
    """A new agent of a user's class: ``agent_class(seed)``, or its
    ``from_options(seed, options)`` when the spec gives options."""
    try:
        if options:
            from_options = getattr(agent_class, "from_options", None)
            if from_options is None:
                raise AgentOptionError(f"{what} takes no options (got {dict(options)})")
            try:
                agent: object = from_options(seed, dict(options))
            except (AgentSpecError, AgentPluginError):
                raise
            except Exception as error:
                raise AgentOptionError(f"{what}: bad options: {one_line(error)}") from None
        else:
            agent = agent_class(seed)
    except (AgentSpecError, AgentPluginError):
        raise
    except Exception as error:
        raise AgentPluginError(
            f"{what}: {agent_class.__name__}(seed={seed}) failed: {one_line(error)}"
        ) from None
    if not isinstance(agent, Agent):
        raise AgentPluginError(
            f"{what}: from_options returned {type(agent).__name__}, not an Agent"
        )
    return agent


def guarded(check: Callable[[], None], what: str) -> None:
    """Run ``check``, a user's class asked whether it can play (its
    :meth:`~agents.base.Agent.check`): an error of the project's as it is, any other one
    line naming ``what``."""
    try:
        check()
    except AcpcError:
        raise
    except Exception as error:
        raise AgentPluginError(f"{what}: {one_line(error)}") from None


def one_line(error: BaseException) -> str:
    """An exception as one short line: its type and its message with whitespace collapsed.

    >>> one_line(ValueError("bad\\n  value"))
    'ValueError: bad value'
    """
    text = " ".join(str(error).split())
    if len(text) > _MESSAGE_LIMIT:
        text = text[: _MESSAGE_LIMIT - 3] + "..."
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
