"""What the live page shows: the matches, players and tournaments publishing to the broker, and
the matches and tournaments in the given folders.

A :class:`LiveBoard` keeps both. From the broker (``--mqtt``) it takes every ``status`` and
``progress`` message (:class:`~acpcbot.telemetry.watching.Board`, as ``acpcbot watch`` does)
and keeps each source's progress as it came, which is its bankroll curve: agent A's chips so
far are its running mbb/g times the hands, their 95% band the CI's half-width times the
hands. A process that dies leaves its last will on the broker: ``aborted``. From the
folders it reads each match's ``summary.json`` and the logs its halves write, as they grow
(:class:`~dealer.web.logs.LogTail`), and each tournament's crosstable as its matches finish;
a match whose ``summary.json`` says ``running`` while no process holds its folder's lock
died: ``aborted`` too.

>>> import json
>>> board = LiveBoard(Roots([]), "acpcbot")
>>> status = {"schema": 1, "kind": "match", "id": "m1", "seq": 1, "ts": 100.0,
...           "name": "a-vs-b.seed1.n500", "agents": ["a", "b"], "status": "running",
...           "hands_total": 1000}
>>> board.take("acpcbot/match/m1/status", json.dumps(status).encode())
>>> for hands in (200, 400):
...     progress = {"schema": 1, "kind": "match", "id": "m1", "seq": 2, "ts": 101.0,
...                 "hands": hands, "hands_total": 1000, "hands_per_s": 200.0,
...                 "mbb_per_game": 50.0, "ci95": 100.0}
...     board.take("acpcbot/match/m1/progress", json.dumps(progress).encode())
>>> row = board.sources()[0]
>>> row["key"], row["status"], row["hands"], row["mbb"]
('mqtt:match/m1', 'running', 400, 50.0)
>>> board.detail("mqtt:match/m1")["curve"]
{'hands': [200, 400], 'bb': [10.0, 20.0], 'low': [-10.0, -20.0], 'high': [30.0, 60.0]}
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from array import array
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acpcbot.telemetry.codec import parse_topic
from acpcbot.telemetry.watching import Board, Source
from dealer.analysis import estimate, pair_sorted
from dealer.running import read_tournament, tournament_json
from dealer.web.logs import LogTail, curve
from dealer.web.roots import Roots, read_json

__all__ = ["MAX_POINTS", "FolderMatch", "LiveBoard"]

MAX_POINTS = 1000
"""The most points a curve heard over the broker keeps (thinned by half beyond)."""
_RATE_WINDOW_S = 5.0
"""hands/s of a match in a folder: over about this many seconds."""


def _number(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


@dataclass
class FolderMatch:
    """A match folder as last read: its summary and its logs so far."""

    key: str
    path: Path
    summary: dict[str, Any] = field(default_factory=dict)
    summary_mtime: float = -1.0
    tails: dict[str, LogTail] = field(default_factory=dict)
    rate: float | None = None
    _seen: list[tuple[float, int]] = field(default_factory=list)

    def update(self, now: float) -> None:
        """Read what changed: the summary, the logs' new lines."""
        summary_path = self.path / "summary.json"
        with contextlib.suppress(OSError):
            stamp = summary_path.stat().st_mtime
            if stamp != self.summary_mtime:
                read = read_json(summary_path)
                if read is not None:
                    self.summary, self.summary_mtime = read, stamp
        halves = self.summary.get("halves")
        for half in halves if isinstance(halves, list) else []:
            name = half.get("log") if isinstance(half, dict) else None
            if not isinstance(name, str) or Path(name).name != name or not name.endswith(".log"):
                continue
            tail = self.tails.get(name)
            if tail is None:
                tail = self.tails[name] = LogTail(self.path / name)
            tail.update()
        hands = sum(tail.hands for tail in self.tails.values())
        self._seen.append((now, hands))
        while len(self._seen) > 2 and now - self._seen[1][0] >= _RATE_WINDOW_S:
            del self._seen[0]
        (then, before), (_, after) = self._seen[0], self._seen[-1]
        self.rate = (after - before) / (now - then) if now > then else None

    @property
    def status(self) -> str:
        status = str(self.summary.get("status", "?"))
        if status == "running" and not _locked(self.path / ".lock"):
            return "aborted"
        return status

    def _values(self) -> tuple[list[array[float]], list[array[int]], int]:
        """Agent A's chips in each hand of each half so far, their hand numbers, the big
        blind."""
        names = self.summary.get("names") or self.summary.get("agents") or []
        a = names[0] if names and isinstance(names[0], str) else None
        values, numbers = [], []
        big_blind = 0
        for tail in self.tails.values():
            if tail.game is not None:
                big_blind = tail.game.big_blind
            if a is not None and a in tail.chips:
                values.append(tail.chips[a])
                numbers.append(tail.numbers)
        blind = _number(self.summary.get("big_blind"))
        return values, numbers, int(blind) if blind else big_blind or 10

    def row(self, root: str, relative: str) -> dict[str, Any]:
        summary = self.summary
        halves = summary.get("halves") or []
        per_half = _number(summary.get("hands_per_half")) or 0
        total = int(per_half) * (2 if summary.get("duplicate", True) else 1) if per_half else None
        values, numbers, big_blind = self._values()
        hands = sum(len(v) for v in values)
        status = self.status
        mbb = ci = None
        if status == "running" or _number(summary.get("mbb_per_game")) is None:
            if len(values) == 2 and len(values[0]) and len(values[1]):
                samples, _ = pair_sorted(numbers[0], values[0], numbers[1], values[1])
            else:
                samples = list(values[0]) if values else []
            if samples:
                found = estimate(samples, big_blind)
                mbb, ci = found.mbb_per_game, found.ci95_mbb
        else:
            mbb, ci = _number(summary.get("mbb_per_game")), _number(summary.get("ci95"))
            hands = int(_number(summary.get("hands")) or hands)
        rate = self.rate if status == "running" else _number(summary.get("hands_per_second"))
        left = (total - hands) / rate if status == "running" and total and rate else None
        return _folder_row(
            self.key,
            "match",
            self.path.name,
            summary.get("agents"),
            status,
            summary.get("error"),
            {"root": root, "path": relative},
            hands=hands,
            hands_total=total,
            hands_per_s=_rounded(rate, 1),
            mbb=_rounded(mbb, 1),
            ci=_rounded(ci, 1),
            eta_s=_rounded(left, 0),
            logs=[h.get("log") for h in halves if isinstance(h, dict)],
        )

    def curve(self) -> dict[str, list[float]]:
        """Agent A's bankroll over the hands of every half so far, hand by hand, the halves
        taken in turn (half 1's hand n, then half 2's)."""
        values, _, big_blind = self._values()
        merged: list[float] = []
        longest = max((len(v) for v in values), default=0)
        for n in range(longest):
            merged.extend(v[n] for v in values if n < len(v))
        return curve(merged, big_blind)


def _rounded(value: float | None, digits: int) -> float | None:
    if value is None or not math.isfinite(value):
        return None
    return round(value, digits)


def _locked(lock: Path) -> bool:
    """Whether a process holds the lock a running match takes on its folder (Linux: the
    kernel's table of locks; elsewhere, whether the process named in the file is alive)."""
    try:
        info = lock.stat()
    except OSError:
        return False
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as table:
            for line in table:
                fields = line.split()
                if len(fields) >= 6 and fields[1] == "FLOCK":
                    _, _, inode = fields[5].rpartition(":")
                    if inode.isdigit() and int(inode) == info.st_ino:
                        return True
            return False
    except OSError:
        pass
    try:
        pid = int(lock.read_text(encoding="ascii").strip() or "0")
        if pid <= 0:
            return False
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    return True


@dataclass
class FolderTournament:
    """A tournament folder as last read: its plan's status and its crosstable so far."""

    key: str
    path: Path
    plan: dict[str, Any] = field(default_factory=dict)
    results: dict[str, Any] | None = None
    error: str | None = None
    _stamp: tuple[Any, ...] = ()

    def update(self) -> None:
        """Read the plan, and the crosstable again when a match was added."""
        self.plan = read_json(self.path / "tournament.json") or {}
        try:
            stamp = tuple(sorted(e.name for e in os.scandir(self.path) if e.is_dir()))
        except OSError:
            return
        stamp = (*stamp, str(self.plan.get("status")))
        if stamp == self._stamp:
            return
        self._stamp = stamp
        try:
            self.results = tournament_json(read_tournament(self.path))
            self.error = None
        except Exception as exc:  # a tournament's folder being written is read again later
            self.error = f"{type(exc).__name__}: {exc}"

    def row(self, root: str, relative: str) -> dict[str, Any]:
        matches = (self.results or {}).get("matches") or {}
        status = str(self.plan.get("status", "?"))
        if status == "running" and not _locked(self.path / ".lock"):
            status = "aborted"
        names = self.plan.get("agents") or self.plan.get("names")
        return _folder_row(
            self.key,
            "tournament",
            self.path.name,
            names,
            status,
            self.error,
            {"root": root, "path": relative},
            matches_done=matches.get("finished"),
            matches_total=matches.get("planned"),
        )


def _folder_row(  # noqa: PLR0917 - every row has these
    key: str,
    kind: str,
    name: str,
    agents: Any,
    status: str,
    error: Any,
    folder: dict[str, str],
    **numbers: Any,
) -> dict[str, Any]:
    """A source found in a folder, as :meth:`LiveBoard.sources` lists it (the numbers not
    given are unknown)."""
    return {
        "key": key,
        "origin": "folder",
        "kind": kind,
        "name": name,
        "agents": [str(agent) for agent in agents] if isinstance(agents, list) else [],
        "status": status,
        **dict.fromkeys(("hands", "hands_total", "hands_per_s", "mbb", "ci", "eta_s")),
        "matches_done": None,
        "matches_total": None,
        **numbers,
        "error": error if isinstance(error, str) else None,
        "folder": folder,
        "logs": numbers.get("logs", []),
    }


class LiveBoard:
    """Every source the live page shows (see the module). The broker's messages go to
    :meth:`take` (on the server's event loop); :meth:`update_folders` reads the folders
    (blocking: in a worker thread)."""

    def __init__(self, roots: Roots, prefix: str | None) -> None:
        self.roots = roots
        self.board = Board(prefix) if prefix is not None else None
        self.broker_note: str | None = None
        """How the broker is (connecting, watching, gone: trying again), when there is one."""
        self._history: dict[str, list[tuple[int, float, float | None]]] = {}
        self._folders: dict[str, FolderMatch | FolderTournament] = {}
        self._names: dict[str, tuple[str, str]] = {}
        self._folder_rows: list[dict[str, Any]] = []
        self._folder_curves: dict[str, dict[str, list[float]]] = {}
        self._tournaments: dict[str, dict[str, Any] | None] = {}

    # -- the broker -----------------------------------------------------------------

    def take(self, topic: str, payload: bytes) -> None:
        """One status or progress message from the broker."""
        board = self.board
        if board is None or not board.take(topic, payload):
            return
        parsed = parse_topic(board.prefix, topic)
        assert parsed is not None  # the board took it
        key = f"{parsed.kind.value}/{parsed.id}"
        source = board.sources.get(key)
        if source is None:
            return
        numbers = _numbers_of(source)
        hands, mbb = _number(numbers.get("hands")), _number(numbers.get("mbb_per_game"))
        if hands is None or mbb is None or source.kind == "tournament":
            return
        points = self._history.setdefault(key, [])
        point = (int(hands), mbb, _number(numbers.get("ci95")))
        if points and points[-1][0] == point[0]:
            points[-1] = point
        elif not points or point[0] > points[-1][0]:
            points.append(point)
            if len(points) > MAX_POINTS:
                del points[1:-1:2]

    def _mqtt_row(self, source: Source) -> dict[str, Any]:
        status = source.status or {}
        numbers = _numbers_of(source)
        agents = status.get("agents") or (source.progress or {}).get("agents") or []
        out = status.get("out")
        folder = None
        if isinstance(out, str):
            named = self.roots.name_of(Path(out))
            if named is not None:
                folder = {"root": named[0], "path": named[1]}
        state = source.state
        eta = None if state != "running" else _number((source.progress or {}).get("eta_s"))
        return {
            "key": f"mqtt:{source.kind}/{source.id}",
            "origin": "mqtt",
            "kind": source.kind,
            "name": source.name,
            "agents": [str(a) for a in agents] if isinstance(agents, list) else [],
            "status": state,
            "hands": _whole(numbers.get("hands")),
            "hands_total": _whole(numbers.get("hands_total", status.get("hands_total"))),
            "hands_per_s": _rounded(
                _number(numbers.get("hands_per_s", numbers.get("hands_per_second"))), 1
            ),
            "mbb": _rounded(_number(numbers.get("mbb_per_game")), 1),
            "ci": _rounded(_number(numbers.get("ci95")), 1),
            "eta_s": _rounded(eta, 0),
            "matches_done": _whole(numbers.get("matches_done")),
            "matches_total": _whole(numbers.get("matches_total")),
            "dropped": _whole(status.get("dropped")),
            "error": status.get("error") if isinstance(status.get("error"), str) else None,
            "folder": folder,
            "logs": [],
        }

    # -- the folders ----------------------------------------------------------------

    def update_folders(self, now: float | None = None) -> None:
        """Read the folders again (blocking): new match and tournament folders, what the
        running ones wrote since."""
        now = time.monotonic() if now is None else now
        rows, curves, tournaments = [], {}, {}
        for found in self.roots.listing():
            if found.kind == "log":
                continue
            key = f"dir:{found.root}/{found.relative}"
            item = self._folders.get(key)
            if item is None:
                path = self.roots.find(found.root, found.relative)
                item = (
                    FolderMatch(key, path) if found.kind == "match" else FolderTournament(key, path)
                )
                self._folders[key] = item
            if isinstance(item, FolderMatch):
                item.update(now)
                curves[key] = item.curve()
            else:
                item.update()
                tournaments[key] = item.results
            rows.append(item.row(found.root, found.relative))
        self._folder_rows, self._folder_curves, self._tournaments = rows, curves, tournaments

    # -- what the page gets -----------------------------------------------------------

    def sources(self) -> list[dict[str, Any]]:
        """Every source, running ones first (a match publishing to the broker whose folder
        is served is shown once, as heard over the broker)."""
        rows = []
        heard_folders = set()
        if self.board is not None:
            for source in self.board.shown(recent_s=None):
                row = self._mqtt_row(source)
                if row["folder"] is not None:
                    heard_folders.add((row["folder"]["root"], row["folder"]["path"]))
                rows.append(row)
        for row in self._folder_rows:
            if (row["folder"]["root"], row["folder"]["path"]) not in heard_folders:
                rows.append(row)
        return sorted(rows, key=lambda r: (r["status"] != "running", r["name"]))

    def detail(self, key: str) -> dict[str, Any] | None:
        """One source with its curve (and a tournament's crosstable)."""
        row = next((r for r in self.sources() if r["key"] == key), None)
        if row is None:
            return None
        if key.startswith("mqtt:"):
            points = self._history.get(key.removeprefix("mqtt:"), [])
            shown = {
                "hands": [p[0] for p in points],
                "bb": [round(p[1] * p[0] / 1000, 3) for p in points],
                "low": [round((p[1] - (p[2] or 0.0)) * p[0] / 1000, 3) for p in points],
                "high": [round((p[1] + (p[2] or 0.0)) * p[0] / 1000, 3) for p in points],
            }
            return {**row, "curve": shown, "crosstable": None}
        results = self._tournaments.get(key)
        crosstable = results.get("crosstable") if isinstance(results, Mapping) else None
        return {**row, "curve": self._folder_curves.get(key), "crosstable": crosstable}


def _numbers_of(source: Source) -> dict[str, Any]:
    """A source's latest numbers: its progress, or the result its final status gives."""
    status = source.status or {}
    progress = source.progress or {}
    result = status.get("result")
    if source.state not in ("running", "?") and isinstance(result, dict):
        return {**progress, **{k: v for k, v in result.items() if v is not None}}
    return progress


def _whole(value: Any) -> int | None:
    number = _number(value)
    return int(number) if number is not None else None
