"""Loki-2's knobs: trials per decision, the obvious-move cut-off, in-trial strength samples.

Options come from the agent spec (``loki2:trials=2000,cutoff=off``; see
:mod:`agents.common.options`).

>>> Loki2Config().with_options({"trials": "2000"}).trials
2000
>>> Loki2Config().with_options({"trials": "0"})
Traceback (most recent call last):
agents.errors.AgentOptionError: loki2 option trials=0: trials is an integer from 1 to 100000
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from agents.common import options as agent_options
from agents.common.options import bounds

__all__ = ["Loki2Config", "options_help"]


@dataclass(frozen=True, slots=True)
class Loki2Config:
    """The simulation's size and its cut-off."""

    trials: int = field(default=200, metadata=bounds(1, 100_000))
    """Most trials per decision (each played out twice: call first, raise first). Loki-2
    played 500; 200 (with the cut-off) beat the fixed styles by as much in our duplicate
    matches, at less than half the time (``scripts/loki2_latency.py``)."""
    cutoff: bool = True
    """Stop early at an obvious move (one action's EV ahead by more than the sum of the
    standard deviations)."""
    min_trials: int = field(default=50, metadata=bounds(2, 100_000))
    """Trials before the cut-off is first checked (it is checked every ``check-every``)."""
    check_every: int = field(default=25, metadata=bounds(1, 100_000))
    """Trials between two checks of the cut-off."""
    strength_samples: int = field(default=16, metadata=bounds(1, 1081))
    """Random holdings a player's hand is compared with on a later street of a trial."""

    def with_options(self, options: Mapping[str, str]) -> Loki2Config:
        """A copy with ``options`` applied; raises
        :class:`~agents.errors.AgentOptionError` for a bad one."""
        return agent_options.apply_options(self, options, "loki2")


def options_help() -> str:
    """The options in one line with their ranges (``acpcbot agents`` shows it).

    >>> options_help().split("; ")[1]
    'trials 1..100000, min-trials 2..100000, check-every 1..100000, strength-samples 1..1081 = N'
    """
    return agent_options.options_help(Loki2Config)
