"""At 80 columns (a terminal that wide, or ``COLUMNS=80``) what the commands print fits, and
says what it says at any width: the same words in the same order. Off a terminal (a pipe, a
file) the lines are left whole."""

from __future__ import annotations

import os
import pty
import re
import struct
import subprocess
import sys
import termios
from fcntl import ioctl
from pathlib import Path

import pytest

from acpcbot.cli import main
from acpcbot.game import bundled_game
from agents.registry import create_agent
from tests.agents.matches import write_log

ACPCBOT = Path(sys.executable).with_name("acpcbot")
PAIR = ("limit2p.seed42.n1000.Alice-Bob.log", "limit2p.seed42.n1000.Bob-Alice.log")
TIMES = re.compile(r"\d[\d,.]* (s|ms|hands/s)\b")
"""What differs from one run of a command to the next."""


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    players = [create_agent("tight-aggressive", 1), create_agent("loose-aggressive", 2)]
    path = tmp_path_factory.mktemp("width") / "m.log"
    return write_log(path, bundled_game(), players, 30, seed=4)


def _text(
    args: list[str],
    columns: int | None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> str:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", str(columns))
    assert main(args) == 0
    return TIMES.sub("T", capsys.readouterr().out)


def _fits(text: str) -> bool:
    """Every line at most 80 columns, but a word longer than that (a path) on its own line."""
    return all(len(line) <= 80 or len(line.split()) == 1 for line in text.splitlines())


def _fits_and_keeps_every_word(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = _text(args, None, monkeypatch, capsys)
    assert max(len(line) for line in whole.splitlines()) > 80  # (else nothing is tested)
    fitted = _text(args, 80, monkeypatch, capsys)
    assert _fits(fitted), fitted
    assert fitted.split() == whole.split()


def test_agents(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _fits_and_keeps_every_word(["agents"], monkeypatch, capsys)
    fitted = _text(["agents"], 80, monkeypatch, capsys).splitlines()
    # each agent's text continues under its description, never under the names
    plicas = fitted.index(next(line for line in fitted if line.startswith("plicas ")))
    column = fitted[plicas].index("PLICAS")
    assert all(line.startswith(" " * column) for line in fitted[plicas + 1 : plicas + 3])


def test_results_of_a_pair(
    vectors: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = [str(vectors / "logs" / "example_player" / name) for name in PAIR]
    _fits_and_keeps_every_word(["results", *logs, "--aivat"], monkeypatch, capsys)


def test_a_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    match = ["match", "example", "always-call", "--hands", "20", "--jobs", "1", "--no-progress"]
    whole = _text([*match, "--out", "a"], None, monkeypatch, capsys)
    fitted = _text([*match, "--out", "b"], 80, monkeypatch, capsys)
    assert max(len(line) for line in whole.splitlines()) > 80
    assert _fits(fitted), fitted
    assert fitted.replace(" b:", " a:").split() == whole.split()


def test_infogain(
    log: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fits_and_keeps_every_word(["infogain", str(log), "--flop-runouts", "5"], monkeypatch, capsys)


@pytest.mark.e2e
def test_on_a_terminal_80_columns_wide() -> None:
    """``acpcbot agents`` on a real terminal of 80 columns (a pseudo-terminal), no COLUMNS."""
    leader, follower = pty.openpty()
    ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    agents = subprocess.Popen([str(ACPCBOT), "agents"], stdout=follower, env=env)
    os.close(follower)
    out = b""
    try:
        while chunk := os.read(leader, 65536):
            out += chunk
    except OSError:  # (EIO) the command has closed the terminal: everything is read
        pass
    finally:
        os.close(leader)
    assert agents.wait(timeout=60) == 0
    lines = out.decode().splitlines()
    assert len(lines) > 20 and max(len(line) for line in lines) <= 80
