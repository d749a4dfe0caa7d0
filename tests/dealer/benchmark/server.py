"""The benchmark server in the test's event loop (the real service, line server, SQLite file
and, when asked, web page and HTTP API, on 127.0.0.1), and a line client that talks to it
over a real socket."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher

from agents.registry import entrant
from dealer.benchmark.config import ServerConfig, reference_config
from dealer.benchmark.database import Store, database_url
from dealer.benchmark.lineprotocol import HELP
from dealer.benchmark.pool import LocalRunPool
from dealer.benchmark.service import BenchmarkService, HouseBot
from dealer.benchmark.serving import ServeSettings, serve

LIMIT = "holdem.limit.2p.reverse_blinds.game"
ACPCBOT = str(Path(sys.executable).with_name("acpcbot"))
STARTED = re.compile(
    r"listening on 127\.0\.0\.1:(\d+), RUN lines name [^;]+?(?:; the page and the HTTP API on "
    r"(\S+?)/)?;"
)

CONFIG = f"""
port 0
# one house bot at a time: a request of two never starts (the tests that start no run)
maxRunningBots 1
game {LIMIT} {{
  maxMatchRuns 3
  matchHands 50
  bot caller always-call
  bot raiser always-raise
}}
user neil test
user ann pw
"""


_CHEAP = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)


def cheap_hash(secret: str) -> str:
    """An argon2id hash with the least work (the server checks any argon2 hash with the
    parameters it holds): the tests' logons take milliseconds, not half a second each."""
    return _CHEAP.hash(secret)


def config(text: str = CONFIG, **changes: Any) -> ServerConfig:
    return dataclasses.replace(reference_config(text, cheap_hash), **changes)


def house_bots(settings: ServerConfig) -> dict[str, dict[str, HouseBot]]:
    return {
        game.file: {b.name: HouseBot(b.name, entrant=entrant(b.command)) for b in game.bots}
        for game in settings.games
    }


@dataclass
class Server:
    service: BenchmarkService
    port: int
    data: Path
    url: str = ""
    """The page's (with ``web=True``), without its final ``/``."""

    def store(self) -> Store:
        """Another connection to the server's database (what a restart would read)."""
        return Store.open(database_url(None, self.data))


@contextlib.asynccontextmanager
async def running(
    data: Path, settings: ServerConfig | None = None, *, web: bool = False
) -> AsyncIterator[Server]:
    """The server on a free port, serving from ``data`` (``web``: and its page on another);
    stopped as a SIGTERM stops it."""
    settings = settings or config()
    stop = asyncio.Event()
    ready: asyncio.Future[Server] = asyncio.get_running_loop().create_future()
    serve_settings = ServeSettings(
        settings, data, "127.0.0.1", 0, "127.0.0.1", database_url(None, data),
        http_port=0 if web else None,
    )  # fmt: skip
    page: list[str] = []
    task = asyncio.create_task(
        serve(
            serve_settings,
            house_bots(settings),
            LocalRunPool(),
            stop=stop,
            ready=lambda service, port: ready.set_result(
                Server(service, port, data, page[0].rstrip("/") if page else "")
            ),
            web_ready=page.append,
        )
    )
    either: list[asyncio.Future[Any]] = [task, ready]
    await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        task.result()
    try:
        yield ready.result()
    finally:
        stop.set()
        await asyncio.wait_for(task, 60)


class LineClient:
    """A bm_widget-like connection, read and written by the test."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int, *lines: str) -> LineClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        client = cls(reader, writer)
        client.send(*lines)
        return client

    def send(self, *lines: str) -> None:
        for line in lines:
            self.writer.write(line.encode("latin-1") + b"\n")

    async def read_until(self, end: bytes, timeout: float = 10.0) -> bytes:
        """Everything up to and with ``end``."""
        return await asyncio.wait_for(self.reader.readuntil(end), timeout)

    async def read_to_close(self, timeout: float = 10.0) -> bytes:
        """Everything until the server closes the connection."""
        return await asyncio.wait_for(self.reader.read(), timeout)

    async def dropped(self, timeout: float = 10.0) -> bool:
        """Whether the server closed the connection (or reset it) without a word."""
        try:
            return await self.read_to_close(timeout) == b""
        except ConnectionResetError:
            return True

    async def answer(self, line: str, timeout: float = 10.0) -> bytes:
        """Send ``line``, then a ``HELP`` as a marker: everything answered before the help."""
        self.send(line, "HELP")
        got = await self.read_until(b"(bot_command)\n", timeout)
        return got.removesuffix(HELP)

    async def logged_on(self, timeout: float = 10.0) -> bytes:
        return await self.read_until(b"type help for commands\n", timeout)

    def close(self) -> None:
        self.writer.close()


@contextlib.contextmanager
def serve_process(
    config: Path, data: Path, *more: str
) -> Iterator[tuple[subprocess.Popen[str], int, str]]:
    """``acpcbot serve`` as a process, on free ports (``more``: its other arguments): it, its
    line port and its page's URL (without its final ``/``; empty without a page); killed at
    the end if still running."""
    ports = ("--port", "0") if "--no-http" in more else ("--port", "0", "--http-port", "0")
    process = subprocess.Popen(
        [ACPCBOT, "serve", "--config", str(config), "--data", str(data), *ports, *more],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = STARTED.search(line)
        assert found, line
        yield process, int(found[1]), found[2] or ""
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(30)
