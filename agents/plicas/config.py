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
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from agents.registry import AgentOptionError

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


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
    dprc_hands: int = 50
    """Hands the opponent model must have seen before DPRC moves r_p (the paper's n)."""
    static_range: float = 0.85
    """r_p while DPRC is off or has not seen enough hands."""
    case_threshold: int = 20
    """Similar cases the case base needs before it returns a triple (the paper's n)."""
    case_weight: float = 0.5
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
    samples: int = 600
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
        """A copy with ``options`` applied; raises :class:`AgentOptionError` for bad ones."""
        changes: dict[str, object] = {}
        fields = {f.name: f for f in dataclasses.fields(self)}
        for key, text in options.items():
            name = key.strip().lower().replace("-", "_")
            if name not in fields:
                known = ", ".join(sorted(f.replace("_", "-") for f in fields))
                raise AgentOptionError(f"unknown PLICAS option {key!r}; options: {known}")
            current = getattr(self, name)
            changes[name] = _convert(key, text.strip(), current)
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


def _convert(key: str, text: str, current: object) -> object:
    if isinstance(current, bool):
        lowered = text.lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise AgentOptionError(f"option {key}: expected on/off, got {text!r}")
    try:
        value: float | int = int(text) if isinstance(current, int) else float(text)
    except ValueError:
        kind = "an integer" if isinstance(current, int) else "a number"
        raise AgentOptionError(f"option {key}: expected {kind}, got {text!r}") from None
    if value < 0:
        raise AgentOptionError(f"option {key}: must not be negative, got {text!r}")
    return value


DYNAMIC = PlicasConfig()
"""``plicas``: every dynamic unit on."""
STATIC = PlicasConfig(dprc=False, dpac=False, case_base=False, bluff=False, model=False)
"""``plicas-static``: the paper's four dynamic units off (DPRC, DPAC, the case base, the
bluff unit) and hands read against the frozen generic opponent. The fold-equity unit stays
on: with the model off it reads the generic opponent's fold rates, so it is a fixed rule
(bet where a sound opponent folds often enough) that nothing the opponent does changes."""
