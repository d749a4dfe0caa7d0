"""Watch the matches running on an MQTT broker, live: every match (acpcbot match, acpc-dealer),
player (acpcbot play) and tournament publishing there with --mqtt, with its agents, hands
done of the total, hands/s, agent A's running mbb/g with its 95% CI, the ETA, and how it
ended (finished, interrupted, failed, or aborted: its process died). The view is redrawn in
place; Ctrl-C leaves it.

MATCH... keeps only the sources whose name or id matches one of these globs (say
'plicas-vs-*'). Sources that ended more than an hour ago are left out unless --all (the
broker keeps every final status). --once prints one snapshot as plain text (or JSON with
--json) and exits: what the broker retains, and what arrives within the moment it takes.
If the broker goes away while watching, the view says so and reconnects.
"""

from __future__ import annotations

import argparse
import contextlib
from typing import TYPE_CHECKING

from acpcbot.options import broker_url

if TYPE_CHECKING:
    from rich.console import Group

    from acpcbot.telemetry.watching import Board

HELP = "a live view of the matches publishing to an MQTT broker (--mqtt URL)"

_RECONNECT_S = (0.5, 1.0, 2.0, 5.0)


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--mqtt",
        type=broker_url,
        required=True,
        metavar="URL",
        help="the broker: mqtt://[USER:PASS@]HOST[:PORT][/PREFIX] or mqtts:// (the prefix the "
        "matches publish under, default acpcbot; the user and password may come from "
        "$ACPCBOT_MQTT_USERNAME and $ACPCBOT_MQTT_PASSWORD instead)",
    )
    parser.add_argument(
        "matches", metavar="MATCH", nargs="*", help="only these (globs over names and ids)"
    )
    parser.add_argument("--once", action="store_true", help="print one snapshot and exit")
    parser.add_argument(
        "--json",
        action="store_true",
        help="with --once: print the sources' last status and progress messages as JSON",
    )
    parser.add_argument(
        "--all", action="store_true", help="also sources that ended more than an hour ago"
    )


def run(args: argparse.Namespace) -> int:
    from acpcbot.errors import AcpcError
    from acpcbot.eventloop import run as run_async
    from acpcbot.extras import need, need_mqtt
    from acpcbot.telemetry.watching import Board

    need_mqtt("acpcbot watch")
    if args.json and not args.once:
        raise AcpcError("--json goes with --once")
    board = Board(args.mqtt.prefix, tuple(args.matches))
    recent = None if args.all else _recent()
    if args.once:
        return _once(args, board, recent)
    need("rich", "acpcbot watch", "mqtt")
    with contextlib.suppress(KeyboardInterrupt):  # how one leaves the view
        run_async(_live(args, board, recent), uvloop=False)
    return 0


def _recent() -> float:
    from acpcbot.telemetry.watching import RECENT_S

    return RECENT_S


def _once(args: argparse.Namespace, board: Board, recent: float | None) -> int:
    import json

    from acpcbot.eventloop import run as run_async
    from acpcbot.telemetry.subscriber import snapshot
    from acpcbot.telemetry.watching import table

    run_async(snapshot(args.mqtt, board.take), uvloop=False)
    sources = board.shown(recent_s=recent)
    if args.json:
        print(json.dumps([source.json() for source in sources], indent=2))
        return 0
    print("\n".join(table(board.rows(recent_s=recent))))
    if not sources:
        print(f"acpcbot: nothing is publishing under {args.mqtt}", flush=True)
    return 0


async def _live(args: argparse.Namespace, board: Board, recent: float | None) -> None:
    """Listen (reconnecting when the broker goes away) and redraw every second."""
    import asyncio
    import time

    from rich.console import Console
    from rich.live import Live

    from acpcbot.telemetry.publisher import TelemetryError
    from acpcbot.telemetry.subscriber import listen

    note = [f"connecting to {args.mqtt} ..."]
    changed = asyncio.Event()

    async def pump() -> None:
        connected_once = False
        failures = 0
        while True:
            try:
                async for item in listen(args.mqtt):
                    if item is None:
                        connected_once, failures = True, 0
                        note[0] = f"watching {args.mqtt}"
                    else:
                        board.take(*item)
                    changed.set()
            except TelemetryError as exc:
                if not connected_once:
                    raise
                pause = _RECONNECT_S[min(failures, len(_RECONNECT_S) - 1)]
                failures += 1
                note[0] = f"{exc}; trying again in {pause:g} s"
                changed.set()
                await asyncio.sleep(pause)

    listening = asyncio.create_task(pump())
    console = Console(stderr=False)
    with Live(_view(board, note[0], recent), console=console, auto_refresh=False) as live:
        while not listening.done():
            changed.clear()
            with_timeout = asyncio.create_task(changed.wait())
            await asyncio.wait({with_timeout, listening}, timeout=1.0)
            with_timeout.cancel()
            live.update(_view(board, note[0], recent, now=time.time()), refresh=True)
    listening.result()  # the first connection failed: its error


def _view(board: Board, note: str, recent: float | None, now: float | None = None) -> Group:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from acpcbot.telemetry.watching import COLUMNS

    grid = Table(box=None, header_style="bold", pad_edge=False)
    for column in COLUMNS:
        grid.add_column(column, no_wrap=column != "AGENTS", overflow="ellipsis")
    styles = {"finished": "green", "aborted": "red", "failed": "red", "interrupted": "yellow"}
    rows = board.rows(now=now, recent_s=recent)
    for row in rows:
        style = styles.get(row.status.split(",")[0].split(" ")[0], "")
        grid.add_row(*row.cells(), style=style)
    footer = Text(f"{note}; {len(rows)} shown; Ctrl-C to leave", style="dim")
    return Group(grid, footer)
