"""The folder a match writes its results to: one match per folder, one run at a time.

A match's folder holds its ``summary.json`` and its halves' ``.log`` files (and, while a run
holds it, a lock file). :meth:`MatchFolder.open`

* refuses a path that is a file, lies under a file or cannot be created, and a file of the
  match that could not be written (a read-only folder, an immutable file): before any hand;
* locks the folder for the run (:class:`~dealer.running.resultfiles.FolderLock`): a second
  run into it is refused at once, naming the folder; the lock goes with the run;
* refuses a folder that holds anything but this match's files (another match, by its
  ``summary.json``, or files no match wrote) unless forced; forcing removes the other
  match's ``summary.json`` and the logs it names, and nothing else;
* finds an earlier run of the same match in its own folder (:attr:`MatchFolder.earlier`:
  the run goes on with it, see :mod:`dealer.running.match`), or with ``force`` removes its
  files to start over; what a killed run left half-written (a temporary file) is removed.

:meth:`MatchFolder.write_summary` replaces ``summary.json`` atomically (a temporary file
renamed over it), so a reader never sees half of one.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     with MatchFolder.open(Path(tmp) / "m", {"seed": 1}, ["a.log"]) as folder:
...         folder.write_summary({"seed": 1, "status": "running"})
...         print(sorted(p.name for p in folder.path.iterdir()))
...     print(sorted(p.name for p in folder.path.iterdir()))
['.lock', 'summary.json']
['summary.json']
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Collection, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from acpcbot.errors import AcpcError
from acpcbot.writing import check_writable, temporary_name, writing
from dealer.running.resultfiles import LOCK, FolderLock, write_json

__all__ = [
    "LOCK",
    "SUMMARY",
    "MatchFolder",
    "MatchFolderError",
    "match_logs",
    "read_summary",
]

SUMMARY = "summary.json"
_MAX_SUMMARY_BYTES = 4 << 20
"""A ``summary.json`` larger than this was not written by a match (ours are a few kB)."""


class MatchFolderError(AcpcError):
    """A match's output folder that cannot be used (the message says why and what to do)."""


class MatchFolder:
    """A locked match folder; :meth:`close` (or leaving the ``with`` block) unlocks it."""

    def __init__(self, path: Path, lock: FolderLock, earlier: str | None) -> None:
        self.path = path
        self._lock: FolderLock | None = lock
        self.earlier = earlier
        """The status of an earlier run of the same match found in the folder (its files
        are there to go on with), or ``None``."""

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
        lock = FolderLock.take(path, "match", MatchFolderError)
        try:
            earlier = _claim(path, identity, files, force)
            for name in (SUMMARY, *files):
                check_writable(path / name)
        except BaseException:
            lock.release()
            raise
        return cls(path, lock, earlier)

    def write_summary(self, summary: Mapping[str, Any]) -> None:
        """Replace ``summary.json`` with ``summary`` in one step."""
        write_json(self.path / SUMMARY, summary)

    def close(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

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
    """Check what the folder holds; with ``force`` clear another match, or an earlier run
    of this one, out of it. Returns the status of an earlier run of this very match that
    is kept."""
    temporaries = {temporary_name(name) for name in (SUMMARY, *files)}
    entries = {entry.name for entry in path.iterdir()} - {LOCK}
    for name in entries & temporaries:  # half-written by a run that was killed
        with contextlib.suppress(OSError):
            (path / name).unlink()
    entries -= temporaries
    if not entries:
        return None
    earlier = read_summary(path / SUMMARY) if SUMMARY in entries else None
    others = sorted(entries - {SUMMARY} - set(files))
    same = earlier is not None and _same_match(earlier, identity) and not others
    if same and not force:
        assert earlier is not None
        status = earlier.get("status", "finished")
        return status if isinstance(status, str) else "finished"
    if earlier is not None and not same:
        what = f"another match ({_describe(earlier)})"
    else:
        shown = ", ".join(sorted(entries)[:3]) + (", ..." if len(entries) > 3 else "")
        what = f"files that are not this match's ({shown})"
    if not force:
        raise MatchFolderError(f"{path} holds {what}; use another --out, or --force to replace it")
    if earlier is not None:
        for name in [*_logs_of(earlier), SUMMARY, *(files if same else ())]:
            with writing(path / name):
                (path / name).unlink(missing_ok=True)
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


def match_logs(folder: Path) -> list[Path]:
    """The logs of the match in ``folder``, in the order its ``summary.json`` names them
    (half 1's first); none when it holds no match's summary naming logs there."""
    summary = read_summary(folder / SUMMARY)
    return [folder / name for name in _logs_of(summary or {}) if (folder / name).is_file()]


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
