"""Watch the matches running on an MQTT broker, live: every match (acpcbot match, acpc-dealer),
player (acpcbot play) and tournament publishing there with --mqtt, with its agents, hands
done of the total, hands/s, agent A's running mbb/g with its 95% CI, the ETA, and how it
ended (finished, interrupted, failed, or aborted: its process died). The view is redrawn in
place; Ctrl-C leaves it. If the broker goes away while watching, the view says so and
reconnects. A MATCH glob may be, say, 'plicas-vs-*'. --all shows what the broker keeps: every
final status. --once's snapshot is what the broker retains, and what arrives within the
moment it takes.
"""

from __future__ import annotations

import argparse
import contextlib

from acpcbot.cli.arguments import add_flag, add_json
from acpcbot.errors import UsageError
from acpcbot.options import add_mqtt_options

HELP = "a live view of the matches publishing to an MQTT broker (--mqtt URL)"

DEFAULT_BROKER = "mqtt://localhost:1883"
"""Where a broker started with its defaults listens (mosquitto's)."""


def register(parser: argparse.ArgumentParser) -> None:
    what = f"the broker and prefix the matches publish to (default {DEFAULT_BROKER}, mosquitto's)"
    add_mqtt_options(parser, what, default=DEFAULT_BROKER)
    parser.add_argument(
        "matches", metavar="MATCH", nargs="*", help="only these (globs over names and ids)"
    )
    add_flag(parser, "--once", "print one snapshot and exit")
    add_json(parser, "the sources' last status and progress messages as JSON (with --once)")
    add_flag(parser, "--all", "also sources that ended more than an hour ago")


def run(args: argparse.Namespace) -> None:
    from acpcbot.cli.output import show, width  # not for --help (issue 37)
    from acpcbot.eventloop import run as run_async
    from acpcbot.extras import need, need_mqtt
    from acpcbot.telemetry.live import snapshot_lines, watch_live
    from acpcbot.telemetry.watching import RECENT_S, Board

    need_mqtt("acpcbot watch")
    if args.json and not args.once:
        raise UsageError("--json goes with --once")
    board = Board(args.mqtt.prefix, tuple(args.matches))
    recent = None if args.all else RECENT_S
    if args.once:
        text = run_async(snapshot_lines(args.mqtt, board, recent, width=width()), uvloop=False)
        show(args, [source.json() for source in board.shown(recent_s=recent)], text)
        return
    need("rich", "acpcbot watch", "mqtt")
    with contextlib.suppress(KeyboardInterrupt):  # how one leaves the view
        run_async(watch_live(args.mqtt, board, recent), uvloop=False)
