"""PLICAS's decision latency: median and p99 per decision, against a baseline in the same run.

    python scripts/plicas_latency.py --hands 3000 --opponent example

Plays in-process matches on acpcbot's dealer and times every decision of the measured
agents: the ``observe`` of the state that puts the agent to act plus the ``act`` itself
(what a client waits for). Each agent first plays a short warm-up match so numba's caches
are loaded, then the timed one. The baseline (``plicas-static`` by default) is measured in
the same run, so the ratio holds on a busy machine where absolute times do not.
``--clock cpu`` times the thread's CPU time instead of the wall clock: what a decision
costs, without the waits a busy machine's scheduler adds (the wall clock is what the
dealer's time limit sees).
"""

from __future__ import annotations

import argparse
import statistics
import sys

from plicas_instruments import CLOCKS, quantile, timed_match


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--agent", default="plicas", help="the agent measured (plicas)")
    parser.add_argument("--baseline", default="plicas-static", help="measured alongside")
    parser.add_argument("--opponent", default="example", help="who they play (example)")
    parser.add_argument("--hands", type=int, default=3000, help="hands timed per agent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--clock", choices=tuple(CLOCKS), default="wall", help="wall (default) or thread CPU time"
    )
    args = parser.parse_args(argv)
    results = {}
    for spec in (args.agent, args.baseline):
        timed_match(spec, args.opponent, 100, args.seed + 99)  # warm-up
        results[spec] = timed_match(spec, args.opponent, args.hands, args.seed, args.clock)
    print(
        f"decision latency (observe + act, {args.clock} clock), "
        f"{args.hands} hands against {args.opponent}"
    )
    header = ("agent", "round", "decisions", "median ms", "p99 ms", "max ms")
    print("{:<16} {:<8} {:>9} {:>10} {:>8} {:>8}".format(*header))
    medians = {}
    for spec, times in results.items():
        for name, rounds in (
            ("all", (0, 1, 2, 3)),
            ("preflop", (0,)),
            ("postflop", (1, 2, 3)),
            ("flop", (1,)),
            ("turn", (2,)),
            ("river", (3,)),
        ):
            ms = [t * 1e3 for r, t in times if r in rounds]
            if not ms:
                continue
            if name == "all":
                medians[spec] = statistics.median(ms)
            print(
                f"{spec:<16} {name:<8} {len(ms):>9} {statistics.median(ms):>10.3f} "
                f"{quantile(ms, 0.99):>8.3f} {max(ms):>8.3f}"
            )
    agent, baseline = medians[args.agent], medians[args.baseline]
    print(f"median ratio {args.agent} / {args.baseline}: {agent / baseline:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
