"""A file that a replay writes again: what it holds is checked, what follows is written.

A match that goes on with an earlier run of itself (:mod:`dealer.running.match`) plays every
half again from its first hand, with the same seeds: the agents must live through the hands
already played to be where they were (a learning agent's model, every agent's random
stream), and nothing but playing them gets them there exactly. Each of the half's files (its
``.log``, its ``.probs``) is then a :class:`ReplayedFile`: the bytes the replay writes are
compared with the complete lines the file holds (the same match writes the same bytes) and
only what comes after them is written, so the earlier run's hands are kept as they were
and the run ends with the files an uninterrupted run writes. A last line the earlier run
left half-written (it was killed) is written again whole. Bytes that differ are a
:class:`ReplayError`: an agent that does not play the same way twice, or has changed since.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = Path(tmp) / "a.log"
...     _ = path.write_bytes(b"one\\ntwo\\nthr")
...     with ReplayedFile(path) as file:
...         file.held, file.write(b"one\\ntwo\\nthree\\nfour\\n")
...     path.read_bytes()
(2, 19)
b'one\\ntwo\\nthree\\nfour\\n'
"""

from __future__ import annotations

import os
from pathlib import Path

from acpcbot.errors import AcpcError
from acpcbot.smallfile import shown_path
from acpcbot.writing import OutputFile, writing

__all__ = ["ReplayError", "ReplayedFile"]

_TAIL_CHUNK = 1 << 16
"""Bytes read at a time from a file's end, looking for its last line break."""


class ReplayError(AcpcError):
    """A replay wrote something else than the file held."""


class ReplayedFile(OutputFile):
    """The file ``path`` (which exists) opened to be written again from its start (see
    the module's description)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, "r+b")
        with writing(path):
            self._left = _complete_bytes(self)
            self.held = _lines(self, self._left)
            """The complete lines found in the file (the earlier run's)."""
            if self._left == 0:
                self.truncate(0)
        self._checked = 0
        """The lines checked so far."""

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        if self.failed is not None:
            raise self.failed
        view = memoryview(data).cast("B")
        size = len(view)
        if self._left:
            take = min(size, self._left)
            try:
                self._check(bytes(view[:take]))
            except AcpcError as exc:
                self.failed = exc
                raise
            view = view[take:]
        if len(view):
            super().write(view)
        return size

    def _check(self, written: bytes) -> None:
        """``written`` must be what the file holds next."""
        with writing(self.shown):
            held = _read_exactly(self, len(written))
        if held != written:
            raise self._differs(held, written)
        self._checked += held.count(b"\n")
        self._left -= len(held)
        if self._left == 0:
            with writing(self.shown):
                self.truncate()  # the earlier run's last line, if it was cut short

    def _differs(self, held: bytes, written: bytes) -> ReplayError:
        at = next(i for i, (a, b) in enumerate(zip(held, written, strict=True)) if a != b)
        line = self._checked + held[:at].count(b"\n") + 1
        return ReplayError(
            f"line {line:,} of {shown_path(self.shown)} is not what the agents play now (an "
            "agent that does not play the same way twice, or that changed since): the "
            "earlier run cannot be gone on with; --force starts the match over"
        )


def _complete_bytes(file: OutputFile) -> int:
    """Where the last complete line of ``file`` ends (0: it holds none)."""
    end = os.fstat(file.fileno()).st_size
    while end > 0:
        start = max(0, end - _TAIL_CHUNK)
        chunk = os.pread(file.fileno(), end - start, start)
        at = chunk.rfind(b"\n")
        if at >= 0:
            return start + at + 1
        end = start
    return 0


def _lines(file: OutputFile, size: int) -> int:
    """The line breaks in the first ``size`` bytes of ``file``."""
    count = 0
    for start in range(0, size, _TAIL_CHUNK):
        count += os.pread(file.fileno(), min(_TAIL_CHUNK, size - start), start).count(b"\n")
    return count


def _read_exactly(file: OutputFile, size: int) -> bytes:
    """The next ``size`` bytes of ``file`` (a raw read may give fewer)."""
    parts = []
    while size > 0:
        part = file.read(size)
        if not part:
            break
        parts.append(part)
        size -= len(part)
    return b"".join(parts)
