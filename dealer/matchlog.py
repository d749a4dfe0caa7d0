"""The match log (``.log``) as a file: header, one ``STATE`` line per hand, ``SCORE``.

The lines themselves come from :mod:`acpcbot.protocol.logfile`; this module only writes them,
flushing after every hand, and reads back what an interrupted run left behind.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from acpcbot.protocol.logfile import LogHeader


@dataclass(frozen=True, slots=True)
class ExistingLog:
    """What an earlier run already wrote to a log that is being appended to."""

    has_header: bool
    hands: frozenset[int]
    """Hand numbers with a ``STATE`` line."""
    has_score: bool


def read_existing_log(path: Path) -> ExistingLog:
    """Read a log being resumed; a last line without its ``\\n`` is cut off the file."""
    if not path.exists():
        return ExistingLog(False, frozenset(), False)
    data = path.read_bytes()
    complete = data.rfind(b"\n") + 1
    if complete < len(data):
        os.truncate(path, complete)
    lines = data[:complete].decode("latin-1").splitlines()
    hands = frozenset(
        int(line.split(":", 2)[1])
        for line in lines
        if line.startswith("STATE:") and line.split(":", 2)[1].isdigit()
    )
    return ExistingLog(
        has_header=bool(lines) and lines[0].startswith("# name/game/hands/seed"),
        hands=hands,
        has_score=any(line.startswith("SCORE:") for line in lines),
    )


class MatchLog:
    """Writes a ``.log``. Lines are buffered and written out by :meth:`flush`; the engine
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
