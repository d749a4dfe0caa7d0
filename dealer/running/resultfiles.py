"""What every results folder (a match's, a tournament's) needs: one run at a time, and
files replaced in one step (:func:`acpcbot.writing.replace_file`).

:class:`FolderLock` takes an exclusive ``flock`` on a lock file in the folder, without
waiting: a folder another run holds is refused at once, naming the process that holds it
(its id is written into the lock file). The lock goes when the run releases it (the lock
file is then removed: a finished run's folder holds only its results) or with the process
that held it, however it ended.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     lock = FolderLock.take(Path(tmp) / "m", "match", AcpcError)
...     try:
...         FolderLock.take(Path(tmp) / "m", "match", AcpcError)
...     except AcpcError as exc:
...         print(str(exc).replace(tmp, "DIR").replace(str(os.getpid()), "N"))
...     lock.release()
...     list((Path(tmp) / "m").iterdir())
another match is running in DIR/m (process N); wait for it or use another --out
[]

:func:`write_json` writes a temporary file beside the target and renames it over the
target, so a reader sees the old file or the new one, never half of one; a failure is one
:class:`~acpcbot.writing.WriteError`.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from acpcbot.errors import AcpcError
from acpcbot.writing import replace_file, why_unwritable

__all__ = ["LOCK", "FolderLock", "check_path", "json_bytes", "write_json"]


LOCK = ".lock"
"""The lock file in a results folder."""
_TRIES = 16
"""Tries to lock a folder whose lock file other processes remove and create meanwhile."""


def check_path(path: Path, error: type[AcpcError]) -> None:
    """Raise ``error`` when ``path`` cannot be a results folder: an existing file, a
    symbolic link to nothing, a path under a file, a relative path in a current folder that
    was deleted, or a folder (or, for one to create, its nearest existing parent) that is
    not writable. Writes nothing."""
    try:
        _check_path(path, error)
    except OSError as exc:  # say, a name too long for the file system
        raise error(f"cannot use --out {path}: {exc.strerror}") from None


def _check_path(path: Path, error: type[AcpcError]) -> None:
    if path.is_symlink() and not path.exists():
        raise error(f"--out {path} is a symbolic link to {os.readlink(path)}, which does not exist")
    if path.exists() and not path.is_dir():
        raise error(f"--out {path} is a file, not a folder")
    if not path.is_absolute():
        try:
            os.getcwd()
        except FileNotFoundError:
            raise error(
                f"cannot create --out {path}: the current folder no longer exists (it was "
                "deleted); cd to another folder, or give --out as an absolute path"
            ) from None
    existing = path
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if existing != path and not existing.is_dir():
        raise error(f"cannot create --out {path}: {existing} is a file")
    why = why_unwritable(existing)
    if why is not None and existing != path:
        raise error(f"cannot create --out {path}: {existing} is {why}")
    if why is not None:
        raise error(f"cannot write in --out {path}: it is {why}")


class FolderLock:
    """A results folder locked for this process's run (:meth:`take`, :meth:`release`)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def take(cls, path: Path, what: str, error: type[AcpcError]) -> FolderLock:
        """Check that ``path`` can be a results folder (:func:`check_path`: the one check),
        create it if need be and lock it, or raise ``error`` saying that another ``what``
        (a match, a tournament) runs there, or why the folder cannot be used."""
        check_path(path, error)
        lock = path / LOCK
        # Each try but the last ends because another process changed the folder as this
        # one took it (bounded: a folder that cannot be made fails at once, never spins).
        for _ in range(_TRIES):
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise error(f"cannot create --out {path}: {exc.strerror}") from None
            try:
                fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
            except FileNotFoundError:
                continue  # the folder was removed as its lock file was opened: again
            except OSError as exc:
                raise error(f"cannot write in --out {path}: {exc.strerror}") from None
            try:
                if _locked(fd, path, what, error, lock):
                    return cls(path, fd)
            except BaseException:
                os.close(fd)
                raise
            os.close(fd)  # a lock file the run before removed as we opened it: again
        raise error(
            f"cannot lock --out {path}: its lock file changed {_TRIES} times as it was taken "
            "(is something removing it?)"
        )

    def release(self) -> None:
        """Remove the lock file and unlock (in this order: a run that opened the file just
        before sees it gone once it holds the lock, and tries again)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                (self.path / LOCK).unlink()
            os.close(self._fd)
            self._fd = None


def _locked(fd: int, path: Path, what: str, error: type[AcpcError], lock: Path) -> bool:
    """Lock the open lock file ``fd`` of the folder ``path`` for this process (``False``
    when the file is no longer the folder's), or raise ``error`` saying that another
    ``what`` runs there."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        who = f" (process {holder})" if holder.isdigit() else ""
        raise error(
            f"another {what} is running in {path}{who}; wait for it or use another --out"
        ) from None
    try:
        if not os.path.samestat(os.fstat(fd), os.stat(lock)):
            return False
    except FileNotFoundError:
        return False
    with contextlib.suppress(OSError):  # who holds it is for messages only
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    return True


def json_bytes(data: Mapping[str, Any]) -> bytes:
    """JSON as results folders hold it: indented, one final newline."""
    return (json.dumps(data, indent=2) + "\n").encode()


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    """Replace the JSON file ``path`` with ``data`` in one step."""
    replace_file(path, json_bytes(data))
