"""What ``acpcbot watch`` knows of the sources on a broker, and the rows it shows (pure).

Every ``status`` and ``progress`` message heard updates a :class:`Board`; :meth:`Board.rows`
gives one :class:`Row` per source to show: those running, and those that ended (finished,
interrupted, failed, or ``aborted``: the last will of a process that died) within
``recent_s`` seconds, or all that the broker retains.

>>> import json
>>> board = Board("acpcbot")
>>> status = {"schema": 1, "kind": "match", "id": "m1", "seq": 1, "ts": 100.0,
...           "name": "a-vs-b.seed1.n500", "agents": ["a", "b"], "status": "running",
...           "hands_total": 1000}
>>> progress = {"schema": 1, "kind": "match", "id": "m1", "seq": 3, "ts": 103.0, "hands": 250,
...             "hands_total": 1000, "hands_per_s": 83.3, "mbb_per_game": 12.5, "ci95": 40.0,
...             "eta_s": 9.0}
>>> board.take("acpcbot/match/m1/status", json.dumps(status).encode())
True
>>> board.take("acpcbot/match/m1/progress", json.dumps(progress).encode())
True
>>> print("\\n".join(table(board.rows(now=104.0))))
KIND   NAME               AGENTS  HANDS      HANDS/S  MBB/G (95% CI)  ETA   STATUS
match  a-vs-b.seed1.n500  a vs b  250/1,000  83       +12.5 ± 40.0    0:09  running
"""

from __future__ import annotations

import fnmatch
import math
import textwrap
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from acpcbot.durations import eta_text
from acpcbot.telemetry.codec import Stream, decode, parse_topic

__all__ = ["COLUMNS", "RECENT_S", "Board", "Row", "Source", "fitting_columns", "table"]

RECENT_S = 3600.0
"""Sources that ended longer ago than this are not shown (unless all are asked for)."""
COLUMNS = ("KIND", "NAME", "AGENTS", "HANDS", "HANDS/S", "MBB/G (95% CI)", "ETA", "STATUS")
DROPPED_FIRST = ("KIND", "NAME", "HANDS/S", "ETA", "HANDS")
"""The columns a narrow view leaves out, in this order (the agents, the result and the status
stay: what the view is for)."""
GAP = 2
"""Spaces between two columns."""


@dataclass
class Source:
    """One source as heard so far."""

    kind: str
    id: str
    status: dict[str, Any] | None = None
    progress: dict[str, Any] | None = None

    @property
    def name(self) -> str:
        for message in (self.status, self.progress):
            if message is not None and isinstance(message.get("name"), str):
                return str(message["name"])
        return self.id

    @property
    def state(self) -> str:
        """``running``, ``finished``, ..., or ``?`` (no status heard yet)."""
        if self.status is None:
            return "?"
        return str(self.status.get("status", "?"))

    @property
    def ended_at(self) -> float | None:
        """When it ended (its final status's time), or ``None`` while running."""
        if self.status is None or self.state in ("running", "?"):
            return None
        ts = self.status.get("ts")
        return float(ts) if isinstance(ts, int | float) else 0.0

    def json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "status": self.status, "progress": self.progress}


@dataclass(frozen=True)
class Row:
    """A source as one line of the view."""

    kind: str
    name: str
    agents: str
    hands: str
    rate: str
    estimate: str
    eta: str
    status: str

    def cells(self) -> tuple[str, ...]:
        return (
            self.kind,
            self.name,
            self.agents,
            self.hands,
            self.rate,
            self.estimate,
            self.eta,
            self.status,
        )


@dataclass
class Board:
    """Every source heard under ``prefix`` (optionally only those matching ``patterns``:
    globs over their ids and names)."""

    prefix: str
    patterns: Sequence[str] = ()
    sources: dict[str, Source] = field(default_factory=dict)

    def take(self, topic: str, payload: bytes) -> bool:
        """Take one message; whether it was one of ours."""
        parsed = parse_topic(self.prefix, topic)
        if parsed is None or parsed.stream is Stream.HANDS:
            return False
        key = f"{parsed.kind.value}/{parsed.id}"
        source = self.sources.get(key)
        if source is None:
            source = self.sources[key] = Source(parsed.kind.value, parsed.id)
        message = decode(payload) if payload else None
        if parsed.stream is Stream.STATUS:
            source.status = message
        else:
            source.progress = message  # an empty payload clears it (the source ended)
        return True

    def wanted(self, source: Source) -> bool:
        if not self.patterns:
            return True
        return any(
            fnmatch.fnmatchcase(text, pattern)
            for pattern in self.patterns
            for text in (source.id, source.name)
        )

    def shown(self, *, now: float | None = None, recent_s: float | None = RECENT_S) -> list[Source]:
        """The sources to show: running first (oldest first), then those that ended."""
        now = time.time() if now is None else now
        kept = []
        for source in self.sources.values():
            if not self.wanted(source) or (source.status is None and source.progress is None):
                continue
            ended = source.ended_at
            if ended is not None and recent_s is not None and now - ended > recent_s:
                continue
            kept.append(source)
        return sorted(kept, key=lambda s: (s.ended_at is not None, _started(s), s.id))

    def rows(self, *, now: float | None = None, recent_s: float | None = RECENT_S) -> list[Row]:
        return [row_of(source) for source in self.shown(now=now, recent_s=recent_s)]


def _started(source: Source) -> float:
    value = (source.status or {}).get("started", 0.0)
    return float(value) if isinstance(value, int | float) else 0.0


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


def _whole(value: Any) -> str:
    number = _number(value)
    return f"{number:,.0f}" if number is not None else "-"


def _estimate(mbb: Any, ci: Any) -> str:
    mean = _number(mbb)
    if mean is None:
        return "-"
    half_width = _number(ci)
    return f"{mean:+.1f}" + (f" ± {half_width:.1f}" if half_width is not None else "")


def row_of(source: Source) -> Row:
    """How a source reads in the view."""
    status = source.status or {}
    progress = source.progress or {}
    result = status.get("result") if isinstance(status.get("result"), dict) else {}
    assert isinstance(result, dict)
    over = source.state not in ("running", "?")
    numbers = (
        {**progress, **{k: v for k, v in result.items() if v is not None}} if over else progress
    )
    agents = status.get("agents") or progress.get("agents") or []
    shown_agents = " vs ".join(str(a) for a in agents) if isinstance(agents, list) else "-"
    total = numbers.get("hands_total", status.get("hands_total"))
    hands = _whole(numbers.get("hands"))
    if total is not None and hands != "-":
        hands += f"/{_whole(total)}"
    state = source.state
    if source.kind == "tournament":
        done, matches = numbers.get("matches_done"), numbers.get("matches_total")
        if done is not None and matches is not None:
            state += f", {_whole(done)}/{_whole(matches)} matches"
    dropped = status.get("dropped")
    if isinstance(dropped, int) and dropped:
        state += f", {dropped:,} dropped"
    if state == "aborted" and progress:
        state += " (its process died)"
    eta = "-" if over or progress.get("eta_s") is None else eta_text(_number(progress["eta_s"]))
    rate = _whole(numbers.get("hands_per_s", numbers.get("hands_per_second")))
    return Row(
        kind=source.kind,
        name=source.name,
        agents=shown_agents or "-",
        hands=hands,
        rate=rate,
        estimate=_estimate(numbers.get("mbb_per_game"), numbers.get("ci95")),
        eta=eta,
        status=state,
    )


def fitting_columns(rows: Iterable[Row], width: int | None) -> list[int]:
    """The indexes of the :data:`COLUMNS` a view ``width`` characters wide shows: all of them
    when they fit whole, else without the first of :data:`DROPPED_FIRST` until they do (the
    agents may then be folded). A narrow terminal shows fewer columns, each readable, rather
    than every one cut to nothing.

    >>> row = Row("match", "plicas-vs-dpp.seed9.n40000", "plicas vs dpp", "20,000/80,000",
    ...           "457", "+97.7 ± 111.0", "2:12", "running")
    >>> [COLUMNS[i] for i in fitting_columns([row], 60)]
    ['AGENTS', 'HANDS', 'MBB/G (95% CI)', 'ETA', 'STATUS']
    """
    cells = [COLUMNS, *(row.cells() for row in rows)]
    widths = [max(len(line[i]) for line in cells) for i in range(len(COLUMNS))]
    shown = list(range(len(COLUMNS)))
    for name in DROPPED_FIRST:
        if width is None or sum(widths[i] for i in shown) + GAP * (len(shown) - 1) <= width:
            break
        shown.remove(COLUMNS.index(name))
    return shown


def table(rows: Iterable[Row], width: int | None = None) -> list[str]:
    """Rows as aligned plain text, with a header line; wider than ``width``, one paragraph a
    source instead (its name, kind and agents, then every other column by its name), so
    that nothing is left out."""
    rows = list(rows)
    lines = [COLUMNS, *(row.cells() for row in rows)]
    widths = [max(len(line[i]) for line in lines) for i in range(len(COLUMNS))]
    aligned = [
        (" " * GAP)
        .join(cell.ljust(width) for cell, width in zip(line, widths, strict=True))
        .rstrip()
        for line in lines
    ]
    if width is None or max(map(len, aligned)) <= width:
        return aligned
    paragraphs = []
    for kind, name, agents, *rest in (row.cells() for row in rows):
        paragraphs.append(f"{name} ({kind}): {agents}")
        cells = ", ".join(f"{c} {v}" for c, v in zip(COLUMNS[3:], rest, strict=True))
        paragraphs += textwrap.wrap(cells, width, initial_indent="  ", subsequent_indent="  ")
    return paragraphs
