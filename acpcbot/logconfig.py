"""Structured logging: readable on a terminal, JSON lines with ``--log-json``.

Logs go to stderr so that stdout stays free for results (``--json`` summaries, the
dealer's port line).
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import structlog

_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}


def configure_logging(*, json: bool = False, level: str = "info") -> None:
    """Configure structlog once for the process."""
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
        wrapper_class=structlog.make_filtering_bound_logger(_LEVELS[level]),
        logger_factory=_stderr_logger,
        cache_logger_on_first_use=False,
    )


def _stderr_logger(*args: Any) -> structlog.PrintLogger:
    # Resolve sys.stderr at each use, not once: it may be replaced after configuration
    # (pytest's capture, a redirect in an embedding program) and the old one closed.
    del args
    return structlog.PrintLogger(file=sys.stderr)


def get_logger(name: str) -> Any:
    """A structlog logger bound to a component name."""
    return structlog.get_logger(component=name)
