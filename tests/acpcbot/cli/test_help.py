"""``--help`` of ``acpcbot`` and of every subcommand prints its text and exits 0."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from acpcbot.cli import _subcommands, main

ACPCBOT = Path(sys.executable).with_name("acpcbot")
COMMANDS = [name for name, _ in _subcommands()]


@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS)], ids=str)
def test_help_exits_cleanly(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*command, "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: acpcbot")
    if not command:
        assert all(name in out for name in COMMANDS)


def test_help_of_the_installed_script_lists_every_subcommand() -> None:
    done = subprocess.run(
        [str(ACPCBOT), "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "95% CI" in done.stdout  # a help text with a percent sign survives argparse
    assert "Traceback" not in done.stderr
