"""The exit status of every command (``docs/commands/index.md``): 2 for a command line that
cannot be carried out as written (an unknown option, a value of the wrong form, an unknown
agent, options that do not go together), 1 for work that failed (a file missing, a folder
holding something else, a dealer that cannot be reached), 130 for Ctrl-C."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from acpcbot.cli import COMMANDS, main

ACPCBOT = Path(sys.executable).with_name("acpcbot")
LOG = "logs/deterministic/limit2p.seed42.n1000.Alice_hash-Bob_raiser.log"
NOLIMIT = "holdem.nolimit.2p.reverse_blinds.game"
LIMIT = "holdem.limit.2p.reverse_blinds.game"

USAGE: dict[str, list[list[str]]] = {
    "agents": [["--spec"]],
    "equity": [["AsAs", "KdKh"], ["AhKh"], ["AhKh", "QsQd", "--board", "Qs"], ["AhKh", "x"]],
    "infogain": [["{log}", "--game", "no-such.game"], ["{log}", "--flop-runouts", "0"]],
    "lbr": [["plicas"], ["nobody"], ["always-call", "--hands", "0"]],
    "match": [
        ["plicass", "dpp"],
        ["example", "always-call", "--host", "0.0.0.0"],
        ["example", "always-call", "--mqtt-hands"],
        ["plicas", "always-call", "--game", NOLIMIT],
        ["example", "always-call", "--game", "no-such.game"],
        ["plicas:dprc=maybe", "always-call"],
    ],
    "play": [
        ["127.0.0.1", "1", "--agent", "nobody"],
        ["127.0.0.1", "1", "1", "--agent", "example"],
        ["127.0.0.1", "1", "--agent", "example", "--match-seed", "3"],
    ],
    "results": [
        [],
        ["{log}", "--tournament", "."],
        ["--tournament", ".", "--strict"],
        ["{log}", "--side-by-side"],
    ],
    "stats": [["{log}", "--game", "no-such.game"]],
    "tournament": [["example"], ["example", "example"], ["example", "always-call", "--seeds", "x"]],
    "watch": [["--json"]],
    "web": [["--port", "x"]],
    "serve": [["--host", "0.0.0.0"], ["user", "frobnicate"]],
    "connect": [["127.0.0.1", "--agent", "example", "--run", "HELP"], ["h", "--seed", "-1"]],
}
"""Command lines that are wrong whatever the files, the network and the agents."""

RUNTIME: dict[str, list[list[str]]] = {
    "equity": [],  # nothing outside the command line can fail
    "agents": [],
    "infogain": [["missing.log"]],
    "lbr": [["always-call", "--hands", "10", "--out", "a-file"]],
    "match": [["example", "always-call", "--hands", "10", "--out", "a-file"]],
    "play": [["127.0.0.1", "{closed}", "--agent", "example"]],
    "results": [["missing.log"], ["--tournament", "."]],
    "stats": [["missing.log"], ["{log}", "--game", NOLIMIT]],
    "tournament": [["example", "always-call", "--hands", "10", "--out", "a-file"]],
    "watch": [["--mqtt", "mqtt://127.0.0.1:{closed}", "--once"]],
    "web": [],  # (its refusals are the web page's)
    "serve": [["--config", "missing.toml"]],
    "connect": [["127.0.0.1", "--agent", "example", "--user", "u", "--password-file", "none"]],
}
"""Command lines that are right, for work that fails."""


def _closed_port() -> int:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port: int = unused.getsockname()[1]
    return port


def _status(
    command: str, args: list[str], vectors: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> int:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("not a folder\n")
    words = [word.format(log=vectors / LOG, closed=_closed_port()) for word in [command, *args]]
    try:
        return main(words)
    except SystemExit as exited:  # argparse's errors
        assert isinstance(exited.code, int)
        return exited.code


def test_every_command_is_covered() -> None:
    assert set(USAGE) == set(RUNTIME) == set(COMMANDS)


CASES = [(c, a, 2) for c, cases in USAGE.items() for a in cases] + [
    (c, a, 1) for c, cases in RUNTIME.items() for a in cases
]


@pytest.mark.parametrize(("command", "args", "status"), CASES, ids=str)
def test_a_wrong_command_line_exits_2_and_work_that_fails_1(
    command: str,
    args: list[str],
    status: int,
    vectors: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _status(command, args, vectors, tmp_path, monkeypatch) == status
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error: " in err and "Traceback" not in err, err
    assert status == 2 or err.startswith("acpcbot: error: ")


@pytest.mark.e2e
def test_ctrl_c_exits_130(tmp_path: Path) -> None:
    """``acpcbot stats`` reading a pipe whose writer says nothing yet: SIGINT ends it."""
    fifo = tmp_path / "log"
    os.mkfifo(fifo)
    stats = subprocess.Popen(
        [str(ACPCBOT), "stats", str(fifo), "--game", LIMIT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with fifo.open("w"):  # returns once the command has opened the pipe to read it
            time.sleep(0.2)
            stats.send_signal(signal.SIGINT)
            out, err = stats.communicate(timeout=60)
    finally:
        stats.kill()
    assert stats.returncode == 130 and out == ""
    assert err == "acpcbot: interrupted\n"
