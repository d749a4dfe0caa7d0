"""One worker thread per player: its calls run there, in order, off the event loop.

A slow agent must not stall the connection, and an agent is not thread-safe, so every call
into it (observe, act, end_hand) goes through one queue served by one thread. A decision
that overruns its budget keeps running there and delays the calls queued behind it, but
never runs concurrently with them. The thread is a daemon: an agent stuck in a computation
cannot keep the program from exiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from acpcbot.logconfig import get_logger

T = TypeVar("T")

_Job = tuple[
    asyncio.AbstractEventLoop | None,
    "asyncio.Future[Any] | None",
    Callable[..., Any],
    tuple[Any, ...],
]

log = get_logger("client.worker")


class PlayerWorker:
    """Runs callables on a dedicated daemon thread, first in, first out."""

    def __init__(
        self, name: str = "player", on_error: Callable[[str, BaseException], None] | None = None
    ) -> None:
        self._on_error = on_error if on_error is not None else _log_error
        """Told of an exception raised by a :meth:`post`-ed call (its name and the error)."""
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=f"acpcbot-{name}", daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Queue ``fn(*args)``; the future completes on the running loop with its outcome.

        Cancelling the future does not stop the call: it still runs (in order), and its
        result is dropped.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((loop, future, fn, args))
        return future

    def post(self, fn: Callable[..., object], *args: Any) -> None:
        """Queue ``fn(*args)`` without waiting for it; an exception it raises goes to
        ``on_error`` (by default: logged)."""
        self._jobs.put((None, None, fn, args))

    async def drain(self) -> None:
        """Wait until every call queued so far has run."""
        await self.submit(_nothing)

    def close(self) -> None:
        """Let the thread end after the calls already queued."""
        self._jobs.put(None)

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            loop, future, fn, args = job
            try:
                result = fn(*args)
            except BaseException as exc:  # reported to the loop, or logged
                if future is None or loop is None:
                    self._on_error(_name(fn), exc)
                else:
                    _deliver(loop, future.set_exception, future, exc)
            else:
                if future is not None and loop is not None:
                    _deliver(loop, future.set_result, future, result)


def _deliver(
    loop: asyncio.AbstractEventLoop,
    setter: Callable[[Any], None],
    future: asyncio.Future[Any],
    value: object,
) -> None:
    def settle() -> None:
        if not future.done():  # cancelled when the budget ran out
            setter(value)

    with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is waiting
        loop.call_soon_threadsafe(settle)


def _log_error(call: str, exc: BaseException) -> None:
    log.error("player_call_failed", call=call, exc_info=exc)


def _nothing() -> None:
    return None


def _name(fn: Callable[..., object]) -> str:
    return getattr(fn, "__qualname__", repr(fn))
