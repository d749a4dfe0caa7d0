#!/usr/bin/env python3
"""Benchmark ``acpcbot tournament``: how its executors scale, and how long a tournament takes.

    python scripts/bench_tournament.py [--hands 2000] [--seeds 2] [--rounds 3] [AGENT ...]
    python scripts/bench_tournament.py --estimate [--hands 2000] [--full-hands 50000]

Speed (the default): the same fixed tournament (every pair of the agents, 2 seeds) is played
``--rounds`` times by each of

* the local pool with one process (``--jobs 1``) and with two (``--jobs 2``);
* a Dask cluster on this machine: a ``dask scheduler`` and two one-thread ``dask worker``
  processes started by this script (warmed up by one untimed tournament first),

the three interleaved round by round so that they see the same machine load. Each run is
the ``acpcbot tournament`` command into a fresh folder; its time is the tournament's own
(``run.seconds`` in results.json: from the first match handed to the executor to the last
result moved in), and the whole command's wall time is shown beside it. Prints the median
matches/s of each, the speed-up of two processes over one (goal >= 1.8) and the Dask path's
overhead over the local pool with as many processes (goal <= 10%); every run's logs must be
byte-identical to the first's.

``--estimate``: plays one match of every pair of registered agents (``--hands`` per half,
on the local pool) and extrapolates each pairing's seconds per hand to a full tournament
of every registered agent, 2 seeds x ``--full-hands`` hands per half, on ``--workers``
processes (the matches handed out in the tournament's order, each to the first free one).
"""

from __future__ import annotations

import argparse
import hashlib
import heapq
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent
AGENTS = ("tight-aggressive", "tight-passive", "dpp-coarse", "example")
"""Matches of these take a second or two at 2000 hands per half: the pool's overheads show."""


def tournament(args: list[str], out: Path) -> tuple[dict[str, Any], float]:
    """Run ``acpcbot tournament ARGS --out OUT --json``; its results and wall time."""
    started = time.perf_counter()
    done = subprocess.run(
        [str(BIN / "acpcbot"), "tournament", *args, "--out", str(out), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"bench_tournament.py: the tournament failed:\n{done.stderr}")
    return json.loads(done.stdout), wall


def match_seconds(folder: Path) -> float:
    """The matches' own times, summed (each match's summary.json)."""
    return sum(float(json.loads(p.read_text())["seconds"]) for p in folder.glob("*/summary.json"))


def logs_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for log in sorted(folder.glob("*/*.log")):
        digest.update(log.name.encode() + log.read_bytes())
    return digest.hexdigest()


class LocalCluster:
    """A Dask scheduler and one-thread workers on 127.0.0.1, started as
    docs/operations/dask.md starts them."""

    def __init__(self, workers: int, root: Path) -> None:
        self.processes: list[subprocess.Popen[bytes]] = []
        file = root / "scheduler.json"
        self._start(["scheduler", "--host", "127.0.0.1", "--port", "0"], file, root)
        deadline = time.monotonic() + 60
        while not file.exists():
            if time.monotonic() > deadline:
                sys.exit("bench_tournament.py: the Dask scheduler did not start")
            time.sleep(0.1)
        time.sleep(0.2)  # the file is written in one piece, but give it a moment
        self.address = str(json.loads(file.read_text())["address"])
        for _ in range(workers):
            self._start(["worker", self.address, "--nthreads", "1", "--host", "127.0.0.1"])
        self._wait_for_workers(workers)

    def _start(self, args: list[str], file: Path | None = None, root: Path | None = None) -> None:
        extra = ["--scheduler-file", str(file)] if file is not None else []
        self.processes.append(
            subprocess.Popen(
                [str(BIN / "dask"), *args, *extra, "--no-dashboard"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=root,
            )
        )

    def _wait_for_workers(self, count: int) -> None:
        probe = (
            "import sys, time; from distributed import Client; c = Client(sys.argv[1]); "
            "c.wait_for_workers(int(sys.argv[2]), timeout=60); c.close()"
        )
        subprocess.run([sys.executable, "-c", probe, self.address, str(count)], check=True)

    def close(self) -> None:
        for process in self.processes:
            process.kill()
            process.wait()


def speed(args: argparse.Namespace) -> None:
    agents = args.agents or list(AGENTS)
    base = [*agents, "--hands", str(args.hands), "--seeds", str(args.seeds), "--seed", "1"]
    root = Path(tempfile.mkdtemp(prefix="bench-tournament-"))
    cluster = LocalCluster(2, root)
    try:
        configurations = {
            "local, 1 process": ["--jobs", "1"],
            "local, 2 processes": ["--jobs", "2"],
            "dask, 2 workers": ["--scheduler", cluster.address],
        }
        tournament([*base, "--hands", "100", "--scheduler", cluster.address], root / "warm")
        seconds: dict[str, list[float]] = {name: [] for name in configurations}
        walls: dict[str, list[float]] = {name: [] for name in configurations}
        played: dict[str, list[float]] = {name: [] for name in configurations}
        digest = None
        matches = 0
        print(f"load average at the start: {os.getloadavg()[0]:.2f}")
        for round_ in range(args.rounds):
            for name, executor in configurations.items():
                out = root / f"{round_}-{name.replace(' ', '').replace(',', '-')}"
                data, wall = tournament([*base, *executor], out)
                seconds[name].append(data["run"]["seconds"])
                walls[name].append(wall)
                played[name].append(match_seconds(out))
                matches = data["run"]["played"]
                this = logs_digest(out)
                if digest is not None and this != digest:
                    sys.exit(f"bench_tournament.py: {name} wrote other logs")
                digest = this
                shutil.rmtree(out)
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    finally:
        cluster.close()
        shutil.rmtree(root, ignore_errors=True)
    print(
        f"tournament: {len(agents)} agents ({', '.join(agents)}), {args.seeds} seeds × 2 × "
        f"{args.hands:,} hands: {matches} matches; median of {args.rounds} rounds, "
        "logs byte-identical in every run"
    )
    print(f"{'':<20}  {'seconds':>8}  {'matches/s':>9}  {'command s':>9}  {'in matches':>10}")
    median = {name: statistics.median(values) for name, values in seconds.items()}
    for name in configurations:
        print(
            f"{name:<20}  {median[name]:>8.2f}  {matches / median[name]:>9.3f}  "
            f"{statistics.median(walls[name]):>9.2f}  {statistics.median(played[name]):>10.2f}"
        )
    print(
        "(seconds: the tournament's; command s: the whole command's; in matches: the matches' "
        "own times summed)"
    )
    one, two, dask = (median[name] for name in configurations)
    print(f"two processes over one: {one / two:.2f}× the matches/s (goal ≥ 1.8×)")
    alone, together = (statistics.median(played[name]) for name in list(configurations)[:2])
    print(
        f"  a match takes {100 * (together / alone - 1):+.1f}% time with two at once; the two "
        f"processes are busy with matches {100 * together / (2 * two):.0f}% of the time"
    )
    print(f"Dask over the local pool (2 each): {100 * (dask / two - 1):+.1f}% time (goal ≤ 10%)")
    for name, values in seconds.items():
        print(f"{name}, round by round: {', '.join(f'{v:.2f}' for v in values)} s")


def estimate(args: argparse.Namespace) -> None:
    from agents.registry import AGENTS as REGISTERED

    agents = sorted(name for name in REGISTERED if name != "lbr")  # lbr needs its opponent
    root = Path(tempfile.mkdtemp(prefix="bench-estimate-"))
    try:
        executor = ["--jobs", str(args.jobs)] if args.jobs else []
        data, wall = tournament(
            [*agents, "--hands", str(args.hands), "--seeds", "1", "--seed", "1", *executor],
            root / "t",
        )
        per_hand: dict[tuple[str, str], float] = {}
        for pairing in data["pairings"]:
            a, b = pairing["agents"]
            summary = json.loads((root / "t" / f"{a}-vs-{b}.seed1.n{args.hands}" /
                                  "summary.json").read_text())  # fmt: skip
            per_hand[a, b] = summary["seconds"] / summary["hands"]
    finally:
        shutil.rmtree(root, ignore_errors=True)
    full = 2 * args.full_hands
    order = [pair for _ in range(2) for pair in per_hand]  # the tournament's order: seed by seed
    durations = [per_hand[pair] * full for pair in order]
    free = [0.0] * args.workers
    for duration in durations:  # each match to the first free process
        heapq.heapreplace(free, free[0] + duration)
    total = sum(durations)
    print(
        f"{len(agents)} registered agents, {len(per_hand)} pairings; measured on one match "
        f"each of 2 × {args.hands:,} hands ({wall:.0f} s for all of them)"
    )
    print("slowest pairings (hands/s of one process):")
    for pair, seconds in sorted(per_hand.items(), key=lambda item: -item[1])[:8]:
        print(f"  {pair[0]} vs {pair[1]}: {1 / seconds:,.0f}")
    print(
        f"full tournament: {len(order)} matches of 2 × {args.full_hands:,} hands = "
        f"{len(order) * full:,} hands, {total / 3600:.2f} process-hours; on {args.workers} "
        f"processes about {max(free) / 3600:.2f} h"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agents", nargs="*", metavar="AGENT", help=f"default: {AGENTS}")
    parser.add_argument("--hands", type=int, default=2000, help="hands per half (2000)")
    parser.add_argument("--seeds", type=int, default=2, help="seeds per pairing (2)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each executor (3)")
    parser.add_argument("--estimate", action="store_true", help="estimate a full tournament")
    parser.add_argument("--full-hands", type=int, default=50_000, help="for --estimate (50000)")
    parser.add_argument("--workers", type=int, default=2, help="for --estimate (2)")
    parser.add_argument("--jobs", type=int, help="for --estimate: processes measuring (cores)")
    args = parser.parse_args(argv)
    if args.estimate:
        estimate(args)
    else:
        speed(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
