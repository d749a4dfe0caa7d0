"""Fit the generic opponent the static PLICAS reads hands against, and write it.

    python scripts/plicas_generic.py dpp-coarse --hands 100000 --seed 1000

Plays an in-process duplicate match of the dynamic ``plicas`` against OPPONENT (default
``dpp-coarse``, an ε-equilibrium bot) and pools what PLICAS's opponent model and showdown
calibration learned in both halves: the opponent's action frequencies per betting context,
its range, aggression and average pot, and what its actions showed about its cards. That is
the fixed, sound opponent ``plicas-static`` (and any PLICAS with ``model=off``) assumes it
faces (:mod:`agents.plicas.generic`). Written to the shipped ``agents/data/plicas-generic.npz``
by default, whose line in ``agents/data/SHA256SUMS`` is then updated too. The card seed
defaults to 1000, apart from the seeds the evaluations use.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from acpcbot import AcpcError, Player
from acpcbot.options import add_progress_options, count, hand_count, progress_of, seed_value
from acpcbot.progress import Show
from agents.common.manifest import DATA_DIR, update_manifest
from agents.plicas.agent import Plicas
from agents.plicas.calibration import Calibration
from agents.plicas.generic import GENERIC_FILE, load, pooled, pooled_calibration, save
from agents.plicas.model import OpponentModel
from agents.registry import entrant
from dealer.running import MatchRequest, default_jobs, run_match


def learned(half: int, players: Sequence[Player]) -> tuple[OpponentModel, Calibration]:
    """What PLICAS (agent A) learned in a half (run where the half was played)."""
    del half
    learner = players[0]
    assert isinstance(learner, Plicas)
    return learner.model, learner.calibration


def fit(
    opponent: str, hands: int, seed: int, out: Path, jobs: int, progress: Show = Show.TERMINAL
) -> None:
    with tempfile.TemporaryDirectory() as logs:
        request = MatchRequest(
            entrant("plicas"),
            entrant(opponent),
            hands=hands,
            seed=seed,
            out=Path(logs),
            jobs=jobs,
            progress=progress,
        )
        match = run_match(request, after_half=learned)
    model = pooled(model for model, _ in match.collected)
    calibration = pooled_calibration(calibration for _, calibration in match.collected)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as stream:
        save(stream, model, calibration)


def describe(path: Path) -> str:
    with path.open("rb") as stream:
        generic = load(stream)
    profile = generic.profile
    np.set_printoptions(precision=2, suppress=True)
    return (
        f"{path}: {generic.hands} hands; range {profile.range:.3f}, aggression per street "
        f"{profile.aggression}, average pot at the flop {profile.average_pot:.1f} chips, "
        f"{int(generic.calibration.counts.sum())} showdown observations"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="The default output is the shipped file; pass --out to write elsewhere.",
    )
    parser.add_argument(
        "opponent", metavar="OPPONENT", nargs="?", default="dpp-coarse", help="(dpp-coarse)"
    )
    parser.add_argument("--hands", type=hand_count, default=100_000, help="hands per half (100000)")
    parser.add_argument("--seed", type=seed_value, default=1000, help="card seed (1000)")
    parser.add_argument("--out", type=Path, default=DATA_DIR / GENERIC_FILE, help="file written")
    parser.add_argument(
        "--jobs", type=count, default=default_jobs(), help="halves played at once (the cores)"
    )
    add_progress_options(parser)
    args = parser.parse_args(argv)
    try:
        fit(args.opponent, args.hands, args.seed, args.out, args.jobs, progress_of(args))
    except AcpcError as error:
        parser.error(str(error))
    if args.out.resolve().parent == DATA_DIR.resolve():
        update_manifest(args.out)
    print(describe(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
