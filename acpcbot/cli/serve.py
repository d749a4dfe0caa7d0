"""A benchmark server compatible with the ACPC reference's bm_server: users log on over TCP
(with bm_widget, or acpcbot connect), ask for runs against the house bots (RUNMATCHES game
#runs tag rngSeed player ..., LOCAL for their own bot), and their bot is told where to
connect (RUN HOST PORT). Each run plays on our dealer in a process of its own; its log goes
to DATA/logs/USER/, its result to the database (migrated at every start).

Without --config: heads-up limit hold'em against dpp and plicas. A house bot is an agent
spec (bot dpp dpp) or, as in the reference, a script run with HOST PORT POSITION. SIGTERM or
Ctrl-C stops the runs after their hand, keeping the queue; after a crash, the runs that were
playing are marked failed (their hands kept) and their users told at their next logon.

The web page and the HTTP API serve the public leaderboard (each user's best tag per house
bot, by duplicate result), "My matches" (a user's runs live, logs and results), an admin
view, and the API a script uses with NAME:PASSWORD as its token (/api/openapi.json). The
line protocol has no TLS (passwords cross in the clear), hence --insecure. Needs the server
extra.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from acpcbot.cli import arguments
from acpcbot.options import add_host, listening_port

HELP = "a benchmark server compatible with the ACPC reference's bm_server, with a web page"

LOG_LEVEL = "info"
"""A service's events (logons refused, runs started and ended, runs lost at a restart) are
its operator's record: shown unless --log-level says otherwise."""
DEFAULT_DATA = Path("acpcbot-server")


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="bm_server.config (the reference's format), or a .toml file of ours (limits per "
        "user, duplicate runs by default, the database and more)",
    )
    parser.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help=f"where the logs and the SQLite database go (default ./{DEFAULT_DATA})",
    )
    add_host(parser, "another needs --insecure")
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
        help="a database URL (default sqlite in DIR, server.db; postgresql://USER@HOST/DB needs "
        "the postgres extra)",
    )
    arguments.add_page_port(parser, "--http-port", "the port of the web page and the HTTP API")
    arguments.add_flag(parser, "--no-http", "serve no web page and no HTTP API")
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
    arguments.add_scheduler(
        parser,
        "the runs",
        "; its workers write the logs in DIR, at the same path, and RUN lines name a worker's "
        "$ACPCBOT_PUBLIC_HOST, else its address",
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
    arguments.add_flag(add, "--admin", "an administrator")
    actions.add_parser("list", help="every user, one a line")
    for action, what in (
        ("disable", "refuse the user's logons"),
        ("enable", "accept the user's logons again"),
        ("reset", "give the user a new password (printed once)"),
    ):
        actions.add_parser(action, help=what).add_argument("name", metavar="NAME")


def run(args: argparse.Namespace) -> None:
    import functools

    from acpcbot.extras import need  # the command's modules: not for --help (issue 37)

    web = () if args.serve_command == "user" or args.no_http else ("aiohttp",)
    for package in ("sqlalchemy", "alembic", "argon2", *web):
        need(package, "acpcbot serve", "server")
    # the command's modules, after the extras' checks: --help loads none of them
    from agents.registry import entrant
    from dealer.benchmark import (
        house_bots,
        manage_users,
        serve_saying,
        serve_settings,
        server_config,
        server_database,
    )

    config = server_config(args.config)
    data = args.data or Path(config.data or DEFAULT_DATA)
    database = server_database(args.database or config.database, data)
    if args.serve_command == "user":
        name, admin = getattr(args, "name", None), getattr(args, "admin", False)
        print("\n".join(manage_users(database, data, args.user_action, name, admin=admin)))
        return
    http_port, next_ports = args.http_port
    settings = serve_settings(
        config,
        data,
        database,
        host=args.host,
        port=args.port,
        public_host=args.public_host,
        insecure=args.insecure,
        http_port=None if args.no_http else http_port,
        http_next_ports=next_ports,
        tls_files=(args.tls_cert, args.tls_key),
        web_folders=args.web_folder,
    )
    serve_saying(
        settings,
        house_bots(config, entrant),
        say=functools.partial(print, flush=True),
        scheduler=args.scheduler,
        preload=("agents.registry",),
    )
