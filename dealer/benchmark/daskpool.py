"""Runs played on a Dask cluster (``acpcbot serve --scheduler tcp://HOST:PORT``): the
benchmark server's other :class:`~dealer.benchmark.pool.RunExecutor`, on the engine the
tournaments use (:mod:`dealer.running.daskpool`).

Each run is one Dask task (:func:`play_on_worker`) under a key of its own, which plays
:func:`~dealer.benchmark.runs.play_run` in a thread of a worker. The run reports back as Dask
events on a topic of this pool's own (the scheduler passes them on at once): its ports and
the host its user seats listen on as soon as they listen, then its hands now and then; the
task's result is its :class:`~dealer.benchmark.runs.RunOutcome`. The server's event loop
never waits on Dask: the client runs in its own thread, and its news are handed over with
``call_soon_threadsafe``.

Where a run plays:

* Its user seats listen on the worker's machine: on ``$ACPCBOT_LISTEN_HOST`` when the
  worker's environment sets it, else on the host of the address the worker registered with
  the scheduler (``dask worker --host``, or the one it found). ``RUN`` lines name
  ``$ACPCBOT_PUBLIC_HOST`` when set (a name users can reach: the worker's own, per worker),
  else that address. The server's ``--public-host`` is for its own machine only.
* Its log is written where the server's data folder says (``DATA/logs/USER/...``), hand by
  hand, so every machine that plays runs must see the server's data folder at the same path
  (a shared file system, NFS or the like): a worker that does not see it fails the run at
  once and says so. Startup scripts must be at their configured paths on the workers too;
  the workers need acpcbot installed (the same version as the server: they unpickle its
  house agents).

A worker that dies mid-run has its task put on another worker by Dask; that attempt finds
the run's log there and does not play the run again (its log would not be the run's): the
run ends :attr:`~dealer.benchmark.runs.RunStatus.FAILED` with the hands its log holds.
Cancelled (the server stops), a run is asked to stop after its hand through a Dask
:class:`~distributed.Event`, as the local pool's SIGTERM asks.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from acpcbot.logconfig import get_logger
from dealer.analysis.playedlog import read_log
from dealer.analysis.stats import SampleSums
from dealer.benchmark.pool import STOP_GRACE_S, ListeningAt, RunStopped
from dealer.benchmark.runs import RunOrder, RunOutcome, RunStatus, play_run
from dealer.running.daskpool import connect_client

__all__ = ["LISTEN_HOST_VARIABLE", "PUBLIC_HOST_VARIABLE", "DaskRunPool", "play_on_worker"]

log = get_logger("serve")

LISTEN_HOST_VARIABLE = "ACPCBOT_LISTEN_HOST"
"""A worker's environment: the address its runs' user seats listen on."""
PUBLIC_HOST_VARIABLE = "ACPCBOT_PUBLIC_HOST"
"""A worker's environment: the host name ``RUN`` lines give for its runs."""

_HAND_REPORT_S = 1.0
"""Least time between two reports of a run's hands."""
_STOP_POLL_S = 1.0
"""How long the worker's watch for a stop waits on the scheduler at a time."""


class DaskRunPool:
    """Runs on the Dask cluster whose scheduler is at ``address`` (see the module)."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.description = f"the Dask cluster at {address}"
        self.topic = f"acpcbot-serve-{uuid.uuid4().hex[:12]}"
        """This pool's events (another server may share the cluster)."""
        self._client: Any = None
        self._plays: dict[str, Callable[[dict[str, Any]], None]] = {}
        """Who hears each run's events, by its task's key (read in the client's thread)."""
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)

    def connect(self) -> None:
        """Connect to the scheduler (blocking: before the server serves), or
        :class:`~acpcbot.errors.AcpcError` in one line."""
        self._client = connect_client(self.address)
        self._client.subscribe_topic(self.topic, self._heard)

    def _heard(self, event: tuple[float, Any]) -> None:
        """A run's event (in the client's thread)."""
        message = event[1]
        if not isinstance(message, dict):
            return
        with self._lock:
            hears = self._plays.get(str(message.get("key")))
        if hears is not None:
            hears(message)

    async def play(
        self,
        order: RunOrder,
        on_listening: ListeningAt,
        on_hands: Callable[[int], None] | None = None,
    ) -> RunOutcome:
        client = self._client
        if client is None:
            raise RuntimeError("connect the DaskRunPool before playing runs")
        loop = asyncio.get_running_loop()
        key = f"acpcbot-run-{order.run_id}-{next(self._numbers)}-{self.topic}"
        news: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

        def hear(message: dict[str, Any]) -> None:  # in the client's thread
            loop.call_soon_threadsafe(news.put_nowait, ("event", message))

        def done(future: Any) -> None:  # in a thread of the client's
            try:
                result: tuple[str, Any] = ("done", future.result())
            except BaseException as exc:
                result = ("error", exc)
            with contextlib.suppress(RuntimeError):  # (the loop closed: nobody waits)
                loop.call_soon_threadsafe(news.put_nowait, result)

        with self._lock:
            self._plays[key] = hear
        future = client.submit(
            play_on_worker, order, self.topic, key, key=key, pure=False, retries=0
        )
        future.add_done_callback(done)
        cancelled = False
        outcome: RunOutcome | None = None
        try:
            deadline: float | None = None
            while outcome is None:
                try:
                    if deadline is None:
                        kind, value = await news.get()
                    else:
                        async with asyncio.timeout_at(deadline):
                            kind, value = await news.get()
                except asyncio.CancelledError:
                    if cancelled:
                        raise
                    cancelled = True
                    await asyncio.to_thread(self._ask_to_stop, key)
                    deadline = loop.time() + STOP_GRACE_S
                    continue
                except TimeoutError:  # asked to stop, it did not end in time
                    outcome = _lost(order, "it did not stop in time after it was asked to")
                    break
                if kind == "event":
                    if "ports" in value:
                        on_listening(list(value["ports"]), str(value["host"]))
                    elif "hands" in value and on_hands is not None:
                        on_hands(int(value["hands"]))
                elif kind == "done":
                    outcome = value
                else:
                    outcome = _lost(order, _failure(value))
        finally:
            with self._lock:
                self._plays.pop(key, None)
            if not future.done():
                await asyncio.to_thread(future.cancel)  # (a call to the scheduler)
            future.release()
            if cancelled:
                await asyncio.to_thread(_clear_stop, client, key)
        if cancelled:
            raise RunStopped(outcome)
        return outcome

    def _ask_to_stop(self, key: str) -> None:
        from distributed import Event

        Event(_stop_name(key), client=self._client).set()

    def close(self) -> None:
        if self._client is not None:
            with contextlib.suppress(Exception):  # a scheduler gone already: nothing to do
                self._client.unsubscribe_topic(self.topic)
            self._client.close()
            self._client = None


def _stop_name(key: str) -> str:
    return f"{key}-stop"


def _clear_stop(client: Any, key: str) -> None:
    """Forget a run's stop (the scheduler keeps an event that is set)."""
    from distributed import Event

    with contextlib.suppress(Exception):
        Event(_stop_name(key), client=client).clear()


def _failure(exc: BaseException) -> str:
    """A task's failure in one line."""
    name = type(exc).__name__
    if name == "KilledWorker":
        return f"the Dask workers playing it died ({exc})"
    if name == "CancelledError":
        return "its Dask task was cancelled (the scheduler lost it)"
    return f"{name}: {exc}"


def _lost(order: RunOrder, why: str) -> RunOutcome:
    hands = _logged_hands(order.log)
    empty = tuple(SampleSums() for _ in order.seats)
    return RunOutcome(order.run_id, RunStatus.FAILED, hands, empty, 0.0, why)


def _logged_hands(path: Path) -> int:
    try:
        return read_log(path).hands
    except Exception:  # a log that is missing or unreadable holds no hand
        return 0


def play_on_worker(order: RunOrder, topic: str, key: str) -> RunOutcome:
    """A run on a Dask worker (its task): played as the local pool's process plays it,
    telling the server by events on ``topic`` (see the module)."""
    from distributed import Event, get_worker

    worker = get_worker()
    if order.log.exists():
        # Dask put the task here after the worker playing it died: not played again.
        return _lost(order, f"its Dask worker died while it played ({_logged_hands(order.log)} "
                     "hands in its log)")  # fmt: skip
    if not order.log.parent.is_dir():
        return _lost(
            order,
            f"the server's data folder ({order.log.parent}) is not on the Dask worker "
            f"{worker.address}: share it at the same path",
        )
    listen = os.environ.get(LISTEN_HOST_VARIABLE) or _host_of(worker.address)
    public = os.environ.get(PUBLIC_HOST_VARIABLE) or listen
    stop = Event(_stop_name(key))
    if stop.is_set():  # stopped while it waited for a worker
        return _lost(order, "the server stopped before it began")
    asked = threading.Event()
    ended = threading.Event()

    def watch() -> None:
        while not ended.is_set():
            with contextlib.suppress(Exception):  # (a scheduler that blinks: ask again)
                if stop.wait(_STOP_POLL_S):
                    asked.set()
                    return

    watcher = threading.Thread(target=watch, name=f"{key}-stop", daemon=True)
    watcher.start()
    last = [0.0]

    def hands(played: int) -> None:
        now = time.monotonic()
        if now - last[0] >= _HAND_REPORT_S or played == order.hands:
            last[0] = now
            worker.log_event(topic, {"key": key, "hands": played})

    try:
        return play_run(
            replace(order, user_host=listen),
            lambda ports: worker.log_event(topic, {"key": key, "ports": ports, "host": public}),
            stopping=asked.is_set,
            on_hand=hands,
        )
    finally:
        ended.set()


def _host_of(address: str) -> str:
    """The host of a Dask address (``tcp://10.0.0.5:40001``, ``tcp://[::1]:40001``).

    >>> _host_of("tcp://10.0.0.5:40001"), _host_of("tls://[::1]:40001")
    ('10.0.0.5', '::1')
    """
    rest = address.split("://", 1)[-1]
    host = rest.rsplit(":", 1)[0]
    return host.strip("[]")
