"""The web server for the tests: ``acpcbot web`` itself as a process (:func:`command`), or
the application on a real socket of 127.0.0.1 in the test's event loop (:func:`running`);
a raw HTTP request (a path exactly as written: no client tidies it)."""

from __future__ import annotations

import asyncio
import functools
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

from agents.registry import entrant, known_strategies
from dealer.web import WebSite, build_app


@dataclass(frozen=True)
class Running:
    port: int
    site: WebSite

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@asynccontextmanager
async def running(
    folders: list[Path],
    play_folder: Path,
    *,
    token: str | None = None,
    host: str = "127.0.0.1",
    classes: bool = False,
) -> AsyncIterator[Running]:
    """The application as ``acpcbot web`` builds it (``classes``: ``--allow-classes``)."""
    site = WebSite(
        folders,
        functools.partial(entrant, classes=classes),
        agents=["always-call", "example"],
        classes=classes,
        strategies=known_strategies,
        host=host,
        port=0,
        token=token,
        play_folder=play_folder,
    )
    runner = web.AppRunner(build_app(site), access_log=None)
    await runner.setup()
    tcp = web.TCPSite(runner, "127.0.0.1", 0)
    await tcp.start()
    port = runner.addresses[0][1]
    try:
        yield Running(port, site)
    finally:
        await runner.cleanup()


async def raw_get(port: int, target: str, host: str | None = None) -> tuple[int, bytes]:
    """``GET target`` as written, over a fresh connection: the status and the body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {target} HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\n"
        "Connection: close\r\n\r\n".encode("latin-1")
    )
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


ACPCBOT = Path(sys.executable).with_name("acpcbot")
SERVING = re.compile(r"acpcbot web: serving on (http://(\S+?):(\d+)/\S*) \(Ctrl-C to stop\)")


@contextmanager
def command(*args: str, cwd: Path | None = None) -> Iterator[tuple[str, int]]:
    """``acpcbot web ARGS --port 0`` running: the URL it printed, and its port. It must stop
    cleanly on Ctrl-C at the end."""
    process = subprocess.Popen(
        [str(ACPCBOT), "web", *args, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        line = process.stdout.readline()
        found = SERVING.match(line)
        assert found is not None, (line, process.stderr.read())
        yield found[1], int(found[3])
        process.send_signal(signal.SIGINT)
        assert process.wait(30) == 0, process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
