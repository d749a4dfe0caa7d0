#!/usr/bin/env python3
"""Benchmark PLICAS against plicas-static: decision latency and hands/s, medians of runs.

    python scripts/bench_plicas.py [--runs 3] [--hands 1500] [--match-hands 1000]

Prints issue 37's PLICAS ratios, each measured in one run with both agents alternating so
that they see the same machine load:

* **decision latency** — ``plicas`` against ``plicas-static``, both playing ``dpp-coarse``
  (``--opponent``): the median and the 99th percentile of a decision (the ``observe`` of
  the state that puts the agent to act plus the ``act``, as ``scripts/plicas_latency.py``
  times it), in the thread's CPU time, which a busy machine's scheduler moves least; the
  acceptance asks the median ratio for 1.3 at most;
* **hands/s** — a short in-process match (``--match-hands``, one half) of ``plicas``
  against ``dpp`` (``--match-opponent``) and of ``plicas-static`` against it: hands per
  second of wall-clock time and of the thread's CPU time, and their ratio;
* what the hands/s say of the two matches the issue times: ``./dev.sh match``'s default
  (``plicas dpp --hands 30000``: two halves of 30,000 hands side by side, one core each)
  and a 100,000-pair match, extrapolated from the CPU-time hands/s (what a quiet core
  gives; the process start and the agents' loading are not counted).

Every figure is the median of ``--runs`` runs (each with its own card seed); each agent
first plays a short warm-up match so that its kernels are loaded. The load average is
printed at the start and the end: the machine is shared, and absolute figures drop with
it while the ratios move less.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from acpcbot import bundled_game
from agents.registry import create_agent
from dealer.referee import MatchConfig, Referee, play_in_process
from plicas_instruments import quantile, timed_match

DEV_MATCH_HANDS = 30_000
"""Hands per half of ``./dev.sh match``'s default match."""
LONG_MATCH_HANDS = 100_000
"""Hands per half of the issue's long match (100,000 pairs)."""


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def match_speed(agent: str, opponent: str, hands: int, seed: int) -> tuple[float, float]:
    """Hands per second of wall-clock and of this thread's CPU time, over one in-process
    half of ``hands`` hands of ``agent`` against ``opponent``."""
    game = bundled_game()
    config = MatchConfig("bench", game, "bench.game", hands, seed, ("a", "b"))
    players = [create_agent(agent, seed), create_agent(opponent, seed + 1)]
    wall, cpu = time.perf_counter(), time.thread_time()
    play_in_process(Referee(config), players)
    return hands / (time.perf_counter() - wall), hands / (time.thread_time() - cpu)


def minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--agent", default="plicas", help="the agent measured (plicas)")
    parser.add_argument("--baseline", default="plicas-static", help="its baseline")
    parser.add_argument("--opponent", default="dpp-coarse", help="who they play for latency")
    parser.add_argument("--hands", type=int, default=1500, help="hands timed per agent a run")
    parser.add_argument("--match-opponent", default="dpp", help="who they play for hands/s (dpp)")
    parser.add_argument(
        "--match-hands", type=int, default=1000, help="hands of each match for hands/s"
    )
    parser.add_argument("--runs", type=int, default=3, help="runs; medians are printed")
    parser.add_argument("--seed", type=int, default=1, help="run r uses seed + r")
    args = parser.parse_args(argv)
    if min(args.hands, args.match_hands, args.runs) < 1:
        parser.error("--hands, --match-hands and --runs must be at least 1")
    specs = (args.agent, args.baseline)
    print(f"load average at the start: {load()}", flush=True)
    for spec in specs:  # warm-up: kernels loaded, tables read
        timed_match(spec, args.opponent, 20, args.seed + 99)
        match_speed(spec, args.match_opponent, 20, args.seed + 99)
    medians: dict[str, list[float]] = {spec: [] for spec in specs}
    p99s: dict[str, list[float]] = {spec: [] for spec in specs}
    speeds: dict[str, list[tuple[float, float]]] = {spec: [] for spec in specs}
    for run in range(args.runs):
        seed = args.seed + run
        order = specs if run % 2 == 0 else specs[::-1]
        for spec in order:
            ms = [t * 1e3 for _, t in timed_match(spec, args.opponent, args.hands, seed, "cpu")]
            medians[spec].append(statistics.median(ms))
            p99s[spec].append(quantile(ms, 0.99))
        for spec in order:
            speeds[spec].append(match_speed(spec, args.match_opponent, args.match_hands, seed))
        print(
            f"run {run + 1}/{args.runs}: median decision "
            + ", ".join(f"{s} {medians[s][-1]:.3f} ms" for s in specs)
            + "; hands/s (wall) "
            + ", ".join(f"{s} {speeds[s][-1][0]:.0f}" for s in specs)
            + f"; load {load()}",
            flush=True,
        )
    agent, baseline = specs
    print(
        f"\ndecision latency against {args.opponent} (thread CPU), {args.hands} hands a run, "
        f"medians of {args.runs} runs"
    )
    print(f"{'agent':<16} {'median ms':>10} {'p99 ms':>8}")
    for spec in specs:
        print(
            f"{spec:<16} {statistics.median(medians[spec]):>10.3f} "
            f"{statistics.median(p99s[spec]):>8.3f}"
        )
    ratios = [a / b for a, b in zip(medians[agent], medians[baseline], strict=True)]
    p99_ratios = [a / b for a, b in zip(p99s[agent], p99s[baseline], strict=True)]
    print(
        f"median ratio {agent} / {baseline}: {statistics.median(ratios):.2f} "
        f"(p99 ratio {statistics.median(p99_ratios):.2f}; acceptance: median ratio <= 1.3)"
    )
    print(
        f"\nhands/s against {args.match_opponent}, in-process, {args.match_hands} hands a run, "
        f"medians of {args.runs} runs"
    )
    print(f"{'agent':<16} {'wall':>8} {'CPU':>8}")
    cpu_speed = {}
    for spec in specs:
        wall = statistics.median(s[0] for s in speeds[spec])
        cpu_speed[spec] = statistics.median(s[1] for s in speeds[spec])
        print(f"{spec:<16} {wall:>8.0f} {cpu_speed[spec]:>8.0f}")
    speed_ratios = [a[0] / b[0] for a, b in zip(speeds[agent], speeds[baseline], strict=True)]
    print(f"hands/s ratio {agent} / {baseline} (wall): {statistics.median(speed_ratios):.2f}")
    per_hand = 1.0 / cpu_speed[agent]
    print(
        f"\nestimated from {agent}'s CPU hands/s, halves side by side on two quiet cores: "
        f"./dev.sh match ({agent} {args.match_opponent} --hands {DEV_MATCH_HANDS:,}) "
        f"{minutes(DEV_MATCH_HANDS * per_hand)} (acceptance: <= 60 s); "
        f"{LONG_MATCH_HANDS:,} pairs {minutes(LONG_MATCH_HANDS * per_hand)} "
        "(acceptance: <= 3 min)"
    )
    print(f"load average at the end: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
