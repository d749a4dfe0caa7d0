"""Shared fixtures: the bundled games and the reference dealer's recorded vectors; the tiers'
plugin (:mod:`tests.tiers`: ``e2e`` and ``slow``, and the guard that keeps them true)."""

from __future__ import annotations

import functools
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

import acpcbot.cli
from acpcbot.game import LIMIT_HOLDEM, NOLIMIT_HOLDEM, Game, bundled_game
from acpcbot.logconfig import kept_configuration
from tests import tiers
from tests.mqttbroker import broker  # noqa: F401  (a fixture: a real mosquitto)
from tests.postgresserver import postgres  # noqa: F401  (a fixture: a real PostgreSQL)

REPO = Path(__file__).resolve().parents[1]

# A shell without job control starts its background jobs with SIGINT ignored, and an ignored
# signal stays ignored in every process started from then on: the tests that press Ctrl-C on
# a match would see nothing happen. Catching it here gives the processes the tests start the
# default again (a caught signal is reset at exec).
signal.signal(signal.SIGINT, signal.default_int_handler)

# pytest-xdist starts its workers with COLUMNS set to the terminal's width, and the commands
# fit their text to it (acpcbot.cli.output.width): the tests, and the commands they start,
# see whole lines unless a test asks for a width. GNU readline (imported as pytest loads its
# plugins), on a terminal type it knows, exports COLUMNS and LINES into the process's own
# environment, which os.environ does not show but every process started without env=
# inherits: unset there too.
os.environ.pop("COLUMNS", None)
os.unsetenv("COLUMNS")

# Hypothesis fails an example that takes over 200 ms by default: on a machine busy with other
# work (the whole suite's own subprocesses, or a shared CI runner) a cheap example can wait
# that long, and the test fails as flaky although nothing is wrong. The examples' count, what
# the properties test, is each test's own.
settings.register_profile("acpcbot", deadline=None)
settings.load_profile("acpcbot")

# The command line's parser, built once a test process instead of for each of the ~400
# commands the fast tier runs in-process with main([...]) (8 ms of CPU each, 3 s in all): a
# process of the installed command reads one command line, so only the tests gain. Reading a
# command line leaves the parser as it was (what it reads goes into a new namespace, an
# appended option's default list is copied), so each test sees what a fresh one would.
acpcbot.cli.build_parser = functools.cache(acpcbot.cli.build_parser)


def pytest_configure(config: pytest.Config) -> None:
    # A plugin, not this conftest's hooks: those would hold only for the tests below tests/,
    # and the doctests beside the code are guarded too.
    config.pluginmanager.register(tiers, "tiers")


VECTORS = REPO / "tests" / "data" / "acpc-vectors"
"""The reference dealer's recorded vectors, kept with the tests (their README says what was
recorded and how): a clone needs nothing beside it to run the suite."""


@pytest.fixture(scope="session")
def vectors() -> Path:
    return VECTORS


@pytest.fixture(scope="session")
def limit_game() -> Game:
    return bundled_game(LIMIT_HOLDEM)


@pytest.fixture(scope="session")
def nolimit_game() -> Game:
    return bundled_game(NOLIMIT_HOLDEM)


@pytest.fixture(autouse=True, scope="module")
def _logging_left_as_found_by_the_module() -> Iterator[None]:
    """The same for a module's own fixtures (a module-scoped fixture that plays a match with
    ``main([...])`` would otherwise leave level warning to every later module of its worker,
    and their info events uncaptured)."""
    with kept_configuration():
        yield


@pytest.fixture(autouse=True)
def _logging_left_as_found() -> Iterator[None]:
    """A test that runs a command in-process (``main([...])`` configures logging for its
    process, ``acpcbot match`` at level warning) leaves the logging as it found it, so that
    a later test can capture info events."""
    with kept_configuration():
        yield


@pytest.hookimpl(trylast=True)  # after tests.tiers has marked the users of its fixtures
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files that hold ``e2e`` or ``slow`` tests run first, each file kept whole (its
    module-scoped fixtures made once a worker), the rest as collected: the test processes
    (pytest-xdist hands them tests in this order) start the tests of seconds and minutes
    early and end on the many short ones, which even out their finishing times (as
    collected, the long tests of ``tests/docker`` and ``tests/scripts`` came after all but
    the doctests)."""
    heavy = {_file_of(item) for item in items if item.get_closest_marker(tiers.E2E)}
    heavy |= {_file_of(item) for item in items if item.get_closest_marker(tiers.SLOW)}
    items.sort(key=lambda item: _file_of(item) not in heavy)  # (sort is stable)


def _file_of(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]
