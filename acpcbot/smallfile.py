"""Reading a small file that a user or another file names, safely.

A game file is named on the command line or in a log's header, and anything may be named
there: a FIFO (reading it would wait for a writer for ever), a device such as ``/dev/zero``
(it never ends), a multi-gigabyte file, a directory. Such a file is read only when it is a
regular file of a sane size; the check is made on the opened file (``fstat``), so it cannot
be swapped in between, and the open itself never blocks (``O_NONBLOCK``).

>>> read_small_file(Path("/dev/null"), limit=1024)
Traceback (most recent call last):
...
acpcbot.smallfile.FileRefusedError: '/dev/null' is not a regular file
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from acpcbot.errors import AcpcError

__all__ = [
    "READ_FLAGS",
    "FileRefusedError",
    "MissingFileError",
    "open_to_read",
    "read_small_file",
    "shown_path",
    "size_text",
]

READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
"""Open for reading without blocking (a FIFO without a writer) and without making a terminal
the controlling one; what the file is gets checked on the open descriptor."""


class FileRefusedError(AcpcError):
    """A file that is missing, unreadable, not a regular file, or too large. ``why`` says
    what is wrong without naming the file (for callers that name it their own way)."""

    def __init__(self, message: str, why: str) -> None:
        super().__init__(message)
        self.why = why


class MissingFileError(FileRefusedError):
    """No file of that name."""


def size_text(size: int) -> str:
    """A byte count as people read it.

    >>> size_text(1024 * 1024), size_text(4096), size_text(3)
    ('1 MB', '4 KB', '3 bytes')
    """
    for unit, name in ((1024 * 1024, "MB"), (1024, "KB")):
        if size >= unit and size % unit == 0:
            return f"{size // unit} {name}"
    return f"{size} bytes"


def shown_path(path: Path | str) -> str:
    """A path (or a name read from a file) for a one-line message: as it is, or quoted if it
    holds a line break or another character that does not print.

    >>> shown_path(Path("m.log")), shown_path(Path("a\\nb.log"))
    ('m.log', "'a\\\\nb.log'")
    """
    text = str(path)
    return text if text.isprintable() else repr(text)


def _shown(path: Path) -> str:
    text = str(path)
    return repr(text if len(text) <= 200 else text[:200] + "...")


def open_to_read(path: Path, refused: Callable[[str], Exception]) -> int:
    """A descriptor of ``path`` opened with :data:`READ_FLAGS`; a failure raises
    ``refused(why)`` (why: the system's reason, or why the path itself is invalid).

    >>> open_to_read(Path("no/such/file"), ValueError)
    Traceback (most recent call last):
    ValueError: No such file or directory
    """
    try:
        return os.open(path, READ_FLAGS)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise refused(why) from None


def read_small_file(path: Path, *, limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes."""
    try:
        fd = os.open(path, READ_FLAGS)
    except FileNotFoundError:
        raise MissingFileError(f"no file {_shown(path)}", "no such file") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise FileRefusedError(f"cannot open {_shown(path)}: {why}", why) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefusedError(f"{_shown(path)} is not a regular file", "not a regular file")
        if info.st_size > limit:
            raise _too_large(path, limit)
        # Read one byte more than allowed: a file that grows while it is read is caught too.
        with os.fdopen(fd, "rb", closefd=False) as file:
            data = file.read(limit + 1)
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise FileRefusedError(f"cannot read {_shown(path)}: {why}", why) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise _too_large(path, limit)
    return data


def _too_large(path: Path, limit: int) -> FileRefusedError:
    why = f"larger than {size_text(limit)}"
    return FileRefusedError(f"{_shown(path)} is {why}", why)
