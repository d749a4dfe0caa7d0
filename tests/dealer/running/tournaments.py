"""What the tournament tests share: the small tournament of the acceptance tests, and ways
to compare two of its folders."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ACPCBOT = Path(sys.executable).with_name("acpcbot")

AGENTS = ("tight-aggressive", "kendall-learner", "example")
"""3 agents × 2 seeds × 500 hands: each match takes a fraction of a second to a second. One
agent draws its decisions from seeded Monte-Carlo kernels (tight-aggressive), one learns
(kendall-learner), one plays at random (example): what must come out the same in any
process. (One Monte-Carlo style, not two: they are most of the tournament's time.)"""
SMALL = [*AGENTS, "--hands", "500", "--seeds", "2", "--seed", "11"]
"""The arguments of the small tournament (without --out and the executor)."""
MATCHES = 6
SHARES_THE_REFERENCE = pytest.mark.xdist_group("small-tournament")
"""The mark of a test that compares with the ``reference`` fixture (its conftest): such tests
run in one test process (``--dist loadgroup``), which plays the small tournament once."""


def acpcbot(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ACPCBOT), *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )


def logs(folder: Path) -> dict[str, bytes]:
    """Every match log of a tournament folder, by its path in the folder."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.glob("*/*.log"))}


def results(folder: Path) -> dict[str, Any]:
    """``results.json`` without what differs from run to run (the run, the status)."""
    data: dict[str, Any] = json.loads((folder / "results.json").read_text())
    data.pop("run")
    data.pop("status")
    return data


def match_folders(folder: Path) -> list[str]:
    """The matches moved into a tournament's folder (none before it exists)."""
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if p.is_dir() and "-vs-" in p.name)


def wait_for(condition: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)
