"""What every results folder (a match's, a tournament's) needs: one run at a time, and
files replaced in one step.

:func:`lock_folder` takes an exclusive ``flock`` on a lock file in the folder, without
waiting: a folder another run holds is refused at once, naming the process that holds it
(its id is written into the lock file). The lock goes when the descriptor is closed, or with
the process that held it, however it ended.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     fd = os.open(Path(tmp) / ".lock", os.O_RDWR | os.O_CREAT)
...     lock_folder(fd, Path(tmp), "match", AcpcError)
...     other = os.open(Path(tmp) / ".lock", os.O_RDWR)
...     try:
...         lock_folder(other, Path(tmp), "match", AcpcError)
...     except AcpcError as exc:
...         print(str(exc).replace(tmp, "DIR").replace(str(os.getpid()), "N"))
...     finally:
...         os.close(other)
...         os.close(fd)
another match is running in DIR (process N); wait for it or use another --out

:func:`write_json` writes a temporary file beside the target and renames it over the
target, so a reader sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from acpcbot.errors import AcpcError

__all__ = ["json_bytes", "lock_folder", "replace_file", "temporary_name", "write_json"]


def lock_folder(fd: int, path: Path, what: str, error: type[AcpcError]) -> None:
    """Lock the open lock file ``fd`` of the folder ``path`` for this process, or raise
    ``error`` saying that another ``what`` (a match, a tournament) runs there."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        who = f" (process {holder})" if holder.isdigit() else ""
        raise error(
            f"another {what} is running in {path}{who}; wait for it or use another --out"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)


def temporary_name(name: str) -> str:
    """The name :func:`replace_file` writes ``name`` under first (hidden, in the same
    folder)."""
    return f".{name}.tmp"


def replace_file(path: Path, data: bytes) -> None:
    """Replace (or create) the file ``path`` with ``data`` in one step, on the disk."""
    temporary = path.with_name(temporary_name(path.name))
    with temporary.open("wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def json_bytes(data: Mapping[str, Any]) -> bytes:
    """JSON as results folders hold it: indented, one final newline."""
    return (json.dumps(data, indent=2) + "\n").encode()


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    """Replace the JSON file ``path`` with ``data`` in one step."""
    replace_file(path, json_bytes(data))
