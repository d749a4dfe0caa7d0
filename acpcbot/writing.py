"""Writing files: every failure is one :class:`WriteError` naming the file and the reason.

Whatever the project writes (a match's logs and ``summary.json``, a tournament's results, a
plot, an infogain picture) goes through here, so that a read-only folder, an immutable file
or a full disk is one line for the user (``cannot write m/summary.json: No space left on
device``), never a traceback, and leaves no temporary file behind:

* :func:`replace_file` replaces a file in one step (a hidden temporary file beside it,
  renamed over it), removing the temporary file when that fails;
* :class:`OutputFile` is a file being written line by line (a log): unbuffered, since its
  writers batch their lines, so a failed write leaves nothing pending to fail again;
* :func:`writing` turns an ``OSError`` in its block into a :class:`WriteError`;
* :func:`check_writable` says before any long work whether a file could be written, so that
  a match or a plot does not run for minutes to fail at the end.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = Path(tmp) / "x.json"
...     replace_file(path, b"{}")
...     check_writable(path)
...     sorted(p.name for p in Path(tmp).iterdir())
['x.json']
>>> check_writable(Path("no/such/folder/x.png"))
Traceback (most recent call last):
acpcbot.writing.WriteError: cannot write no/such/folder/x.png: no folder no/such/folder
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterator
from pathlib import Path

from acpcbot.errors import AcpcError
from acpcbot.smallfile import shown_path

__all__ = [
    "OutputFile",
    "WriteError",
    "check_writable",
    "replace_file",
    "temporary_name",
    "why_unwritable",
    "writing",
]


class WriteError(AcpcError):
    """A file that could not be written: ``cannot write PATH: REASON``."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot write {shown_path(path)}: {reason}")
        self.path = path
        self.reason = reason

    def __reduce__(self) -> tuple[type[WriteError], tuple[Path, str]]:
        return (type(self), (self.path, self.reason))  # (it crosses to other processes)

    @classmethod
    def of(cls, path: Path, exc: OSError | ValueError) -> WriteError:
        """The error of writing ``path`` that raised ``exc`` (the system's reason, without
        the name of whatever temporary file it was about)."""
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return cls(path, reason)


@contextlib.contextmanager
def writing(path: Path) -> Iterator[None]:
    """Turn an ``OSError`` raised in the block into a :class:`WriteError` about ``path``
    (``ValueError`` too: a path with a NUL byte).

    >>> with writing(Path("out/a.log")):
    ...     raise OSError(28, "No space left on device")
    Traceback (most recent call last):
    acpcbot.writing.WriteError: cannot write out/a.log: No space left on device
    """
    try:
        yield
    except (OSError, ValueError) as exc:
        raise WriteError.of(path, exc) from None


def temporary_name(name: str) -> str:
    """The name :func:`replace_file` writes ``name`` under first (hidden, in the same
    folder)."""
    return f".{name}.tmp"


def replace_file(path: Path, data: bytes) -> None:
    """Replace (or create) the file ``path`` with ``data`` in one step, on the disk; a
    failure is a :class:`WriteError` about ``path`` and leaves no temporary file."""
    temporary = path.with_name(temporary_name(path.name))
    with writing(path):
        try:
            with temporary.open("wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                temporary.unlink(missing_ok=True)
            raise


def check_writable(path: Path, *, make_folder: bool = False) -> None:
    """Raise :class:`WriteError` now when the file ``path`` could not be written (or
    replaced) later: its folder missing (unless ``make_folder``: then the folder must be
    one that can be made) or not writable (a read-only file system, an immutable folder),
    or ``path`` a folder or a file that cannot be changed. Writes nothing, and cannot
    foresee a disk that fills up. The checks are the system's (``access``), so they hold
    for root too."""
    folder = path.parent
    try:
        existing = folder
        while make_folder and not existing.exists() and existing.parent != existing:
            existing = existing.parent
        if existing.exists() and not existing.is_dir():
            raise WriteError(path, f"{shown_path(existing)} is a file")
        if not existing.is_dir():
            raise WriteError(path, f"no folder {shown_path(folder)}")
        why = why_unwritable(existing)
        if why is not None:
            raise WriteError(path, f"{shown_path(existing)} is {why}")
        if path.is_dir():
            raise WriteError(path, "it is a folder")
        why = why_unwritable(path) if path.exists() else None
        if why is not None:
            raise WriteError(path, f"the file is {why}")
    except (OSError, ValueError) as exc:  # say, a name too long
        raise WriteError.of(path, exc) from None


def why_unwritable(path: Path) -> str | None:
    """Why the existing file or folder ``path`` cannot be written (``access`` says whether,
    not why), or ``None`` when it can."""
    if os.access(path, os.W_OK | (os.X_OK if path.is_dir() else 0)):
        return None
    with contextlib.suppress(OSError):
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return "on a read-only file system"
    return "not writable"


class OutputFile(io.FileIO):
    """A file written unbuffered (its writers batch their lines), whose every failure is a
    :class:`WriteError` naming ``shown`` (the file as the user knows it; by default its
    path). Opened with ``mode`` ``"wb"`` (a new file) or ``"r+b"`` (to go on with one).

    A write that failed may have written part of its data: every later write raises the
    same error, so that a writer trying again (say, flushing its lines once more as it
    ends) cannot write that part twice."""

    def __init__(self, path: Path, mode: str = "wb", *, shown: Path | None = None) -> None:
        self.shown = shown if shown is not None else path
        self.failed: AcpcError | None = None
        """What made a write fail."""
        with writing(self.shown):
            super().__init__(path, mode)

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        """Write all of ``data`` (a raw write may take only part of it)."""
        if self.failed is not None:
            raise self.failed
        view = memoryview(data).cast("B")
        size = len(view)
        try:
            # (No context manager here: a log writes once a hand, and this is its cost.)
            done = super().write(view) or 0
            while done < size:
                done += super().write(view[done:]) or 0
        except (OSError, ValueError) as exc:
            self.failed = WriteError.of(self.shown, exc)
            raise self.failed from None
        return done

    def close(self) -> None:
        with writing(self.shown):
            super().close()
