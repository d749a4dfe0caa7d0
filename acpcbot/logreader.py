"""Reading an ACPC match log (``.log``), ours or the reference's: the one reader of logs.

Whatever reads a log reads it here: the results, the statistics, AIVAT and the information
gain (:mod:`dealer.analysis`), the tournament folder (:mod:`dealer.running`) and a resume
(:mod:`dealer.referee`). The lines themselves are parsed by :mod:`acpcbot.protocol.logfile`,
the one codec of the format (:func:`~acpcbot.protocol.logfile.state_fields` is the one
parser of ``STATE`` lines); this module reads the file. It is streamed, a megabyte at a
time (never whole, and a pipe is read once), and every line is either accepted or refused
with a one-line :class:`LogError` naming the file and the line, so a damaged or hostile
file cannot end in a traceback or use memory without bound:

* a log is a regular file or a pipe (``<(ssh host cat m.log)``; a FIFO without a writer
  reads as empty), never a folder or a device such as ``/dev/zero``; a log compressed with
  gzip, xz or bzip2 (``m.log.gz``) is read as it is, known by its first bytes;
* a line longer than :data:`MAX_LINE_BYTES` is an error (a 2 GB file without a newline
  costs one chunk);
* the header (four ``#`` lines) is read when line 1 starts one, as UTF-8 with any other byte
  kept (``surrogateescape``: the game file it names opens as written); other ``#`` lines
  and blank lines are skipped; any other line is a ``STATE`` line, then at most one
  ``SCORE`` line, then nothing but comments;
* each ``STATE`` line is read by :func:`~acpcbot.protocol.logfile.state_fields` (syntax),
  and checked for what no hand of any game holds (a card dealt twice, values that do not
  sum to zero: :func:`~acpcbot.protocol.logfile.check_fields`); with its game (``game_of``,
  from the header) its betting is replayed under the rules (:mod:`acpcbot.rules`: an
  illegal action, a raise past the cap, a hand the betting does not end) and its values
  must be what the betting and the cards give
  (:func:`~acpcbot.protocol.logfile.state_record`, a :class:`IllegalHandError`); the hand
  numbers increase from line to line; the players are the same in every line, distinct,
  non-empty and printable, read as UTF-8 when they are valid UTF-8, else as Latin-1 (every
  byte a character);
* a last line without its newline that does not read as a complete line is a line cut
  while being written (the dealer crashed): it is left out, and :attr:`LogReader.cut_line`
  says so, for the caller to warn about.

A :class:`LogReader` reads the header when it is made and gives the hands, one
:class:`HandLine` per ``STATE`` line, as it is iterated; what comes after (the ``SCORE``
line, the seats, the digest of what was read) is known once the hands are read.
:func:`game_of_log` says which game a log is, for every reader of logs.

>>> import io
>>> data = (b"STATE:0:rc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:20|-20:A|B\\n"
...         b"STATE:1:crf:9h6s|3d3h:10|-10:B|A\\nSTATE:2:r")
>>> log = LogReader(io.BytesIO(data), "m.log")
>>> [(hand.hand_number, hand.names, hand.values) for hand in log]
[(0, ('A', 'B'), (20.0, -20.0)), (1, ('B', 'A'), (10.0, -10.0))]
>>> log.seat_names(), log.hands, log.cut_line, log.score
(('A', 'B'), 2, 3, None)
>>> LogReader(io.BytesIO(b"STATE:0:rc:7d3d|2hAc:5|-5:A|B\\nSTATE:0:f:7d3d|2hAc:5|-5:A|B\\n"),
...           "m.log").read()
Traceback (most recent call last):
...
acpcbot.logreader.LogError: m.log:2: hand 0 again
"""

from __future__ import annotations

import hashlib
import itertools
import os
import stat
from collections.abc import Callable, Generator, Iterator
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import BinaryIO, NamedTuple, cast

from acpcbot.errors import AcpcError, GameDefinitionError, MatchStateError
from acpcbot.game import BUNDLED_GAMES, MAX_GAME_FILE_BYTES, Game, bundled_game, parse_game
from acpcbot.protocol.logfile import (
    HandRules,
    LogHeader,
    ScoreRecord,
    StateFields,
    StateRecord,
    check_fields,
    parse_header,
    parse_score_line,
    state_fields,
    state_names,
    state_record,
)
from acpcbot.protocol.matchstate import clip_line
from acpcbot.smallfile import (
    FileRefusedError,
    MissingFileError,
    open_to_read,
    read_small_file,
    shown_path,
)

__all__ = [
    "MAX_LINE_BYTES",
    "GameOf",
    "HandLine",
    "IllegalHandError",
    "LogError",
    "LogReader",
    "game_of_log",
    "open_log",
]

MAX_LINE_BYTES = 64 * 1024
"""The longest line read (a heads-up ``STATE`` line is about 60 bytes, a long no-limit one a
few hundred)."""

_CHUNK_BYTES = 1024 * 1024
_HEADER_START = b"# name/game/hands/seed"
_BYTE_ORDER_MARK = b"\xef\xbb\xbf"
"""A UTF-8 byte-order mark, as an editor may put before line 1."""
_NAME_CACHE = 64
"""Distinct names fields remembered (a heads-up log has two: the seats rotate)."""
_COMPRESSED = ((b"\x1f\x8b", "gzip"), (b"\xfd7zXZ\x00", "xz"), (b"BZh", "bzip2"))
"""Compressed logs by their magic bytes (:func:`_decompressing` reads them)."""


class LogError(AcpcError):
    """A log that cannot be read: the message names the file and, if any, the line."""


class IllegalHandError(LogError):
    """A hand that the rules of the log's game refuse (its betting, its cards, its values)."""


GameOf = Callable[[LogHeader | None], Game | None]
"""The game whose rules a log's hands are checked under, from its header (``None``: what
needs no game is checked, and no more)."""


class HandLine(NamedTuple):
    """One hand of a log: its ``STATE`` line, read and checked."""

    number: int
    """The line's number in the file (1-based)."""
    line: bytes
    """The line as in the file, without its line ending."""
    fields: StateFields
    names: tuple[str, ...]
    """The player at each position."""
    order: tuple[int, ...]
    """Where in :attr:`LogReader.players` the player at each position is."""

    @property
    def hand_number(self) -> int:
        return self.fields.hand_number

    @property
    def values(self) -> tuple[float, ...]:
        """Chips won by each position."""
        return self.fields.values

    def record(self, game: Game | None = None) -> StateRecord:
        """The hand's betting and cards (see
        :func:`~acpcbot.protocol.logfile.state_record`: with ``game``, replayed under its
        rules); a :class:`~acpcbot.errors.MatchStateError` if they do not parse."""
        return state_record(self.fields, game, self.names)


_new_hand = partial(tuple.__new__, HandLine)
"""``HandLine(...)`` without the Python-level ``__new__`` (the reader's hot path)."""


class _LineError(Exception):
    """What is wrong with one line (the reader adds the file and line number)."""


class LogReader:
    """One pass over a log read from ``file`` (see the module); ``where`` names it in
    messages. The header is read at once (:attr:`header`); iterating gives the hands.

    ``read_before``: the :attr:`size` and :attr:`digest` of an earlier reading of this log;
    no more bytes are read, and they must be the same (a log that grew since is read as far
    as it was). ``whole_lines_only``: a last line without its newline is left out even when
    it reads whole (a log that a dealer writes, line by line, as it was cut). ``game_of``:
    the game to check the hands under, given the header (:data:`GameOf`).
    """

    def __init__(
        self,
        file: BinaryIO,
        where: str,
        *,
        file_id: tuple[int, int] | None = None,
        read_before: tuple[int, str] | None = None,
        whole_lines_only: bool = False,
        game_of: GameOf | None = None,
    ) -> None:
        self.where = where
        self.game: Game | None = None
        """The game the hands are checked under (known once the first hand is read)."""
        self._game_of = game_of
        self.file_id = file_id
        """Device and inode of a regular file (the same file under two names)."""
        self.header: LogHeader | None = None
        self.header_cut = False
        """Whether the log ends inside its header."""
        self.players: tuple[str, ...] = ()
        """The names in the position order of the first hand."""
        self.hands = 0
        """Hands read so far."""
        self.score: ScoreRecord | None = None
        """The ``SCORE`` line (once the hands are read), if the match finished."""
        self.score_line = 0
        """Its line number."""
        self.score_bytes = b""
        """The ``SCORE`` line as in the file (without its line ending)."""
        self.cut_line: int | None = None
        """The number of a last line cut short and left out, if there was one."""
        self.size = 0
        """Bytes read (of the log itself: after decompression)."""
        self._file = file
        self._sha256 = hashlib.sha256()
        self._read_before = read_before
        self._whole_lines_only = whole_lines_only
        self._orders: dict[bytes, tuple[tuple[str, ...], tuple[int, ...]]] = {}
        self._first: tuple[int, tuple[str, ...]] | None = None
        self._rotating: bool | None = None
        """Whether the seats rotate (unknown until a hand of another residue is read)."""
        self._scan = self._lines()
        first = next(self._scan, None)  # the header, or the first hand of a log without one
        self._pending: HandLine | None = first

    def __iter__(self) -> Iterator[HandLine]:
        """The hands, in the file's order (once: the log is read as they are given)."""
        pending, self._pending = self._pending, None
        hands = cast(Iterator[HandLine], self._scan)
        return hands if pending is None else itertools.chain((pending,), hands)

    def read(self) -> LogReader:
        """Read every hand (for what is known at the end only); returns the reader."""
        for _ in self:
            pass
        return self

    def __enter__(self) -> LogReader:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._scan.close()
        self._file.close()

    @property
    def digest(self) -> str:
        """SHA-256 of the bytes read (two logs of the same content are the same log)."""
        return self._sha256.hexdigest()

    def error(self, number: int, why: object) -> LogError:
        """An error about line ``number``."""
        return LogError(f"{self.where}:{number}: {why}")

    def no_hands(self) -> LogError:
        """The error of a log without a hand, saying why when it can."""
        if self.header_cut:
            return LogError(f"{self.where}: the log ends inside its header (no hands)")
        cut = f" (its last line, {self.cut_line}, is cut short)" if self.cut_line else ""
        return LogError(f"{self.where}: no hands{cut}")

    def seat_names(self) -> tuple[str, ...]:
        """The players in seat order (seat 1 first), once the hands are read: the ``SCORE``
        line's, else from the rotation (position 0 of hand ``h`` is seat ``h mod n``);
        fixed seats (``-f``) are in position order."""
        if self.score is not None:
            return self.score.names
        if self._first is None:
            return ()
        hand, names = self._first
        if not self._rotating:
            return names
        shift = hand % len(names)
        return names[-shift:] + names[:-shift] if shift else names

    # -- reading ----------------------------------------------------------------------

    def _lines(self) -> Generator[HandLine | None, None, None]:
        """Every line of the log, read into this reader: ``None`` once the header is read,
        then each hand. The fast path (a ``STATE`` line after the header) is inline."""
        orders = self._orders
        new_hand = _new_hand
        rules: HandRules | None = None
        decided = False  # whether ``rules`` is known (asked of game_of at the first hand)
        number = 0
        last = -1
        header: list[str] | None = None
        for batch, unended in self._chunks():
            if number == 0 and (batch[0] if batch else unended).startswith(_HEADER_START):
                header = []
            lines = batch[: _too_long_at(batch)]  # the lines before a line too long
            for line in lines:
                number += 1
                if header is not None:  # the four lines of the header
                    header.append(line.decode("utf-8", "surrogateescape"))
                    if len(header) == 4:
                        self.header = self._header(header)
                        header = None
                        yield None
                    continue
                if line.startswith(b"STATE:") and self.score is None:
                    try:
                        fields = state_fields(line)
                        check_fields(fields)
                    except MatchStateError as exc:
                        raise self.error(number, exc) from None
                    hand = fields.hand_number
                    if hand <= last:
                        raise self.error(number, self._hand_error(hand, last))
                    last = hand
                    names, order = orders.get(fields.names) or self._order_of(fields, number)
                    if not decided:
                        rules, decided = self._rules(), True
                    if rules is not None:
                        self._check_rules(rules, fields, number)
                    if self._rotating is None:
                        self._note_seats(hand, names)
                    self.hands += 1
                    yield new_hand((number, line, fields, names, order))
                else:
                    try:
                        self._other_line(line, number)
                    except _LineError as exc:
                        raise self.error(number, exc) from None
            if len(lines) < len(batch) or len(unended) > MAX_LINE_BYTES:
                raise self.error(number + 1, f"a line longer than {MAX_LINE_BYTES} bytes")
            if unended:  # the last line, without its newline
                number += 1
                if header is not None:
                    break  # a header cut short
                hand_line = self._last_line(unended, number, last)
                if hand_line is not None:
                    if not decided:
                        rules, decided = self._rules(), True
                    if rules is not None:
                        self._check_rules(rules, hand_line.fields, number)
                    yield hand_line
        self.header_cut = header is not None
        self._check_read_before()

    def _rules(self) -> HandRules | None:
        """The rules the hands are checked under (asked once the header is read)."""
        self.game = self._game_of(self.header) if self._game_of is not None else None
        return HandRules(self.game) if self.game is not None else None

    def _check_rules(self, rules: HandRules, fields: StateFields, number: int) -> None:
        """The hand on line ``number`` under the rules, or an :class:`IllegalHandError`."""
        try:
            rules.check(fields)
        except MatchStateError as exc:
            raise IllegalHandError(f"{self.where}:{number}: {exc}") from None

    def _last_line(self, line: bytes, number: int, last: int) -> HandLine | None:
        """A last line without its newline: a hand, nothing, or a line cut short."""
        if self._whole_lines_only and line.strip() and not line.startswith(b"#"):
            self.cut_line = number
            return None
        try:
            if not (line.startswith(b"STATE:") and self.score is None):
                self._other_line(line, number)
                return None
            fields = state_fields(line)
            check_fields(fields)
            if fields.hand_number <= last:
                raise _LineError(self._hand_error(fields.hand_number, last))
            names, order = self._orders.get(fields.names) or self._order_of(fields, number)
        except (_LineError, LogError, MatchStateError):
            self.cut_line = number  # the last line, cut while it was being written
            return None
        if self._rotating is None:
            self._note_seats(fields.hand_number, names)
        self.hands += 1
        return HandLine(number, line, fields, names, order)

    def _chunks(self) -> Iterator[tuple[list[bytes], bytes]]:
        """The log's complete lines (without ``\\n`` or ``\\r\\n``) a chunk at a time,
        each batch with what follows the last newline when the log ends there (else
        ``b""``); a piece longer than :data:`MAX_LINE_BYTES` without a newline ends the log
        (the caller refuses it)."""
        rest = b""
        chunks = self._content()
        first = next(chunks, b"").removeprefix(_BYTE_ORDER_MARK)
        for chunk in itertools.chain((first,), chunks):
            data = rest + chunk if rest else chunk
            lines = data.split(b"\n")
            rest = lines.pop()
            if b"\r" in data:
                lines = [line.removesuffix(b"\r") for line in lines]
            if len(rest) > MAX_LINE_BYTES:
                yield lines, rest
                return
            yield lines, b""
        if rest:
            yield [], rest.removesuffix(b"\r")

    def _content(self) -> Iterator[bytes]:
        """The log's bytes, a chunk at a time (decompressed, and no more than
        ``read_before`` says), counted and hashed."""
        limit = self._read_before[0] if self._read_before is not None else None
        for data in self._decompressed():
            chunk = data if limit is None else data[: limit - self.size]
            if not chunk:
                return
            self.size += len(chunk)
            self._sha256.update(chunk)
            yield chunk

    def _decompressed(self) -> Iterator[bytes]:
        first = self._read(self._file, _CHUNK_BYTES)
        kind = next((kind for magic, kind in _COMPRESSED if first.startswith(magic)), None)
        if kind is None:
            yield first
            while chunk := self._read(self._file, _CHUNK_BYTES):
                yield chunk
            return
        stream, errors = _decompressing(kind, _Prefixed(first, self._file, self._read))
        while True:
            try:
                chunk = stream.read(_CHUNK_BYTES)
            except EOFError:
                raise LogError(f"{self.where}: the {kind} data ends early (cut short)") from None
            except errors:
                raise LogError(f"{self.where}: the {kind} data is damaged") from None
            if not chunk:
                return
            yield chunk

    def _read(self, file: BinaryIO, size: int) -> bytes:
        try:
            return file.read(size)
        except OSError as exc:
            raise LogError(f"cannot read {self.where}: {exc.strerror or exc}") from None

    def _check_read_before(self) -> None:
        if self._read_before is not None and (self.size, self.digest) != self._read_before:
            raise LogError(f"{self.where} changed since it was read")

    # -- the lines ----------------------------------------------------------------------

    def _header(self, lines: list[str]) -> LogHeader:
        try:
            return parse_header(lines)
        except MatchStateError as exc:
            raise LogError(f"{self.where}: {exc}") from None

    def _other_line(self, line: bytes, number: int) -> None:
        """A line that is not a ``STATE`` line of the hands: a comment, a blank, the
        ``SCORE`` line, or an error."""
        if line.startswith(b"SCORE:"):
            self._score(line, number)
        elif line.startswith(b"STATE:"):
            raise _LineError(f"a STATE line after the SCORE line (line {self.score_line})")
        elif line and not line.startswith(b"#"):
            raise _LineError(f"not a log line (# comment, STATE or SCORE): {_excerpt(line)}")

    def _score(self, line: bytes, number: int) -> None:
        if self.score is not None:
            raise _LineError(f"a second SCORE line (the first is line {self.score_line})")
        try:
            score = parse_score_line(line)
        except MatchStateError as exc:
            raise _LineError(str(exc)) from None
        if self.players and sorted(score.names) != sorted(self.players):
            raise _LineError(
                f"players {clip_line('|'.join(score.names), 60)!r}, but the hands were "
                f"played by {clip_line('|'.join(self.players), 60)!r}"
            )
        self.score = score
        self.score_line = number
        self.score_bytes = line

    def _order_of(
        self, fields: StateFields, number: int
    ) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The names at each position of a hand and where they are in :attr:`players`."""
        try:
            names = state_names(fields.names)
        except MatchStateError as exc:
            raise self.error(number, exc) from None
        if not self.players:
            self.players = names
        elif sorted(names) != sorted(self.players):
            raise self.error(
                number,
                f"players {clip_line('|'.join(names), 60)!r}, but the log's players are "
                f"{clip_line('|'.join(self.players), 60)!r}",
            )
        entry = (names, tuple(self.players.index(name) for name in names))
        if len(self._orders) < _NAME_CACHE:
            self._orders[fields.names] = entry
        return entry

    def _note_seats(self, hand: int, names: tuple[str, ...]) -> None:
        if self._first is None:
            self._first = (hand, names)
        elif (hand - self._first[0]) % len(names):
            self._rotating = names != self._first[1]

    @staticmethod
    def _hand_error(hand: int, last: int) -> str:
        return f"hand {hand} again" if hand == last else f"hand {hand} after hand {last}"


class _Prefixed:
    """``head``, then the rest of ``file``: a compressed log for its decompressor, after
    its first bytes were looked at."""

    def __init__(self, head: bytes, file: BinaryIO, read: Callable[[BinaryIO, int], bytes]) -> None:
        self._head = head
        self._file = file
        self._read = read

    def read(self, size: int = -1) -> bytes:
        if self._head:
            if size < 0 or size >= len(self._head):
                data, self._head = self._head, b""
            else:
                data, self._head = self._head[:size], self._head[size:]
            return data
        return self._read(self._file, size if size >= 0 else _CHUNK_BYTES)


def _decompressing(kind: str, file: _Prefixed) -> tuple[BinaryIO, tuple[type[Exception], ...]]:
    """A compressed log read decompressed (a bounded piece at a time), and the errors that
    say its data is damaged (imported here: most logs are not compressed)."""
    compressed = cast(BinaryIO, file)
    if kind == "gzip":
        import gzip
        import zlib

        return cast(BinaryIO, gzip.GzipFile(fileobj=compressed, mode="rb")), (OSError, zlib.error)
    if kind == "xz":
        import lzma

        return cast(BinaryIO, lzma.LZMAFile(compressed)), (OSError, lzma.LZMAError)
    import bz2

    return cast(BinaryIO, bz2.BZ2File(compressed)), (OSError,)


def _too_long_at(lines: list[bytes]) -> int | None:
    """Where the first line longer than :data:`MAX_LINE_BYTES` is (``None``: none is)."""
    if not lines or max(map(len, lines)) <= MAX_LINE_BYTES:
        return None
    return next(i for i, line in enumerate(lines) if len(line) > MAX_LINE_BYTES)


def _excerpt(line: bytes) -> str:
    """The start of a line for a message, control characters escaped."""
    text = line[:60].decode("latin-1")
    return repr(text + "...") if len(line) > 60 else repr(text)


def open_log(
    path: Path,
    *,
    read_before: tuple[int, str] | None = None,
    whole_lines_only: bool = False,
    game_of: GameOf | None = None,
) -> LogReader:
    """The log at ``path`` open for one pass (a :class:`LogReader`, to close: ``with
    open_log(path) as log``): a regular file, or a pipe read as a stream (a FIFO without a
    writer reads as empty; it never hangs). With ``read_before`` (see :class:`LogReader`)
    it must be a regular file: a pipe cannot be read twice. ``game_of``: the game the hands
    are checked under (:data:`GameOf`)."""
    where = shown_path(path)
    fd = open_to_read(path, lambda why: LogError(f"cannot read {where}: {why}"))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise LogError(f"{where} is a folder, not a log")
        if not (stat.S_ISREG(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
            raise LogError(f"{where} is not a regular file or a pipe")
        if stat.S_ISFIFO(info.st_mode):
            if read_before is not None:
                raise LogError(f"{where} is a pipe, read once: give the log as a file")
            os.set_blocking(fd, True)  # wait for a slow writer; no writer at all reads as EOF
        file_id = (info.st_dev, info.st_ino) if stat.S_ISREG(info.st_mode) else None
        file = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    try:
        return LogReader(
            file,
            where,
            file_id=file_id,
            read_before=read_before,
            whole_lines_only=whole_lines_only,
            game_of=game_of,
        )
    except BaseException:
        file.close()
        raise


def game_of_log(path: Path, header: LogHeader | None, *, advice: str = "") -> Game:
    """Which game the log at ``path`` is, ``header`` being its header: the one rule of every
    reader of logs (the results, the statistics, AIVAT, the web page, the scripts).

    Without a header, heads-up limit hold'em (the bundled
    :data:`~acpcbot.game.LIMIT_HOLDEM`). With one, the game file it names, looked for by its
    file name only: beside the log, else among the bundled games. Never where the header's
    path points: a log is data from elsewhere, and its header names a path of the machine
    that wrote it, or any file of this one (``/etc/passwd``, ``/dev/zero``). The file beside
    the log is read only if it is a regular file of at most
    :data:`~acpcbot.game.MAX_GAME_FILE_BYTES` (:mod:`acpcbot.smallfile`), and an error about
    it says why it is not a game, never what it holds. Errors are a :class:`LogError` ending
    in ``advice`` (what the caller's user can do instead).

    >>> import tempfile
    >>> from acpcbot.protocol.logfile import LogHeader
    >>> header = LogHeader("m", "../games/holdem.limit.2p.reverse_blinds.game", 1000, 42)
    >>> game_of_log(Path("m.log"), header) == bundled_game()  # by its name: bundled
    True
    >>> with tempfile.TemporaryDirectory() as tmp:  # doctest: +NORMALIZE_WHITESPACE
    ...     _ = (Path(tmp) / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\\n")
    ...     header = LogHeader("m", "/etc/passwd", 1000, 42)
    ...     try:
    ...         game_of_log(Path(tmp) / "m.log", header, advice="give --game")
    ...     except LogError as exc:
    ...         print(str(exc).replace(tmp, "TMP"))
    cannot read the game '/etc/passwd' of TMP/m.log: passwd beside it is not a valid game
    definition; give --game
    """
    if header is None:
        return bundled_game()
    name = Path(header.game_path.replace("\\", "/")).name  # "" for "/", ".." for ".."
    if name in ("", ".", ".."):
        raise _no_game(header, path, "not the name of a file", advice)
    beside, shown = path.parent / name, clip_line(name, 80)
    try:
        data = read_small_file(beside, limit=MAX_GAME_FILE_BYTES)
    except MissingFileError:
        if name in BUNDLED_GAMES:
            return bundled_game(name)
        why = f"no {shown} beside it, nor a bundled game of that name"
        raise _no_game(header, path, why, advice) from None
    except FileRefusedError as exc:
        raise _no_game(header, path, f"{shown} beside it: {exc.why}", advice) from None
    try:
        return parse_game(data.decode("latin-1"), source=str(beside))
    except GameDefinitionError:
        # Not what is wrong in it: none of its lines may land in a message (the log comes
        # from elsewhere, and the file of that name may be anyone's).
        why = f"{shown} beside it is not a valid game definition"
        raise _no_game(header, path, why, advice) from None


def _no_game(header: LogHeader, path: Path, why: str, advice: str) -> LogError:
    game = clip_line(header.game_path, 80)
    end = f"; {advice}" if advice else ""
    return LogError(f"cannot read the game {game!r} of {shown_path(path)}: {why}{end}")
