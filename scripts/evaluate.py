"""Evaluate an agent against a field: ``acpcbot tournament --vs AGENT OPPONENT...``.

    python scripts/evaluate.py plicas always-call always-raise example --hands 100000 --jobs 2

runs ``acpcbot tournament always-call always-raise example --vs plicas --hands 100000 --seed 0
--seeds 1 --out evaluation --jobs 2``: one duplicate match of AGENT against each OPPONENT
per card seed (S .. S+K-1), each exactly as ``acpcbot match AGENT OPPONENT --seed S`` plays
it, its logs and summary.json in a folder of its own under --out, and AGENT's table: mbb/g
with the 95% CI over the duplicate pairs, the SD of one pair, and whether the CI excludes 0.
--out is a tournament folder: running again plays only the matches not finished there.
Agents are specs, so options work: ``plicas:dprc=off,dpac=off``. Progress (matches ended,
hands/s, ETA) is shown on a terminal; ``--progress`` also writes it as plain lines to a log
(``nohup``, CI), ``--no-progress`` never; ``--mqtt URL`` publishes it (``acpcbot watch``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from acpcbot.cli import main as acpcbot
from acpcbot.options import add_progress_options


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", metavar="AGENT", help="the agent evaluated (a spec)")
    parser.add_argument("opponents", metavar="OPPONENT", nargs="+", help="its opponents")
    parser.add_argument("--hands", default="10000", help="hands per half (10000)")
    parser.add_argument("--seed", default="0", help="first card seed (0)")
    parser.add_argument("--seeds", default="1", help="matches per opponent (1)")
    parser.add_argument("--out", type=Path, default=Path("evaluation"), help="tournament folder")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--jobs", help="matches played at once (the cores)")
    where.add_argument("--scheduler", help="a Dask scheduler to play on instead")
    parser.add_argument("--json", action="store_true", help="print results.json")
    parser.add_argument("--mqtt", metavar="URL", help="publish progress to this MQTT broker")
    add_progress_options(parser)
    parser.add_argument(
        "--aivat", action="store_true", help="also AIVAT estimates (see acpcbot tournament --aivat)"
    )
    args = parser.parse_args(argv)
    command = ["tournament", *args.opponents, "--vs", args.agent, "--out", str(args.out)]
    command += ["--hands", args.hands, "--seed", args.seed, "--seeds", args.seeds]
    command += ["--jobs", args.jobs] if args.jobs else []
    command += ["--scheduler", args.scheduler] if args.scheduler else []
    command += ["--json"] if args.json else []
    command += ["--mqtt", args.mqtt] if args.mqtt else []
    if args.progress is not None:
        command.append("--progress" if args.progress else "--no-progress")
    command += ["--aivat"] if args.aivat else []
    return acpcbot(command)


if __name__ == "__main__":
    sys.exit(main())
