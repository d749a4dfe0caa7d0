"""The default executor of a tournament: a pool of local processes, one match each.

Every match is played in a fresh process forked from this one (which has checked every
agent, so tables and compiled code are loaded once and shared), at most ``jobs`` at a time.
A process reports its progress and its result through a pipe of its own. A process that
dies before its result (killed, out of memory) or whose match raised unexpectedly has its
match started again in a new process, up to :data:`~acpcbot.cli.matchtask.ATTEMPTS` times
in all; then the match is given up and reported.

Ctrl-C reaches the processes too, which ignore it: this one stops them at once (their
matches were not finished and are played again by the next run) and raises
:class:`KeyboardInterrupt`.
"""

from __future__ import annotations

import collections
import signal
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from acpcbot.cli.halves import process_context
from acpcbot.cli.matchtask import ATTEMPTS, MatchTask, TaskEvents, TaskResult, play_task
from acpcbot.logconfig import get_logger

__all__ = ["LocalPool"]

log = get_logger("tournament")

_TICK_S = 0.25
"""Longest wait for news from the processes before the progress line is redrawn."""


@dataclass
class _Running:
    task: MatchTask
    attempt: int
    process: BaseProcess
    pipe: Connection
    result: TaskResult | None = None
    error: str | None = None
    open: bool = field(default=True)


class LocalPool:
    """Plays matches in up to ``jobs`` processes at once."""

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        self.jobs = jobs
        self.description = f"{jobs} local process{'es' if jobs != 1 else ''}"

    def __enter__(self) -> LocalPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass

    def run(self, tasks: list[MatchTask], events: TaskEvents, scratch: Path) -> None:
        """Play ``tasks``; each process's files go under ``scratch`` (on the disk of the
        tournament's folder)."""
        context = process_context()
        waiting = collections.deque((task, 1) for task in tasks)
        running: dict[Connection, _Running] = {}
        try:
            while waiting or running:
                while waiting and len(running) < self.jobs:
                    task, attempt = waiting.popleft()
                    scratch.mkdir(parents=True, exist_ok=True)
                    receive, send = context.Pipe(duplex=False)
                    process = context.Process(
                        target=_child,
                        args=(task, scratch, send),
                        name=f"acpcbot-{task.name}",
                        daemon=True,
                    )
                    process.start()
                    send.close()  # the child holds the only writing end: EOF when it ends
                    running[receive] = _Running(task, attempt, process, receive)
                sentinels = {r.process.sentinel: r for r in running.values()}
                pipes = [r.pipe for r in running.values() if r.open]
                for ready in wait([*pipes, *sentinels], timeout=_TICK_S):
                    if isinstance(ready, Connection):
                        _receive(running[ready], events)
                for r in list(running.values()):
                    if r.process.exitcode is None:
                        continue
                    while r.open and r.pipe.poll():  # what it wrote before it ended
                        _receive(r, events)
                    r.process.join()
                    r.pipe.close()
                    del running[r.pipe]
                    self._ended(r, waiting, events)
                events.tick()
        finally:
            for r in running.values():
                r.process.terminate()
            for r in running.values():
                r.process.join()
                r.pipe.close()

    def _ended(
        self,
        r: _Running,
        waiting: collections.deque[tuple[MatchTask, int]],
        events: TaskEvents,
    ) -> None:
        if r.result is not None:
            events.finished(r.result)
            return
        why = r.error or _death(r.process.exitcode)
        if r.attempt >= ATTEMPTS:
            events.gave_up(r.task.name, f"failed {ATTEMPTS} times; the last time: {why}")
            return
        events.retried(r.task.name, r.attempt + 1, why)
        waiting.appendleft((r.task, r.attempt + 1))


def _receive(r: _Running, events: TaskEvents) -> None:
    try:
        message: tuple[Any, ...] = r.pipe.recv()
    except (EOFError, OSError):
        r.open = False
        return
    kind = message[0]
    if kind == "progress":
        events.progress(r.task.name, message[1])
    elif kind == "done":
        r.result = message[1]
    else:
        r.error = message[1]
        log.debug("match_crashed", match=r.task.name, traceback=message[2])


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"its process was killed ({name})"
    return f"its process ended without a result (exit code {exitcode})"


def _child(task: MatchTask, scratch: Path | None, pipe: Connection) -> None:
    """One match in a process of its own: Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        result = play_task(task, scratch, lambda hands: pipe.send(("progress", hands)))
        pipe.send(("done", result))
    except BaseException as exc:
        pipe.send(("error", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
    finally:
        pipe.close()
