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
    """Writes a ``.log``. Lines are gathered and written out by :meth:`flush`, which the
    referee has done after every hand (:meth:`hand_done`), before the next is dealt: one
    write to the system a hand, without ``fsync``. So a dealer that is killed (SIGKILL, a
    crash of its own) loses no finished hand: the system writes what it was handed. A
    machine that stops (a power cut, a kernel panic) may lose the last seconds of hands the
    system had not yet written to the disk; resuming the match plays them again."""

    __slots__ = ("_file", "_pending")

    def __init__(self, file: BinaryIO) -> None:
        self._file = file
        self._pending: list[str] = []

    def hand_done(self) -> None:
        """A hand's line was written: out to the system it goes."""
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
