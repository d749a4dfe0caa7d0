"""Where numba keeps compiled kernels, decided before the first kernel is defined, and a
notice when compiling them takes a while.

Every module that defines numba kernels calls :func:`cache_enabled` with its own file name
before its first ``@njit`` and passes the answer as ``cache=``. numba caches a kernel in
``$NUMBA_CACHE_DIR`` when that is set, else in ``__pycache__`` next to the source, else in
the user's cache folder (``~/.cache/numba``); with none of them writable — a read-only
install run by a user without a writable home, as in most non-root containers — a kernel
defined with ``cache=True`` fails at import ("cannot cache function ...: no locator
available"). Then numba is pointed at a private folder in the temporary directory,
``acpcbot-numba-cache-<uid>`` (also exported as ``NUMBA_CACHE_DIR`` for child processes),
and when even that is impossible the kernels are compiled without a cache; either way the
process logs one warning and goes on.

A ``$NUMBA_CACHE_DIR`` that is read-only on purpose — kernels compiled once into an image
whose root filesystem is mounted read-only (``docker/Dockerfile``) — is copied into that
private folder on first use, without a warning: numba loads a cache only from a folder it
may write, and the copy (a few megabytes) is what spares every container the compile.

>>> cache_enabled(__file__) in (True, False)
True
"""

from __future__ import annotations

import functools
import os
import shutil
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from acpcbot.logconfig import get_logger, notice

__all__ = ["cache_enabled", "cache_location", "compiling"]

log = get_logger("numba")

FALLBACK_PREFIX = "acpcbot-numba-cache-"
"""Name of the private cache folder in the temporary directory, followed by the user id."""
NOTICE_AFTER_S = 1.0
"""Compiling that takes longer than this is announced (once per :func:`compiling`)."""
_NOTICE_POLL_S = 0.1
"""How often a warm-up past :data:`NOTICE_AFTER_S` looks whether it is compiling."""

_warned = threading.Event()
_uncached = threading.Event()
_PROBE = "def probe():\n    return 0\n"


@functools.cache
def cache_enabled(source: str) -> bool:
    """Whether the kernels defined in the file ``source`` may be cached on disk.

    True when numba finds a writable place for them as configured, or after pointing it at
    the private fallback folder; False (compile in every process) when there is none.
    """
    if _can_cache(source):
        return True
    import numba

    configured: str = numba.config.CACHE_DIR  # type: ignore[attr-defined]  # set at runtime
    folder = _private_folder()
    if folder is not None:
        copied = _copy_read_only_cache(configured, folder)
        numba.config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]
        os.environ["NUMBA_CACHE_DIR"] = str(folder)  # child processes use it too
        if _can_cache(source):
            if not copied:
                _warn_once(str(folder), configured)
            return True
        numba.config.CACHE_DIR = configured  # type: ignore[attr-defined]
        if configured:
            os.environ["NUMBA_CACHE_DIR"] = configured
        else:
            os.environ.pop("NUMBA_CACHE_DIR", None)
    _warn_once("", configured)
    _uncached.set()
    return False


def _can_cache(source: str) -> bool:
    """Whether numba's own search finds a writable cache folder for kernels in ``source``:
    a probe function compiled as if it were defined in that file, decorated for caching
    (which locates the cache folder and checks it is writable, but compiles nothing)."""
    import numba

    namespace: dict[str, Callable[[], int]] = {}
    exec(compile(_PROBE, source, "exec"), namespace)  # the probe's file is ``source``
    try:
        numba.njit(cache=True)(namespace["probe"])
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return False
    return True


def _private_folder() -> Path | None:
    """``<tmp>/acpcbot-numba-cache-<uid>``, created if needed; None unless it is a folder
    only this user can write (numba's cache holds pickled code: another user's files must
    never be loaded)."""
    getuid = getattr(os, "getuid", None)
    owner = getuid() if getuid is not None else None
    try:
        folder = (
            Path(tempfile.gettempdir()) / f"{FALLBACK_PREFIX}{owner if owner is not None else 0}"
        )
        folder.mkdir(mode=0o700, exist_ok=True)
        info = folder.lstat()
    except OSError:  # no writable temporary directory at all
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None
    if owner is not None and info.st_uid != owner:
        return None
    return folder


COPIED_MARK = ".copied-from"
"""A file in the private folder naming the read-only cache copied into it, and its state."""


def _copy_read_only_cache(configured: str, folder: Path) -> bool:
    """Copy the cache in ``configured`` (a ``$NUMBA_CACHE_DIR`` numba may not write) into
    ``folder``, once for each state of it (a mark in ``folder`` names the state copied);
    whether ``configured`` is such a cache. Processes starting at once copy one at a time."""
    source = Path(configured) if configured else None
    if source is None or not source.is_dir():
        return False
    try:
        files = sorted(path for path in source.rglob("*") if path.is_file())
        if not files:
            return False
        state = f"{source}\n" + "".join(
            f"{path.relative_to(source)} {info.st_size} {info.st_mtime_ns}\n"
            for path in files
            for info in (path.stat(),)
        )
        with _locked(folder / ".copying"):
            mark = folder / COPIED_MARK
            if mark.is_file() and mark.read_text() == state:
                return True
            for path in files:
                target = folder / path.relative_to(source)
                target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                shutil.copy2(path, target)
            mark.write_text(state)
    except OSError as exc:  # unreadable, or no room: the kernels are compiled instead
        log.warning(f"could not copy numba's cache from {source} to {folder}: {exc}")
        return False
    return True


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file ``path`` (created if need be)."""
    import fcntl

    with path.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _warn_once(folder: str, configured: str) -> None:
    if _warned.is_set():
        return
    _warned.set()
    where = f"NUMBA_CACHE_DIR={configured}" if configured else "__pycache__ or the home folder"
    if folder:
        log.warning(
            "numba cannot cache compiled kernels in " + where + "; caching them in " + folder,
            hint="set NUMBA_CACHE_DIR to a writable folder to choose the place",
        )
    else:
        log.warning(
            "numba cannot cache compiled kernels anywhere; compiling them in every process",
            hint="set NUMBA_CACHE_DIR to a writable folder to keep them",
        )


def cache_location() -> str:
    """Where compiled kernels go, for messages: the configured folder or ``__pycache__``."""
    import numba

    if _uncached.is_set():
        return "no folder (none is writable: they are compiled in every process)"
    configured: str = numba.config.CACHE_DIR  # type: ignore[attr-defined]
    return configured or "__pycache__ next to the sources (or ~/.cache/numba)"


@contextmanager
def compiling(what: str) -> Iterator[None]:
    """Run a warm-up that may compile ``what`` (e.g. "PLICAS's kernels"); when it has
    compiled for longer than :data:`NOTICE_AFTER_S`, tell the user once while it runs and
    when it ends. Only a real compile counts (numba's ``numba:compile`` event, which loading
    a kernel from the cache does not raise): a busy machine that is slow to load the cache
    gets no notice.

    >>> with compiling("nothing"):
    ...     pass
    """
    from numba.core import event

    started = time.perf_counter()
    compiled = threading.Event()
    done = threading.Event()
    announced = threading.Event()

    class _Compiles(event.Listener):
        def on_start(self, _event: object) -> None:
            compiled.set()

        def on_end(self, _event: object) -> None:
            pass

    def announce_when_due() -> None:
        if done.wait(NOTICE_AFTER_S):
            return
        while not compiled.is_set():
            if done.wait(_NOTICE_POLL_S):
                return
        announced.set()
        notice(
            f"compiling {what} once, cached in {cache_location()} "
            "(later runs load them in about a second)",
            event="compiling",
            what=what,
        )

    watcher = threading.Thread(target=announce_when_due, name="compile-notice", daemon=True)
    watcher.start()
    try:
        with event.install_listener("numba:compile", _Compiles()):
            yield
    finally:
        done.set()
        watcher.join()  # an announcement under way is printed before the end
        if announced.is_set():
            seconds = round(time.perf_counter() - started, 1)
            notice(f"compiled {what} in {seconds} s", event="compiled", what=what, seconds=seconds)
