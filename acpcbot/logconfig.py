"""Structured logging: readable on a terminal, JSON lines with ``--log-json``; and notices.

Logs go to stderr so that stdout stays free for results (``--json`` summaries, the
dealer's port line), each line in one write, so that processes sharing stderr (a match's
halves) never splice their lines into one. While a progress bar is drawn, :func:`lines_to`
sends them to it instead (it writes them above the bar), or a process playing a half sends
them to the process that draws the bar.

A :func:`notice` is news that is not a problem (kernels compiled once, a match going on
with its earlier run): ``acpcbot: TEXT`` on stderr, or a JSON line with ``"level":
"notice"``; it shows at every log level but ``error``.

structlog (which imports asyncio and, where it is installed, rich) is imported when the
first log line is written, not when a module asks for its logger: most runs write none
(notices are not log lines), and every process paid for it as it started.

>>> said = []
>>> with lines_to(said.append):
...     notice("compiling the kernels once")
>>> said
['acpcbot: compiling the kernels once']
"""

from __future__ import annotations

import contextlib
import json as jsonlib
import logging
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from types import ModuleType
from typing import Any

_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}
_METHOD_LEVELS = {**_LEVELS, "warn": logging.WARNING, "exception": logging.ERROR}
"""The level of each of a logger's methods that writes a line at one."""


class _Output:
    """Where log lines go, and how notices are written (set by :func:`configure_logging`)."""

    json = False
    level = logging.INFO
    sink: Callable[[str], None] | None = None
    pending = False
    """Configured while structlog was not imported: it is configured as it is imported."""


def configure_logging(*, json: bool = False, level: str = "info") -> None:
    """Configure structlog once for the process (when it is imported, if it is not yet)."""
    _Output.json = json
    _Output.level = _LEVELS[level]
    _Output.pending = True
    if "structlog" in sys.modules:
        _structlog()


def _structlog() -> ModuleType:
    """structlog, imported here at the first line written (see the module's description),
    and configured as :func:`configure_logging` was asked to."""
    import structlog  # here, at the first line written (see the module's description)

    if _Output.pending:
        _Output.pending = False
        _configure(structlog)
    return structlog


def _configure(structlog: ModuleType) -> None:
    json = _Output.json
    processors: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    # Tracebacks without local variables: with them one agent failure printed ~100 kB (and
    # the readable form would depend on whether rich happens to be installed).
    if json:
        processors += [
            structlog.processors.ExceptionRenderer(
                structlog.tracebacks.ExceptionDictTransformer(show_locals=False)
            ),
            structlog.processors.JSONRenderer(),
        ]
    else:
        processors.append(
            structlog.dev.ConsoleRenderer(
                colors=sys.stderr.isatty(), exception_formatter=structlog.dev.plain_traceback
            )
        )
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(_Output.level),
        logger_factory=_stderr_logger,
        cache_logger_on_first_use=False,
    )


@contextlib.contextmanager
def kept_configuration() -> Iterator[None]:
    """Leave the logging configured as it was before the block, whatever the block
    configured (a program that runs commands in-process, as the tests do)."""
    structlog = _structlog()
    saved = structlog.get_config()
    output = (_Output.json, _Output.level, _Output.sink)
    try:
        yield
    finally:
        structlog.configure(**saved)
        _Output.json, _Output.level, _Output.sink = output
        _Output.pending = False


def _stderr_logger(*args: Any) -> _LineLogger:
    del args
    return _LineLogger()


class _LineLogger:
    """structlog's logger: every rendered line to :func:`_emit`."""

    def msg(self, message: str) -> None:
        _emit(message)

    log = debug = info = warn = warning = err = error = critical = exception = msg


def _emit(line: str) -> None:
    """One line out: to the sink of :func:`lines_to`, or to stderr in one write."""
    sink = _Output.sink
    if sink is not None:
        sink(line)
        return
    # sys.stderr at each use, not once: it may be replaced after configuration (pytest's
    # capture, a redirect in an embedding program) and the old one closed.
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


@contextlib.contextmanager
def lines_to(sink: Callable[[str], None]) -> Iterator[None]:
    """Send every log line and notice of this process to ``sink`` in the block (a progress
    display's ``write``, which puts them above its bar)."""
    before = _Output.sink
    _Output.sink = sink
    try:
        yield
    finally:
        _Output.sink = before


def notice(text: str, *, event: str | None = None, **fields: Any) -> None:
    """Tell the user ``text``, news that is not a problem (see the module's description);
    with ``--log-json`` the line is ``event`` (default: ``text``) with ``fields``."""
    if _Output.level > logging.WARNING:
        return
    if not _Output.json:
        _emit(f"acpcbot: {text}")
        return
    stamp = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    record = {"event": event or text, "text": text, **fields, "level": "notice", "timestamp": stamp}
    _emit(jsonlib.dumps(record, default=str))


def get_logger(name: str) -> Any:
    """A structlog logger bound to a component name (structlog imported when it first
    writes a line)."""
    return _Logger(name)


class _Logger:
    """structlog's logger for a component, asked for at each call: the first imports
    structlog, unless the configuration waiting for it would drop the line anyway."""

    __slots__ = ("_component",)

    def __init__(self, component: str) -> None:
        self._component = component

    def __getattr__(self, method: str) -> Callable[..., Any]:
        if method.startswith("_"):  # not a logger's method: what Python and tools look for
            raise AttributeError(method)
        level = _METHOD_LEVELS.get(method)

        def call(*args: Any, **fields: Any) -> Any:
            if _Output.pending and level is not None and level < _Output.level:
                return None
            logger = _structlog().get_logger(component=self._component)
            return getattr(logger, method)(*args, **fields)

        return call
