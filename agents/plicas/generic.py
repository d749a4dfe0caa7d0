"""The generic opponent the static PLICAS reads hands against: a sound player, learned once
and frozen.

With the opponent model off (``model=off``, as in ``plicas-static``) the weight table, the
fold rates and the steal spots read this fixed opponent instead of the current one: the
action frequencies *and* the showdown calibration (what its actions really said about its
cards) that PLICAS's own model learned over a long duplicate match against an
ε-equilibrium bot, both halves pooled. Nothing the current opponent does changes it.

It is fitted against ``dpp-coarse``, not ``dpp``: the static bot is then measured against
``dpp`` on an opponent it never saw (only against ``dpp-coarse`` is it in-sample), and on
card seeds apart from the evaluation's. ``scripts/plicas_generic.py`` plays that match and
writes :data:`GENERIC_FILE` (see docs/agents/plicas.md for the command and the seed).

>>> from acpcbot.actions import ActionType
>>> from agents.plicas.model import OpponentAction
>>> generic = generic_opponent()
>>> generic.hands >= 100_000, bool(np.allclose(generic.profile.frequencies.sum(axis=-1), 1))
(True, True)
>>> generic.calibration.observations(OpponentAction(1, 0, True, 1, ActionType.CALL, ())) > 100
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import IO, Any

import numpy as np

from agents.plicas.calibration import Calibration
from agents.plicas.model import OpponentModel, OpponentProfile

GENERIC_FILE = "plicas-generic.npz"
"""In ``agents/data``, with its digest in ``SHA256SUMS``."""


@dataclass(frozen=True, slots=True, eq=False)
class GenericOpponent:
    """A frozen opponent: its profile, the calibration of its actions (read-only), and the
    hands they were learned from."""

    profile: OpponentProfile
    calibration: Calibration
    hands: int


def pooled(models: Iterable[OpponentModel]) -> OpponentModel:
    """One model holding the totals of all ``models`` (the halves of a duplicate match)."""
    total = OpponentModel()
    for model in models:
        total.merge(model)
    return total


def pooled_calibration(calibrations: Iterable[Calibration]) -> Calibration:
    """One calibration holding the showdown histograms of all ``calibrations``."""
    total = Calibration()
    for calibration in calibrations:
        total.counts += calibration.counts
    return total


def save(stream: IO[bytes], model: OpponentModel, calibration: Calibration) -> None:
    """Write what ``model`` and ``calibration`` learned (the raw totals)."""
    totals: dict[str, Any] = {name: getattr(model, name) for name in OpponentModel.TOTALS}
    np.savez(stream, calibration=calibration.counts, **totals)


def load(stream: IO[bytes]) -> GenericOpponent:
    """The frozen opponent written by :func:`save`."""
    model = OpponentModel()
    with np.load(stream) as data:
        for name in OpponentModel.TOTALS:
            value = data[name]
            setattr(model, name, value.astype(np.float64) if value.ndim else value.item())
        counts = data["calibration"].astype(np.float64)
    counts.setflags(write=False)  # shared by every static agent: never recorded into
    return GenericOpponent(model.profile(), Calibration(counts), model.hands_seen)


@cache
def generic_opponent() -> GenericOpponent:
    """The shipped generic opponent (loaded once per process)."""
    with resources.files("agents").joinpath("data", GENERIC_FILE).open("rb") as stream:
        return load(stream)
