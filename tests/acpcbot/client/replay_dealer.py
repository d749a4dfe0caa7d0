"""Test dealers on 127.0.0.1: a replay of one seat's recorded conversation with the ACPC
reference dealer, and hosting helpers (in the test's event loop, or on a thread for tests
that drive the blocking command line).

The replay sends what the reference dealer sent to the seat, in the recorded order, and
waits for each of the player's answers before sending what followed it, so it behaves like
the dealer as far as the player can tell. It records every byte the player sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
HASH_RAISER = "limit2p.seed42.n50.Alice_hash-Bob_raiser"


class Chunking(Enum):
    """How the replay cuts the dealer's bytes into writes."""

    LINES = "lines"
    """One write per line, like the reference dealer."""
    AWKWARD = "awkward"
    """Everything up to the next answer in one stream, cut at random points: several
    lines per write and lines split across writes."""
    BYTES = "bytes"
    """One byte per write."""


@dataclass(frozen=True)
class SeatScript:
    """One seat's side of a recorded match: ``(from_dealer, line)`` steps in wire order."""

    steps: tuple[tuple[bool, bytes], ...]

    @classmethod
    def load(cls, match_dir: Path, seat: int) -> SeatScript:
        steps = []
        with (match_dir / "capture.jsonl").open(encoding="utf-8") as capture:
            for record in map(json.loads, capture):
                if record["seat"] == seat:
                    data = record["data"].encode("latin-1")
                    steps.append((record["dir"] == "dealer->player", data))
        return cls(tuple(steps))

    @property
    def to_player(self) -> bytes:
        return b"".join(data for from_dealer, data in self.steps if from_dealer)

    @property
    def from_player(self) -> bytes:
        return b"".join(data for from_dealer, data in self.steps if not from_dealer)

    def first_hands(self, hands: int) -> SeatScript:
        """The steps of hands ``0 .. hands-1`` (and the VERSION line)."""
        kept = []
        for step in self.steps:
            _, data = step
            if data.startswith(b"MATCHSTATE:") and int(data.split(b":")[2]) >= hands:
                break
            kept.append(step)
        return SeatScript(tuple(kept))


@dataclass
class ReplayDealer:
    """Replays a :class:`SeatScript` to the one player that connects."""

    script: SeatScript
    chunking: Chunking = Chunking.LINES
    rewrite: Callable[[bytes], bytes] = lambda line: line
    """Applied to every line sent (line ends, comments)."""
    pause_after_answer: dict[int, float] = field(default_factory=dict)
    """Seconds to wait after the n-th answer (1-based; the VERSION line is answer 0)."""
    seed: int = 0
    received: bytearray = field(default_factory=bytearray)
    answer_delays: list[float] = field(default_factory=list)
    """Seconds from the end of each send to the answer that followed it."""
    finished: bool = False

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        rng = random.Random(self.seed)
        pending = bytearray()
        answers = 0
        try:
            for from_dealer, data in self.script.steps:
                if from_dealer:
                    pending += self.rewrite(data)
                    continue
                sent_at = asyncio.get_running_loop().time()
                await self._send(writer, bytes(pending), rng)
                pending.clear()
                line = await reader.readline()
                self.received += line
                if answers:
                    self.answer_delays.append(asyncio.get_running_loop().time() - sent_at)
                if not line.endswith(b"\n"):
                    return  # the player left
                await asyncio.sleep(self.pause_after_answer.get(answers, 0))
                answers += 1
            await self._send(writer, bytes(pending), rng)
            self.finished = True
            # End the match, and record anything the player still sends until it leaves.
            writer.write_eof()
            self.received += await asyncio.wait_for(reader.read(), 10)
        except (ConnectionError, TimeoutError):
            pass
        finally:
            writer.close()

    async def _send(self, writer: asyncio.StreamWriter, data: bytes, rng: random.Random) -> None:
        if not data:
            return
        if self.chunking is Chunking.LINES:
            pieces = data.splitlines(keepends=True)
        elif self.chunking is Chunking.BYTES:
            pieces = [data[i : i + 1] for i in range(len(data))]
        else:
            cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, 1 + len(data) // 40)))
            pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        for piece in pieces:
            writer.write(piece)
            await writer.drain()
            if self.chunking is not Chunking.LINES:
                # Give the player's loop turns to read this piece on its own.
                await asyncio.sleep(0)
                await asyncio.sleep(0)


@contextlib.asynccontextmanager
async def serving(handler: Handler) -> AsyncIterator[int]:
    """Serve ``handler`` on 127.0.0.1 in the running loop; yields the port. On the way out
    it waits a little for the connections still being handled, then cancels them."""
    running: set[asyncio.Task[Any]] = set()

    async def tracked(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        running.add(task)
        try:
            await handler(reader, writer)
        finally:
            running.discard(task)

    server = await asyncio.start_server(tracked, "127.0.0.1", 0)
    try:
        async with server:
            yield server.sockets[0].getsockname()[1]
    finally:
        if running:
            await asyncio.wait(set(running), timeout=5)
        for task in set(running):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


@contextlib.contextmanager
def serving_in_thread(handler: Handler) -> Iterator[int]:
    """Serve ``handler`` on 127.0.0.1 from a loop on its own thread; yields the port."""
    loop = asyncio.new_event_loop()
    started = threading.Event()
    port: list[int] = []
    stop = asyncio.Event()

    async def main() -> None:
        async with serving(handler) as bound:
            port.append(bound)
            started.set()
            await stop.wait()

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    if not started.wait(5):
        raise RuntimeError("the test dealer did not start")
    try:
        yield port[0]
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(5)
        loop.close()
