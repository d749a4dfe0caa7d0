"""The suite's two tiers, and the check that keeps a test in the tier its marks say.

A test marked ``e2e`` starts other processes: our commands, the dealer as a process, the
halves or pool workers a match or tournament forks, mosquitto, a Dask cluster, docker. One
marked ``slow`` stays in this process but takes seconds. ``./dev.sh test --fast`` runs
neither (``-m "not e2e and not slow"``); ``./dev.sh test`` runs everything.

A test is marked ``e2e`` by hand (``@pytest.mark.e2e``, or ``pytestmark`` for a module) or by
using a fixture that starts processes, declared with :func:`starts_processes`: every test
that uses it, directly or through another fixture, is marked at collection.

A test not marked ``slow`` (nor ``e2e``) that spends more than :data:`SLOW_CPU_S` seconds of
CPU time in its setup and body fails, naming the time and the mark to give it
(:class:`CpuClock`). The time is this thread's CPU time (:func:`time.thread_time`), not the
wall clock, so that a loaded machine, which makes a test wait, does not make it fail; and
numba's compiling is left out, so that a fresh clone, whose first run compiles every kernel
(:mod:`acpcbot.handeval.jitcache`), does not either.

:class:`ProcessGuard` checks the marks in every run, the whole suite's included (so CI keeps
them true): while a test not marked ``e2e`` sets up or runs, starting a process, or
connecting to anything but this machine's loopback, fails the test at once, naming what it
started. It is an audit hook (:func:`sys.addaudithook`), which sees ``subprocess``,
``asyncio``'s subprocesses, ``os.fork`` (multiprocessing's fork), ``os.posix_spawn`` and
``os.system``, plus a wrapper of ``_posixsubprocess.fork_exec``, which multiprocessing's
spawn and forkserver use without an audit event.

>>> guard = ProcessGuard()
>>> with guard.guarding("tests/test_x.py::test_y") as refused:
...     try:
...         guard.audit("subprocess.Popen", ("acpcbot", ["acpcbot", "match"], None, None))
...     except ProcessRefusedError:
...         pass  # the runner fails the test all the same: it is in ``refused``
>>> print(refused[0][:93])
tests/test_x.py::test_y is not marked e2e but started a process (subprocess.Popen: ['acpcbot'
>>> guard.audit("subprocess.Popen", ("true", ["true"], None, None))  # no test guarded: allowed
>>> clock = CpuClock()
>>> spent = clock.now()
>>> while clock.now() - spent < 0.01:
...     pass  # busy: CPU time goes by
>>> round(clock.now() - spent, 2) >= 0.01
True
"""

from __future__ import annotations

import _posixsubprocess
import ipaddress
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest

__all__ = [
    "CLOCK",
    "E2E",
    "GUARD",
    "SLOW",
    "SLOW_CPU_S",
    "CpuClock",
    "ProcessGuard",
    "ProcessRefusedError",
    "install",
    "mark_fixture_users",
    "pytest_collection_modifyitems",
    "pytest_configure",
    "pytest_runtest_call",
    "pytest_runtest_setup",
    "starts_processes",
]

E2E = "e2e"
SLOW = "slow"
SLOW_CPU_S = 5.0
"""CPU seconds (setup and body) beyond which a test must be marked ``slow``. The mark says
"more than about 2 s on a quiet machine"; the check allows a busy machine's slower CPU
(caches shared with other work) and the first test of a process its one-off costs (loading
the compiled kernels and the tables, an agent's rehearsal) before it fails a test."""

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

F = TypeVar("F", bound=Callable[..., Any])

_process_fixtures: set[str] = set()


def starts_processes(fixture: F) -> F:
    """Declare that the fixture ``fixture`` starts processes (put it under
    ``@pytest.fixture``): every test that uses it is marked ``e2e``. The fixture's name must
    be its function's."""
    _process_fixtures.add(fixture.__name__)
    return fixture


def mark_fixture_users(items: Iterable[pytest.Item]) -> None:
    """Mark ``e2e`` each item that uses a fixture declared with :func:`starts_processes`."""
    for item in items:
        if _process_fixtures.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(E2E)


_PROCESS_EVENTS: dict[str, int | None] = {
    "subprocess.Popen": 1,
    "os.posix_spawn": 1,
    "os.spawn": 2,
    "os.exec": 1,
    "os.system": 0,
    "os.fork": None,
    "os.forkpty": None,
}
"""The audit events of starting a process (or replacing this one), with where the command
is in their arguments."""

_LIBRARY_PROBES = frozenset({"fc-list", "uname"})
"""Programs that libraries run once to look at the machine, not what a test exercises:
matplotlib's font scan on a machine where it has not cached one yet, platform.processor()."""


class ProcessRefusedError(RuntimeError):
    """A test not marked ``e2e`` started a process or connected off this machine."""


class ProcessGuard:
    """Refuses new processes and connections beyond the loopback while a test is guarded."""

    def __init__(self) -> None:
        self.test: str | None = None
        self.refused: list[str] = []

    @contextmanager
    def guarding(self, test: str) -> Iterator[list[str]]:
        """Guard ``test`` while the block runs; yields the list of what it was refused (a test
        may catch the error: the runner fails it all the same)."""
        outer = (self.test, self.refused)
        self.test, self.refused = test, []
        try:
            yield self.refused
        finally:
            self.test, self.refused = outer

    def audit(self, event: str, args: tuple[Any, ...]) -> None:
        """The audit hook: cheap for every other event (it sees all of them, from every
        thread)."""
        if self.test is None:
            return
        if event in _PROCESS_EVENTS:
            at = _PROCESS_EVENTS[event]
            self._process(event, args[at] if at is not None else "")
        elif event == "socket.connect" and not _on_loopback(args[1]):
            self._refuse(f"connected to {args[1]!r}, which is not this machine's loopback")

    def fork_exec(self, original: Callable[..., int]) -> Callable[..., int]:
        """``_posixsubprocess.fork_exec``, refused while a test is guarded."""

        def guarded(*args: Any, **kwargs: Any) -> int:
            if self.test is not None:
                self._process("_posixsubprocess.fork_exec", args[0] if args else "")
            return original(*args, **kwargs)

        return guarded

    def _process(self, event: str, command: object) -> None:
        if _program(command) in _LIBRARY_PROBES:
            return
        shown = f"{event}: {_shown(command)}" if command else event
        self._refuse(f"started a process ({shown})")

    def _refuse(self, what: str) -> None:
        message = (
            f"{self.test} is not marked e2e but {what}: mark it @pytest.mark.e2e (or use a "
            "fixture declared with tests.tiers.starts_processes); ./dev.sh test --fast runs "
            "only tests that stay in this process (tests/tiers.py)\n" + _where()
        )
        self.refused.append(message)
        raise ProcessRefusedError(message)


def _where() -> str:
    """The innermost frames of the project's code that led here (the library's are below)."""
    here, environment = os.path.abspath(__file__), sys.prefix + os.sep  # .venv may be in _REPO
    ours = [
        frame
        for frame in traceback.extract_stack()
        if frame.filename.startswith(_REPO + os.sep)
        and not frame.filename.startswith(environment)
        and frame.filename != here
    ]
    return "".join(traceback.format_list(ours[-4:]))


def _program(command: object) -> str:
    """The program's file name in a command (a list of arguments, or a string)."""
    if isinstance(command, (list, tuple)) and command:
        command = command[0]
    if isinstance(command, bytes):
        command = os.fsdecode(command)
    return os.path.basename(str(command).split()[0]) if str(command).strip() else ""


def _shown(command: object) -> str:
    if isinstance(command, (list, tuple)):
        command = [os.fsdecode(part) if isinstance(part, bytes) else str(part) for part in command]
    text = str(command)
    return text if len(text) <= 200 else text[:200] + "..."


def _on_loopback(address: object) -> bool:
    """Whether a socket address is this machine's loopback (a Unix socket's path is not:
    another process, such as docker's daemon, listens there)."""
    if not isinstance(address, tuple) or not address:
        return False
    host = address[0]
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False


class CpuClock:
    """This thread's CPU time, less what numba spent compiling kernels in it: what a test
    costs in the fast tier once the kernels are cached (compiling happens once per clone, or
    after a kernel's file changes)."""

    def __init__(self) -> None:
        self._local = threading.local()
        self._listening = False

    def now(self) -> float:
        """Seconds of this thread's CPU time so far, numba's compiling left out."""
        self._listen()
        local = self._local
        compiled = getattr(local, "compiled", 0.0)
        if getattr(local, "depth", 0):  # inside a compile now: its time so far is left out too
            compiled += time.thread_time() - local.started
        return time.thread_time() - compiled

    def _listen(self) -> None:
        """Hear numba's compiles once it is loaded (the suite's collection loads it: the
        doctests import every module); before that nothing compiles."""
        if self._listening or "numba" not in sys.modules:
            return
        from numba.core import event

        clock = self

        class _Compiles(event.Listener):
            def on_start(self, _event: object) -> None:
                local = clock._local
                local.depth = getattr(local, "depth", 0) + 1
                if local.depth == 1:  # a kernel's compile compiles those it calls: once
                    local.started = time.thread_time()

            def on_end(self, _event: object) -> None:
                local = clock._local
                local.depth -= 1
                if local.depth == 0:
                    spent = time.thread_time() - local.started
                    local.compiled = getattr(local, "compiled", 0.0) + spent

        event.register("numba:compile", _Compiles())  # type: ignore[no-untyped-call]
        self._listening = True


CLOCK = CpuClock()
"""The suite's clock of tests' CPU time."""

GUARD = ProcessGuard()
"""The suite's guard, installed once per process by :func:`install`."""

_installed = threading.Event()


def install() -> None:
    """Install :data:`GUARD` in this process (once: an audit hook cannot be removed)."""
    if _installed.is_set():
        return
    _installed.set()
    sys.addaudithook(GUARD.audit)
    _posixsubprocess.fork_exec = GUARD.fork_exec(_posixsubprocess.fork_exec)


# The plugin (tests/conftest.py registers this module, so that its hooks hold for every test,
# the doctests beside the code included: a conftest's own hooks hold only below its folder).


def pytest_configure(config: pytest.Config) -> None:
    install()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mark_fixture_users(items)


_SPENT = pytest.StashKey[float]()
"""A test's CPU time in its setup (then in its setup and body too)."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    started = CLOCK.now()
    try:
        return (yield from _guarded(item))
    finally:
        item.stash[_SPENT] = CLOCK.now() - started


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    started = CLOCK.now()
    yield from _guarded(item)
    spent = item.stash.get(_SPENT, 0.0) + CLOCK.now() - started
    if spent > SLOW_CPU_S and not (item.get_closest_marker(SLOW) or item.get_closest_marker(E2E)):
        pytest.fail(
            f"{item.nodeid} is not marked slow but took {spent:.1f} s of CPU time (setup and "
            f"body, numba's compiling left out; the fast tier's limit is {SLOW_CPU_S:.0f} s): "
            "mark it @pytest.mark.slow, or make it cheaper (tests/tiers.py)",
            pytrace=False,
        )


def _guarded(item: pytest.Item) -> Generator[None, None, None]:
    """Run a test's setup or body under :data:`GUARD` unless it is marked ``e2e``; when the
    guard refused something, the test fails with the guard's message even if the code it
    ran caught the error (a runner that reports a failed match, say)."""
    if item.get_closest_marker(E2E) is not None:
        return (yield)
    with GUARD.guarding(item.nodeid) as refused:
        try:
            result = yield
        except Exception:
            if not refused:
                raise
            result = None  # what the test raised came of the refusal: that is its failure
        if refused:
            pytest.fail(refused[0], pytrace=False)
        return result
