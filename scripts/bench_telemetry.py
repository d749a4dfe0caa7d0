#!/usr/bin/env python3
"""Benchmark what telemetry and the progress bar cost a match.

    python scripts/bench_telemetry.py [--hands 100000] [--rounds 3] [--jobs 1,2]

Plays the in-process duplicate match ``always-call`` vs ``example`` (``--hands`` per half,
the same seed each time) through :func:`dealer.running.match.run_match`, in four ways,
interleaved round by round so that they see the same machine load:

* ``plain``: no telemetry, no progress (the baseline);
* ``mqtt``: ``--mqtt`` to a mosquitto this script starts on 127.0.0.1 (status and progress);
* ``mqtt+hands``: ``--mqtt --mqtt-hands`` (every hand handed to the publisher, which sends a
  few thousand a second: the rest are dropped, the oldest first, and counted);
* ``bar``: no telemetry, the tqdm progress bar drawn on a (fake) terminal.

Each match's hands/s is its own (``summary.json``: the halves' play, not the telemetry's
closing); each round plays the ways in another (seeded random) order. Prints the median
hands/s of each way, the median of its ratios to ``plain`` in the same round, and the CPU
time of the run (this process's and its halves', the telemetry's closing included:
steadier than the wall time on a shared machine, where the rates vary by ±20% from run to
run), for every ``--jobs`` (1: the halves one after the other in this process, where the
publisher's thread shares the interpreter with the dealer; 2: the halves in two processes,
publishing from this one). Goals: ``mqtt`` at most 5% slower than ``plain``;
``mqtt+hands`` never stuck (drops instead). Then what one redraw of a progress line costs
with tqdm and with rich (when installed), and the time each takes to import.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

from acpcbot.logconfig import configure_logging
from acpcbot.progress import ProgressDisplay, Show
from acpcbot.telemetry import parse_broker_url
from acpcbot.telemetry.localbroker import Mosquitto
from agents.registry import entrant
from dealer.running import MatchRequest, run_match

WAYS = ("plain", "mqtt", "mqtt+hands", "bar")


class _Terminal(io.StringIO):
    """A terminal that keeps nothing: tqdm draws on it as on a real one."""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)


def cpu_seconds() -> float:
    """User and system time of this process and of its children that ended (the halves)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def play(way: str, hands: int, jobs: int, url: str, out: Path) -> dict[str, Any]:
    request = MatchRequest(
        entrant("always-call"),
        entrant("example"),
        hands=hands,
        seed=7,
        out=out,
        force=True,
        jobs=jobs,
        progress=Show.TERMINAL if way == "bar" else False,
        mqtt=parse_broker_url(url) if way.startswith("mqtt") else None,
        mqtt_hands=way == "mqtt+hands",
    )
    sink = _Terminal()
    used = cpu_seconds()
    with redirect_stderr(sink):
        match = run_match(request)
    return {**match.summary, "cpu_seconds": cpu_seconds() - used}


def measure(jobs: int, rounds: int, hands: int, url: str, scratch: Path) -> None:
    """Play every way ``rounds`` times, each round in another order, and print the medians,
    with each way's hands/s as a ratio to ``plain``'s in the same round (the machine's load
    changes between rounds more than within one)."""
    rates: dict[str, list[float]] = {way: [] for way in WAYS}
    ratios: dict[str, list[float]] = {way: [] for way in WAYS}
    cpu: dict[str, list[float]] = {way: [] for way in WAYS}
    dropped: dict[str, list[int]] = {way: [] for way in WAYS}
    for round_ in range(rounds):
        order = random.Random(round_).sample(WAYS, len(WAYS))  # not always after the same one
        this: dict[str, float] = {}
        for way in order:
            summary = play(way, hands, jobs, url, scratch / f"{way}-{jobs}")
            this[way] = summary["hands_per_second"]
            cpu[way].append(summary["cpu_seconds"])
            told = summary.get("telemetry", {})
            dropped[way].append(told.get("dropped", 0))
            shown = (
                f", published {told['published']:,}, dropped {told['dropped']:,}" if told else ""
            )
            print(f"jobs {jobs} round {round_ + 1} {way:>10}: {this[way]:>9,.0f} hands/s, "
                  f"{summary['cpu_seconds']:.2f} CPU s{shown}", flush=True)  # fmt: skip
        for way in WAYS:
            rates[way].append(this[way])
            ratios[way].append(this[way] / this["plain"])
    base = statistics.median(rates["plain"])
    print(f"\n--jobs {jobs}, 2 x {hands:,} hands, medians of {rounds} rounds:")
    for way in WAYS:
        ratio = statistics.median(ratios[way])
        slower = 100 * (1 - ratio)
        change = f"{abs(slower):.1f}% {'slower' if slower > 0 else 'faster'}"
        lost = statistics.median(dropped[way])
        used = statistics.median(cpu[way])
        print(
            f"  {way:>10}: {statistics.median(rates[way]):>9,.0f} hands/s (plain "
            f"{base:,.0f}); ratio to plain in the same round {ratio:.3f} ({change}); "
            f"{used:.2f} CPU s ({used / statistics.median(cpu['plain']):.3f} of plain's)"
            + (f", {lost:,.0f} messages dropped" if way.startswith("mqtt") else "")
        )
    print()


def redraw_cost(redraws: int = 2000) -> dict[str, float]:
    """Microseconds per redraw of a progress line on a terminal, ours (tqdm) and rich's."""
    costs = {}
    display = ProgressDisplay("a vs b", 10**9, stream=_Terminal(), show=True)
    display._interval = 0.0  # every update is drawn
    display.update(1, "warm-up")
    started = time.perf_counter()
    for done in range(redraws):
        display.update(done * 1000, "a +12.3 ± 45.6 mbb/g")
    costs["tqdm"] = (time.perf_counter() - started) / redraws * 1e6
    display.close()
    try:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn
    except ImportError:
        return costs
    console = Console(file=_Terminal(), force_terminal=True, width=120)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), console=console,
                        auto_refresh=False)  # fmt: skip
    task = progress.add_task("a vs b", total=10**9)
    progress.start()
    started = time.perf_counter()
    for done in range(redraws):
        progress.update(task, completed=done * 1000, description="a +12.3 ± 45.6 mbb/g")
        progress.refresh()
    costs["rich"] = (time.perf_counter() - started) / redraws * 1e6
    progress.stop()
    return costs


def import_ms(module: str) -> float | None:
    """Milliseconds to import ``module`` in a fresh interpreter (median of 5)."""
    times = []
    for _ in range(5):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            return None
        last = done.stderr.strip().splitlines()[-1].split("|")
        times.append(int(last[1]) / 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100_000, help="hands per half (100000)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each way (3)")
    parser.add_argument("--jobs", default="1,2", help="--jobs values to measure (1,2)")
    args = parser.parse_args(argv)
    configure_logging(level="error")
    jobs_list = [int(j) for j in args.jobs.split(",")]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "broker"
        folder.mkdir()
        broker = Mosquitto(folder).start()
        try:
            play("plain", 2000, 1, broker.url, Path(scratch) / "warm-up")  # imports, caches
            for jobs in jobs_list:
                measure(jobs, args.rounds, args.hands, broker.url, Path(scratch))
        finally:
            broker.stop()
    costs = redraw_cost()
    for name, micros in costs.items():
        print(f"one progress redraw with {name}: {micros:,.0f} us")
    for module in ("tqdm", "rich.progress"):
        ms = import_ms(module)
        if ms is not None:
            print(f"import {module}: {ms:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
