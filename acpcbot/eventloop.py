"""Running a coroutine on the fastest event loop available.

uvloop (the ``fast`` extra) speeds up the many small reads and writes of a match; it is
used when installed unless told otherwise, and never required.

>>> import asyncio
>>> async def answer() -> int:
...     return 42
>>> run(answer(), uvloop=False)
42
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from acpcbot.errors import AcpcError
from acpcbot.extras import install_hint

T = TypeVar("T")


def uvloop_available() -> bool:
    return importlib.util.find_spec("uvloop") is not None


def loop_factory(uvloop: bool | None = None) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop factory when ``uvloop`` is true, or ``None`` (auto) and it is
    installed; ``None`` (asyncio's default loop) otherwise."""
    if uvloop is False or (uvloop is None and not uvloop_available()):
        return None
    try:
        module = importlib.import_module("uvloop")
    except ImportError:
        raise AcpcError(f"uvloop is not installed: {install_hint('fast')}") from None
    factory: Callable[[], asyncio.AbstractEventLoop] = module.new_event_loop
    return factory


def run(coro: Coroutine[Any, Any, T], *, uvloop: bool | None = None) -> T:
    """``asyncio.run(coro)`` on uvloop when wanted and available (see :func:`loop_factory`)."""
    with asyncio.Runner(loop_factory=loop_factory(uvloop)) as runner:
        return runner.run(coro)
