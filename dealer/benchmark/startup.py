"""What ``acpcbot serve`` starts the server with, from its command line's words: the
configuration (without one, the reference's format for the default games), the database's
URL, the settings checked before anything is served (an address beyond the loopback only
when said to be insecure, the TLS certificate with its key, the page's folders apart from
the users' logs, an address clients can connect to), the house bots made, and the line the
server says once it listens. Each refusal is one line (:class:`~acpcbot.errors.UsageError`).
"""

from __future__ import annotations

import ssl
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from acpcbot.errors import AcpcError, UsageError
from acpcbot.extras import need
from dealer.benchmark.config import ServerConfig, read_config, reference_config
from dealer.benchmark.database import database_url, shown_url
from dealer.benchmark.passwords import hash_password

if TYPE_CHECKING:
    from acpcbot.player import Entrant
    from dealer.benchmark.service import BenchmarkService, HouseBot
    from dealer.benchmark.serving import ServeSettings

__all__ = [
    "DEFAULT_GAMES",
    "house_bots",
    "listening_line",
    "serve_saying",
    "serve_settings",
    "server_config",
    "server_database",
    "tls_context",
]

DEFAULT_GAMES = """
game holdem.limit.2p.reverse_blinds.game {
    bot dpp dpp
    bot plicas plicas
}
"""
"""What is served without --config: the reference's format."""


def server_config(path: Path | None) -> ServerConfig:
    """The configuration in ``path`` (plain-text passwords hashed), or :data:`DEFAULT_GAMES`."""
    if path is not None:
        return read_config(path, hash_password)
    return reference_config(DEFAULT_GAMES, hash_password, source="(the default)")


def server_database(given: str | None, data: Path) -> str:
    """The database's URL (:func:`~dealer.benchmark.database.database_url`); PostgreSQL's
    needs the postgres extra."""
    url = database_url(given, data)
    if url.startswith("postgresql"):
        need("psycopg", "a PostgreSQL database", "postgres")
    return url


def tls_context(cert: Path | None, key: Path | None) -> ssl.SSLContext | None:
    """The TLS context of --tls-cert and --tls-key (both or neither)."""
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise UsageError("give --tls-cert and --tls-key together")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as exc:
        raise AcpcError(f"cannot use {cert} and {key} for TLS: {exc}") from None
    return context


def serve_settings(
    config: ServerConfig,
    data: Path,
    database: str,
    *,
    host: str | None,
    port: int | None,
    public_host: str | None,
    insecure: bool,
    http_port: int | None,
    http_next_ports: int,
    tls_files: tuple[Path | None, Path | None],
    web_folders: Sequence[Path],
) -> ServeSettings:
    """The settings of a server: the command line's word (``None``: not given), else the
    configuration's, each checked (``tls_files``: the certificate and its key, for
    :func:`tls_context`)."""
    # the service's modules load the runners (numpy, numba), the page's aiohttp: not for
    # `serve user`
    from dealer.benchmark.serving import ServeSettings
    from dealer.web import is_loopback

    host = host or config.host or "127.0.0.1"
    if not is_loopback(host) and not insecure:
        raise UsageError(
            f"listening on {host} sends passwords and moves over the network in the clear "
            "(the line protocol has no TLS): give --insecure to do it anyway"
        )
    tls = tls_context(*tls_files)
    for folder in web_folders:
        if not folder.is_dir():
            raise UsageError(f"--web-folder {folder}: not a folder")
        shown, kept = folder.resolve(), data.resolve()
        if shown.is_relative_to(kept) or kept.is_relative_to(shown):
            # (its Live and Replay views would show every user's logs to any user)
            raise UsageError(
                f"--web-folder {folder}: it holds the users' logs (--data {data}) or is in them"
            )
    public = public_host or config.public_host or host
    if public in ("0.0.0.0", "::", ""):
        raise UsageError(f"clients cannot connect to {public}: give --public-host NAME")
    return ServeSettings(
        config,
        data,
        host,
        port if port is not None else config.port,
        public,
        database,
        http_port=http_port,
        http_next_ports=http_next_ports,
        tls=tls,
        web_folders=tuple(web_folders),
    )


def house_bots(
    config: ServerConfig, entrant: Callable[[str], Entrant]
) -> dict[str, dict[str, HouseBot]]:
    """The house bots of every game, by game file and name: a startup script, or the agent
    ``entrant`` makes of its command (made once now: an agent that cannot be made is the
    operator's error, said before anything is served)."""
    # the service's modules load the runners (numpy, numba): not for `serve user`
    from dealer.benchmark.service import HouseBot

    bots: dict[str, dict[str, HouseBot]] = {}
    for game in config.games:
        bots[game.file] = {}
        for bot in game.bots:
            if bot.script is not None:
                bots[game.file][bot.name] = HouseBot(bot.name, script=bot.script)
                continue
            try:
                house = entrant(bot.command)
                house.create(0)
            except AcpcError as exc:
                raise AcpcError(f"game {game.file}, bot {bot.name}: {exc}") from None
            bots[game.file][bot.name] = HouseBot(bot.name, entrant=house)
    return bots


def listening_line(
    settings: ServeSettings,
    service: BenchmarkService,
    port: int,
    page: Sequence[str],
    *,
    on_cluster: bool,
) -> str:
    """What the server says once it listens on ``port`` (``page``: the web page's URL, when
    it is served)."""
    config, data = settings.config, settings.data
    games = ", ".join(f"{g.file} ({', '.join(b.name for b in g.bots)})" for g in config.games)
    named = "each worker's host" if on_cluster else settings.public_host
    web = f"; the page and the HTTP API on {page[0]}" if page else ""
    default = settings.database == database_url(None, data)
    shown = f"{data / 'server.db'}" if default else shown_url(settings.database)
    return (
        f"acpcbot serve: listening on {settings.host}:{port}, RUN lines name {named}{web}; "
        f"games: {games}; runs on {service.executor.description}; logs in {data}, database "
        f"{shown} (SIGTERM or Ctrl-C to stop)"
    )


def serve_saying(
    settings: ServeSettings,
    bots: Mapping[str, Mapping[str, HouseBot]],
    *,
    say: Callable[[str], None],
    scheduler: str | None = None,
    preload: tuple[str, ...] = (),
) -> None:
    """Serve (:func:`~dealer.benchmark.serving.run_server`) until stopped, saying
    :func:`listening_line` once the server listens, and that it has stopped."""
    # the service's modules load the runners (numpy, numba): not for `serve user`
    from dealer.benchmark.serving import run_server

    page: list[str] = []  # the web page's URL, once it is served

    def ready(service: BenchmarkService, port: int) -> None:
        say(listening_line(settings, service, port, page, on_cluster=scheduler is not None))

    run_server(
        settings, bots, preload=preload, ready=ready, web_ready=page.append, scheduler=scheduler
    )
    say("acpcbot serve: stopped")
