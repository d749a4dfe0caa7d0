"""The small tournament every tournament test compares with, played once with --jobs 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.dealer.running.tournaments import SMALL, acpcbot
from tests.tiers import starts_processes


@pytest.fixture(scope="session")
@starts_processes
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the small tournament played by one process."""
    folder = tmp_path_factory.mktemp("reference") / "t"
    done = acpcbot("tournament", *SMALL, "--out", str(folder), "--jobs", "1", cwd=folder.parent)
    assert done.returncode == 0, done.stderr
    return folder
