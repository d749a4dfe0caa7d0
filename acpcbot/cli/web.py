"""A local web page for matches and their logs: watch them live, replay any ACPC log hand by
hand, and sit down at a seat yourself.

Live: the matches, players and tournaments publishing to --mqtt's broker or in the folders
given, as they play (agent A's running mbb/g with its 95% CI and bankroll curve, a
tournament's crosstable; a match whose process died shows as aborted). Replay: any .log in
them, hand by hand with filters; beside an --aivat match's .probs, each decision's
probabilities and the hand's AIVAT value. Play: you against an agent `acpcbot agents` lists
on acpcbot's dealer (an ordinary match folder in --play-dir; the rematch, seats swapped, one
click), or at a seat of any ACPC dealer. A page closed mid-match runs out of time; Ctrl-C or
SIGTERM ends the matches being played as interrupted; the hands played are kept.

Safe by default: it answers only requests addressed to it, reads only the folders given
(and --play-dir) whatever a URL says, writes only in --play-dir, and serves every script
and style from the package (no CDN). Needs the web extra (aiohttp).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from acpcbot.cli import arguments
from acpcbot.options import add_host, add_mqtt_options

HELP = "a local web page: live matches, replays of any ACPC log, and you at a seat"

TOKEN_VARIABLE = "ACPCBOT_WEB_TOKEN"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "folders",
        metavar="DIR",
        type=Path,
        nargs="*",
        help="folders of results to serve (folders of them, match and tournament folders, "
        "logs); nothing else is read",
    )
    add_mqtt_options(parser, "also show the matches publishing to this MQTT broker")
    add_host(parser, "any other asks for a token", default="127.0.0.1")
    arguments.add_page_port(parser, "--port", "the port")
    parser.add_argument(
        "--token",
        metavar="TEXT",
        help=f"the token a browser must give (default ${TOKEN_VARIABLE}, or with --host "
        "other than loopback a random one, printed in the URL; always required when given)",
    )
    arguments.add_flag(
        parser,
        "--allow-classes",
        "let the Play form name any Python class (module:Class) as the opponent, not "
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


def run(args: argparse.Namespace) -> None:
    import functools
    import os

    from acpcbot.extras import need  # not for --help (issue 37)

    need("aiohttp", "acpcbot web", "web")
    # after the extras' checks: a missing extra is one line, not an ImportError
    from agents.registry import entrant, known_strategies, playable_specs
    from dealer.web import WebSite, run_site, site_token

    port, next_ports = args.port
    site = WebSite(
        folders=args.folders,
        entrant_of=functools.partial(entrant, classes=args.allow_classes),
        agents=playable_specs(),
        classes=args.allow_classes,
        strategies=known_strategies,
        mqtt=args.mqtt,
        host=args.host,
        port=port,
        next_ports=next_ports,
        token=site_token(args.token or os.environ.get(TOKEN_VARIABLE) or None, args.host),
        play_folder=args.play_dir,
    )
    run_site(site)
