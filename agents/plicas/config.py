"""PLICAS's configuration: which dynamic units run, and their few numeric knobs.

The four dynamic units of the paper's ablation (DPRC, DPAC, the case base, the bluff unit),
our fold-equity unit and the opponent model's part in reading hands can each be switched
off. With the model and the paper's four units off (:data:`STATIC`) the agent plays the
*static* PLICAS, "a static playing style without adaptation to the opponent's strategy"
(PLICAS §5.1): fixed expert rules against a fixed, sound opponent
(:mod:`agents.plicas.generic`).
Options come from the agent spec on the command line (``NAME:KEY=VALUE,...``, see
:func:`agents.registry.parse_agent_spec`), e.g. ``plicas:dprc=off,dpac=off`` for the paper's
literal ablation (the learned opponent model still reads the hands).

>>> PlicasConfig().dynamic_units()
('dprc', 'dpac', 'case-base', 'bluff', 'fold-equity', 'model')
>>> STATIC.dynamic_units()
('fold-equity',)
>>> PlicasConfig().with_options({"dprc": "off", "case-threshold": "30"}).case_threshold
30
>>> PlicasConfig().with_options({"case-weight": "nan"})
Traceback (most recent call last):
agents.errors.AgentOptionError: PLICAS option case-weight=nan: case-weight is a number from 0 to 100
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agents.errors import AgentOptionError

__all__ = ["DYNAMIC", "STATIC", "PlicasConfig"]

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)
_PLAIN = re.compile(r"[A-Za-z0-9._+/-]+", re.ASCII)
"""Option text shown as it is in messages (other text is shown quoted, escaped)."""
_LONGEST_NUMBER = 40
"""Characters of a number option read at all (longer ones are out of every range)."""
_MAX_HANDS = 1_000_000_000


def _bounds(low: float, high: float) -> dict[str, Any]:
    """A numeric field's allowed range, as dataclass field metadata."""
    return {"bounds": (low, high)}


@dataclass(frozen=True, slots=True)
class PlicasConfig:
    """Switches and knobs of one PLICAS agent (all dynamic units on by default)."""

    dprc: bool = True
    """Dynamic preflop range control: own range r_p from the opponent's range."""
    dpac: bool = True
    """Dynamic postflop aggression control: the own bucket is shifted from the opponent's
    postflop aggression and preflop range."""
    case_base: bool = True
    """The case-based unit (showdown cases of the opponent's betting patterns)."""
    bluff: bool = True
    """The bluff unit at the first flop action with an unplayable hand."""
    fold_equity: bool = True
    """The fold-equity unit: after the flop, bet or raise whenever the opponent's fold rate
    makes it pay, whatever the hand (:mod:`agents.plicas.foldequity`)."""
    dprc_hands: int = field(default=50, metadata=_bounds(0, _MAX_HANDS))
    """Hands the opponent model must have seen before DPRC moves r_p (the paper's n)."""
    static_range: float = field(default=0.85, metadata=_bounds(0.01, 1.0))
    """r_p while DPRC is off or has not seen enough hands."""
    case_threshold: int = field(default=20, metadata=_bounds(1, _MAX_HANDS))
    """Similar cases the case base needs before it returns a triple (the paper's n)."""
    case_weight: float = field(default=0.5, metadata=_bounds(0.0, 100.0))
    """Merge weight of the case-based triple at full confidence (the rule unit has 1)."""
    model: bool = True
    """The learned opponent model (and the showdown calibration of its weight table) drives
    the hand readings (the weight table's likelihoods, fold rates, the steal and bluff
    spots); off, they read the frozen generic opponent of :mod:`agents.plicas.generic`
    and nothing the opponent does changes how PLICAS plays."""
    river_search: bool = False
    """On the river, search the rest of the betting against the learned model
    (:mod:`agents.plicas.riversearch`) instead of the postflop rule and fold-equity units.
    Off by default: against dpp it lost about 48 mbb/g (see that module)."""
    samples: int = field(default=600, metadata=_bounds(1, 1_000_000))
    """Monte Carlo samples per equity estimate on the flop and turn."""

    def dynamic_units(self) -> tuple[str, ...]:
        """Names of the dynamic units that are on, in option spelling."""
        on = (
            ("dprc", self.dprc),
            ("dpac", self.dpac),
            ("case-base", self.case_base),
            ("bluff", self.bluff),
            ("fold-equity", self.fold_equity),
            ("model", self.model),
            ("river-search", self.river_search),
        )
        return tuple(name for name, enabled in on if enabled)

    def with_options(self, options: Mapping[str, str]) -> PlicasConfig:
        """A copy with ``options`` applied (keys in option or field spelling, any case);
        raises :class:`AgentOptionError` for an unknown, repeated or out-of-range one."""
        changes: dict[str, object] = {}
        fields = {f.name: f for f in dataclasses.fields(self)}
        for key, text in options.items():
            name = key.strip().lower().replace("-", "_")
            if name not in fields:
                raise AgentOptionError(
                    f"unknown PLICAS option {key!r}; options: {', '.join(option_names())}"
                )
            if name in changes:
                raise AgentOptionError(f"PLICAS option {_spelling(name)} is given twice")
            changes[name] = _convert(fields[name], text.strip(), getattr(self, name))
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


def option_names() -> list[str]:
    """Every option's name in spec spelling, sorted."""
    return sorted(_spelling(f.name) for f in dataclasses.fields(PlicasConfig))


def options_help() -> str:
    """The options in one line, with each knob's range (``acpcbot agents`` shows it).

    >>> options_help().split("; ")[1]
    'dprc-hands 0..1000000000, case-threshold 1..1000000000, samples 1..1000000 = N'
    """
    switches: list[str] = []
    counts: list[str] = []
    numbers: list[str] = []
    for f in dataclasses.fields(PlicasConfig):
        name = _spelling(f.name)
        if isinstance(f.default, bool):
            switches.append(name)
            continue
        low, high = f.metadata["bounds"]
        (counts if isinstance(f.default, int) else numbers).append(
            f"{name} {_number(low)}..{_number(high)}"
        )
    return f"{', '.join(switches)} = on|off; {', '.join(counts)} = N; {', '.join(numbers)} = X"


def _number(value: float) -> str:
    """A bound as people write it: ``1000000``, ``0.01``."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _spelling(name: str) -> str:
    return name.replace("_", "-")


def _convert(f: dataclasses.Field[Any], text: str, current: object) -> object:
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
        raise AgentOptionError(f"PLICAS option {name}={shown}: {name} is on or off")
    low, high = f.metadata["bounds"]
    integer = isinstance(current, int)
    kind = "an integer" if integer else "a number"
    allowed = f"{name} is {kind} from {_number(low)} to {_number(high)}"
    pattern = _INTEGER if integer else _NUMBER
    if len(text) > _LONGEST_NUMBER or not pattern.fullmatch(text):
        raise AgentOptionError(f"PLICAS option {name}={shown}: {allowed}")
    value: float = int(text) if integer else float(text)
    if not (math.isfinite(value) and low <= value <= high):
        raise AgentOptionError(f"PLICAS option {name}={shown}: {allowed}")
    return value


DYNAMIC = PlicasConfig()
"""``plicas``: every dynamic unit on."""
STATIC = PlicasConfig(dprc=False, dpac=False, case_base=False, bluff=False, model=False)
"""``plicas-static``: the paper's four dynamic units off (DPRC, DPAC, the case base, the
bluff unit) and hands read against the frozen generic opponent. The fold-equity unit stays
on: with the model off it reads the generic opponent's fold rates, so it is a fixed rule
(bet where a sound opponent folds often enough) that nothing the opponent does changes."""
