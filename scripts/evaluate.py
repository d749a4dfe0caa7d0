"""Evaluate an agent against a field: in-process duplicate matches, one table of mbb/g.

    python scripts/evaluate.py plicas always-call always-raise example --hands 100000 --jobs 2

For each OPPONENT it plays a duplicate match on acpcbot's dealer without sockets (half 1
with AGENT in seat 1, half 2 with the seats reversed; same cards, fresh agents, the agents'
seeds derived from --seed as ``acpcbot match`` derives them) and prints AGENT's winnings in
mbb/g with the 95% confidence interval over the duplicate pairs and the standard deviation
of one pair. Agents are specs, so options work: ``plicas:dprc=off,dpac=off``. Logs and a
summary.json go to --out. --jobs plays that many matches at once in separate processes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from acpcbot.errors import AcpcError
from acpcbot.player import Player
from agents.registry import create_agent, player_name
from dealer.duplicate import DuplicatePlan, Transport, derived_seed, run_duplicate


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


def play(agent: str, opponent: str, hands: int, seed: int, out: Path) -> Row:
    specs = (agent, opponent)
    plan = DuplicatePlan(
        agents=(player_name(agent), player_name(opponent)),
        hands=hands,
        seed=seed,
        agent_seeds=(derived_seed(seed, 0), derived_seed(seed, 1)),
        out_dir=out / f"{player_name(agent)}-vs-{player_name(opponent)}",
        transport=Transport.INPROCESS,
    )

    def make_player(which: int, agent_seed: int) -> Player:
        return create_agent(specs[which], agent_seed)

    started = time.perf_counter()
    run = run_duplicate(plan, make_player)
    assert run.pair is not None
    estimate = run.pair.estimate
    return Row(
        opponent,
        run.pair.pairs,
        estimate.mbb_per_game,
        estimate.ci95_mbb,
        estimate.sd_mbb,
        time.perf_counter() - started,
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
    parser.add_argument("--jobs", type=int, default=1, help="matches played at once (1)")
    parser.add_argument("--out", type=Path, default=Path("evaluation"), help="log folder")
    args = parser.parse_args(argv)
    for spec in (args.agent, *args.opponents):
        try:
            create_agent(spec)  # fail on a bad spec before anything runs
        except AcpcError as error:
            parser.error(str(error))
    jobs = max(1, args.jobs)
    if jobs == 1:
        rows = [play(args.agent, o, args.hands, args.seed, args.out) for o in args.opponents]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [
                pool.submit(play, args.agent, o, args.hands, args.seed, args.out)
                for o in args.opponents
            ]
            rows = [f.result() for f in futures]
    print(table(args.agent, rows))
    summary = {"agent": args.agent, "hands": args.hands, "seed": args.seed}
    summary["results"] = [r.__dict__ for r in rows]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{player_name(args.agent)}.json").write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
