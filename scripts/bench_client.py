"""Benchmark the ACPC client's CPU path: hands per second through a real socket.

A replay dealer in a separate process sends one seat's recorded conversation with the
reference dealer (a 50-hand transcript from the vectors, repeated with renumbered hands),
waiting for each answer before sending what followed it. Measured in the same run:

* ``play_match``: the client (incremental state tracker), on asyncio's loop and, when
  installed, on uvloop;
* ``full-decode``: the same connection layer with a naive loop that parses and replays
  every line from scratch (``decode_match_state``), the obvious way to write a client;
* ``framing-only floor``: the connection layer answering from the script, with no
  decoding and no agent (what the event loop and the sockets cost);
* the decoders alone, without sockets (microseconds per line).

Reported: the median over the repeats of hands/s and of the client's user and system CPU
time per hand,
and ratios to ``full-decode``. Usage::

    .venv/bin/python scripts/bench_client.py [--hands 20000] [--repeats 5] [--agent hash]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import resource
import socket
import statistics
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from acpcbot import HandResult, MatchInfo, Player, bundled_game, load_game
from acpcbot.client import VERSION_LINE, play_match
from acpcbot.client.connection import connect
from acpcbot.eventloop import loop_factory, uvloop_available
from acpcbot.logconfig import configure_logging
from acpcbot.protocol import HandTracker, decode_match_state
from agents.registry import create_agent

REPO = Path(__file__).resolve().parents[1]

VECTORS = Path(os.environ.get("ACPC_VECTORS", REPO / "tests" / "data" / "acpc-vectors"))
"""The reference dealer's recorded vectors: the tests' copy, or ``$ACPC_VECTORS``."""

Burst = tuple[bytes, bool]
"""Bytes the dealer sends, and whether an answer is awaited after them."""


def recorded_bursts(match: str, seat: int, hands: int) -> tuple[list[Burst], list[str]]:
    """The seat's recorded conversation, repeated with renumbered hands up to ``hands``."""
    import json

    steps: list[tuple[bool, str]] = []
    with (VECTORS / "transcripts" / match / "capture.jsonl").open() as capture:
        for record in map(json.loads, capture):
            if record["seat"] == seat and record["data"].startswith("MATCHSTATE"):
                steps.append((record["dir"] == "dealer->player", record["data"]))
    per_copy = 1 + max(int(data.split(":")[2]) for _, data in steps)
    bursts: list[Burst] = []
    lines: list[str] = []
    pending: list[str] = []
    for copy in range((hands + per_copy - 1) // per_copy):
        for from_dealer, data in steps:
            if not from_dealer:
                bursts.append(("".join(pending).encode(), True))
                pending = []
                continue
            head, position, hand, rest = data.split(":", 3)
            if int(hand) + copy * per_copy >= hands:
                break
            line = f"{head}:{position}:{int(hand) + copy * per_copy}:{rest}"
            pending.append(line)
            lines.append(line[:-2])
    bursts.append(("".join(pending).encode(), False))
    return bursts, lines


def serve(match: str, seat: int, hands: int, ports: Any) -> None:
    """The replay dealer: serves the conversation to each connection, one after another."""
    bursts, _ = recorded_bursts(match, seat, hands)
    with socket.create_server(("127.0.0.1", 0)) as server:
        ports.put(server.getsockname()[1])
        while True:
            conn, _ = server.accept()
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with conn, conn.makefile("rb") as answers:
                answers.readline()  # VERSION
                for data, answered in bursts:
                    conn.sendall(data)
                    if answered:
                        answers.readline()


async def full_decode_client(host: str, port: int, player: Player, game: Any) -> int:
    """The naive client: every line parsed and replayed from scratch."""
    player.begin_match(MatchInfo(game=game))
    hands = 0
    async with connect(host, port, connect_timeout=10, read_timeout=60) as dealer:
        await dealer.send(VERSION_LINE)
        async for line in dealer:
            state, hand = decode_match_state(line.decode("latin-1"), game)
            player.observe(state, hand)
            if hand.finished:
                player.end_hand(HandResult(state, (0.0,) * game.num_players))
                hands += 1
            elif hand.current_player == state.position:
                action = player.act(state, hand)
                await dealer.send(b"%s:%s\r\n" % (line, str(action).encode()))
    return hands


def framing_floor(bursts: list[Burst], hands: int) -> Callable[..., Coroutine[Any, Any, int]]:
    """A client that only frames lines and answers where the recording answered (it knows
    the script): the cost of the connection layer and the event loop alone."""
    answer_after: list[int] = []
    total = 0
    for data, answered in bursts:
        total += data.count(b"\n")
        if answered:
            answer_after.append(total)

    async def client(host: str, port: int, player: Player, game: Any) -> int:
        del player, game
        due = iter(answer_after)
        next_answer = next(due, -1)
        lines = 0
        async with connect(host, port, connect_timeout=10, read_timeout=60) as dealer:
            await dealer.send(VERSION_LINE)
            async for line in dealer:
                lines += 1
                if lines == next_answer:
                    await dealer.send(line + b":c\r\n")
                    next_answer = next(due, -1)
        return hands if lines == total else -1

    return client


async def tracker_client(host: str, port: int, player: Player, game: Any) -> int:
    summary = await play_match(host, port, player, game=game)
    return summary.hands


def measure(
    client: Callable[..., Coroutine[Any, Any, int]],
    port: int,
    agent: str,
    game: Any,
    hands: int,
    uvloop: bool,
) -> tuple[float, float, float]:
    """(hands/s, client user-CPU µs per hand, client system-CPU µs per hand) of one run."""
    factory = loop_factory(uvloop)
    with asyncio.Runner(loop_factory=factory) as runner:
        before, wall = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        played = runner.run(client("127.0.0.1", port, create_agent(agent), game))
        wall, after = time.perf_counter() - wall, resource.getrusage(resource.RUSAGE_SELF)
    assert played == hands, (played, hands)
    user = after.ru_utime - before.ru_utime
    system = after.ru_stime - before.ru_stime
    return hands / wall, 1e6 * user / hands, 1e6 * system / hands


def decode_microbench(lines: list[str], game: Any) -> tuple[float, float]:
    """µs per line of the tracker and of the full decoder, median of 5."""

    def tracker() -> None:
        advance = HandTracker(game).advance
        for line in lines:
            advance(line)

    def full() -> None:
        for line in lines:
            decode_match_state(line, game)

    results = []
    for fn in (tracker, full):
        times = []
        for _ in range(5):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        results.append(1e6 * statistics.median(times) / len(lines))
    return results[0], results[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--agent", default="hash", help="an agent that decides instantly")
    parser.add_argument("--match", default="limit2p.seed42.n50.example")
    parser.add_argument("--seat", type=int, default=1)
    parser.add_argument("--game", default=None, help="default: the bundled limit game")
    args = parser.parse_args(argv)
    configure_logging(level="error")
    game = load_game(args.game) if args.game else bundled_game()

    bursts, lines = recorded_bursts(args.match, args.seat, args.hands)
    print(f"stream: {args.hands} hands, {len(lines)} states ({len(lines) / args.hands:.1f}/hand)")
    tracker_us, full_us = decode_microbench(lines[:20000], game)
    print(
        f"decoding alone: tracker {tracker_us:.2f} µs/state, full decode {full_us:.2f} µs/state "
        f"({full_us / tracker_us:.1f}x)"
    )

    ports: Any = multiprocessing.get_context("spawn").Queue()
    server = multiprocessing.get_context("spawn").Process(
        target=serve, args=(args.match, args.seat, args.hands, ports), daemon=True
    )
    server.start()
    port = ports.get(timeout=30)
    floor = framing_floor(bursts, args.hands)
    variants: list[tuple[str, Callable[..., Coroutine[Any, Any, int]], bool]] = [
        ("full-decode", full_decode_client, False),
        ("play_match", tracker_client, False),
        ("framing-only floor", floor, False),
    ]
    if uvloop_available():
        variants += [
            ("full-decode+uvloop", full_decode_client, True),
            ("play_match+uvloop", tracker_client, True),
            ("floor+uvloop", floor, True),
        ]
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name, _, _ in variants}
    for _ in range(args.repeats):  # interleaved, so that drift hits every variant alike
        for name, client, uvloop in variants:
            runs[name].append(measure(client, port, args.agent, game, args.hands, uvloop))
    server.terminate()

    base = statistics.median(r[0] for r in runs["full-decode"])
    print(
        f"{'client':<20} {'hands/s':>8} {'(range)':>13} {'user µs/hand':>13} {'sys µs/hand':>12} "
        f"{'ratio':>6}"
    )
    for name, results in runs.items():
        rates = [r[0] for r in results]
        rate = statistics.median(rates)
        user = statistics.median(r[1] for r in results)
        system = statistics.median(r[2] for r in results)
        print(
            f"{name:<20} {rate:>8.0f} {min(rates):>6.0f}-{max(rates):<6.0f} {user:>13.1f} "
            f"{system:>12.1f} {rate / base:>6.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
