"""Reading a finished (or cut) match log, ours or the reference's, for its results.

The log is streamed (read in 1 MB chunks, never whole), and every field is either accepted
or refused with a one-line :class:`LogError` naming the file and the line, so a damaged or
hostile file cannot end in a traceback or use memory without bound:

* a line longer than :data:`MAX_LINE_BYTES` is an error (a 2 GB file without a newline
  costs one chunk); a log is a regular file or a pipe (``<(zcat m.log.gz)``; a FIFO without
  a writer reads as empty), never a device such as ``/dev/zero``;
* the header (four ``#`` lines) is checked when line 1 starts one; other ``#`` lines and
  blank lines are skipped; any other line is a ``STATE`` line, then at most one ``SCORE``;
* in a ``STATE`` line the hand number is an ASCII whole number up to the reference's
  2^32 - 1, increasing from line to line; the betting and the cards are checked for their
  syntax (not replayed); each value is an ASCII decimal of at most 2^53 chips; the players
  are the same in every line, distinct, non-empty and printable;
* names are read as UTF-8 when they are valid UTF-8, else as Latin-1 (every byte a
  character), so any name prints as it was written;
* a last line without its newline that does not read as a complete line is a line cut
  while being written (the dealer crashed): it is left out, and :attr:`PlayedLog.cut_line`
  says so, for the caller to warn about.

Memory is 28 bytes a hand (heads-up): hand numbers, each player's chips and a fingerprint
of the hole cards (to tell whether two logs dealt the same cards) are kept in arrays. A
million hands read in about 5 s.

>>> import io
>>> data = (b"STATE:0:rc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:20|-20:A|B\\n"
...         b"STATE:1:rf:9h6s|3d3h:10|-10:B|A\\nSTATE:2:r")
>>> log = read_log_stream(Path("m.log"), io.BytesIO(data))
>>> log.seat_names, log.hands, log.totals(), log.cut_line
(('A', 'B'), 2, (10.0, -10.0), 3)
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import stat
import zlib
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, NoReturn

from acpcbot.errors import AcpcError, MatchStateError
from acpcbot.game import MAX_PLAYERS
from acpcbot.protocol.logfile import LogHeader, ScoreRecord, format_number, parse_header
from acpcbot.protocol.matchstate import clip_line
from acpcbot.smallfile import open_to_read, shown_path

__all__ = [
    "MAX_CHIPS",
    "MAX_HAND_NUMBER",
    "MAX_LINE_BYTES",
    "LogError",
    "PlayedLog",
    "StateLine",
    "read_log",
    "read_log_stream",
    "state_lines",
]

MAX_LINE_BYTES = 64 * 1024
"""The longest line read (a heads-up ``STATE`` line is about 60 bytes, a long no-limit one a
few hundred)."""
MAX_HAND_NUMBER = 2**32 - 1
"""The reference dealer's hand numbers are ``uint32``."""
MAX_CHIPS = 2**53
"""Most chips won or lost in one hand: beyond it a float no longer holds every whole chip."""

_HEADER_START = b"# name/game/hands/seed"
_HAND_RE = re.compile(rb"[0-9]{1,10}")
_ACTIONS = rb"(?:[fc]|r[0-9]{0,10})*"
_BETTING_RE = re.compile(_ACTIONS + rb"(?:/" + _ACTIONS + rb")*")
_CARDS = rb"(?:[2-9TJQKA][cdhs])*"
_CARDS_RE = re.compile(_CARDS + rb"(?:\|" + _CARDS + rb")*(?:/" + _CARDS + rb")*")
_NUMBER = rb"-?[0-9]+(?:\.[0-9]+)?"
_NUMBER_RE = re.compile(_NUMBER)
_STATE_RE = re.compile(
    rb"STATE:([0-9]{1,10}):%s:(%s(?:\|%s){1,%d})(?:/%s)*:(%s(?:\|%s){1,%d}):([^:]*)"
    % (_BETTING_RE.pattern, _CARDS, _CARDS, MAX_PLAYERS - 1, _CARDS, _NUMBER, _NUMBER,
       MAX_PLAYERS - 1)
)  # fmt: skip
"""A whole ``STATE`` line in one match (the fast path): hand number, hole cards, values,
names. Each part is bounded by a separator of its own, so matching takes linear time."""
_CRC_TYPE = "I" if array("I").itemsize >= 4 else "L"
"""An array type for CRC-32s: 4 bytes where ``unsigned int`` has them (everywhere usual)."""
_NAME_CACHE = 64
"""Distinct names fields remembered (a heads-up log has two: the seats rotate)."""


class LogError(AcpcError):
    """A log that cannot be read: the message names the file and, if any, the line."""


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


def read_log(path: Path) -> PlayedLog:
    """Read the log at ``path``: a regular file, or a pipe read as a stream (a FIFO without
    a writer reads as empty; it never hangs)."""
    with _opened(path) as (file, file_id):
        return read_log_stream(path, file, file_id=file_id)


@contextmanager
def _opened(path: Path) -> Iterator[tuple[BinaryIO, tuple[int, int] | None]]:
    """The log at ``path`` open for reading, with its device and inode when it is a regular
    file; any failure to open or read it is a :class:`LogError`."""
    where = shown_path(path)
    fd = open_to_read(path, lambda why: LogError(f"cannot read {where}: {why}"))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise LogError(f"{where} is a folder, not a log")
        if not (stat.S_ISREG(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
            raise LogError(f"{where} is not a regular file or a pipe")
        if stat.S_ISFIFO(info.st_mode):
            os.set_blocking(fd, True)  # wait for a slow writer; no writer at all reads as EOF
        file_id = (info.st_dev, info.st_ino) if stat.S_ISREG(info.st_mode) else None
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as file:
        try:
            yield file, file_id
        except OSError as exc:
            raise LogError(f"cannot read {where}: {exc.strerror}") from None


@dataclass(frozen=True, slots=True)
class StateLine:
    """One ``STATE`` line of a log, checked as :func:`read_log` checks it."""

    number: int
    """Its line number in the file."""
    text: str


def state_lines(path: Path) -> Iterator[LogHeader | StateLine]:
    """Stream a log for a reader that needs each hand's betting and cards: its header first
    when it has one, then its ``STATE`` lines in order, each checked exactly as
    :func:`read_log` checks it (the same :class:`LogError` for a bad line; the ``SCORE``
    line is checked and not given; a last line cut short is left out). Memory stays
    bounded however long the log; a pipe is read once."""
    with _opened(path) as (file, _):
        yield from _scan(shown_path(path), file, _Reader(), hashlib.sha256())


class _LineError(Exception):
    """What is wrong with one line (the reader adds the file and line number)."""


def _excerpt(line: bytes) -> str:
    """The start of a line for a message, control characters escaped."""
    text = line[:60].decode("latin-1")
    return repr(text + "...") if len(line) > 60 else repr(text)


def _text(data: bytes) -> str:
    """UTF-8 if it is valid UTF-8, else Latin-1 (never fails)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _names(field: bytes) -> tuple[str, ...]:
    names = tuple(_text(field).split("|"))
    for name in names:
        if not name:
            raise _LineError("an empty player name")
        if not name.isprintable():
            raise _LineError(f"a player name with a control character: {clip_line(name, 60)!r}")
    if len(set(names)) != len(names):
        raise _LineError(f"two players of one name: {clip_line('|'.join(names), 60)!r}")
    return names


def _number(text: bytes, what: str, limit: float = MAX_CHIPS) -> float:
    if not _NUMBER_RE.fullmatch(text):
        raise _LineError(f"{what} {_excerpt(text)} is not a decimal number")
    value = float(text)  # a long run of digits is inf here, never an error
    if abs(value) > limit:
        raise _LineError(f"{what} {_excerpt(text)} is beyond {limit:.0f} chips")
    return value


def _state_error(line: bytes) -> NoReturn:
    """Why a line is not a ``STATE`` line of :data:`_STATE_RE`, field by field."""
    fields = line.split(b":")
    if len(fields) != 6:
        raise _LineError(f"a STATE line has 6 fields, this one {len(fields)}")
    _, hand_text, betting, cards, values_text, _ = fields
    if not _HAND_RE.fullmatch(hand_text):
        raise _LineError(f"the hand number {_excerpt(hand_text)} is not 0 .. {MAX_HAND_NUMBER}")
    if not _BETTING_RE.fullmatch(betting):
        raise _LineError(f"bad betting {_excerpt(betting)}")
    if not _CARDS_RE.fullmatch(cards):
        raise _LineError(f"bad cards {_excerpt(cards)}")
    texts = values_text.split(b"|")
    if not 2 <= len(texts) <= MAX_PLAYERS:
        raise _LineError(f"{len(texts)} values (a game has 2 .. {MAX_PLAYERS} players)")
    for text in texts:
        _number(text, "the value")
    groups = cards.split(b"/", 1)[0].count(b"|") + 1
    raise _LineError(f"{groups} hole-card groups for {len(texts)} values")


class _Reader:
    """The state of one pass over a log."""

    def __init__(self) -> None:
        self.players: tuple[str, ...] = ()
        """Names in the position order of the first hand."""
        self.orders: dict[bytes, tuple[int, ...]] = {}
        """A names field -> the player index at each position."""
        self.hands: array[int] = array("q")
        self.last_hand = -1
        self.chips: list[array[float]] = []
        self.deals: array[int] = array(_CRC_TYPE)
        self.first: tuple[int, tuple[str, ...]] | None = None
        self.rotating: bool | None = None
        """Whether the seats rotate (unknown until a hand of another residue is read)."""
        self.score: ScoreRecord | None = None
        self.score_line = 0
        self.cut_line: int | None = None
        """The number of a last line cut short and left out, if there was one."""

    def order_of(self, field: bytes, count: int) -> tuple[int, ...]:
        """The player index at each position of a names field of ``count`` names."""
        order = self.orders.get(field)
        if order is not None:
            return order
        if field.count(b"|") + 1 != count:
            raise _LineError(f"{count} values but {field.count(b'|') + 1} names")
        names = _names(field)
        if not self.players:
            self.players = names
            self.chips = [array("d") for _ in names]
        elif sorted(names) != sorted(self.players):
            raise _LineError(
                f"players {clip_line('|'.join(names), 60)!r}, but the log's players are "
                f"{clip_line('|'.join(self.players), 60)!r}"
            )
        order = tuple(self.players.index(name) for name in names)
        if len(self.orders) < _NAME_CACHE:
            self.orders[field] = order
        return order

    def state(self, line: bytes) -> None:
        if self.score is not None:
            raise _LineError(f"a STATE line after the SCORE line (line {self.score_line})")
        match = _STATE_RE.fullmatch(line)
        if match is None:  # the slow path only says what is wrong
            _state_error(line)
        hand_text, holes, values_text, names_field = match.groups()
        hand = int(hand_text)
        if not self.last_hand < hand <= MAX_HAND_NUMBER:
            self._hand_error(hand)
        values = [float(text) for text in values_text.split(b"|")]
        players = len(values)
        if max(values) > MAX_CHIPS or min(values) < -MAX_CHIPS:
            raise _LineError(f"a value beyond {MAX_CHIPS} chips: {_excerpt(values_text)}")
        if holes.count(b"|") + 1 != players:
            raise _LineError(f"{holes.count(b'|') + 1} hole-card groups for {players} values")
        order = self.orders.get(names_field) or self.order_of(names_field, players)
        if len(order) != players:
            raise _LineError(f"{players} values but {len(order)} names")
        if self.rotating is None:
            self._note_seats(hand, order)
        self.last_hand = hand
        self.hands.append(hand)
        for player, value in zip(order, values, strict=True):
            self.chips[player].append(value)
        self.deals.append(zlib.crc32(holes))

    def _hand_error(self, hand: int) -> NoReturn:
        if hand > MAX_HAND_NUMBER:
            raise _LineError(f"the hand number {hand} is not 0 .. {MAX_HAND_NUMBER}")
        last = self.last_hand
        raise _LineError(f"hand {hand} again" if hand == last else f"hand {hand} after hand {last}")

    def _note_seats(self, hand: int, order: tuple[int, ...]) -> None:
        names = tuple(self.players[i] for i in order)
        if self.first is None:
            self.first = (hand, names)
        elif self.rotating is None and (hand - self.first[0]) % len(names):
            self.rotating = names != self.first[1]

    def score_record(self, line: bytes, number: int) -> None:
        if self.score is not None:
            raise _LineError(f"a second SCORE line (the first is line {self.score_line})")
        fields = line.split(b":")
        if len(fields) != 3:
            raise _LineError(f"a SCORE line has 3 fields, this one {len(fields)}")
        texts = fields[1].split(b"|")
        totals = tuple(_number(text, "the total", MAX_CHIPS * MAX_HAND_NUMBER) for text in texts)
        names = _names(fields[2])
        if len(names) != len(totals):
            raise _LineError(f"{len(totals)} totals but {len(names)} names")
        if self.players and sorted(names) != sorted(self.players):
            raise _LineError(
                f"players {clip_line('|'.join(names), 60)!r}, but the hands were played by "
                f"{clip_line('|'.join(self.players), 60)!r}"
            )
        self.score = ScoreRecord(totals, names)
        self.score_line = number

    def seat_names(self) -> tuple[str, ...]:
        """Seat order: the ``SCORE`` line's, else from the rotation (position 0 of hand
        ``h`` is seat ``h mod n``); fixed seats (``-f``) are in position order."""
        if self.score is not None:
            return self.score.names
        assert self.first is not None
        hand, names = self.first
        if not self.rotating:
            return names
        shift = hand % len(names)
        return names[-shift:] + names[:-shift] if shift else names


def read_log_stream(
    path: Path, file: BinaryIO, *, file_id: tuple[int, int] | None = None
) -> PlayedLog:
    """Read a log from an open binary stream; ``path`` names it in messages."""
    reader = _Reader()
    digest = hashlib.sha256()
    header: LogHeader | None = None
    for item in _scan(shown_path(path), file, reader, digest):
        if isinstance(item, LogHeader):
            header = item
    return PlayedLog(
        path=path,
        header=header,
        seat_names=reader.seat_names(),
        hand_numbers=reader.hands,
        chips={name: reader.chips[i] for i, name in enumerate(reader.players)},
        deals=reader.deals,
        score=reader.score,
        cut_line=reader.cut_line,
        digest=digest.hexdigest(),
        file_id=file_id,
    )


def _scan(
    where: str, file: BinaryIO, reader: _Reader, digest: hashlib._Hash
) -> Iterator[LogHeader | StateLine]:
    """Read every line of ``file`` into ``reader``, giving the header and each ``STATE``
    line on the way (a last line cut short is left out: ``reader.cut_line``)."""
    header_lines: list[str] | None = None
    header_done = False
    for number, (line, terminated) in enumerate(_lines(file, digest), start=1):
        if len(line) > MAX_LINE_BYTES:
            raise LogError(f"{where}:{number}: a line longer than {MAX_LINE_BYTES} bytes")
        if number == 1 and line.startswith(_HEADER_START):
            header_lines = []
        if header_lines is not None and not header_done:
            if not terminated:
                break  # a header cut short: no hands (said below)
            header_lines.append(_text(line))
            if len(header_lines) == 4:
                header_done = True
                yield _header(where, header_lines)
            continue
        try:
            _read_line(reader, line, number)
        except _LineError as exc:
            if terminated:
                raise LogError(f"{where}:{number}: {exc}") from None
            reader.cut_line = number  # the last line, cut while it was being written
            continue
        if line.startswith(b"STATE:"):
            yield StateLine(number, _text(line))
    if header_lines is not None and not header_done:
        raise LogError(f"{where}: the log ends inside its header (no hands)")
    if not reader.hands:
        cut = f" (its last line, {reader.cut_line}, is cut short)" if reader.cut_line else ""
        raise LogError(f"{where}: no hands{cut}")


_CHUNK_BYTES = 1024 * 1024


def _lines(file: BinaryIO, digest: hashlib._Hash) -> Iterator[tuple[bytes, bool]]:
    """The lines of ``file`` without their ``\\n`` (or ``\\r\\n``), each with whether it had
    one, read in chunks (much faster than a line at a time); a piece longer than
    :data:`MAX_LINE_BYTES` without a newline ends the lines (the caller refuses it)."""
    rest = b""
    first = True
    while chunk := file.read(_CHUNK_BYTES):
        digest.update(chunk)
        if first:
            chunk = chunk.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark (an editor's)
            first = False
        lines = (rest + chunk).split(b"\n")
        rest = lines.pop()
        for line in lines:
            yield line.removesuffix(b"\r"), True
        if len(rest) > MAX_LINE_BYTES:
            yield rest, False
            return
    if rest:
        yield rest.removesuffix(b"\r"), False


def _header(where: str, lines: list[str]) -> LogHeader:
    try:
        return parse_header(lines)
    except MatchStateError as exc:
        raise LogError(f"{where}: {exc}") from None


def _read_line(reader: _Reader, line: bytes, number: int) -> None:
    if line.startswith(b"STATE:"):
        reader.state(line)
    elif line.startswith(b"SCORE:"):
        reader.score_record(line, number)
    elif line and not line.startswith(b"#"):
        raise _LineError(f"not a log line (# comment, STATE or SCORE): {_excerpt(line)}")
