"""Agent options: a frozen dataclass of switches and knobs, set from an agent spec's text.

An agent's configuration is a frozen dataclass whose fields are its options: ``bool`` fields
are switches (``on|off``, also ``true|false``, ``yes|no``, ``1|0``), ``int`` and ``float``
fields are knobs whose allowed range is in the field's metadata (:func:`bounds`), ``str``
fields name an agent (:func:`agent_field`: an agent with options written as a log names it,
checked where it is used). Options
come from the agent spec (``NAME:KEY=VALUE,...``, see :func:`agents.registry.parse_agent_spec`)
in option spelling (``case-weight``) or field spelling (``case_weight``), any case. Every
way an option can be wrong is an :class:`~agents.errors.AgentOptionError` that names the
agent, the option, the value and what is allowed.

>>> from dataclasses import dataclass, field
>>> @dataclass(frozen=True)
... class Knobs:
...     fast: bool = True
...     trials: int = field(default=10, metadata=bounds(1, 100))
>>> apply_options(Knobs(), {"Trials": "20", "fast": "off"}, "Demo")
Knobs(fast=False, trials=20)
>>> options_help(Knobs)
'fast = on|off; trials 1..100 = N'
>>> apply_options(Knobs(), {"trials": "0"}, "Demo")
Traceback (most recent call last):
agents.errors.AgentOptionError: Demo option trials=0: trials is an integer from 1 to 100
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from typing import Any, TypeVar

from agents.errors import AgentOptionError

__all__ = ["agent_field", "apply_options", "bounds", "option_names", "options_help"]

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)
_PLAIN = re.compile(r"[A-Za-z0-9._+/-]+", re.ASCII)
"""Option text shown as it is in messages (other text is shown quoted, escaped)."""
_LONGEST_NUMBER = 40
"""Characters of a number option read at all (longer ones are out of every range)."""

Config = TypeVar("Config")


def bounds(low: float, high: float) -> dict[str, Any]:
    """A numeric field's allowed range, as dataclass field metadata."""
    return {"bounds": (low, high)}


def agent_field(what: str) -> dict[str, Any]:
    """A text field that names an agent, as dataclass field metadata (``what`` says what the
    agent is for, in the options' help)."""
    return {"agent": what}


def apply_options(config: Config, options: Mapping[str, str], agent: str) -> Config:
    """A copy of ``config`` (a dataclass instance) with ``options`` applied; raises
    :class:`AgentOptionError` (naming ``agent``) for an unknown, repeated or out-of-range
    one."""
    changes: dict[str, object] = {}
    fields = {f.name: f for f in dataclasses.fields(config)}  # type: ignore[arg-type]
    for key, text in options.items():
        name = key.strip().lower().replace("-", "_")
        if name not in fields:
            raise AgentOptionError(
                f"unknown {agent} option {key!r}; options: {', '.join(option_names(config))}"
            )
        if name in changes:
            raise AgentOptionError(f"{agent} option {_spelling(name)} is given twice")
        changes[name] = _convert(fields[name], text.strip(), getattr(config, name), agent)
    return dataclasses.replace(config, **changes)  # type: ignore[type-var]


def option_names(config: object) -> list[str]:
    """Every option's name in spec spelling, sorted (``config``: the dataclass or an
    instance)."""
    return sorted(_spelling(f.name) for f in dataclasses.fields(config))  # type: ignore[arg-type]


def options_help(config: object) -> str:
    """The options in one line, with each knob's range (``acpcbot agents`` shows it)."""
    switches: list[str] = []
    counts: list[str] = []
    numbers: list[str] = []
    agents: list[str] = []
    for f in dataclasses.fields(config):  # type: ignore[arg-type]
        name = _spelling(f.name)
        if isinstance(f.default, bool):
            switches.append(name)
            continue
        if isinstance(f.default, str):
            agents.append(f"{name} = AGENT ({f.metadata['agent']})")
            continue
        low, high = f.metadata["bounds"]
        (counts if isinstance(f.default, int) else numbers).append(
            f"{name} {_number(low)}..{_number(high)}"
        )
    parts = [
        f"{', '.join(switches)} = on|off" if switches else "",
        f"{', '.join(counts)} = N" if counts else "",
        f"{', '.join(numbers)} = X" if numbers else "",
        *agents,
    ]
    return "; ".join(part for part in parts if part)


def _number(value: float) -> str:
    """A bound as people write it: ``1000000``, ``0.01``."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _spelling(name: str) -> str:
    return name.replace("_", "-")


def _convert(f: dataclasses.Field[Any], text: str, current: object, agent: str) -> object:
    """An option's text as the field's value; an :class:`AgentOptionError` that names the
    option, the value and what is allowed unless it is one."""
    name = _spelling(f.name)
    shown = text if _PLAIN.fullmatch(text) else repr(text)
    if isinstance(current, bool):
        lowered = text.lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise AgentOptionError(f"{agent} option {name}={shown}: {name} is on or off")
    if isinstance(current, str):
        return text
    low, high = f.metadata["bounds"]
    integer = isinstance(current, int)
    kind = "an integer" if integer else "a number"
    allowed = f"{name} is {kind} from {_number(low)} to {_number(high)}"
    pattern = _INTEGER if integer else _NUMBER
    if len(text) > _LONGEST_NUMBER or not pattern.fullmatch(text):
        raise AgentOptionError(f"{agent} option {name}={shown}: {allowed}")
    value: float = int(text) if integer else float(text)
    if not (math.isfinite(value) and low <= value <= high):
        raise AgentOptionError(f"{agent} option {name}={shown}: {allowed}")
    return value
