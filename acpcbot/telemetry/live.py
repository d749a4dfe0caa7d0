"""``acpcbot watch``'s two views of a broker: one snapshot as text or JSON, or the live board
redrawn in place (rich, the ``mqtt`` extra) until Ctrl-C, reconnecting when the broker goes
away once it was reached.

>>> from acpcbot.telemetry.watching import Board
>>> lines(Board("acpcbot"), None, as_json=True)
['[]']
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING

from acpcbot.telemetry.publisher import TelemetryError
from acpcbot.telemetry.subscriber import listen, snapshot
from acpcbot.telemetry.url import BrokerAddress
from acpcbot.telemetry.watching import COLUMNS, GAP, Board, fitting_columns, table

if TYPE_CHECKING:
    from rich.console import Group

__all__ = ["lines", "snapshot_lines", "view", "watch_live"]

_RECONNECT_S = (0.5, 1.0, 2.0, 5.0)
"""Pauses before each new try after the broker went away (the last one repeats)."""
_STYLES = {"finished": "green", "aborted": "red", "failed": "red", "interrupted": "yellow"}


def lines(
    board: Board, recent_s: float | None, *, as_json: bool = False, width: int | None = None
) -> list[str]:
    """What ``board`` shows now: its table (fitted to ``width``), or its sources' last
    messages as JSON."""
    if as_json:
        return [json.dumps([source.json() for source in board.shown(recent_s=recent_s)], indent=2)]
    return table(board.rows(recent_s=recent_s), width)


async def snapshot_lines(
    broker: BrokerAddress,
    board: Board,
    recent_s: float | None,
    *,
    as_json: bool = False,
    width: int | None = None,
) -> list[str]:
    """What the broker retains, and what arrives within the moment it takes, as
    :func:`lines` shows it (a line more when nothing publishes there)."""

    await snapshot(broker, board.take)
    shown = lines(board, recent_s, as_json=as_json, width=width)
    if not as_json and not board.shown(recent_s=recent_s):
        shown.append(f"acpcbot: nothing is publishing under {broker}")
    return shown


async def watch_live(broker: BrokerAddress, board: Board, recent_s: float | None) -> None:
    """Listen (reconnecting when the broker goes away) and redraw every second; the first
    connection's failure is raised."""
    from rich.console import Console
    from rich.live import Live

    note = [f"connecting to {broker} ..."]
    changed = asyncio.Event()

    async def pump() -> None:
        connected_once = False
        failures = 0
        while True:
            try:
                async for item in listen(broker):
                    if item is None:
                        connected_once, failures = True, 0
                        note[0] = f"watching {broker}"
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
    first = view(board, note[0], recent_s, width=console.width)
    with Live(first, console=console, auto_refresh=False) as live:
        while not listening.done():
            changed.clear()
            with_timeout = asyncio.create_task(changed.wait())
            await asyncio.wait({with_timeout, listening}, timeout=1.0)
            with_timeout.cancel()
            shown = view(board, note[0], recent_s, width=console.width, now=time.time())
            live.update(shown, refresh=True)
    listening.result()  # the first connection failed: its error


def view(
    board: Board, note: str, recent_s: float | None, *, width: int, now: float | None = None
) -> Group:
    """The live board as rich draws it on a terminal ``width`` columns wide (the columns
    that fit: :func:`~acpcbot.telemetry.watching.fitting_columns`)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    grid = Table(box=None, header_style="bold", pad_edge=False, padding=(0, GAP, 0, 0))
    rows = board.rows(now=now, recent_s=recent_s)
    shown = fitting_columns(rows, width)
    for i in shown:
        grid.add_column(COLUMNS[i], no_wrap=COLUMNS[i] != "AGENTS", overflow="fold")
    for row in rows:
        style = _STYLES.get(row.status.split(",")[0].split(" ")[0], "")
        cells = row.cells()
        grid.add_row(*(cells[i] for i in shown), style=style)
    footer = Text(f"{note}; {len(rows)} shown; Ctrl-C to leave", style="dim")
    return Group(grid, footer)
