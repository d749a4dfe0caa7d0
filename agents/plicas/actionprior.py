"""Where the action model starts: what the field does with each kind of hand at each betting
history, before anything is known of the one opponent.

Without it the action model's coarsest level falls back on a vague, sound guess (strong hands
raise, weak ones fold: :data:`agents.plicas.actionmodel.PRIOR`), and every history's estimate
is that guess until the opponent has been seen there a few times — so for the first thousands
of hands the exploitation unit answers a caricature. This prior is fitted instead on the
*field*: every decision of ``dpp-coarse`` and the four Kendall styles playing each other
(``scripts/build_action_prior.py``; never ``dpp``, PLICAS's test set), counted per context
and coarse hand bucket (:mod:`agents.plicas.holdingbuckets`) with the probabilities each
player drew its action from. It has two levels, as the action model does:

* per **coarse context** (the round, who acts, whether it faces a bet, the raises so far): it
  replaces the vague guess at the top of the action model's hierarchy;
* per **local history** (the round, who acts, the pot and this round's betting): how the
  field's play there departs from its play in the coarse context, which the action model
  applies to what it has learned of the opponent in that coarse context — the opponent's
  own tendencies, shared across the similar histories where it has not been seen yet.

Rows seen fewer than :data:`TRUSTED` times in the fitting are left out (the level above
answers there).

>>> prior = action_prior()
>>> opening = prior.coarse_row((0, 1, True, 0))     # the small blind's first action
>>> bool(opening[-1, 2] > opening[0, 2])            # the best hands raise more than the worst
True
>>> prior.coarse_row((3, 0, True, 9)) is None       # never seen: no opinion
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import IO

import numpy as np
import numpy.typing as npt

from agents.common.manifest import DATA_DIR

__all__ = [
    "ACTION_PRIOR_FILE",
    "TRUSTED",
    "ActionPrior",
    "action_prior",
    "coarse_key",
    "load",
    "local_key",
    "save",
]

FloatArray = npt.NDArray[np.float64]

ACTION_PRIOR_FILE = "plicas-action-prior.npz"
"""In ``agents/data``, with its digest in ``SHA256SUMS``."""
TRUSTED = 200.0
"""Decisions a row needs in the fitting to be used."""

LocalKey = tuple[int, int, int, str]
CoarseKey = tuple[int, int, bool, int]


def local_key(round_: int, actor: int, pot: int, here: str) -> LocalKey:
    """A local history: the round, who acts, the pot and this round's betting."""
    return (round_, actor, pot, here)


def coarse_key(round_: int, actor: int, facing: bool, raises: int) -> CoarseKey:
    """A coarse context: the round, who acts, whether it faces a bet, the raises (up to 3)."""
    return (round_, actor, facing, min(raises, 3))


@dataclass(frozen=True, slots=True, eq=False)
class ActionPrior:
    """The fitted probabilities, ``(coarse buckets, 3)`` per row, by key."""

    local: dict[LocalKey, FloatArray]
    coarse: dict[CoarseKey, FloatArray]

    def local_row(self, key: LocalKey) -> FloatArray | None:
        return self.local.get(key)

    def coarse_row(self, key: CoarseKey) -> FloatArray | None:
        return self.coarse.get(key)

    @staticmethod
    def fitted(
        local: dict[LocalKey, FloatArray], coarse: dict[CoarseKey, FloatArray]
    ) -> ActionPrior:
        """The prior from counts (each row ``(buckets, 3)``: the probabilities drawn from,
        summed): rows with :data:`TRUSTED` decisions or more, each bucket's row smoothed
        towards the row's average by one decision."""

        def probabilities(counts: FloatArray) -> FloatArray:
            mean = counts.sum(axis=0) / counts.sum()
            smoothed: FloatArray = (counts + mean) / (counts.sum(axis=-1, keepdims=True) + 1.0)
            smoothed.setflags(write=False)
            return smoothed

        def kept(rows: dict[object, FloatArray]) -> dict[object, FloatArray]:
            return {k: probabilities(c) for k, c in rows.items() if c.sum() >= TRUSTED}

        return ActionPrior(kept(local), kept(coarse))  # type: ignore[arg-type]


def save(
    stream: IO[bytes], local: dict[LocalKey, FloatArray], coarse: dict[CoarseKey, FloatArray]
) -> None:
    """Write the counts ``local`` and ``coarse`` (what :func:`load` reads)."""
    np.savez_compressed(
        stream,
        local_keys=np.array(["|".join(map(str, k)) for k in local]),
        local_counts=np.stack(list(local.values())),
        coarse_keys=np.array(["|".join(map(str, k)) for k in coarse]),
        coarse_counts=np.stack(list(coarse.values())),
    )


def _local_of(text: str) -> LocalKey:
    round_, actor, pot, here = text.split("|")
    return (int(round_), int(actor), int(pot), here)


def _coarse_of(text: str) -> CoarseKey:
    round_, actor, facing, raises = text.split("|")
    return (int(round_), int(actor), facing == "True", int(raises))


def load(stream: IO[bytes]) -> ActionPrior:
    """The prior from a file written by :meth:`ActionPrior.save`."""
    with np.load(stream, allow_pickle=False) as data:
        local = {
            _local_of(str(k)): c.astype(np.float64)
            for k, c in zip(data["local_keys"], data["local_counts"], strict=True)
        }
        coarse = {
            _coarse_of(str(k)): c.astype(np.float64)
            for k, c in zip(data["coarse_keys"], data["coarse_counts"], strict=True)
        }
    return ActionPrior.fitted(local, coarse)


@cache
def action_prior() -> ActionPrior:
    """The shipped prior (loaded once per process)."""
    with (DATA_DIR / ACTION_PRIOR_FILE).open("rb") as stream:
        return load(stream)
