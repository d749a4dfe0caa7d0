"""The match log (``.log``) as a file: header, one ``STATE`` line per hand, ``SCORE``.

The lines themselves come from :mod:`acpcbot.protocol.logfile`, the one codec of the log
format; this module writes them (:class:`MatchLog`, flushing after every hand) and reads
back, line by line, what an earlier run left behind (:class:`LogReader`, for a resume).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO, Protocol

from acpcbot.errors import AcpcError
from acpcbot.protocol.logfile import (
    LogHeader,
    ScoreRecord,
    StateRecord,
    parse_header,
    parse_score_line,
    parse_state_line,
)

__all__ = ["LogLines", "LogReader", "LoggedLine", "MatchLog", "MatchLogError"]

HEADER_LINES = 4
MAX_LINE_BYTES = 65536
"""The longest log line read back; a ``STATE`` line of a long no-limit hand is ~1 kB."""


class MatchLogError(AcpcError):
    """An existing log that cannot be read; the message names the file and the line."""


class LogLines(Protocol):
    """Where the referee writes its log lines (a :class:`MatchLog`, or a stand-in)."""

    def line(self, text: str) -> None: ...

    def hand_done(self) -> None: ...

    def flush(self) -> None: ...


class MatchLog:
    """Writes a ``.log``. Lines are buffered and written out by :meth:`flush`; the referee
    calls :meth:`hand_done` after every hand, which flushes every ``flush_every`` hands
    (by default every hand, so a killed dealer keeps every finished hand)."""

    __slots__ = ("_countdown", "_file", "_flush_every", "_pending")

    def __init__(self, file: BinaryIO, *, flush_every: int = 1) -> None:
        self._file = file
        self._pending: list[str] = []
        self._flush_every = flush_every
        self._countdown = flush_every

    def hand_done(self) -> None:
        """A hand's line was written: flush if it is time."""
        self._countdown -= 1
        if self._countdown <= 0:
            self._countdown = self._flush_every
            self.flush()

    def header(self, header: LogHeader) -> None:
        self._pending.extend(header.lines())
        self.flush()

    def line(self, text: str) -> None:
        self._pending.append(text)

    def flush(self) -> None:
        if self._pending:
            self._pending.append("")
            self._file.write("\n".join(self._pending).encode("latin-1"))
            self._pending.clear()
        self._file.flush()

    def close(self) -> None:
        self.flush()
        self._file.close()


@dataclass(frozen=True, slots=True)
class LoggedLine:
    """One line after the header of an existing log."""

    number: int
    """The line's number in the file (1-based)."""
    text: str
    """The line without its ``\\n``, as the dealer wrote it."""

    @property
    def is_score(self) -> bool:
        return self.text.startswith("SCORE:")


class LogReader:
    """Reads an existing log line by line (a long log is never held in memory). The header
    is read at once (:attr:`header`, ``None`` for an empty file); :meth:`lines` gives the
    ``STATE`` and ``SCORE`` lines after it. A last line without its ``\\n`` (the dealer was
    killed while writing it) is not read: :attr:`complete_bytes` says where the complete
    lines end. Anything else that is not a log line is a :class:`MatchLogError`.
    """

    def __init__(self, file: BinaryIO, name: str) -> None:
        self._file = file
        self.name = name
        self.line_number = 0
        self.complete_bytes = 0
        self.header = self._read_header()

    def _next(self) -> str | None:
        raw = self._file.readline(MAX_LINE_BYTES + 1)
        if not raw.endswith(b"\n") and len(raw) <= MAX_LINE_BYTES:
            return None  # the end, perhaps after a half-written line
        self.line_number += 1
        if len(raw) > MAX_LINE_BYTES:
            raise self.error(f"longer than {MAX_LINE_BYTES} bytes")
        self.complete_bytes += len(raw)
        return raw[:-1].decode("latin-1")

    def _read_header(self) -> LogHeader | None:
        lines: list[str] = []
        while len(lines) < HEADER_LINES:
            text = self._next()
            if text is None:
                if all(line.startswith("#") for line in lines):
                    return None  # empty, or killed while writing the header: none yet
                break
            lines.append(text)
        try:
            return parse_header(lines)
        except AcpcError as exc:
            raise MatchLogError(f"{self.name}: no log header ({exc})") from None

    def lines(self) -> Iterator[LoggedLine]:
        """The lines after the header; nothing may follow a ``SCORE`` line."""
        score_at = 0
        while (text := self._next()) is not None:
            if score_at:
                raise self.error(f"a line after the SCORE line of line {score_at}")
            if text.startswith("SCORE:"):
                score_at = self.line_number
            elif not text.startswith("STATE:"):
                raise self.error(f"not a STATE or SCORE line: {_shown(text)}")
            yield LoggedLine(self.line_number, text)

    def state(self, line: LoggedLine) -> StateRecord:
        """The ``STATE`` line's record (syntax only: see :func:`parse_state_line`)."""
        try:
            return parse_state_line(line.text)
        except AcpcError as exc:
            raise MatchLogError(f"{self.name} line {line.number}: {exc}") from None

    def score(self, line: LoggedLine) -> ScoreRecord:
        """The ``SCORE`` line's record."""
        try:
            return parse_score_line(line.text)
        except AcpcError as exc:
            raise MatchLogError(f"{self.name} line {line.number}: {exc}") from None

    def error(self, what: str) -> MatchLogError:
        """An error about the line just read."""
        return MatchLogError(f"{self.name} line {self.line_number}: {what}")


def _shown(text: str) -> str:
    """A line in an error message: quoted, in ASCII, cut if long."""
    return ascii(text) if len(text) <= 80 else f"{text[:80]!a}..."
