"""Running the benchmark server until it is told to stop: the database opened (and migrated),
the service started (runs lost by a crash marked failed, the queue read back), the line
server listening, and the web page with the HTTP API (``acpcbot web``'s application with the
server's part, :mod:`.webapi`); SIGTERM or Ctrl-C stops it cleanly
(:meth:`.service.BenchmarkService.stop`).
"""

from __future__ import annotations

import asyncio
import os
import signal
import ssl
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from acpcbot import eventloop
from acpcbot.errors import AcpcError
from acpcbot.logconfig import get_logger
from dealer.benchmark.config import ServerConfig
from dealer.benchmark.database import Store
from dealer.benchmark.lineserver import LineServer
from dealer.benchmark.pool import LocalRunPool, RunExecutor
from dealer.benchmark.service import BenchmarkService, HouseBot

if TYPE_CHECKING:
    from aiohttp import web

    from acpcbot.player import Entrant

__all__ = ["ServeSettings", "run_server", "serve"]

log = get_logger("serve")


@dataclass(frozen=True)
class ServeSettings:
    """Where and how the server runs (the configuration with the command line's word)."""

    config: ServerConfig
    data: Path
    host: str
    port: int
    public_host: str
    database: str
    """A SQLAlchemy URL."""
    http_port: int | None = None
    """Where the web page and the HTTP API listen (on ``host``); ``None``: nowhere."""
    http_next_ports: int = 0
    """When ``http_port`` is in use, how many ports after it to try."""
    tls: ssl.SSLContext | None = None
    """Serve the page and the API over HTTPS."""
    web_folders: tuple[Path, ...] = ()
    """Folders of results the page's Live and Replay views show to users logged on."""


async def serve(
    settings: ServeSettings,
    bots: Mapping[str, Mapping[str, HouseBot]],
    executor: RunExecutor,
    *,
    stop: asyncio.Event,
    ready: Callable[[BenchmarkService, int], None] | None = None,
    web_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve until ``stop`` is set; ``ready`` is told the service and the port it listens
    on once it does, after ``web_ready`` is told the page's URL (when it is served)."""
    settings.data.mkdir(parents=True, exist_ok=True)
    store = await asyncio.to_thread(Store.open, settings.database)
    await asyncio.to_thread(
        store.sync_config_users,
        [(u.name, u.password_hash) for u in settings.config.users],
        now=time.time(),
    )
    service = BenchmarkService(
        settings.config,
        store,
        bots,
        executor,
        data=settings.data,
        user_host=settings.host,
        public_host=settings.public_host,
    )
    lost = await service.start()
    for run in lost:
        log.warning("run_lost", run=run.match_name, hands=run.hands, why=run.error)
    lines = LineServer(service)
    page: web.AppRunner | None = None
    try:
        try:
            await lines.start(settings.host, settings.port)
        except OSError as exc:  # (in use, or an address not of this machine)
            why = os.strerror(exc.errno).lower() if exc.errno else str(exc)
            raise AcpcError(f"cannot listen on {settings.host}:{settings.port}: {why}") from None
        if settings.http_port is not None:
            page, url = await _start_page(settings, service, lines.port)
            if web_ready is not None:
                web_ready(url)
        if ready is not None:
            ready(service, lines.port)
        await stop.wait()
    finally:
        if page is not None:
            await page.cleanup()  # (its streams end; its bot streams leave the service)
        lines.stop_listening()
        await service.stop()  # the clients are told the runs that stop
        await lines.close()
        await service.close()


async def _start_page(
    settings: ServeSettings, service: BenchmarkService, line_port: int
) -> tuple[web.AppRunner, str]:
    """``acpcbot web``'s application with the benchmark server's part, listening."""
    # the page's modules load aiohttp: only when the page is served
    from acpcbot.errors import AcpcError
    from dealer.benchmark.webapi import BenchmarkSite
    from dealer.web.app import WebSite, start

    def no_play(spec: str) -> Entrant:
        raise AcpcError("the benchmark server's page has no Play view")

    assert settings.http_port is not None
    site = BenchmarkSite(service, secure=settings.tls is not None)
    site.line_port = line_port
    return await start(
        WebSite(
            folders=settings.web_folders,
            entrant_of=no_play,
            host=settings.host,
            port=settings.http_port,
            next_ports=settings.http_next_ports,
            play=False,
            tls=settings.tls,
            extension=site,
        )
    )


def run_server(
    settings: ServeSettings,
    bots: Mapping[str, Mapping[str, HouseBot]],
    *,
    preload: tuple[str, ...] = (),
    ready: Callable[[BenchmarkService, int], None] | None = None,
    web_ready: Callable[[str], None] | None = None,
    scheduler: str | None = None,
) -> None:
    """Serve in this process until SIGTERM or Ctrl-C; the runs play in local processes, or
    on the Dask cluster whose scheduler is at ``scheduler``."""
    executor: RunExecutor
    if scheduler is not None:
        from dealer.benchmark.daskpool import DaskRunPool  # Dask's client: with --scheduler only

        executor = DaskRunPool(scheduler)
        executor.connect()  # (an unreachable scheduler is said before anything is served)
    else:
        executor = LocalRunPool(preload)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await serve(settings, bots, executor, stop=stop, ready=ready, web_ready=web_ready)

    try:
        eventloop.run(main())
    finally:
        executor.close()  # (again: closing twice is harmless, and a failed start closes too)
