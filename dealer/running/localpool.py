"""The default executor of a tournament: a pool of local processes, one match at a time each.

``jobs`` worker processes are forked from this one (which has checked every agent, and begun
a player of each so that the tables and compiled code it loaded are shared: a worker's
first match does not load them again) and play one match after another, each
handed to them through a pipe of their own, over which they report their progress and
send the match's result. A worker that dies (killed, out of memory) has its match started
again, in a fresh process put in its place; so does a match that raised unexpectedly (its
worker ends after reporting it, and a fresh one replaces it). After
:data:`~dealer.running.tasks.ATTEMPTS` failures a match is given up and reported. A match
that could not write its files (:class:`~acpcbot.writing.WriteError`: they go under the
tournament's folder, whose disk is full or read-only) stops every match: the error is
raised here.

Ctrl-C reaches the workers too, which ignore it: this process stops them at once (their
matches were not finished and are played again by the next run) and raises
:class:`KeyboardInterrupt`.
"""

from __future__ import annotations

import collections
import contextlib
import signal
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from acpcbot.game import load_game
from acpcbot.logconfig import get_logger
from acpcbot.writing import WriteError
from dealer.running.halves import begin_here, process_context, settle_imports
from dealer.running.tasks import ATTEMPTS, MatchTask, TaskEvents, TaskResult, play_task

__all__ = ["LocalPool"]

log = get_logger("tournament")

_TICK_S = 0.25
"""Longest wait for news from the workers before the progress line is redrawn."""

_Queue = collections.deque[tuple[MatchTask, int]]
"""Matches to play, with the attempt each is at."""


@dataclass
class _Worker:
    process: BaseProcess
    pipe: Connection
    task: tuple[MatchTask, int] | None = None
    """The match it plays, and the attempt."""
    error: str | None = None
    """What the match it played raised (the worker then ends)."""
    open: bool = True


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
        """Play ``tasks``; the workers' files go under ``scratch`` (on the disk of the
        tournament's folder)."""
        context = process_context()
        scratch.mkdir(parents=True, exist_ok=True)
        if tasks:  # each agent begun once here, and the workers forked from here share it
            entrants = {e.spec: e for task in tasks for e in task.request.entrants}
            game = load_game(tasks[0].request.game)  # (a tournament's matches share one)
            begin_here(((e, e.name) for e in entrants.values()), game)
        waiting: _Queue = collections.deque((task, 1) for task in tasks)
        workers: list[_Worker] = []

        def start() -> None:
            mine, theirs = context.Pipe(duplex=True)
            ours = [mine, *(w.pipe for w in workers)]  # its copies closed in it (_serve)
            process = context.Process(
                target=_serve, args=(theirs, scratch, ours), name="acpcbot-match", daemon=True
            )
            settle_imports()
            process.start()
            theirs.close()  # the worker holds the only other end: EOF when it ends
            workers.append(_Worker(process, mine))

        try:
            for _ in range(min(self.jobs, len(tasks))):
                start()
            while waiting or any(w.task is not None for w in workers):
                for w in workers:
                    if w.task is None and w.open and waiting:
                        _hand_out(w, waiting)
                pipes = [w.pipe for w in workers if w.open]
                sentinels = [w.process.sentinel for w in workers]
                for ready in wait([*pipes, *sentinels], timeout=_TICK_S):
                    if isinstance(ready, Connection):
                        _receive(next(w for w in workers if w.pipe is ready), events)
                for w in [w for w in workers if w.process.exitcode is not None]:
                    while w.open and w.pipe.poll():  # what it sent before it ended
                        _receive(w, events)
                    w.process.join()
                    w.pipe.close()
                    workers.remove(w)
                    if w.task is not None:
                        _failed(w, waiting, events)
                    if waiting and len(workers) < self.jobs:
                        start()  # a fresh process in its place
                events.tick()
            for w in workers:
                with contextlib.suppress(OSError):  # one that ended already
                    w.pipe.send(("stop",))
        finally:
            for w in workers:
                # Closed first: a worker that outlives SIGTERM (one that took it as a stop of
                # its match, or that inherited SIGTERM ignored) reads the end of its pipe
                # when it next waits for a match, and ends, instead of waiting for ever.
                w.pipe.close()
                if w.process.exitcode is None:
                    w.process.terminate()
            for w in workers:
                w.process.join()


def _hand_out(w: _Worker, waiting: _Queue) -> None:
    task, attempt = waiting.popleft()
    try:
        w.pipe.send(("play", task))
    except OSError:  # it died just now: the match was not begun
        waiting.appendleft((task, attempt))
        w.open = False
        return
    w.task = (task, attempt)


def _receive(w: _Worker, events: TaskEvents) -> None:
    try:
        message: tuple[Any, ...] = w.pipe.recv()
    except (EOFError, OSError):
        w.open = False
        return
    kind = message[0]
    if kind == "progress" and w.task is not None:
        events.progress(w.task[0].name, message[1])
    elif kind == "done":
        result: TaskResult = message[1]
        w.task = None
        events.finished(result)
    elif kind == "unwritable":
        unwritable: WriteError = message[1]
        raise unwritable
    elif kind == "error":
        w.error = message[1]
        log.debug("match_crashed", traceback=message[2])


def _failed(w: _Worker, waiting: _Queue, events: TaskEvents) -> None:
    """``w`` ended before its match did."""
    assert w.task is not None
    task, attempt = w.task
    why = w.error or _death(w.process.exitcode)
    if attempt >= ATTEMPTS:
        events.gave_up(task.name, f"failed {ATTEMPTS} times; the last time: {why}")
    else:
        events.retried(task.name, attempt + 1, why)
        waiting.appendleft((task, attempt + 1))


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"its process was killed ({name})"
    return f"its process ended without a result (exit code {exitcode})"


def _serve(pipe: Connection, scratch: Path, ours: list[Connection]) -> None:
    """A worker: plays the matches it is handed until told to stop, or until the tournament
    closes its end of ``pipe``. Ctrl-C is the parent's to handle. A match that raises ends
    the worker (a fresh one takes its place). ``ours``: the tournament's ends of this
    worker's pipe and of the others', which a forked worker holds copies of: closed here, so
    that the tournament's closing them is the end of those pipes for their workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for end in ours:
        end.close()
    try:
        with contextlib.suppress(BrokenPipeError):  # the tournament stopped: no one to tell
            _serve_until_stopped(pipe, scratch)
    finally:
        pipe.close()


def _serve_until_stopped(pipe: Connection, scratch: Path) -> None:
    while True:
        try:
            message = pipe.recv()
        except EOFError:
            return
        if message[0] != "play":
            return
        task: MatchTask = message[1]
        try:
            result = play_task(task, scratch, lambda hands: pipe.send(("progress", hands)))
        except WriteError as exc:  # the tournament's disk: no match can be played there
            pipe.send(("unwritable", exc))
            return
        except BaseException as exc:
            pipe.send(("error", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
            return
        pipe.send(("done", result))
