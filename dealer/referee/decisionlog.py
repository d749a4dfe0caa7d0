"""Every decision's probabilities, in a file beside the match's log: what AIVAT needs.

A match played with ``--aivat`` writes, beside each half's ``X.log``, ``X.probs``: for every
hand of the log one line, with the probabilities of fold, call and raise the acting player
drew each of its actions from, in the order the actions were taken, or ``-`` where the player
did not say (:func:`acpcbot.player.decision_probabilities`) or the dealer changed its action.
The ``.log`` itself is the same, byte for byte, with or without it::

    # acpcbot decision probabilities 1 dpp-plicas.seed3.n1000
    # per hand of the log: the acting player's fold/call/raise probabilities at each decision
    0:0/0.734375/0.265625 0/1/0 -
    1:0.125/0.875/0 ...

Probabilities are printed as the shortest text that reads back as the same float, so
nothing is rounded. The file is written like the log (each hand's line handed to the system
as the hand ends: :class:`~dealer.referee.matchlog.MatchLog`) and read back, streamed, by
:func:`read_decisions`.

>>> format_decision((0.0, 0.25, 0.75)), format_decision(None)
('0/0.25/0.75', '-')
>>> parse_decisions_line("7:0/1/0 - 0.5/0.5/0")
(7, ((0.0, 1.0, 0.0), None, (0.5, 0.5, 0.0)))
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from acpcbot.actions import Action, ActionType
from acpcbot.errors import AcpcError
from acpcbot.player import decision_probabilities
from acpcbot.smallfile import open_to_read
from dealer.referee.referee import Referee, TakeAction

__all__ = [
    "FORMAT_LINE",
    "SUFFIX",
    "DecisionFileError",
    "DecisionRecorder",
    "Probabilities",
    "decisions_path",
    "format_decision",
    "parse_decisions_line",
    "read_decisions",
]

SUFFIX = ".probs"
_COMPRESSED_SUFFIXES = (".gz", ".xz", ".bz2")
"""What a compressed log's name ends in (see :mod:`acpcbot.logreader`)."""
FORMAT_LINE = "# acpcbot decision probabilities 1"
_EXPLAINED = (
    "# per hand of the log: the acting player's fold/call/raise probabilities at each decision"
)
MAX_LINE_BYTES = 64 * 1024
"""The longest line read (a hand of hold'em has at most 33 decisions of ~60 bytes)."""

Probabilities = tuple[float, float, float]
_COLUMN = {ActionType.FOLD: 0, ActionType.CALL: 1, ActionType.RAISE: 2}


class DecisionFileError(AcpcError):
    """A decisions file that cannot be read, or does not fit its log."""


def decisions_path(log: Path) -> Path:
    """The decisions file of the log ``log``: ``X.log`` → ``X.probs``, also for the log
    compressed (``X.log.gz``, ``.xz``, ``.bz2``: the log readers read it as it is).

    >>> decisions_path(Path("m/a-b.seed1.n10.log")), decisions_path(Path("a-b.log.gz"))
    (PosixPath('m/a-b.seed1.n10.probs'), PosixPath('a-b.probs'))
    """
    name = log.name
    for suffix in _COMPRESSED_SUFFIXES:
        name = name.removesuffix(suffix)
    return log.with_name(name.removesuffix(".log") + SUFFIX)


def _number(value: float) -> str:
    return "0" if value == 0 else "1" if value == 1 else repr(value)


def format_decision(probabilities: Probabilities | None) -> str:
    if probabilities is None:
        return "-"
    return "/".join(_number(p) for p in probabilities)


def parse_decisions_line(line: str) -> tuple[int, tuple[Probabilities | None, ...]]:
    """A hand's number and its decisions' probabilities (``ValueError`` if malformed)."""
    hand_text, colon, rest = line.partition(":")
    if not colon or not hand_text.isascii() or not hand_text.isdigit() or len(hand_text) > 10:
        raise ValueError("a line starts with the hand's number and ':'")
    decisions: list[Probabilities | None] = []
    for item in rest.split():
        if item == "-":
            decisions.append(None)
            continue
        parts = item.split("/")
        if len(parts) != 3:
            raise ValueError(f"{item[:40]!r} is not fold/call/raise")
        fold, call, raise_ = (float(p) for p in parts)
        total = fold + call + raise_
        if min(fold, call, raise_) < 0 or not abs(total - 1.0) < 1e-9:
            raise ValueError(f"{item[:40]!r} are not probabilities")
        decisions.append((fold, call, raise_))
    return int(hand_text), tuple(decisions)


class DecisionRecorder:
    """Records the probabilities of every decision of a match into a decisions file.

    :meth:`install` replaces the referee's :attr:`~dealer.referee.referee.Referee.take` (the one way
    every transport applies an action) with one that first reads what the acting seat's
    player says it drew this decision from, then applies the action; :meth:`hand_done`
    writes the finished hand's line. Players are read, never changed, so the match and its
    log are exactly what they are without the recorder.
    """

    def __init__(self, file: BinaryIO, referee: Referee, players: Sequence[object]) -> None:
        self._file = file
        self._referee = referee
        self._players = players
        self._pending: list[str] = [f"{FORMAT_LINE} {referee.config.match_name}", _EXPLAINED]
        self._hand: list[str] = []
        self._take: TakeAction = referee.take
        self.flush()

    def install(self) -> None:
        self._referee.take = self._recording_take

    def _recording_take(
        self,
        proposed: Action | None,
        *,
        unknown: str = "",
        trailing: str = "",
        line: str = "",
        sent_us: int = 0,
        received_us: int = 0,
    ) -> Action:
        referee = self._referee
        hand = referee.hand
        said = decision_probabilities(self._players[referee.acting_seat], hand)
        played = self._take(
            proposed,
            unknown=unknown,
            trailing=trailing,
            line=line,
            sent_us=sent_us,
            received_us=received_us,
        )
        if said is not None and not said[_COLUMN[played.type]] > 0:
            said = None  # not the action drawn: the dealer changed it
        self._hand.append(format_decision(said))
        return played

    def hand_done(self, hand_number: int) -> None:
        """The hand ``hand_number`` finished: its line is written (out to the system, as
        the log's)."""
        self._pending.append(f"{hand_number}:{' '.join(self._hand)}")
        self._hand.clear()
        self.flush()

    def flush(self) -> None:
        if self._pending:
            self._pending.append("")
            self._file.write("\n".join(self._pending).encode("ascii"))
            self._pending.clear()
        self._file.flush()


def read_decisions(path: Path) -> Iterator[tuple[int, tuple[Probabilities | None, ...]]]:
    """The hands of a decisions file in order, streamed; a malformed line is a
    :class:`DecisionFileError` naming the file and the line (a last line cut while being
    written ends the file)."""
    fd = open_to_read(path, lambda why: DecisionFileError(f"cannot read {path}: {why}"))
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise DecisionFileError(f"{path} is not a regular file")
        first = file.readline(MAX_LINE_BYTES + 1)
        if not first.startswith(FORMAT_LINE.encode()):
            raise DecisionFileError(f"{path} is not a decisions file (no {FORMAT_LINE!r} line)")
        number = 1
        while raw := file.readline(MAX_LINE_BYTES + 1):
            number += 1
            if len(raw) > MAX_LINE_BYTES:
                raise DecisionFileError(f"{path}:{number}: a line longer than {MAX_LINE_BYTES}")
            if not raw.endswith(b"\n"):
                return  # cut while being written
            text = raw.decode("ascii", "replace").rstrip("\r\n")
            if not text or text.startswith("#"):
                continue
            try:
                yield parse_decisions_line(text)
            except ValueError as exc:
                raise DecisionFileError(f"{path}:{number}: {exc}") from None
