"""``--help`` of ``acpcbot`` and of every subcommand prints its text and exits 0."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from acpcbot.cli import COMMANDS, main

ACPCBOT = Path(sys.executable).with_name("acpcbot")


@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS)], ids=str)
def test_help_exits_cleanly(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*command, "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: acpcbot")
    if not command:
        assert all(name in out for name in COMMANDS)


@pytest.mark.e2e
def test_help_of_the_installed_script_lists_every_subcommand() -> None:
    done = subprocess.run(
        [str(ACPCBOT), "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "95% CI" in done.stdout  # a help text with a percent sign survives argparse
    assert "Traceback" not in done.stderr


@pytest.mark.e2e
def test_a_reader_that_has_gone_is_not_a_traceback() -> None:
    """``acpcbot agents | head -0``: the pipe's reader is gone before anything is written,
    which is no error (the reader chose to stop reading)."""
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from acpcbot.cli import main; sys.exit(main())",
                "agents",
            ],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert done.returncode == 0


@pytest.mark.e2e
def test_help_loads_neither_mqtt_nor_plotting() -> None:
    """``--help`` stays fast: aiomqtt, paho-mqtt, matplotlib, numpy, numba, the agents and
    the dealer are loaded only by the commands and options that use them (the packages' faces
    load their names when first used)."""
    code = (
        "import sys\n"
        "from acpcbot.cli import build_parser\n"
        "build_parser()\n"
        "for args in ([], *([name] for name in sys.argv[1:])):\n"
        "    try:\n"
        "        build_parser().parse_args([*args, '--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('aiomqtt', 'paho', 'matplotlib', 'rich', 'numpy', 'numba', 'dealer', 'agents')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *COMMANDS],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.splitlines()[-1] == "[]"
