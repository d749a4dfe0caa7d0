"""Logging: lines through structlog as configured, and structlog imported only for a line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from acpcbot.logconfig import configure_logging, get_logger, lines_to, notice


def test_a_component_logs_at_the_configured_level_and_form() -> None:
    said: list[str] = []
    log = get_logger("checks")
    configure_logging(json=True, level="warning")
    with lines_to(said.append):
        log.info("dropped")
        log.warning("kept", hands=3)
        notice("news")
    assert len(said) == 2
    line = json.loads(said[0])
    assert (line["event"], line["component"], line["hands"], line["level"]) == (
        "kept",
        "checks",
        3,
        "warning",
    )
    assert json.loads(said[1])["level"] == "notice"
    configure_logging(level="info")
    with lines_to(said.append):
        log.info("shown")
    assert "shown" in said[-1] and "checks" in said[-1] and not said[-1].startswith("{")


@pytest.mark.e2e
def test_structlog_is_imported_for_the_first_line_written_only() -> None:
    """A run that writes no log line (notices are not log lines; an info line at level
    warning is none) never imports structlog, nor rich with it."""
    code = (
        "import sys\n"
        "from acpcbot.logconfig import configure_logging, get_logger, notice\n"
        "log = get_logger('match')\n"
        "configure_logging(level='warning')\n"
        "log.info('not_shown')\n"
        "notice('compiling the kernels once')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('structlog', 'rich')))\n"
        "log.warning('shown', hands=2)\n"
        "print('structlog' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.splitlines() == ["[]", "True"]
    assert done.stderr.splitlines()[0] == "acpcbot: compiling the kernels once"
    assert "shown" in done.stderr.splitlines()[1] and "hands=2" in done.stderr.splitlines()[1]
    assert "not_shown" not in done.stderr
