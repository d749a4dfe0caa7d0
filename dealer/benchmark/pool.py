"""Runs played in processes of their own, as the server's event loop awaits them: the local
executor of the benchmark server.

Each run is a fresh process, forked by a *fork server* (:mod:`multiprocessing`'s
``forkserver``: a clean interpreter started once, with the dealer and whatever modules it is
told to preload already imported), so a run inherits none of the server's sockets,
threads or database connections, and a busy agent never stalls the server. The run reports
its ports as soon as it listens, its hands now and then, and its
:class:`~dealer.benchmark.runs.RunOutcome`, over a pipe the server's event loop reads. A
run's process dies with the server (``PR_SET_PDEATHSIG``, through the fork server's own
death), so a killed server leaves no run playing behind it.

:meth:`LocalRunPool.play` is cancellable: cancelled, it asks the run to stop after its hand
(SIGTERM to its process), waits for the outcome a while, and kills the process if it must.
A process that dies without an outcome is a :attr:`~dealer.benchmark.runs.RunStatus.FAILED`
run that says how it died. The other executor, a Dask cluster's
(:class:`~dealer.benchmark.daskpool.DaskRunPool`), offers the same :class:`RunExecutor` face.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import signal
import sys
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any, Protocol

from acpcbot.logconfig import configure_logging
from dealer.analysis.stats import SampleSums
from dealer.benchmark.runs import RunOrder, RunOutcome, RunStatus, play_run
from dealer.running.childprocess import die_with_parent

__all__ = ["ListeningAt", "LocalRunPool", "RunExecutor", "RunStopped"]

_HAND_REPORT_S = 1.0
"""Least time between two reports of a run's hands."""
STOP_GRACE_S = 30.0
"""How long a run asked to stop gets to finish its hand before its process is killed."""


ListeningAt = Callable[[list[int], str | None], None]
"""Told a run's ports (in seat order) as soon as its seats listen, and the host its user
seats listen at when that is not the server's own machine (a run on a Dask worker), else
``None``."""


class RunExecutor(Protocol):
    """Plays runs somewhere else than the server's event loop."""

    description: str

    async def play(
        self,
        order: RunOrder,
        on_listening: ListeningAt,
        on_hands: Callable[[int], None] | None = None,
    ) -> RunOutcome:
        """Play ``order``; tell ``on_listening`` the ports as soon as the seats listen.
        Cancelled: stop the run after its hand and return... (re-raise the cancellation
        once the run has ended)."""
        ...

    def close(self) -> None: ...


class LocalRunPool:
    """Runs in processes of this machine, from a fork server (see the module)."""

    def __init__(self, preload: Sequence[str] = ()) -> None:
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["dealer.benchmark.runs", *preload])
        self.description = "local processes"

    async def play(
        self,
        order: RunOrder,
        on_listening: ListeningAt,
        on_hands: Callable[[int], None] | None = None,
    ) -> RunOutcome:
        loop = asyncio.get_running_loop()
        theirs: Connection
        mine, theirs = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_run_here, args=(order, theirs), name=f"acpcbot-run-{order.run_id}"
        )
        await asyncio.to_thread(process.start)  # the fork server may have to start first
        theirs.close()
        messages: asyncio.Queue[tuple[Any, ...] | None] = asyncio.Queue()

        def readable() -> None:
            try:
                while mine.poll():
                    messages.put_nowait(mine.recv())
            except (EOFError, OSError):
                loop.remove_reader(mine.fileno())
                messages.put_nowait(None)

        loop.add_reader(mine.fileno(), readable)
        outcome: RunOutcome | None = None
        cancelled = False
        try:
            while True:
                try:
                    message = await messages.get()
                except asyncio.CancelledError:
                    if cancelled:
                        raise
                    cancelled = True
                    _signal(process.pid, signal.SIGTERM)  # stop after the hand
                    loop.call_later(STOP_GRACE_S, _signal, process.pid, signal.SIGKILL)
                    continue
                if message is None:
                    break
                if message[0] == "listening":
                    on_listening(message[1], None)
                elif message[0] == "hands" and on_hands is not None:
                    on_hands(message[1])
                elif message[0] == "done":
                    outcome = message[1]
        finally:
            with contextlib.suppress(ValueError, OSError):
                loop.remove_reader(mine.fileno())
            mine.close()
            await asyncio.to_thread(process.join, STOP_GRACE_S)
            if process.exitcode is None:
                process.kill()
                await asyncio.to_thread(process.join)
        if outcome is None:
            outcome = _died(order, process.exitcode)
        if cancelled:
            # The run has ended (stopped after its hand): the caller records it from here.
            raise RunStopped(outcome)
        return outcome

    def close(self) -> None:
        """Stop the fork server (once the runs have ended: a run's process dies with it).
        It is this process's one, which nothing else of ours uses; the standard library
        stops it only at exit, and a process that goes on (a test's) would find it there."""
        from multiprocessing import forkserver

        stop = getattr(forkserver._forkserver, "_stop", None)  # (the standard tests' way)
        if stop is not None:
            stop()


class RunStopped(asyncio.CancelledError):
    """A cancelled :meth:`LocalRunPool.play`: the run stopped, and this is how it ended."""

    def __init__(self, outcome: RunOutcome) -> None:
        super().__init__()
        self.outcome = outcome


def _signal(pid: int | None, sig: signal.Signals) -> None:
    if pid is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            import os

            os.kill(pid, sig)


def _died(order: RunOrder, exitcode: int | None) -> RunOutcome:
    if exitcode is not None and exitcode < 0:
        try:
            how = f"its process was killed ({signal.Signals(-exitcode).name})"
        except ValueError:
            how = f"its process was killed (signal {-exitcode})"
    else:
        how = f"its process ended without a result (exit code {exitcode})"
    empty = tuple(SampleSums() for _ in order.seats)
    return RunOutcome(order.run_id, RunStatus.FAILED, 0, empty, 0.0, how)


def _run_here(order: RunOrder, pipe: Connection) -> None:
    """A run's process: plays the run, telling the server over ``pipe``. SIGTERM stops the
    run after its hand; Ctrl-C is the server's to handle."""

    die_with_parent()
    # The house agents' clients say when they connect and finish: the server says more.
    configure_logging(level="warning")
    stop = [False]

    def asked_to_stop(signum: int, frame: object) -> None:
        stop[0] = True

    signal.signal(signal.SIGTERM, asked_to_stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    last = [0.0]

    def hands(played: int) -> None:
        import time

        now = time.monotonic()
        if now - last[0] >= _HAND_REPORT_S or played == order.hands:
            last[0] = now
            pipe.send(("hands", played))

    try:
        outcome = play_run(
            order,
            lambda ports: pipe.send(("listening", ports)),
            stopping=lambda: stop[0],
            on_hand=hands,
        )
    except BaseException as exc:
        detail = "".join(traceback.format_exception_only(exc)).strip()
        print(traceback.format_exc(), file=sys.stderr)
        empty = tuple(SampleSums() for _ in order.seats)
        outcome = RunOutcome(order.run_id, RunStatus.FAILED, 0, empty, 0.0, detail)
    with contextlib.suppress(OSError):
        pipe.send(("done", outcome))
    pipe.close()
