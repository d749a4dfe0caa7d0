#!/usr/bin/env python3
"""Benchmark acpcbot's dealer: hands/s over TCP and in-process, medians of several runs.

    python scripts/bench_dealer.py [--hands 100000] [--runs 3]
        [--clients acpcbot|example] [--example-player PATH] [--reference-dealer PATH]

* in-process: our engine with two always-call agents, no sockets;
* TCP: our ``acpc-dealer`` (a subprocess, ``-q``) with two client processes: by default
  ``acpcbot play ... --agent always-call`` (the acpcbot client), or with ``--clients
  example`` two ACPC ``example_player`` binaries (give ``--example-player``);
* the second program, for the ratio: with ``--reference-dealer PATH`` the ACPC reference
  ``dealer`` runs the same matches with the same clients, in the same run, alternating
  with ours. This script never builds it: pass the binary you built yourself.

The reference dealer listens on every interface, so it is only started when this network
namespace has no interface but loopback; run the whole script as
``unshare -n sh -c 'ip link set lo up; python scripts/bench_dealer.py ...'``.

The dealer's memory (resident set) is sampled during each TCP run and reported at the
start, middle and end, to show that it stays flat over the run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

GAME = "holdem.limit.2p.reverse_blinds.game"


@dataclass
class Run:
    hands_per_s: float
    rss_kb: list[int]
    score: str


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def only_loopback() -> bool:
    """True inside a network namespace whose only interface is loopback."""
    return [name for _, name in socket.if_nameindex()] == ["lo"]


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


def tcp_run(dealer: list[str], hands: int, seed: int, args: argparse.Namespace) -> Run:
    """One match: the dealer prints its ports, the clients connect, time to SCORE."""
    with tempfile.TemporaryDirectory() as folder:
        game_file(Path(folder))
        started = time.perf_counter()
        process = subprocess.Popen(
            [*dealer, "bench", GAME, str(hands), str(seed), "A", "B", "-q"],
            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        assert process.stdout is not None
        ports = [int(p) for p in process.stdout.readline().split()]
        quiet = subprocess.DEVNULL
        commands = [client_commands(args.clients, port, args.example_player) for port in ports]
        clients = [
            subprocess.Popen(command, cwd=folder, stdout=quiet, stderr=quiet)
            for command in commands
        ]
        samples = []
        while process.poll() is None:
            samples.append(rss_kb(process.pid))
            time.sleep(0.2)
        elapsed = time.perf_counter() - started
        score = process.stdout.read().strip()
        for client in clients:
            client.wait(timeout=30)
    if process.returncode != 0 or not score.startswith("SCORE"):
        raise SystemExit(f"{dealer[0]} failed (status {process.returncode})")
    return Run(hands / elapsed, [s for s in samples if s], score)


def inprocess_run(hands: int, seed: int) -> Run:
    from acpcbot.game import bundled_game
    from agents.registry import create_agent
    from dealer.config import MatchConfig
    from dealer.engine import MatchEngine
    from dealer.inprocess import play_in_process
    from dealer.matchlog import MatchLog

    config = MatchConfig("bench", bundled_game(), GAME, hands, seed, ("A", "B"))
    samples: list[int] = []

    def sample(engine: MatchEngine) -> None:
        if engine.hand_number % (hands // 20 or 1) == 0:
            samples.append(rss_kb(os.getpid()))

    with tempfile.TemporaryDirectory() as folder, open(Path(folder) / "b.log", "wb") as file:
        log = MatchLog(file)
        log.header(config.header)
        engine = MatchEngine(config, log=log)
        players = [create_agent("always-call"), create_agent("always-call")]
        started = time.perf_counter()
        score = play_in_process(engine, players, after_hand=sample)
        elapsed = time.perf_counter() - started
    return Run(hands / elapsed, samples, score)


def report(name: str, runs: list[Run]) -> float:
    rates = [r.hands_per_s for r in runs]
    median = statistics.median(rates)
    shown = ", ".join(f"{r:,.0f}" for r in rates)
    memory = ""
    rss = runs[-1].rss_kb
    if rss:  # from a tenth of the run on: after imports and the evaluator's first load
        tenth = rss[len(rss) // 10]
        memory = (
            f"; RSS at 10%/50%/100% of the last run {tenth:,}/{rss[len(rss) // 2]:,}/"
            f"{rss[-1]:,} kB (first sample {rss[0]:,})"
        )
    print(f"{name:<34} median {median:>9,.0f} hands/s  (runs: {shown}){memory}")
    return median


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--clients", choices=["acpcbot", "example"], default="acpcbot")
    parser.add_argument("--example-player", help="path of the ACPC example_player binary")
    parser.add_argument("--reference-dealer", help="path of the ACPC reference dealer binary")
    parser.add_argument("--skip-inprocess", action="store_true")
    parser.add_argument("--skip-tcp", action="store_true")
    args = parser.parse_args()
    if args.clients == "example" and not args.example_player:
        parser.error("--clients example needs --example-player")
    if args.reference_dealer and not only_loopback():
        parser.error("the reference dealer binds every interface: run inside `unshare -n`")
    ours = [str(Path(sys.executable).with_name("acpc-dealer"))]
    try:
        import uvloop  # noqa: F401

        loop = "uvloop"
    except ImportError:
        loop = "asyncio (install the 'fast' extra for uvloop)"
    print(f"{args.hands:,} hands per run, {args.runs} runs, seed {args.seed}; event loop: {loop}")

    if not args.skip_inprocess:
        report("in-process, always-call x2", [inprocess_run(args.hands, args.seed)
                                               for _ in range(args.runs)])  # fmt: skip
    if not args.skip_tcp:
        clients = "always-call via acpcbot play" if args.clients == "acpcbot" else "example_player"
        ours_runs: list[Run] = []
        reference_runs: list[Run] = []
        for _ in range(args.runs):  # alternate, so both see the same machine load
            ours_runs.append(tcp_run(ours, args.hands, args.seed, args))
            if args.reference_dealer:
                reference_runs.append(tcp_run([args.reference_dealer], args.hands, args.seed, args))
        mine = report(f"TCP, acpc-dealer, {clients}", ours_runs)
        if reference_runs:
            theirs = report(f"TCP, reference dealer, {clients}", reference_runs)
            print(f"ratio acpc-dealer / reference dealer: {mine / theirs:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
