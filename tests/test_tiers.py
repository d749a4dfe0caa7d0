"""The tiers' guard refuses a process however it is started, and a connection off this
machine, to a test not marked ``e2e``; the runner fails such a test even when it caught the
error; a fixture declared with ``starts_processes`` marks its users."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import socket
import subprocess
from collections.abc import Callable
from multiprocessing.context import ForkContext, ForkServerContext, SpawnContext
from pathlib import Path

import pytest

from tests import tiers
from tests.tiers import GUARD, ProcessRefusedError

pytest_plugins = ["pytester"]


def _nothing() -> None:
    pass


def _multiprocessing(context: ForkContext | SpawnContext | ForkServerContext) -> None:
    worker = context.Process(target=_nothing)
    worker.start()
    worker.join()


async def _asyncio_subprocess() -> None:
    process = await asyncio.create_subprocess_exec("true")
    await process.wait()


def _posix_spawn() -> None:
    os.waitpid(os.posix_spawnp("true", ["true"], os.environ), 0)


STARTS = {
    "subprocess.run": lambda: subprocess.run(["true"], check=True),
    "asyncio": lambda: asyncio.run(_asyncio_subprocess()),
    "multiprocessing fork": lambda: _multiprocessing(multiprocessing.get_context("fork")),
    "multiprocessing spawn": lambda: _multiprocessing(multiprocessing.get_context("spawn")),
    "multiprocessing forkserver": lambda: _multiprocessing(
        multiprocessing.get_context("forkserver")
    ),
    "os.posix_spawn": _posix_spawn,
    "os.system": lambda: os.system("true"),
}


@pytest.mark.parametrize("start", STARTS.values(), ids=STARTS.keys())
def test_every_way_of_starting_a_process_is_refused(start: Callable[[], object]) -> None:
    # Were one let through, it would run `true` or an empty function: harmless.
    with GUARD.guarding("tests/x.py::test_y") as refused, pytest.raises(ProcessRefusedError):
        start()
    assert len(refused) == 1
    assert refused[0].startswith("tests/x.py::test_y is not marked e2e but started a process")


def test_connections_stay_on_the_loopback(tmp_path: Path) -> None:
    listening = socket.create_server(("127.0.0.1", 0))
    with listening, GUARD.guarding("tests/x.py::test_y") as refused:
        with socket.create_connection(listening.getsockname(), timeout=5):
            pass
        with socket.socket() as off, pytest.raises(ProcessRefusedError, match=r"192\.0\.2\.1"):
            off.settimeout(0.1)
            off.connect(("192.0.2.1", 9))  # TEST-NET-1: nobody's
        with socket.socket(socket.AF_UNIX) as unix, pytest.raises(ProcessRefusedError):
            unix.connect(str(tmp_path / "daemon.sock"))  # as docker's daemon listens
    assert len(refused) == 2


def test_a_test_that_catches_the_refusal_fails_all_the_same(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        "from tests import tiers\n"
        "def pytest_configure(config):\n"
        "    config.pluginmanager.register(tiers, 'tiers')\n"
    )
    pytester.makepyfile(
        test_inner="""
        import subprocess

        def test_hides_its_process():
            try:
                subprocess.run(["true"])
            except RuntimeError:
                pass
        """
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:asyncio")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*test_inner.py::test_hides_its_process is not marked e2e but started a process*"]
    )


def test_a_fixture_that_starts_processes_marks_the_tests_that_use_it(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        "import pytest\n"
        "from tests import tiers\n"
        "def pytest_configure(config):\n"
        "    config.pluginmanager.register(tiers, 'tiers')\n"
        "    config.addinivalue_line('markers', 'e2e: processes')\n"
        "@pytest.fixture\n"
        "@tiers.starts_processes\n"
        "def tiers_test_daemon():\n"
        "    return 1\n"
        "@pytest.fixture\n"
        "def through_another(tiers_test_daemon):\n"
        "    return tiers_test_daemon\n"
    )
    pytester.makepyfile(
        test_inner="""
        def test_direct(tiers_test_daemon):
            pass

        def test_indirect(through_another):
            pass

        def test_in_process():
            pass
        """
    )
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "-p", "no:asyncio", "-m", "e2e", "--co", "-q"
    )
    result.stdout.fnmatch_lines(["test_inner.py::test_direct", "test_inner.py::test_indirect"])
    result.stdout.no_fnmatch_line("*test_in_process*")


def test_a_test_not_marked_slow_that_spends_seconds_of_cpu_fails(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        "from tests import tiers\n"
        "def pytest_configure(config):\n"
        "    config.pluginmanager.register(tiers, 'tiers')\n"
        "    config.addinivalue_line('markers', 'slow: seconds')\n"
    )
    pytester.makepyfile(
        test_inner="""
        import time

        import pytest

        def spin(seconds):
            started = time.thread_time()
            while time.thread_time() - started < seconds:
                pass

        def test_busy():
            spin(0.3)

        @pytest.mark.slow
        def test_busy_and_marked():
            spin(0.3)

        def test_waits():  # a loaded machine makes a test wait: that is not its cost
            time.sleep(0.3)

        @pytest.fixture
        def busy_fixture():
            spin(0.2)

        def test_busy_with_its_fixture(busy_fixture):
            spin(0.2)
        """
    )
    limit = tiers.SLOW_CPU_S
    tiers.SLOW_CPU_S = 0.25  # set back before this test's own time is judged
    try:
        result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:asyncio")
    finally:
        tiers.SLOW_CPU_S = limit
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*test_inner.py::test_busy is not marked slow but took 0.3 s of CPU time*",
            "*test_inner.py::test_busy_with_its_fixture is not marked slow but took 0.4 s*",
        ],
        consecutive=False,
    )
