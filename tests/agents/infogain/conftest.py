"""Logs for the information-gain tests, played once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from acpcbot.game import bundled_game
from agents.registry import create_agent
from tests.agents.matches import write_log


@pytest.fixture(scope="session")
def field_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """200 hands of tight-aggressive against loose-aggressive (their bets tell, significantly,
    already)."""
    players = [create_agent("tight-aggressive", 1), create_agent("loose-aggressive", 2)]
    path = tmp_path_factory.mktemp("infogain") / "field.log"
    return write_log(path, bundled_game(), players, 200, seed=1)


@pytest.fixture(scope="session")
def callers_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """100 hands in which both players always call."""
    players = [create_agent("always-call", 1), create_agent("always-call", 2)]
    path = tmp_path_factory.mktemp("infogain") / "callers.log"
    return write_log(path, bundled_game(), players, 100, seed=2)
