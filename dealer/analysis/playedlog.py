"""A finished (or cut) match log, ours or the reference's, read for its results.

The log is read by :mod:`acpcbot.logreader` (streamed, every line checked, a one-line
:class:`~acpcbot.logreader.LogError` naming the file and the line for anything wrong, a last
line cut while being written left out and said); this keeps what the results need of each
hand. Memory is 28 bytes a hand (heads-up): hand numbers, each player's chips and a
fingerprint of the hole cards (to tell whether two logs dealt the same cards) are kept in
arrays (how fast a log reads: docs/commands/results.md).

>>> import io
>>> data = (b"STATE:0:rc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:20|-20:A|B\\n"
...         b"STATE:1:crf:9h6s|3d3h:10|-10:B|A\\nSTATE:2:r")
>>> log = read_log_stream(Path("m.log"), io.BytesIO(data))
>>> log.seat_names, log.hands, log.totals(), log.cut_line
(('A', 'B'), 2, (10.0, -10.0), 3)
"""

from __future__ import annotations

import math
import zlib
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from acpcbot.logreader import GameOf, LogError, LogReader, open_log
from acpcbot.protocol.logfile import LogHeader, ScoreRecord, format_number
from acpcbot.smallfile import shown_path

__all__ = ["LogError", "PlayedLog", "read_log", "read_log_stream"]

_CRC_TYPE = "I" if array("I").itemsize >= 4 else "L"
"""An array type for CRC-32s: 4 bytes where ``unsigned int`` has them (everywhere usual)."""


@dataclass(frozen=True, eq=False)
class PlayedLog:
    """What a ``.log`` says about a match: who sat where and what each player won in each
    hand."""

    path: Path
    header: LogHeader | None
    seat_names: tuple[str, ...]
    """Player names in seat order (seat 1 first)."""
    hand_numbers: array[int]
    """The hand numbers, increasing."""
    chips: dict[str, array[float]]
    """Each player's chips in each hand, in the order of :attr:`hand_numbers`."""
    deals: array[int]
    """A fingerprint (CRC-32) of each hand's hole cards in position order: the same seed
    deals the same cards to the same positions."""
    score: ScoreRecord | None
    """The ``SCORE`` line, if the match finished."""
    cut_line: int | None
    """The number of a last line cut short and left out, if there was one."""
    digest: str
    """SHA-256 of the bytes read (two logs of the same content are the same log)."""
    file_id: tuple[int, int] | None
    """Device and inode of a regular file (the same file under two names)."""
    size: int = 0
    """Bytes read (with :attr:`digest`: what reading the log again must find,
    :func:`acpcbot.logreader.open_log`'s ``read_before``)."""

    @property
    def hands(self) -> int:
        return len(self.hand_numbers)

    @property
    def name(self) -> str:
        """The file name, for messages."""
        return shown_path(Path(self.path.name))

    @property
    def where(self) -> str:
        """The path, for messages."""
        return shown_path(self.path)

    @property
    def read_before(self) -> tuple[int, str]:
        """The size and digest of this reading, for reading the log again."""
        return self.size, self.digest

    def totals(self) -> tuple[float, ...]:
        """Each seat's chips summed over the ``STATE`` lines."""
        return tuple(math.fsum(self.chips[name]) for name in self.seat_names)

    def score_agrees(self) -> bool | None:
        """Whether the ``SCORE`` line agrees with the ``STATE`` lines (``None``: no ``SCORE``).

        Both print numbers rounded to 6 decimals, the ``SCORE`` line from the unrounded sum,
        so they may differ by half a millionth of a chip a hand.
        """
        if self.score is None:
            return None
        tolerance = 0.5e-6 * (self.hands + 1)
        by_name = dict(zip(self.score.names, self.score.totals, strict=True))
        return all(
            math.isclose(math.fsum(self.chips[name]), by_name[name], rel_tol=0, abs_tol=tolerance)
            for name in self.seat_names
        )

    def totals_text(self) -> str:
        """The seats' totals as a ``SCORE`` line prints them: ``2770|-2770``."""
        return "|".join(format_number(t) for t in self.totals())


def read_log(path: Path, game_of: GameOf | None = None) -> PlayedLog:
    """Read the log at ``path``: a regular file, or a pipe read as a stream (a FIFO without
    a writer reads as empty; it never hangs); compressed or not. ``game_of``: the game its
    hands are checked under, from its header (:data:`acpcbot.logreader.GameOf`)."""
    with open_log(path, game_of=game_of) as reader:
        return _played(path, reader)


def read_log_stream(
    path: Path, file: BinaryIO, *, file_id: tuple[int, int] | None = None
) -> PlayedLog:
    """Read a log from an open binary stream; ``path`` names it in messages."""
    return _played(path, LogReader(file, shown_path(path), file_id=file_id))


def _played(path: Path, reader: LogReader) -> PlayedLog:
    hand_numbers: array[int] = array("q")
    deals: array[int] = array(_CRC_TYPE)
    chips: list[array[float]] = []
    add_chips: list[Callable[[float], None]] = []
    add_hand, add_deal, crc32 = hand_numbers.append, deals.append, zlib.crc32
    for _, _, fields, _, order in reader:
        if not add_chips:
            chips = [array("d") for _ in reader.players]
            add_chips = [player.append for player in chips]
        add_hand(fields.hand_number)
        for player, value in zip(order, fields.values, strict=True):
            add_chips[player](value)
        add_deal(crc32(fields.holes))
    if not reader.hands:
        raise reader.no_hands()
    return PlayedLog(
        path=path,
        header=reader.header,
        seat_names=reader.seat_names(),
        hand_numbers=hand_numbers,
        chips={name: chips[i] for i, name in enumerate(reader.players)},
        deals=deals,
        score=reader.score,
        cut_line=reader.cut_line,
        digest=reader.digest,
        file_id=reader.file_id,
        size=reader.size,
    )
