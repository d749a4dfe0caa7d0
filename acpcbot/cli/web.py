"""A local web page for matches and their logs: watch them live, replay any ACPC log hand by
hand, and sit down at a seat yourself.

Live: the matches, players and tournaments publishing to the broker (--mqtt URL: what
`acpcbot watch` shows), and those in the folders DIR... (or a DIR that is a match or
tournament folder itself, as `acpcbot results` takes it, or a .log): progress, hands/s,
agent A's running mbb/g with its 95% CI, its bankroll curve with the CI band growing as
hands arrive, a tournament's crosstable as a heatmap as it fills; a match whose process died
shows as aborted.

Replay: any .log in the folders (ours or the reference dealer's): the hands with filters
(largest pots, showdowns, one player's losses, a hand number) and each hand step by step:
cards, board, every action with the pot; with the .probs of an --aivat match beside it, each
decision's fold/call/raise probabilities and the hand's AIVAT value.

Play: you against any agent `acpcbot agents` lists (NAME:KEY=VALUE,... with options; a
module:Class only with --allow-classes) on acpcbot's dealer, with buttons for the legal
actions only, the time limit per action shown and the running result; the match is an
ordinary match folder in --play-dir (logs and summary.json, which `acpcbot results` reads),
and the rematch with the same cards and the seats swapped is one click. Or you at a seat of
any ACPC dealer (its host and port), as `acpcbot play` seats an agent. A page closed
mid-match is a player that ran out of time: the dealer ends the match and the hands played
are kept. Ctrl-C or SIGTERM ends the matches being played as interrupted, their hands kept.

Safe by default: it listens on 127.0.0.1 and answers only requests addressed to it there;
it reads only the folders given (and --play-dir), whatever a URL says, and writes only in
--play-dir; with --host other than a loopback address it asks for a token (--token,
$ACPCBOT_WEB_TOKEN, or a random one printed in the URL). Every script and style is served
from the package (no CDN). Needs the web extra (aiohttp; --mqtt also the mqtt extra).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from acpcbot.cli.arguments import listening_port
from acpcbot.options import broker_url

HELP = "a local web page: live matches, replays of any ACPC log, and you at a seat"

TOKEN_VARIABLE = "ACPCBOT_WEB_TOKEN"
DEFAULT_PORT = 8000
NEXT_PORTS = 9
"""Ports after the default one tried when it is in use. Only for the default: it is ours,
and a second `acpcbot web` (another folder, another user of the machine) is ordinary use, so
taking the next port and saying so beats an error; a port the user chose is a promise (a
bookmark, a docker mapping, a proxy) that another port would silently break, so it fails."""


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "folders",
        metavar="DIR",
        type=Path,
        nargs="*",
        help="folders of results to serve (folders of them, match and tournament folders, "
        "logs); nothing else is read",
    )
    parser.add_argument(
        "--mqtt",
        type=broker_url,
        metavar="URL",
        help="also show the matches publishing to this MQTT broker: mqtt://[USER:PASS@]HOST"
        "[:PORT][/PREFIX] (as for acpcbot watch; the mqtt extra)",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="ADDR",
        help="the address to listen on (default 127.0.0.1; any other asks for a token)",
    )
    parser.add_argument(
        "--port",
        type=listening_port,
        metavar="N",
        help=f"the port (default {DEFAULT_PORT}, or the next free one up to "
        f"{DEFAULT_PORT + NEXT_PORTS} when it is in use; 0: any free one, printed)",
    )
    parser.add_argument(
        "--token",
        metavar="TEXT",
        help=f"the token a browser must give (default ${TOKEN_VARIABLE}, or with --host "
        "other than loopback a random one; always required when given)",
    )
    parser.add_argument(
        "--allow-classes",
        action="store_true",
        help="let the Play form name any Python class (module:Class) as the opponent, not "
        "only the agents `acpcbot agents` lists: whoever reaches the page can then import any "
        "module installed here, which runs its code",
    )
    parser.add_argument(
        "--play-dir",
        type=Path,
        default=Path("played"),
        metavar="DIR",
        help="where the matches you play go, one match folder each (default ./played, "
        "created with the first)",
    )


def run(args: argparse.Namespace) -> int:
    import contextlib
    import functools
    import os
    import secrets
    import sys
    from urllib.parse import urlsplit

    # here, not at the top: `acpcbot --help` loads none of this (issue 37)
    from acpcbot.eventloop import run as run_async
    from acpcbot.extras import need, need_mqtt

    need("aiohttp", "acpcbot web", "web")
    if args.mqtt is not None:
        need_mqtt()
    # after the extras' checks: a missing extra is one line, not an ImportError
    from agents.registry import entrant, known_strategies, playable_specs
    from dealer.web import WebSite, is_loopback, serve
    from dealer.web.app import serving_lines

    token = args.token or os.environ.get(TOKEN_VARIABLE) or None
    if token is None and not is_loopback(args.host):
        token = secrets.token_urlsafe(18)
    site = WebSite(
        folders=args.folders,
        entrant_of=functools.partial(entrant, classes=args.allow_classes),
        agents=playable_specs(),
        classes=args.allow_classes,
        strategies=known_strategies,
        mqtt=args.mqtt,
        host=args.host,
        port=DEFAULT_PORT if args.port is None else args.port,
        next_ports=NEXT_PORTS if args.port is None else 0,
        token=token,
        play_folder=args.play_dir,
    )

    def ready(url: str) -> None:
        print("\n".join(serving_lines(url, args.host, token)), flush=True)
        if args.port is None and (port := urlsplit(url).port) != DEFAULT_PORT:
            print(
                f"acpcbot web: port {DEFAULT_PORT} is in use, so {port} instead (--port N chooses)",
                file=sys.stderr,
                flush=True,
            )

    left: list[int] = []
    # Ctrl-C cancels the server (asyncio's runner), SIGTERM ends it (serve): either way its
    # play sessions are ended and recorded first.
    with contextlib.suppress(KeyboardInterrupt):
        run_async(serve(site, ready, left.append), uvloop=False)
    print("acpcbot web: stopped", file=sys.stderr, flush=True)
    if left and left[0]:
        # Their dealers would wait out the person's clock: leave them where they are.
        print(
            f"acpcbot web: {left[0]} match(es) being played were left; every hand they "
            "finished is in their logs",
            file=sys.stderr,
            flush=True,
        )
        sys.stdout.flush()
        os._exit(0)
    return 0
