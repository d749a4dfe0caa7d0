"""The match log (``.log``) as a file: header, one ``STATE`` line per hand, ``SCORE``.

The lines themselves come from :mod:`acpcbot.protocol.logfile`, the one codec of the log
format; this module writes them (:class:`MatchLog`, flushing after every hand). What an
earlier run left behind is read back, for a resume, by the one reader of logs
(:mod:`acpcbot.logreader`).
"""

from __future__ import annotations

from typing import BinaryIO, Protocol

from acpcbot.protocol.logfile import LogHeader

__all__ = ["LogLines", "MatchLog"]


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
