"""Shared fixtures: the bundled games and the reference dealer's recorded vectors."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

from acpcbot.game import LIMIT_HOLDEM, NOLIMIT_HOLDEM, Game, bundled_game
from tests.mqttbroker import broker  # noqa: F401  (a fixture: a real mosquitto)

REPO = Path(__file__).resolve().parents[1]

# A shell without job control starts its background jobs with SIGINT ignored, and an ignored
# signal stays ignored in every process started from then on: the tests that press Ctrl-C on
# a match would see nothing happen. Catching it here gives the processes the tests start the
# default again (a caught signal is reset at exec).
signal.signal(signal.SIGINT, signal.default_int_handler)


def vectors_dir() -> Path:
    """``../shared/acpc-vectors`` beside the checkout, or ``$ACPC_VECTORS``."""
    configured = os.environ.get("ACPC_VECTORS")
    path = Path(configured) if configured else REPO.parent / "shared" / "acpc-vectors"
    if not path.is_dir():
        raise RuntimeError(
            f"the reference dealer's vectors are not at {path}; set ACPC_VECTORS to their folder"
        )
    return path


@pytest.fixture(scope="session")
def vectors() -> Path:
    return vectors_dir()


@pytest.fixture(scope="session")
def limit_game() -> Game:
    return bundled_game(LIMIT_HOLDEM)


@pytest.fixture(scope="session")
def nolimit_game() -> Game:
    return bundled_game(NOLIMIT_HOLDEM)


@pytest.fixture(autouse=True)
def _logging_left_as_found() -> Iterator[None]:
    """A test that runs a command in-process (``main([...])`` configures logging for its
    process, ``acpcbot match`` at level warning) leaves the logging as it found it, so that
    a later test can capture info events."""
    saved = structlog.get_config()
    yield
    structlog.configure(**saved)
