"""A benchmark server, compatible with the ACPC reference's bm_server: users log on over TCP
(with the reference's bm_widget, or acpcbot connect), ask for runs of matches against the
house bots (RUNMATCHES game #runs tag rngSeed player ..., LOCAL for their own bot), and their
bot is told where to connect (RUN HOST PORT) when a run starts. Each run plays on our dealer,
in a process of its own; its log goes to DATA/logs/USER/, and its result to the database.

--config reads the reference's bm_server.config as it is, or a TOML file of ours (a name
ending in .toml) that adds limits per user, duplicate runs by default, the database and
more; without it, the server offers heads-up limit hold'em against dpp and plicas. A house
bot is an agent spec (bot dpp dpp) or, as in the reference, a startup script run with HOST
PORT POSITION. Plain-text passwords in the configuration are hashed as it is read; users
are also added with `acpcbot serve user add NAME`, which prints a generated password once.

The database is SQLite in DATA (server.db) unless --database names another (PostgreSQL:
postgresql://USER@HOST/DB, with the postgres extra); its tables are migrated at every
start. SIGTERM or Ctrl-C stops the runs after their hand and keeps the queue; after a crash,
the runs that were playing are marked failed (every hand their logs hold is kept) and their
users are told when they next log on.

The web page and the HTTP API are served on the same address, port 8000 unless told
(--http-port; the next free port up to 8009 when 8000 is in use; --no-http: none): the public
leaderboard (each user's best tag per house bot, by duplicate result), "My matches" (a user's
requests and runs live, their logs and results), an admin view; and the API a script uses
with the user's password as its token (NAME:PASSWORD), to submit and cancel requests, follow
them and download its logs (/api/openapi.json describes it).

--scheduler tcp://HOST:PORT plays the runs on a Dask cluster (the cluster extra) instead of
in processes of this machine: each worker must see DATA at the same path (the runs write
their logs there), and RUN lines name the worker's host ($ACPCBOT_PUBLIC_HOST in the
worker's environment, else its address).

It listens on 127.0.0.1 unless told: the line protocol has no TLS (passwords cross the
network in the clear), so another address needs --insecure; the page and the API take TLS
(--tls-cert, --tls-key), without which they are in the clear too. Needs the server extra.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from acpcbot.cli.arguments import listening_port

if TYPE_CHECKING:
    import ssl

    from dealer.benchmark import BenchmarkService, ServerConfig, Store

HELP = "a benchmark server compatible with the ACPC reference's bm_server, with a web page"

LOG_LEVEL = "info"
"""A service's events (logons refused, runs started and ended, runs lost at a restart) are
its operator's record: shown unless --log-level says otherwise."""
DEFAULT_DATA = Path("acpcbot-server")
DEFAULT_HTTP_PORT = 8000
NEXT_HTTP_PORTS = 9
"""As acpcbot web: ports after the default one tried when it is in use (a port given is
kept to, or fails)."""
DEFAULT_GAMES = """
game holdem.limit.2p.reverse_blinds.game {
    bot dpp dpp
    bot plicas plicas
}
"""
"""What is served without --config: the reference's format."""


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="bm_server.config (the reference's format), or a .toml file of ours",
    )
    parser.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help=f"where the logs and the SQLite database go (default ./{DEFAULT_DATA})",
    )
    parser.add_argument(
        "--host",
        metavar="ADDR",
        help="the address to listen on (default 127.0.0.1; another needs --insecure)",
    )
    parser.add_argument(
        "--port",
        type=listening_port,
        metavar="N",
        help="the port to listen on (default the configuration's, 54000; 0: any free one)",
    )
    parser.add_argument(
        "--public-host",
        metavar="NAME",
        help="the host name RUN lines tell clients to connect to (default the address listened on)",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help="a database URL (default sqlite in DIR; postgresql://USER@HOST/DB needs the "
        "postgres extra)",
    )
    parser.add_argument(
        "--http-port",
        type=listening_port,
        metavar="N",
        help=f"the port of the web page and the HTTP API (default {DEFAULT_HTTP_PORT}, or the "
        f"next free one up to {DEFAULT_HTTP_PORT + NEXT_HTTP_PORTS}; 0: any free one)",
    )
    parser.add_argument("--no-http", action="store_true", help="serve no web page and no HTTP API")
    parser.add_argument(
        "--tls-cert",
        type=Path,
        metavar="FILE",
        help="serve the page and the API over HTTPS with this certificate (PEM; with --tls-key)",
    )
    parser.add_argument("--tls-key", type=Path, metavar="FILE", help="its private key (PEM)")
    parser.add_argument(
        "--web-folder",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of results the page's Live and Replay views show to users logged on "
        "(as acpcbot web DIR; repeatable; not one holding --data or in it, where the users' "
        "logs are; default none: no such views)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play the runs on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://HOST:PORT; the cluster extra) instead of in processes of this machine: its "
        "workers must see DIR at the same path",
    )
    parser.add_argument(
        "--insecure",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="listen on an address other than the loopback, without TLS for the line "
        "protocol (and for the page, without --tls-cert) (default: no)",
    )
    users = parser.add_subparsers(dest="serve_command", metavar="user")
    user = users.add_parser(
        "user", help="add, list, disable, enable or reset users (the same database)"
    )
    actions = user.add_subparsers(dest="user_action", required=True, metavar="ACTION")
    add = actions.add_parser("add", help="add a user and print their password (once)")
    add.add_argument("name", metavar="NAME")
    add.add_argument("--admin", action="store_true", help="an administrator")
    actions.add_parser("list", help="every user, one a line")
    for action, what in (
        ("disable", "refuse the user's logons"),
        ("enable", "accept the user's logons again"),
        ("reset", "give the user a new password (printed once)"),
    ):
        actions.add_parser(action, help=what).add_argument("name", metavar="NAME")


def run(args: argparse.Namespace) -> int:
    # the command's modules: --help loads none of them
    from acpcbot.extras import need

    web = () if args.serve_command == "user" or args.no_http else ("aiohttp",)
    for package in ("sqlalchemy", "alembic", "argon2", *web):
        need(package, "acpcbot serve", "server")
    # the command's modules: --help loads none of them
    from dealer.benchmark import hash_password, read_config
    from dealer.benchmark.config import reference_config

    if args.config is not None:
        config = read_config(args.config, hash_password)
    else:
        config = reference_config(DEFAULT_GAMES, hash_password, source="(the default)")
    data = args.data or Path(config.data or DEFAULT_DATA)
    database = _database(args.database or config.database, data)
    if args.serve_command == "user":
        return _users(args, data, database)
    return _serve(args, config, data, database)


def _tls(cert: Path | None, key: Path | None) -> ssl.SSLContext | None:
    """The TLS context of --tls-cert and --tls-key (both or neither)."""
    import ssl

    # the command's modules: --help loads none of them
    from acpcbot.errors import AcpcError, UsageError

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


def _database(given: str | None, data: Path) -> str:
    # the command's modules: --help loads none of them
    from acpcbot.extras import need
    from dealer.benchmark import database_url

    url = database_url(given, data)
    if url.startswith("postgresql"):
        need("psycopg", "a PostgreSQL database", "postgres")
    return url


def _open(database: str, data: Path) -> Store:
    # the command's modules: --help loads none of them
    from dealer.benchmark import Store

    if database.startswith("sqlite"):
        data.mkdir(parents=True, exist_ok=True)
    return Store.open(database)


def _users(args: argparse.Namespace, data: Path, database: str) -> int:
    import time

    # the command's modules: --help loads none of them
    from dealer.benchmark import hash_password, new_secret
    from dealer.benchmark.config import check_name

    store = _open(database, data)
    try:
        if args.user_action == "list":
            for user in store.users():
                flags = [f for f, on in (("admin", user.admin), ("disabled", user.disabled)) if on]
                added = time.strftime("%Y-%m-%d %H:%M", time.gmtime(user.created))
                said = f"{user.name}  from {user.source}, added {added} UTC  {' '.join(flags)}"
                print(said.rstrip())
            return 0
        name = check_name(args.name, "user")
        if args.user_action in ("add", "reset"):
            secret = new_secret()
            if args.user_action == "add":
                store.add_user(
                    name, hash_password(secret), source="command", now=time.time(),
                    admin=args.admin,
                )  # fmt: skip
            else:
                store.set_password(name, hash_password(secret))
            print(f"user {name}'s password (shown once, keep it): {secret}")
        else:
            store.set_disabled(name, args.user_action == "disable")
            print(f"user {name} {args.user_action}d")
    finally:
        store.close()
    return 0


def _serve(args: argparse.Namespace, config: ServerConfig, data: Path, database: str) -> int:
    # the command's modules: --help loads none of them
    from acpcbot.errors import AcpcError, UsageError
    from agents.registry import entrant
    from dealer.benchmark import HouseBot, ServeSettings, run_server
    from dealer.benchmark.database import database_url, shown_url
    from dealer.web import is_loopback

    host = args.host or config.host or "127.0.0.1"
    if not is_loopback(host) and not args.insecure:
        raise UsageError(
            f"listening on {host} sends passwords and moves over the network in the clear "
            "(the line protocol has no TLS): give --insecure to do it anyway"
        )
    tls = _tls(args.tls_cert, args.tls_key)
    for folder in args.web_folder:
        if not folder.is_dir():
            raise UsageError(f"--web-folder {folder}: not a folder")
        shown, kept = folder.resolve(), data.resolve()
        if shown.is_relative_to(kept) or kept.is_relative_to(shown):
            # (its Live and Replay views would show every user's logs to any user)
            raise UsageError(
                f"--web-folder {folder}: it holds the users' logs (--data {data}) or is in them"
            )
    public = args.public_host or config.public_host or host
    if public in ("0.0.0.0", "::", ""):
        raise UsageError(f"clients cannot connect to {public}: give --public-host NAME")
    bots: dict[str, dict[str, HouseBot]] = {}
    for game in config.games:
        bots[game.file] = {}
        for bot in game.bots:
            if bot.script is not None:
                bots[game.file][bot.name] = HouseBot(bot.name, script=bot.script)
                continue
            try:  # an agent that cannot be made is the operator's error, said now
                house = entrant(bot.command)
                house.create(0)
            except AcpcError as exc:
                raise AcpcError(f"game {game.file}, bot {bot.name}: {exc}") from None
            bots[game.file][bot.name] = HouseBot(bot.name, entrant=house)
    http_port = None if args.no_http else args.http_port
    settings = ServeSettings(
        config,
        data,
        host,
        args.port if args.port is not None else config.port,
        public,
        database,
        http_port=http_port if http_port is not None or args.no_http else DEFAULT_HTTP_PORT,
        http_next_ports=NEXT_HTTP_PORTS if args.http_port is None else 0,
        tls=tls,
        web_folders=tuple(args.web_folder),
    )

    default_database = database_url(None, data)
    shown = f"{data / 'server.db'}" if database == default_database else shown_url(database)

    page: list[str] = []

    def ready(service: BenchmarkService, port: int) -> None:
        games = ", ".join(f"{g.file} ({', '.join(b.name for b in g.bots)})" for g in config.games)
        named = public if args.scheduler is None else "each worker's host"
        web = f"; the page and the HTTP API on {page[0]}" if page else ""
        print(
            f"acpcbot serve: listening on {host}:{port}, RUN lines name {named}{web}; games: "
            f"{games}; runs on {service.executor.description}; logs in {data}, database "
            f"{shown} (SIGTERM or Ctrl-C to stop)",
            flush=True,
        )

    if args.scheduler is not None:
        # the command's modules: --help loads none of them
        from acpcbot.extras import need

        need("distributed", "--scheduler", "cluster")
    run_server(
        settings,
        bots,
        preload=("agents.registry",),
        ready=ready,
        web_ready=page.append,
        scheduler=args.scheduler,
    )
    print("acpcbot serve: stopped", flush=True)
    return 0
