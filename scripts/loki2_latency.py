"""loki2's decision latency: median and p99 per decision, against a baseline in the same run.

    python scripts/loki2_latency.py --hands 3000 --opponent example

Plays in-process matches on acpcbot's dealer and times every decision of the measured
agents (the ``observe`` of the state that puts the agent to act plus the ``act``: what a
client waits for). Measured by default: ``loki2:trials=500`` (with the obvious-move
cut-off), ``loki2:trials=500,cutoff=off`` (500 trials always), the default ``loki2`` (200
with the cut-off) and the baseline ``plicas``, in turn, so that the ratios hold on a busy
machine where absolute times do not. Each first plays a short warm-up match (numba's caches
load). Also printed: how many trials loki2's decisions
played (the cut-off's saving) and each agent's hands/s over the whole match. ``--clock cpu``
times the thread's CPU time instead of the wall clock.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

from acpcbot import Action, BettingView, Player, bundled_game
from acpcbot.protocol import MatchState
from agents.loki2.agent import Loki2
from agents.registry import create_agent
from dealer.referee import MatchConfig, Referee, play_in_process
from plicas_instruments import TimedPlayer

CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}
GOAL_MEDIAN_MS = 20.0
GOAL_P99_MS = 100.0


class Trials(TimedPlayer):
    """A timed player that also notes loki2's trials per decision."""

    def __init__(self, inner: Player, clock: Callable[[], float]) -> None:
        super().__init__(inner, clock)
        self.trials: list[int] = []

    def act(self, state: MatchState, betting: BettingView) -> Action:
        action = super().act(state, betting)
        if isinstance(self.inner, Loki2):
            self.trials.append(self.inner.last_trials)
        return action


def timed_match(
    spec: str, opponent: str, hands: int, seed: int, clock: str
) -> tuple[Trials, float]:
    game = bundled_game()
    config = MatchConfig("latency", game, "latency.game", hands, seed, ("a", "b"))
    agent = Trials(create_agent(spec, seed), CLOCKS[clock])
    started = time.perf_counter()
    play_in_process(Referee(config), [agent, create_agent(opponent, seed + 1)])
    return agent, time.perf_counter() - started


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--agents",
        nargs="+",
        default=["loki2:trials=500", "loki2:trials=500,cutoff=off", "loki2"],
        help="the agents measured (loki2:trials=500, loki2:trials=500,cutoff=off, loki2)",
    )
    parser.add_argument("--baseline", default="plicas", help="measured alongside (plicas)")
    parser.add_argument("--opponent", default="example", help="who they play (example)")
    parser.add_argument("--hands", type=int, default=3000, help="hands timed per agent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--clock", choices=tuple(CLOCKS), default="wall", help="wall (default) or thread CPU time"
    )
    args = parser.parse_args(argv)
    specs = [*args.agents, args.baseline]
    results = {}
    for spec in specs:
        timed_match(spec, args.opponent, 100, args.seed + 99, args.clock)  # warm-up
        results[spec] = timed_match(spec, args.opponent, args.hands, args.seed, args.clock)
    print(
        f"decision latency (observe + act, {args.clock} clock), "
        f"{args.hands} hands against {args.opponent}"
    )
    header = ("agent", "round", "decisions", "median ms", "p99 ms", "max ms", "trials", "hands/s")
    print("{:<28} {:<8} {:>9} {:>10} {:>8} {:>8} {:>7} {:>8}".format(*header))
    medians = {}
    for spec, (agent, seconds) in results.items():
        for name, rounds in (("all", (0, 1, 2, 3)), ("preflop", (0,)), ("postflop", (1, 2, 3))):
            picked = [i for i, (r, _) in enumerate(agent.times) if r in rounds]
            if not picked:
                continue
            ms = [agent.times[i][1] * 1e3 for i in picked]
            trials = (
                f"{statistics.mean(agent.trials[i] for i in picked):.0f}" if agent.trials else "-"
            )
            rate = f"{args.hands / seconds:.0f}" if name == "all" else ""
            if name == "all":
                medians[spec] = (statistics.median(ms), quantile(ms, 0.99))
            print(
                f"{spec:<28} {name:<8} {len(ms):>9} {statistics.median(ms):>10.3f} "
                f"{quantile(ms, 0.99):>8.3f} {max(ms):>8.3f} {trials:>7} {rate:>8}"
            )
    base = medians[args.baseline][0]
    for spec in args.agents:
        median, p99 = medians[spec]
        goal = "met" if median <= GOAL_MEDIAN_MS and p99 <= GOAL_P99_MS else "missed"
        print(
            f"{spec}: median {median:.2f} ms, p99 {p99:.2f} ms (goal {GOAL_MEDIAN_MS:.0f} / "
            f"{GOAL_P99_MS:.0f} ms: {goal}); median ratio to {args.baseline}: "
            f"{median / base:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
