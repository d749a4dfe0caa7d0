"""Running the dealer's coroutines: on uvloop when it is installed (the ``fast`` extra)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop if it is installed, else ``None`` (asyncio's default)."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to completion on a fresh event loop (uvloop when available)."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
