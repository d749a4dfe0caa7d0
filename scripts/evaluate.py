"""Evaluate an agent against a field: in-process duplicate matches, one table of mbb/g.

    python scripts/evaluate.py plicas always-call always-raise example --hands 100000 --jobs 2

For each OPPONENT it plays a duplicate match on acpcbot's dealer without sockets (half 1
with AGENT in seat 1, half 2 with the seats reversed; same cards, fresh agents, the agents'
seeds derived from --seed as ``acpcbot match`` derives them) and prints AGENT's winnings in
mbb/g with the 95% confidence interval over the duplicate pairs and the standard deviation
of one pair. Agents are specs, so options work: ``plicas:dprc=off,dpac=off``. Each match is
played exactly as ``acpcbot match`` plays it (:func:`acpcbot.cli.matchrun.run_match`): its
logs and summary.json go to a folder of its own under --out. --jobs is the processes used:
each match plays its halves side by side, and more cores play more matches at once.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from acpcbot.cli.matchrun import MatchRequest, check_match, default_jobs, run_match
from acpcbot.errors import AcpcError
from agents.registry import player_name


@dataclass(frozen=True)
class Row:
    opponent: str
    hands: int
    mbb: float
    ci95: float
    sd: float
    seconds: float

    @property
    def significant(self) -> str:
        if self.mbb - self.ci95 > 0:
            return "+"
        return "-" if self.mbb + self.ci95 < 0 else "~"


def play(request: MatchRequest) -> Row:
    """One duplicate match, as ``acpcbot match`` plays it."""
    run = run_match(request).run
    assert run.pair is not None
    estimate = run.pair.estimate
    return Row(
        request.agent_b,
        run.pair.pairs,
        estimate.mbb_per_game,
        estimate.ci95_mbb,
        estimate.sd_mbb,
        run.seconds,
    )


def table(agent: str, rows: list[Row]) -> str:
    width = max(len("opponent"), *(len(r.opponent) for r in rows))
    lines = [
        f"{agent}: duplicate mbb/g (95% CI over pairs; SD of one pair)",
        f"{'opponent':<{width}}  {'pairs':>7}  {'mbb/g':>9}  {'±95%':>7}  {'SD':>7}  sig  {'s':>6}",
    ]
    for r in rows:
        lines.append(
            f"{r.opponent:<{width}}  {r.hands:>7}  {r.mbb:>9.1f}  {r.ci95:>7.1f}  "
            f"{r.sd:>7.0f}  {r.significant:^3}  {r.seconds:>6.0f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", metavar="AGENT", help="the agent evaluated (a spec)")
    parser.add_argument("opponents", metavar="OPPONENT", nargs="+", help="its opponents")
    parser.add_argument("--hands", type=int, default=10_000, help="hands per half (10000)")
    parser.add_argument("--seed", type=int, default=0, help="card seed (0)")
    parser.add_argument(
        "--jobs", type=int, default=default_jobs(), help="processes at once (the cores)"
    )
    parser.add_argument("--out", type=Path, default=Path("evaluation"), help="log folder")
    parser.add_argument("--force", action="store_true", help="replace matches found in --out")
    args = parser.parse_args(argv)
    jobs = max(1, args.jobs)
    # Each match plays its two halves side by side; more cores play more matches at once.
    at_once = min(len(args.opponents), max(1, jobs // 2))
    requests = []
    for opponent in args.opponents:
        request = MatchRequest(
            args.agent, opponent, hands=args.hands, seed=args.seed, force=args.force
        )
        out = args.out / request.plan().match_name
        requests.append(replace(request, out=out, jobs=min(2, jobs), progress=at_once == 1))
    try:
        for request in requests:
            check_match(request)  # every spec, the game and every path before anything runs
        if at_once == 1:
            rows = [play(request) for request in requests]
        else:
            with ProcessPoolExecutor(max_workers=at_once) as pool:
                rows = list(pool.map(play, requests))
    except AcpcError as error:
        print(f"evaluate.py: error: {error}", file=sys.stderr)
        return 1
    print(table(args.agent, rows))
    summary = {"agent": args.agent, "hands": args.hands, "seed": args.seed}
    summary["results"] = [r.__dict__ for r in rows]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{player_name(args.agent)}.json").write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
