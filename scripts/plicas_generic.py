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
from pathlib import Path

import numpy as np

from acpcbot.errors import AcpcError
from acpcbot.player import Player
from agents.common.manifest import DATA_DIR, update_manifest
from agents.plicas.agent import Plicas
from agents.plicas.generic import GENERIC_FILE, load, pooled, pooled_calibration, save
from agents.registry import create_agent, player_name
from dealer.duplicate import DuplicatePlan, Transport, derived_seed, run_duplicate


def fit(opponent: str, hands: int, seed: int, out: Path) -> None:
    learners: list[Plicas] = []

    def make_player(which: int, agent_seed: int) -> Player:
        player = create_agent(("plicas", opponent)[which], agent_seed)
        if which == 0:
            assert isinstance(player, Plicas)
            learners.append(player)
        return player

    with tempfile.TemporaryDirectory() as logs:
        plan = DuplicatePlan(
            agents=("plicas", player_name(opponent)),
            hands=hands,
            seed=seed,
            agent_seeds=(derived_seed(seed, 0), derived_seed(seed, 1)),
            out_dir=Path(logs),
            transport=Transport.INPROCESS,
        )
        run_duplicate(plan, make_player)
    model = pooled(learner.model for learner in learners)
    calibration = pooled_calibration(learner.calibration for learner in learners)
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
    parser.add_argument("--hands", type=int, default=100_000, help="hands per half (100000)")
    parser.add_argument("--seed", type=int, default=1000, help="card seed (1000)")
    parser.add_argument("--out", type=Path, default=DATA_DIR / GENERIC_FILE, help="file written")
    args = parser.parse_args(argv)
    if args.hands <= 0:
        parser.error("--hands must be positive")
    try:
        create_agent(args.opponent)  # fail on a bad spec before anything runs
    except AcpcError as error:
        parser.error(str(error))
    fit(args.opponent, args.hands, args.seed, args.out)
    if args.out.resolve().parent == DATA_DIR:
        update_manifest(args.out)
    print(describe(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
