#!/usr/bin/env python3
"""Benchmark acpcbot's dealer: hands/s over TCP and in-process, medians of several runs.

    python scripts/bench_dealer.py [--hands 100000] [--runs 3] [--inprocess A,B]...
        [--clients acpcbot|example|both] [--example-player PATH] [--reference-dealer PATH]
        [--match-tcp] [--baseline DIR] [--skip-inprocess] [--skip-tcp] [--dealer-args ARGS]...

* in-process: our referee with two agents (always-call twice unless ``--inprocess A,B``
  names others; repeat it for several pairs), no sockets, each run in a fresh interpreter:
  hands per second of wall-clock time and per second of the process's CPU time (which a
  busy machine moves less);
* TCP: our ``acpc-dealer`` (a subprocess, ``-q``) with two client processes: by default
  ``acpcbot play ... --agent always-call`` (the acpcbot client), with ``--clients example``
  two ACPC ``example_player`` binaries (give ``--example-player``), with ``both`` each;
* ``--match-tcp``: ``acpcbot match always-call always-call --transport tcp`` (half 1 only),
  the dealer and both clients in one process;
* the second programs, for the ratios, measured in the same run and alternating with ours
  so that they see the same machine load: with ``--reference-dealer PATH`` the ACPC
  reference ``dealer`` runs the same matches with the same clients; with ``--baseline DIR``
  another acpcbot source tree (say a ``git worktree`` of ``main``) runs the in-process and
  TCP benchmarks with its own code. This script never builds the reference: pass the
  binaries you built yourself.

The reference dealer listens on every interface, so it is only started when this network
namespace has no interface but loopback; run the whole script as
``unshare -n sh -c 'ip link set lo up; python scripts/bench_dealer.py ...'``.

The dealer's memory (resident set) is sampled during each run and reported at 10%, 50%
and 100% of the last run, to show that it stays flat; for the TCP runs also its peak
(``VmHWM``: issue 37 asks ``acpc-dealer`` for 60 MB at most) and its CPU time a hand. The
load average is printed at the start and the end, and the 1-minute figure beside each run:
on a busy machine every number is lower, the ratios less so (issue 37 asks ``acpc-dealer``
for 1.0x the reference's hands/s with ``example_player`` clients under load, 1.5x quiet).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shlex
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

GAME = "holdem.limit.2p.reverse_blinds.game"
OURS = "acpcbot"


@dataclass
class Run:
    hands_per_s: float
    rss_kb: list[int] = field(default_factory=list)
    hands_per_cpu_s: float | None = None
    peak_kb: int = 0
    """The dealer's peak resident set (``VmHWM``, last sampled a fifth of a second before it
    ended)."""
    cpu_us_per_hand: float | None = None
    """The dealer's CPU time (user and system) per hand, as last sampled."""
    load: float = field(default_factory=lambda: os.getloadavg()[0])
    """The 1-minute load average when the run started."""


def status_kb(pid: int, field: str = "VmRSS") -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def rss_kb(pid: int) -> int:
    return status_kb(pid)


def cpu_s(pid: int) -> float | None:
    """User and system CPU seconds of a running process (``/proc/PID/stat``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def only_loopback() -> bool:
    """True inside a network namespace whose only interface is loopback."""
    return [name for _, name in socket.if_nameindex()] == ["lo"]


def load_average() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def environment(source: str) -> dict[str, str]:
    """The environment for a subprocess running ``source`` (our tree, or a baseline's)."""
    env = dict(os.environ)
    if source != OURS:
        env["PYTHONPATH"] = source
    return env


def game_file(folder: Path) -> Path:
    from acpcbot.game import bundled_game_path

    path = folder / GAME
    shutil.copy(bundled_game_path(GAME), path)
    return path


def client_commands(kind: str, port: int, example_player: str | None) -> list[str]:
    if kind == "example":
        assert example_player is not None
        return [example_player, GAME, "127.0.0.1", str(port)]
    acpcbot = str(Path(sys.executable).with_name("acpcbot"))
    return [acpcbot, "--log-level", "warning", "play", "127.0.0.1", str(port),
            "--agent", "always-call"]  # fmt: skip


def tcp_run(dealer: list[str], clients: str, source: str, args: argparse.Namespace) -> Run:
    """One match: the dealer prints its ports, the clients connect, time to SCORE."""
    env = environment(source)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        game_file(Path(folder))
        started = time.perf_counter()
        process = subprocess.Popen(
            [*dealer, "bench", GAME, str(args.hands), str(args.seed), "A", "B", "-q"],
            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
        )  # fmt: skip
        assert process.stdout is not None
        ports = [int(p) for p in process.stdout.readline().split()]
        quiet = subprocess.DEVNULL
        commands = [client_commands(clients, port, args.example_player) for port in ports]
        running = [
            subprocess.Popen(command, cwd=folder, stdout=quiet, stderr=quiet, env=env)
            for command in commands
        ]
        samples = []
        peak, cpu = 0, None
        while process.poll() is None:
            samples.append(rss_kb(process.pid))
            peak = max(peak, status_kb(process.pid, "VmHWM"))
            cpu = cpu_s(process.pid) or cpu
            time.sleep(0.2)
        elapsed = time.perf_counter() - started
        score = process.stdout.read().strip()
        for client in running:
            client.wait(timeout=30)
    if process.returncode != 0 or not score.startswith("SCORE"):
        raise SystemExit(f"{dealer[0]} failed (status {process.returncode})")
    per_hand = None if cpu is None else cpu / args.hands * 1e6
    return Run(args.hands / elapsed, [s for s in samples if s], None, peak, per_hand, load)


INPROCESS = """
import json, os, sys, tempfile, time
from pathlib import Path
from acpcbot.game import bundled_game
from agents.registry import create_agent
try:
    from dealer.referee import MatchConfig, MatchLog, Referee, play_in_process
except ImportError:  # a --baseline tree from before dealer/ was split by job
    from dealer.config import MatchConfig
    from dealer.inprocess import play_in_process
    from dealer.matchlog import MatchLog
    from dealer.referee import Referee

hands, seed, agents = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(",")
config = MatchConfig("bench", bundled_game(), "GAME", hands, seed, ("A", "B"))
samples = []

def rss_kb():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0

def sample(referee):
    if referee.hand_number % (hands // 20 or 1) == 0:
        samples.append(rss_kb())

with tempfile.TemporaryDirectory() as folder, open(Path(folder) / "b.log", "wb") as file:
    log = MatchLog(file)
    log.header(config.header)
    referee = Referee(config, log=log)
    players = [create_agent(agents[0], 1), create_agent(agents[1], 2)]
    started, cpu = time.perf_counter(), time.process_time()
    play_in_process(referee, players, after_hand=sample)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
print(json.dumps({"hands_per_s": hands / elapsed, "hands_per_cpu_s": hands / cpu,
                  "rss_kb": samples}))
""".replace("GAME", GAME)


def inprocess_run(source: str, pair: str, args: argparse.Namespace) -> Run:
    """Our referee (or the baseline's) in a fresh interpreter; timed from the first deal."""
    done = subprocess.run(
        # -P: the current folder must not shadow the source tree under test.
        [sys.executable, "-P", "-c", INPROCESS, str(args.hands), str(args.seed), pair],
        env=environment(source), capture_output=True, text=True, check=True,
    )  # fmt: skip
    result = json.loads(done.stdout)
    return Run(result["hands_per_s"], result["rss_kb"], result["hands_per_cpu_s"])


def match_tcp_run(source: str, args: argparse.Namespace) -> Run:
    """``acpcbot match --transport tcp``: the dealer and both clients in one process."""
    acpcbot = str(Path(sys.executable).with_name("acpcbot"))
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [acpcbot, "match", "always-call", "always-call", "--transport", "tcp",
             "--no-duplicate", "--hands", str(args.hands), "--seed", str(args.seed),
             "--out", folder, "--json"],
            env=environment(source), capture_output=True, text=True, check=True,
        )  # fmt: skip
    return Run(json.loads(done.stdout)["hands_per_second"])


def report(name: str, runs: list[Run]) -> float:
    rates = [r.hands_per_s for r in runs]
    median = statistics.median(rates)
    shown = ", ".join(f"{r:,.0f}" for r in rates)
    memory = ""
    rss = runs[-1].rss_kb
    if rss:  # from a tenth of the run on: after imports and the evaluator's first load
        tenth = rss[len(rss) // 10]
        memory = (
            f"; RSS at 10%/50%/100% of the last run {tenth:,}/{rss[len(rss) // 2]:,}/{rss[-1]:,} kB"
        )
    loads = "/".join(f"{r.load:.1f}" for r in runs)
    print(f"{name:<52} median {median:>9,.0f} hands/s  (runs: {shown}; load {loads}){memory}")
    if any(r.peak_kb for r in runs):
        cpu = [r.cpu_us_per_hand for r in runs if r.cpu_us_per_hand is not None]
        spent = f", CPU {statistics.median(cpu):,.0f} µs a hand (median)" if cpu else ""
        print(f"{'':<52} peak RSS {max(r.peak_kb for r in runs):,} kB (largest run){spent}")
    cpu = [r.hands_per_cpu_s for r in runs if r.hands_per_cpu_s is not None]
    if cpu:
        shown = ", ".join(f"{r:,.0f}" for r in cpu)
        print(f"{'':<52} median {statistics.median(cpu):>9,.0f} hands/CPU s  (runs: {shown})")
    return median


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--clients", choices=["acpcbot", "example", "both"], default="acpcbot")
    parser.add_argument("--example-player", help="path of the ACPC example_player binary")
    parser.add_argument("--reference-dealer", help="path of the ACPC reference dealer binary")
    parser.add_argument("--baseline", help="another acpcbot source tree to compare with")
    parser.add_argument("--match-tcp", action="store_true", help="also time acpcbot match tcp")
    parser.add_argument(
        "--dealer-args",
        action="append",
        metavar="ARGS",
        help="options for our acpc-dealer, e.g. --dealer-args=--hold-idle; repeat to time several "
        "variants in one run ('' for the defaults)",
    )
    parser.add_argument(
        "--inprocess",
        action="append",
        metavar="A,B",
        help="the two agents of the in-process benchmark (always-call,always-call); repeat "
        "it to time several pairs in one run",
    )
    parser.add_argument("--skip-inprocess", action="store_true")
    parser.add_argument("--skip-tcp", action="store_true")
    args = parser.parse_args(argv)
    if args.clients != "acpcbot" and not args.example_player:
        parser.error(f"--clients {args.clients} needs --example-player")
    if args.reference_dealer and not only_loopback():
        parser.error("the reference dealer binds every interface: run inside `unshare -n`")
    sources = [OURS] + ([str(Path(args.baseline).resolve())] if args.baseline else [])
    try:
        import uvloop  # noqa: F401

        loop = "uvloop"
    except ImportError:
        loop = "asyncio (install the 'fast' extra for uvloop)"
    print(f"{args.hands:,} hands per run, {args.runs} runs, seed {args.seed}; event loop: {loop}")
    print(f"load average (1/5/15 min) at the start: {load_average()}")

    def label(source: str) -> str:
        return "" if source == OURS else " [baseline]"

    if not args.skip_inprocess:
        inprocess_benchmarks(args, sources, label)
    if not args.skip_tcp:
        tcp_benchmarks(args, sources, label)
    print(f"load average (1/5/15 min) at the end: {load_average()}")
    return 0


def inprocess_benchmarks(
    args: argparse.Namespace, sources: list[str], label: Callable[[str], str]
) -> None:
    pairs = args.inprocess or ["always-call,always-call"]
    runs: dict[tuple[str, str], list[Run]] = {(p, s): [] for p in pairs for s in sources}
    for _ in range(args.runs):  # alternate, so that all see the same machine load
        for (pair, source), done in runs.items():
            done.append(inprocess_run(source, pair, args))
    for pair in pairs:
        a, b = pair.split(",")
        name = f"in-process, {a} vs {b}"
        medians = {s: report(f"{name}{label(s)}", runs[pair, s]) for s in sources}
        if args.baseline:
            cpu = {s: statistics.median(r.hands_per_cpu_s or 0 for r in runs[pair, s])
                   for s in sources}  # fmt: skip
            print(f"ratio {name} / baseline: {medians[OURS] / medians[sources[1]]:.2f} "
                  f"(per CPU second {cpu[OURS] / cpu[sources[1]]:.2f})")  # fmt: skip


def tcp_benchmarks(
    args: argparse.Namespace, sources: list[str], label: Callable[[str], str]
) -> None:
    dealer = str(Path(sys.executable).with_name("acpc-dealer"))
    variants = {
        "" if not extra else f" [{extra}]": [dealer, *shlex.split(extra)]
        for extra in (args.dealer_args or [""])
    }
    kinds = ["acpcbot", "example"] if args.clients == "both" else [args.clients]
    clients = {"acpcbot": "always-call via acpcbot play", "example": "example_player"}
    reference = {kind: f"TCP, reference dealer, {clients[kind]}" for kind in kinds}
    # Every benchmark by name, with how to run it once: ours first, then the second programs.
    plans: dict[str, Callable[[], Run]] = {}
    for kind in kinds:
        for source in sources:
            for variant, ours in variants.items():
                name = f"TCP, acpc-dealer{variant}, {clients[kind]}{label(source)}"
                plans[name] = functools.partial(tcp_run, ours, kind, source, args)
        if args.reference_dealer:
            plans[reference[kind]] = functools.partial(
                tcp_run, [args.reference_dealer], kind, OURS, args
            )
    if args.match_tcp:
        for source in sources:
            name = f"acpcbot match --transport tcp (one process){label(source)}"
            plans[name] = functools.partial(match_tcp_run, source, args)
    runs: dict[str, list[Run]] = {name: [] for name in plans}
    for _ in range(args.runs):  # alternate, so that all see the same machine load
        for name, run in plans.items():
            runs[name].append(run())
    medians = {name: report(name, results) for name, results in runs.items()}
    c_reference = medians.get(reference.get("example", ""))
    for name, median in medians.items():
        if name in reference.values():
            continue
        if c_reference:
            print(f"ratio {name} / reference dealer with example_player: "
                  f"{median / c_reference:.2f}")  # fmt: skip
        for kind in kinds:
            same = medians.get(reference[kind])
            if kind != "example" and same and clients[kind] in name:
                print(f"ratio {name} / reference dealer with the same clients: {median / same:.2f}")


if __name__ == "__main__":
    sys.exit(main())
