"""Does kendall-learner learn? Its first quarter against its last, in one long match.

    python scripts/kendall_learning.py --opponent loose-aggressive --hands 20000 --seed 1

Plays a duplicate match of ``kendall-learner`` against a fixed style (both halves in
parallel, the learner fresh in each, as in any duplicate match) and splits it by hand number
into quarters: the learner's mbb/g in each quarter over the duplicate pairs (each hand
number's two results averaged, 95% CI over the pairs), and the last quarter minus the first
with its 95% CI (the quarters are independent samples). Also printed: how many of the 169
starting-hand classes each half ended below 6 (folded) and below 8 (called, not raised).
The logs go to a temporary folder unless ``--out`` keeps them.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from acpcbot import Player
from agents.kendall import FOLD_BELOW, RAISE_FROM, KendallLearner
from agents.registry import entrant
from dealer.analysis import Z95, estimate, pair_sorted, read_log
from dealer.running import MatchRequest, default_jobs, run_match


def final_values(half: int, players: Sequence[Player]) -> tuple[int, int]:
    """Classes the learner (agent A) ended below 6 and below 8 (run where the half ran)."""
    del half
    learner = players[0]
    assert isinstance(learner, KendallLearner)
    return int((learner.values < FOLD_BELOW).sum()), int((learner.values < RAISE_FROM).sum())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--opponent", default="loose-aggressive", help="the fixed style")
    parser.add_argument("--hands", type=int, default=20_000, help="hands per half (20000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quarters", type=int, default=4, help="parts compared (4)")
    parser.add_argument("--out", type=Path, help="keep the match's folder here")
    parser.add_argument("--jobs", type=int, help="halves played at once (the cores)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        out = args.out if args.out is not None else Path(scratch) / "match"
        request = MatchRequest(
            entrant("kendall-learner"),
            entrant(args.opponent),
            hands=args.hands,
            seed=args.seed,
            out=out,
            jobs=args.jobs or default_jobs(),
            progress=True,
            force=args.out is not None,
        )
        match = run_match(request, after_half=final_values)
        plan = request.plan()
        halves = [read_log(out / plan.log_name(half)) for half in range(plan.halves)]
    learner = plan.names[0]
    first, second = halves
    samples, _ = pair_sorted(
        first.hand_numbers, first.chips[learner], second.hand_numbers, second.chips[learner]
    )
    big_blind = 10
    parts = np.array_split(np.array(samples), args.quarters)
    print(
        f"kendall-learner vs {args.opponent}: duplicate match, 2 × {args.hands:,} hands, "
        f"seed {args.seed}"
    )
    estimates = []
    for number, part in enumerate(parts, start=1):
        e = estimate(list(part), big_blind)
        estimates.append(e)
        print(
            f"  quarter {number}: {e.mbb_per_game:+8.1f} mbb/g ± {e.ci95_mbb:.1f} (95% CI) "
            f"over {e.samples:,} pairs"
        )
    last, head = estimates[-1], estimates[0]
    difference = last.mbb_per_game - head.mbb_per_game
    ci = math.hypot(last.ci95_mbb, head.ci95_mbb)
    verdict = "improves" if difference - ci > 0 else "no significant change"
    print(
        f"  last quarter − first: {difference:+.1f} mbb/g ± {ci:.1f} (95% CI, "
        f"z = {difference / (ci / Z95):.1f}): {verdict}"
    )
    for half, (folded, called) in enumerate(match.collected, start=1):
        print(f"  half {half}: classes ending below 6 (fold): {folded}, below 8: {called}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
