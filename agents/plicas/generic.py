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
writes :data:`GENERIC_FILE` (see the README for the command and the seed).

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
from typing import IO

import numpy as np

from agents.plicas.calibration import Calibration
from agents.plicas.model import OpponentModel, OpponentProfile

GENERIC_FILE = "plicas-generic.npz"
"""In ``agents/data``, with its digest in ``SHA256SUMS``."""

_COUNTERS = ("hands_seen", "preflop_decisions", "preflop_folds", "flop_hands", "showdowns")


@dataclass(frozen=True, slots=True, eq=False)
class GenericOpponent:
    """A frozen opponent: its profile, the calibration of its actions (read-only), and the
    hands they were learned from."""

    profile: OpponentProfile
    calibration: Calibration
    hands: int


def pooled(models: Iterable[OpponentModel]) -> OpponentModel:
    """One model holding the counts of all ``models`` (the halves of a duplicate match)."""
    total = OpponentModel()
    for model in models:
        total.counts += model.counts
        total.raise_chances += model.raise_chances
        total.flop_pot_total += model.flop_pot_total
        for name in _COUNTERS:
            setattr(total, name, getattr(total, name) + getattr(model, name))
    return total


def pooled_calibration(calibrations: Iterable[Calibration]) -> Calibration:
    """One calibration holding the showdown histograms of all ``calibrations``."""
    total = Calibration()
    for calibration in calibrations:
        total.counts += calibration.counts
    return total


def save(stream: IO[bytes], model: OpponentModel, calibration: Calibration) -> None:
    """Write what ``model`` and ``calibration`` learned (the raw counts)."""
    np.savez(
        stream,
        counts=model.counts,
        raise_chances=model.raise_chances,
        flop_pot_total=np.float64(model.flop_pot_total),
        counters=np.array([getattr(model, name) for name in _COUNTERS], dtype=np.int64),
        calibration=calibration.counts,
    )


def load(stream: IO[bytes]) -> GenericOpponent:
    """The frozen opponent written by :func:`save`."""
    with np.load(stream) as data:
        model = OpponentModel()
        model.counts = data["counts"].astype(np.float64)
        model.raise_chances = data["raise_chances"].astype(np.float64)
        model.flop_pot_total = float(data["flop_pot_total"])
        for name, value in zip(_COUNTERS, data["counters"].tolist(), strict=True):
            setattr(model, name, int(value))
        counts = data["calibration"].astype(np.float64)
    counts.setflags(write=False)  # shared by every static agent: never recorded into
    return GenericOpponent(model.profile(), Calibration(counts), model.hands_seen)


@cache
def generic_opponent() -> GenericOpponent:
    """The shipped generic opponent (loaded once per process)."""
    with resources.files("agents").joinpath("data", GENERIC_FILE).open("rb") as stream:
        return load(stream)
