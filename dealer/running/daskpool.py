"""A tournament on a Dask distributed cluster (``--scheduler tcp://HOST:PORT``).

Each match is submitted as one task under its own key (:attr:`MatchTask.key`: the match's
name and a digest of everything that defines it, so that two different matches are never
merged) with ``retries`` for errors, and runs :func:`play_task` on a worker, which returns
the match's files: the scheduler (which unpickles the tasks) and the workers need the
project installed, not the tournament's folder. Dask
reschedules a task whose worker died; it gives up after the scheduler's
``distributed.scheduler.allowed-failures`` deaths (3 by default) or
:data:`~dealer.running.tasks.ATTEMPTS` errors, and the match is reported. Progress comes
back as Dask events (topic :data:`TOPIC`).

Workers should run one thread each (``dask worker ... --nthreads 1``, as many workers as
cores): matches are Python, and threads of one process share one core.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from pathlib import Path
from typing import Any

from acpcbot.errors import AcpcError
from acpcbot.extras import install_hint
from acpcbot.logconfig import get_logger
from dealer.running.tasks import ATTEMPTS, MatchTask, TaskEvents, TaskResult, play_task

__all__ = ["TOPIC", "DaskPool", "connect_client", "dask_task", "need_distributed"]

log = get_logger("tournament")

TOPIC = "acpcbot-match-progress"
"""The Dask event topic of the matches' progress reports."""
_TICK_S = 0.25
_DASK_PORT = 8786
"""A Dask scheduler's port when its address gives none."""
_KNOCK_TIMEOUT_S = 5.0
"""How long a first connection to the scheduler may take (a silent address: then Dask's
client is not tried)."""


def need_distributed() -> None:
    """Raise a clear error when Dask's distributed is not installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise AcpcError(
            f"--scheduler needs Dask distributed, which is not installed: {install_hint('cluster')}"
        ) from None


def dask_task(task: MatchTask) -> TaskResult:
    """:func:`play_task` on a Dask worker, its progress sent as events."""
    from distributed import get_worker

    worker = get_worker()

    def report(hands: int) -> None:
        worker.log_event(TOPIC, {"match": task.name, "hands": hands, "worker": worker.address})

    return play_task(task, None, report)


class DaskPool:
    """Runs matches on the Dask cluster whose scheduler is at ``address``."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.description = f"the Dask cluster at {address}"
        self._client: Any = None

    def __enter__(self) -> DaskPool:
        self._client = connect_client(self.address)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def run(self, tasks: list[MatchTask], events: TaskEvents, scratch: Path) -> None:
        """Play ``tasks`` on the cluster (its workers play in their own temporary folders:
        ``scratch`` is this machine's)."""
        from distributed import as_completed

        del scratch
        client = self._client
        if client is None:
            raise RuntimeError("enter the DaskPool before running tasks")
        news: list[tuple[str, int, str]] = []  # (match, hands, worker), as heard
        lock = threading.Lock()

        def heard(event: tuple[float, Any]) -> None:  # in the client's own thread
            message = event[1]
            if isinstance(message, dict):
                with lock:
                    news.append(
                        (
                            str(message.get("match")),
                            int(message.get("hands", 0)),
                            str(message.get("worker")),
                        )
                    )

        client.subscribe_topic(TOPIC, heard)
        by_key = {task.key: task for task in tasks}
        played_on: dict[str, list[str]] = {}  # the workers heard playing each match
        futures = {
            task.key: client.submit(dask_task, task, key=task.key, retries=ATTEMPTS - 1)
            for task in tasks
        }
        pending = as_completed(futures.values(), loop=client.loop)
        try:
            while not pending.is_empty():
                batch = pending.next_batch(block=False)
                with lock:
                    heard_now = news[:]
                    news.clear()
                for name, hands, worker in heard_now:
                    workers = played_on.setdefault(name, [])
                    if worker not in workers:
                        workers.append(worker)
                        if len(workers) > 1:  # it began again: its worker died
                            events.retried(name, len(workers), f"it had begun on {workers[-2]}")
                    events.progress(name, hands)
                for future in batch:
                    task = by_key[future.key]
                    if future.status == "finished":
                        events.finished(future.result())
                    else:
                        events.gave_up(task.name, _failure(future.exception()))
                    del futures[future.key]
                    future.release()
                if not batch:
                    time.sleep(_TICK_S)
                events.tick()
        finally:
            # Interrupted: the matches not begun are dropped (a worker finishes the one
            # it is playing; its result is not waited for).
            if futures:
                client.cancel(list(futures.values()))
            client.unsubscribe_topic(TOPIC)


def connect_client(address: str) -> Any:
    """A client of the Dask scheduler at ``address`` (running in a thread of its own), after a
    look at its workers; :class:`AcpcError` in one line when it cannot be reached."""
    need_distributed()
    from distributed import Client

    # A lost scheduler is reported once, in a line of ours, not in the client's traces.
    logging.getLogger("distributed.client").setLevel(logging.CRITICAL)

    try:
        _knock(address)
        # How long to try: Dask's distributed.comm.timeouts.connect (30 s unless set,
        # e.g. DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s).
        client = Client(address, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise AcpcError(f"cannot reach the Dask scheduler at {address}: {why}") from None
    _check_workers(client, address)
    return client


def _check_workers(client: Any, address: str) -> None:
    workers = client.scheduler_info().get("workers", {})
    if not workers:
        log.warning("no_workers", scheduler=address, note="the jobs wait for one")
    for worker, info in workers.items():
        if info.get("nthreads", 1) > 1:
            log.warning(
                "worker_threads",
                worker=worker,
                nthreads=info["nthreads"],
                note="matches in one process share one core: start workers with "
                "--nthreads 1 (and --nworkers the cores)",
            )


def _knock(address: str) -> None:
    """Connect once to a TCP scheduler's port and leave (``OSError`` when that fails): a
    refused connection is known at once, where Dask's client would try again for its whole
    connect timeout (30 s by default). Other transports are left to Dask."""
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme not in ("tcp", "tls"):
        return
    host, port = parse_host_port(location, default_port=_DASK_PORT)
    with socket.create_connection((host, port), timeout=_KNOCK_TIMEOUT_S):
        pass


def _failure(exc: BaseException | None) -> str:
    """A task's failure in one line."""
    if exc is None:
        return "cancelled"
    name = type(exc).__name__
    if name == "KilledWorker":
        return f"its workers died while playing it ({exc})"
    return f"{name}: {exc}"
