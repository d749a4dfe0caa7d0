"""A tournament's unit of work: one duplicate match, played by :func:`run_match` into a
private scratch folder, its files handed back as bytes.

The same :func:`play_task` runs in a process of the local pool and on a Dask worker, which
may be another machine that cannot see the tournament's folder: the match's files come back
with the result, and the process that runs the tournament (the only writer of its folder)
moves them in. An executor runs :class:`MatchTask` s and tells a :class:`TaskEvents` what
happens to them.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from acpcbot.writing import writing
from dealer.running.match import MatchFailedError, MatchRequest, run_match

__all__ = [
    "ATTEMPTS",
    "Executor",
    "MatchTask",
    "TaskEvents",
    "TaskResult",
    "Throttle",
    "play_task",
]

ATTEMPTS = 3
"""Times a match is tried before it is reported as failed (a process or worker that died,
an unexpected error). A match an agent made fail (:class:`MatchFailedError`) is a result,
not retried."""

_REPORT_INTERVAL_S = 0.5
"""Least time between two progress reports of a match."""


@dataclass(frozen=True)
class MatchTask:
    """A match to play: its name (its folder in the tournament's), a key no other match
    has, and the match as :func:`run_match` takes it (without its folder)."""

    name: str
    key: str
    request: MatchRequest


@dataclass(frozen=True)
class TaskResult:
    """A match played to its end: finished, or failed by an agent."""

    name: str
    files: dict[str, bytes] = field(repr=False)
    """``summary.json`` and the logs (those it has, when it failed), by file name."""
    hands: int
    """Hands played, over both halves."""
    error: str | None = None
    """Why the match failed (``None``: it finished)."""


class TaskEvents(Protocol):
    """What an executor tells the tournament (always in the thread that called ``run``)."""

    def progress(self, name: str, hands: int) -> None:
        """Match ``name`` has played ``hands`` hands so far (both halves)."""

    def finished(self, result: TaskResult) -> None:
        """A match ended (finished, or failed by an agent)."""

    def retried(self, name: str, attempt: int, why: str) -> None:
        """Match ``name`` is started again, for its ``attempt``-th time, after ``why``."""

    def gave_up(self, name: str, why: str) -> None:
        """Match ``name`` failed :data:`ATTEMPTS` times (or its executor gave up on it)."""

    def tick(self) -> None:
        """Called now and then (a few times a second) while tasks run."""


class Executor(Protocol):
    """Runs tasks: a local pool of processes, or a Dask cluster. Entering it makes it ready
    (connects to a cluster: an error there comes before any file is written)."""

    description: str
    """What it is, for people ("4 local processes")."""

    def __enter__(self) -> Executor: ...

    def __exit__(self, *exc_info: object) -> None: ...

    def run(self, tasks: list[MatchTask], events: TaskEvents, scratch: Path) -> None:
        """Run every task, telling ``events``; return when each has ended or was given up.
        ``scratch`` is a folder for local processes' files. Interrupted (Ctrl-C), stop the
        tasks still running and raise."""


class Throttle:
    """Passes progress on at most every half second (and always the first report)."""

    def __init__(self, report: Callable[[int], None]) -> None:
        self._report = report
        self._last = float("-inf")

    def __call__(self, hands: int, chips: float = 0.0) -> None:
        del chips
        now = time.perf_counter()
        if now - self._last >= _REPORT_INTERVAL_S:
            self._last = now
            self._report(hands)


def play_task(
    task: MatchTask, scratch: Path | None = None, on_progress: Callable[[int], None] | None = None
) -> TaskResult:
    """Play ``task``'s match in a new folder under ``scratch`` (default: the system's
    temporary folder) and return its files; the folder is removed. ``on_progress`` hears the
    hands played now and then."""
    with writing(scratch if scratch is not None else Path(tempfile.gettempdir())):
        root = Path(tempfile.mkdtemp(prefix="acpcbot-match-", dir=scratch))
    try:
        out = root / task.name
        request = replace(task.request, out=out, jobs=1, progress=False)
        report = Throttle(on_progress) if on_progress is not None else None
        error = None
        try:
            match = run_match(request, on_progress=report)
        except MatchFailedError as failed:
            match, error = failed.match, str(failed)
        plan = match.run.plan
        names = ["summary.json", *(plan.log_name(h) for h in range(plan.halves))]
        if request.aivat:
            names += [plan.decisions_name(h) for h in range(plan.halves)]
        # A failed match may lack the log of a half it never began.
        files = {name: (out / name).read_bytes() for name in names if (out / name).exists()}
        return TaskResult(task.name, files, match.run.hands, error)
    finally:
        shutil.rmtree(root, ignore_errors=True)
