"""Line framing for the ACPC protocol (pure: no I/O).

A TCP read may hold several lines, or part of one. :class:`LineBuffer` keeps what it has
not yet returned across reads, splits on ``\\n`` (dropping one ``\\r`` before it, so both
``\\r\\n`` and ``\\n`` end a line) and refuses a line longer than its limit instead of
buffering without bound.

>>> buffer = LineBuffer()
>>> buffer.feed(b"MATCHSTATE:0:0::7d3d|\\r\\nMATCH")
[b'MATCHSTATE:0:0::7d3d|']
>>> buffer.feed(b"STATE:0:0:r:7d3d|\\r\\n")
[b'MATCHSTATE:0:0:r:7d3d|']
>>> is_comment(b"# a comment"), is_comment(b";x"), is_comment(b"MATCHSTATE:...")
(True, True, False)
"""

from __future__ import annotations

from acpcbot.errors import ProtocolError
from acpcbot.protocol.constants import COMMENT_STARTS, MAX_LINE_BYTES

__all__ = ["MAX_LINE_BYTES", "LineBuffer", "LineTooLongError", "is_comment"]


class LineTooLongError(ProtocolError):
    """A line grew beyond the buffer's limit before its terminator arrived."""


class LineBuffer:
    """Accumulates bytes and returns complete lines without their terminators.

    With ``split_long`` a line that does not fit is not refused but cut, like the
    reference dealer's ``getLine``: it returns at most ``max_line_bytes - 1`` bytes at a
    time (the ``\\n`` included), so a longer line comes out as several pieces. A piece of
    exactly ``max_line_bytes - 1`` bytes is a cut piece (it had no ``\\n``); a terminated
    line is always shorter.

    >>> pieces = LineBuffer(8, split_long=True).feed(b"abcdefghij\\r\\nxy\\n")
    >>> pieces
    [b'abcdefg', b'hij', b'xy']
    """

    __slots__ = ("_max", "_pending", "_split")

    def __init__(self, max_line_bytes: int = MAX_LINE_BYTES, *, split_long: bool = False) -> None:
        self._pending = b""
        self._max = max_line_bytes
        self._split = split_long

    @property
    def pending(self) -> bytes:
        """Bytes received after the last complete line."""
        return self._pending

    def feed(self, data: bytes) -> list[bytes]:
        """Add ``data``; return the lines it completes (possibly none)."""
        buffered = self._pending + data if self._pending else data
        if self._split:
            return self._cut(buffered)
        if b"\n" not in data:
            self._pending = buffered
            self._check(buffered)
            return []
        parts = buffered.split(b"\n")
        self._pending = parts.pop()
        self._check(self._pending)
        lines = []
        for part in parts:
            if len(part) + 1 > self._max:
                raise LineTooLongError(
                    f"line of {len(part) + 1} bytes exceeds the {self._max}-byte limit"
                )
            lines.append(part[:-1] if part.endswith(b"\r") else part)
        return lines

    def _cut(self, buffered: bytes) -> list[bytes]:
        piece = self._max - 1
        end = buffered.find(b"\n")
        if end == len(buffered) - 1 and end < piece:  # the usual read: exactly one line
            self._pending = b""
            return [buffered[:-2] if buffered.endswith(b"\r\n") else buffered[:-1]]
        start = 0
        lines = []
        while True:
            end = buffered.find(b"\n", start, start + piece)
            if end >= 0:
                line = buffered[start:end]
                lines.append(line[:-1] if line.endswith(b"\r") else line)
                start = end + 1
            elif len(buffered) - start >= piece:
                lines.append(buffered[start : start + piece])
                start += piece
            else:
                self._pending = buffered[start:]
                return lines

    def _check(self, pending: bytes) -> None:
        if len(pending) >= self._max:
            raise LineTooLongError(
                f"more than {self._max - 1} bytes without a line end (limit {self._max})"
            )


def is_comment(line: bytes) -> bool:
    """Lines starting with ``#`` or ``;`` are comments in the ACPC protocol."""
    return line[:1] in COMMENT_STARTS
