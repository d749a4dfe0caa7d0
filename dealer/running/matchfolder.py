"""The folder a match writes its results to: one match per folder, one run at a time.

A match's folder holds its ``summary.json``, its halves' ``.log`` files and a lock file.
:meth:`MatchFolder.open`

* refuses a path that is a file, lies under a file or cannot be created;
* locks the folder for the run (``flock`` on :data:`LOCK`): a second run into it is refused
  at once, naming the folder, and the lock goes when the run's process does;
* refuses a folder that holds anything but this match's files (another match, by its
  ``summary.json``, or files no match wrote) unless forced; forcing removes the other
  match's ``summary.json`` and the logs it names, and nothing else;
* lets the same match run again into its own folder (its files are replaced).

:meth:`MatchFolder.write_summary` replaces ``summary.json`` atomically (a temporary file
renamed over it), so a reader never sees half of one.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp, MatchFolder.open(
...     Path(tmp) / "m", {"seed": 1}, ["a.log"]
... ) as folder:
...     folder.write_summary({"seed": 1, "status": "running"})
...     sorted(p.name for p in folder.path.iterdir())
['.lock', 'summary.json']
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Collection, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from acpcbot.errors import AcpcError
from dealer.running.resultfiles import lock_folder, temporary_name, write_json

__all__ = [
    "LOCK",
    "SUMMARY",
    "MatchFolder",
    "MatchFolderError",
    "check_path",
    "read_summary",
]

SUMMARY = "summary.json"
LOCK = ".lock"
_TEMPORARY = temporary_name(SUMMARY)
_MAX_SUMMARY_BYTES = 4 << 20
"""A ``summary.json`` larger than this was not written by a match (ours are a few kB)."""


class MatchFolderError(AcpcError):
    """A match's output folder that cannot be used (the message says why and what to do)."""


def check_path(path: Path) -> None:
    """Raise :class:`MatchFolderError` when ``path`` cannot be a match's folder: an
    existing file, a path under a file, or one whose nearest existing parent is not
    writable. Writes nothing."""
    try:
        _check_path(path)
    except OSError as exc:  # say, a name too long for the file system
        raise MatchFolderError(f"cannot use --out {path}: {exc.strerror}") from None


def _check_path(path: Path) -> None:
    if path.exists() and not path.is_dir():
        raise MatchFolderError(f"--out {path} is a file, not a folder")
    existing = path
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if existing != path:
        if not existing.is_dir():
            raise MatchFolderError(f"cannot create --out {path}: {existing} is a file")
        if not os.access(existing, os.W_OK | os.X_OK):
            raise MatchFolderError(f"cannot create --out {path}: {existing} is not writable")


class MatchFolder:
    """A locked match folder; :meth:`close` (or leaving the ``with`` block) unlocks it."""

    def __init__(self, path: Path, lock_fd: int, replaced: str | None) -> None:
        self.path = path
        self._lock_fd: int | None = lock_fd
        self.replaced = replaced
        """The status of an earlier run of the same match found in the folder (its files
        are being replaced), or ``None``."""

    @classmethod
    def open(
        cls,
        path: Path,
        identity: Mapping[str, object],
        files: Collection[str],
        *,
        force: bool = False,
    ) -> MatchFolder:
        """Create (if need be) and lock ``path`` for the match whose ``summary.json``
        holds ``identity`` and which writes ``files`` (besides ``summary.json``)."""
        check_path(path)
        lock = path / LOCK
        try:
            path.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
            created = True
        except FileExistsError:
            fd = os.open(lock, os.O_RDWR)
            created = False
        except OSError as exc:
            raise MatchFolderError(f"cannot create --out {path}: {exc.strerror}") from None
        try:
            lock_folder(fd, path, "match", MatchFolderError)
            try:
                replaced = _claim(path, identity, files, force)
            except MatchFolderError:
                if created:  # leave a refused folder as it was
                    lock.unlink()
                raise
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, replaced)

    def write_summary(self, summary: Mapping[str, Any]) -> None:
        """Replace ``summary.json`` with ``summary`` in one step."""
        write_json(self.path / SUMMARY, summary)

    def close(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # releases the lock
            self._lock_fd = None

    def __enter__(self) -> MatchFolder:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _claim(
    path: Path, identity: Mapping[str, object], files: Collection[str], force: bool
) -> str | None:
    """Check what the folder holds; with ``force`` clear another match out of it. Returns
    the status of an earlier run of this very match, if there is one."""
    entries = {entry.name for entry in path.iterdir()} - {LOCK, _TEMPORARY}
    if not entries:
        return None
    earlier = read_summary(path / SUMMARY) if SUMMARY in entries else None
    others = sorted(entries - {SUMMARY} - set(files))
    if earlier is not None and _same_match(earlier, identity) and not others:
        status = earlier.get("status", "finished")
        return status if isinstance(status, str) else "finished"
    if earlier is not None:
        what = f"another match ({_describe(earlier)})"
    else:
        shown = ", ".join(sorted(entries)[:3]) + (", ..." if len(entries) > 3 else "")
        what = f"files that are not this match's ({shown})"
    if not force:
        raise MatchFolderError(f"{path} holds {what}; use another --out, or --force to replace it")
    if earlier is not None:
        for name in _logs_of(earlier):
            with contextlib.suppress(FileNotFoundError):
                (path / name).unlink()
        (path / SUMMARY).unlink()
    return None


def read_summary(path: Path) -> dict[str, Any] | None:
    """A match's summary, or ``None`` for a file no match wrote."""
    try:
        if not path.is_file() or path.stat().st_size > _MAX_SUMMARY_BYTES:
            return None
        summary = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return summary if isinstance(summary, dict) else None


def _same_match(summary: Mapping[str, Any], identity: Mapping[str, object]) -> bool:
    # Through JSON, so that tuples compare equal to the lists read back.
    wanted = json.loads(json.dumps(dict(identity)))
    return all(summary.get(key) == value for key, value in wanted.items())


def _describe(summary: Mapping[str, Any]) -> str:
    agents = summary.get("agents")
    parts = []
    if isinstance(agents, list) and all(isinstance(a, str) for a in agents):
        parts.append(" vs ".join(agents))
    for key, label in (("seed", "seed"), ("agent_seeds", "agent seeds")):
        if key in summary:
            parts.append(f"{label} {json.dumps(summary[key])}")
    if "hands_per_half" in summary:
        parts.append(f"{summary['hands_per_half']} hands")
    return ", ".join(parts)[:200] or "a summary.json"


def _logs_of(summary: Mapping[str, Any]) -> list[str]:
    """The log files a summary names, when they are plain names in its folder."""
    halves = summary.get("halves")
    names = []
    for half in halves if isinstance(halves, list) else []:
        name = half.get("log") if isinstance(half, dict) else None
        if isinstance(name, str) and name.endswith(".log") and Path(name).name == name:
            names.append(name)
    return names
