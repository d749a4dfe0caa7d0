"""Resuming a match (``acpc-dealer ... -T -a``): check, replay, rebuild the log.

An earlier run of the match left a ``.tlog`` (every action) and usually a ``.log`` (every
finished hand). Resuming replays the ``.tlog`` through the same cards, seats and rules, so
it must be the same match: the log's header must name the same seed, game and time
limits, and every line already in the log must be exactly the line the replay writes —
same cards (so the same seed and game), same betting (so the ``.tlog`` belongs to this
log), same names in the same seats. Anything else is refused with a :class:`ResumeError`
before any file is changed.

The number of hands may change: the match ends at the new count, provided the ``.tlog``
does not go past it. The log is rebuilt — the header as this run gives it, every replayed
hand, and then the hands still to play and the ``SCORE`` — in a new file that replaces
the old one once the replay has succeeded; a half-written last line of the ``.tlog`` is
then cut off. Without a log header the ``.tlog`` alone cannot tell the seed or the names:
:attr:`Resumption.unchecked` says so.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, NamedTuple, TypeVar

from acpcbot.errors import AcpcError
from acpcbot.logreader import LogError, LogReader
from acpcbot.protocol.logfile import LogHeader, parse_state_line
from acpcbot.smallfile import shown_path
from dealer.referee.config import MatchConfig, logged_text
from dealer.referee.matchlog import MatchLog
from dealer.referee.referee import Referee
from dealer.referee.tlog import TransactionFileError, TransactionLogError, TransactionReader

__all__ = ["ResumeError", "Resumption", "open_regular"]

T = TypeVar("T")

FLUSH_EVERY_REPLAYED = 4096
"""Replayed lines written to the rebuilt log at a time."""


class ResumeError(AcpcError):
    """The files of the earlier run do not fit this run, or cannot be read."""


def open_regular(path: Path, what: str) -> BinaryIO | None:
    """``path`` opened for reading, or ``None`` when it does not exist; anything but a
    regular file (a folder, a FIFO, a device) is refused rather than read."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ResumeError(f"cannot read {what} {logged_text(str(path))}: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ResumeError(f"{what} {logged_text(str(path))} is not a regular file")
    try:
        return path.open("rb")
    except OSError as exc:
        raise ResumeError(f"cannot read {what} {logged_text(str(path))}: {exc.strerror}") from None


class LoggedLine(NamedTuple):
    """A line of the earlier run's log after its header, as the dealer wrote it."""

    number: int
    """The line's number in the file (1-based)."""
    text: str
    """The line without its ``\\n``, one Latin-1 character a byte (as the dealer writes)."""

    @property
    def is_score(self) -> bool:
        return self.text.startswith("SCORE:")


def _logged_lines(log: LogReader) -> Iterator[LoggedLine]:
    """The lines of ``log`` after its header that the replay must write again: every hand,
    then the ``SCORE`` line if there is one."""
    for hand in log:
        yield LoggedLine(hand.number, hand.line.decode("latin-1"))
    if log.score is not None:
        yield LoggedLine(log.score_line, log.score_bytes.decode("latin-1"))


class Resumption:
    """The earlier run's ``.log`` and ``.tlog``, checked against this run's settings.

    Creating it checks the files and the log's header. It is the referee's log
    (:class:`~dealer.referee.matchlog.LogLines`): while :meth:`replay` replays the ``.tlog``,
    every line is checked against the old log and written to the rebuilt one, which
    replaces the old log when the replay has succeeded; the hands played afterwards are
    appended to it. :meth:`close` at the end (or on any failure: the old files are then
    left as they were).
    """

    def __init__(
        self, config: MatchConfig, log_path: Path, tlog_path: Path, *, write_log: bool
    ) -> None:
        self.config = config
        self._log_path = log_path
        self._tlog_path = tlog_path
        self._log_name = logged_text(str(log_path))
        self._tlog_name = logged_text(str(tlog_path))
        """The files' names in messages."""
        self._old_file: BinaryIO | None = None
        self._old: LogReader | None = None
        self._old_lines: Iterator[LoggedLine] = iter(())
        self._expected: LoggedLine | None = None
        """The old log's next line, which the replay must write next."""
        self._new: MatchLog | None = None
        self._new_path: Path | None = None
        """The rebuilt log, until it replaces the old one."""
        self._replaying = False
        self._unflushed = 0
        self._tlog_file = open_regular(tlog_path, "transaction file")
        try:
            self._old_file = open_regular(log_path, "log file")
            old_file = self._old_file
            if old_file is not None:
                # A last line without its newline is one the dealer was writing when killed.
                self._old = self._checked(
                    lambda: LogReader(old_file, self._log_name, whole_lines_only=True)
                )
                if self._old.header is not None:
                    self._check_header(self._old.header)
                self._old_lines = _logged_lines(self._old)
                self._expected = self._checked(lambda: next(self._old_lines, None))
                if self._expected is not None and self._old.header is None:
                    raise self._refuse(f"{self._log_name}: no log header")
            if self._expected is not None and self._tlog_file is None:
                raise self._refuse(f"{self._log_name} has hands but there is no {self._tlog_name}")
            if write_log:
                self._start_new_log()
        except BaseException:
            self.close()
            raise

    @property
    def unchecked(self) -> bool:
        """Whether there is a ``.tlog`` to replay but no log header to check it against
        (its seed, game and names are then taken on trust)."""
        has_actions = self._tlog_file is not None and os.fstat(self._tlog_file.fileno()).st_size
        return bool(has_actions) and (self._old is None or self._old.header is None)

    # -- checks ---------------------------------------------------------------------

    def _refuse(self, why: str) -> ResumeError:
        return ResumeError(f"cannot resume {self.config.match_name}: {why}")

    def _checked(self, read: Callable[[], T]) -> T:
        """``read()``; a damaged old log is a refusal."""
        try:
            return read()
        except LogError as exc:
            raise self._refuse(str(exc)) from None

    def _check_header(self, header: LogHeader) -> None:
        now = self.config.header
        name = self._log_name
        if header.seed != now.seed:
            raise self._refuse(f"{name} was played with seed {header.seed}, not {now.seed}")
        game = logged_text(header.game_path)  # the bytes the log holds, as the dealer's text
        if game != now.game_path and not _same_file(game, now.game_path):
            then, given = shown_path(game), shown_path(now.game_path)
            raise self._refuse(f"{name} was played with game {then}, not {given}")
        for option in ("t_response", "t_hand", "t_per_hand"):
            then, given = getattr(header, option), getattr(now, option)
            if then != given:
                raise self._refuse(f"{name} was played with --{option} {then}, not {given}")

    def _difference(self, old: LoggedLine, text: str) -> str:
        """Why the old log's line is not the line the replay wrote (``text``)."""
        where = f"{self._log_name} line {old.number}"
        if old.is_score or text.startswith("SCORE:"):
            return f"{where} is {old.text!a}; the replay of {self._tlog_name} gives {text!r}"
        try:
            then = parse_state_line(old.text)
        except AcpcError as exc:
            return f"{where}: {exc}"
        now = parse_state_line(text)
        if then.hand_number != now.hand_number:
            return f"{where} is hand {then.hand_number}, {self._tlog_name} hand {now.hand_number}"
        hand = f"{where} (hand {then.hand_number})"
        if then.names != now.names:
            played, given = (shown_path("|".join(state.names)) for state in (then, now))
            return f"{hand} was played by {played}, not {given}"
        if (then.hole_cards, then.board) != (now.hole_cards, now.board):
            return f"{hand} has other cards than seed {self.config.seed} deals"
        if then.betting != now.betting:
            return f"{hand} is not the hand {self._tlog_name} replays: not the same match"
        return f"{hand} is {old.text!a}; the replay gives {text!r}"

    # -- the referee's log ----------------------------------------------------------

    def line(self, text: str) -> None:
        """The referee wrote ``text``: while the old log has lines it must be the next."""
        expected = self._expected
        if expected is not None:
            if expected.text != text:
                raise self._refuse(self._difference(expected, text))
            self._expected = self._checked(lambda: next(self._old_lines, None))
        if self._new is not None:
            self._new.line(text)

    def hand_done(self) -> None:
        new = self._new
        if new is None:
            return
        if not self._replaying:
            new.hand_done()
            return
        self._unflushed += 1
        if self._unflushed >= FLUSH_EVERY_REPLAYED:  # replayed hands: written in batches
            self._unflushed = 0
            new.flush()

    def flush(self) -> None:
        if self._new is not None:
            self._new.flush()

    # -- replaying ------------------------------------------------------------------

    def _start_new_log(self) -> None:
        try:
            handle, name = tempfile.mkstemp(
                dir=self._log_path.parent, prefix=f".{self._log_path.name}."
            )
        except OSError as exc:
            raise ResumeError(f"could not open log file {self._log_name}: {exc.strerror}") from None
        self._new_path = Path(name)
        self._new = MatchLog(os.fdopen(handle, "wb"))
        self._new.header(self.config.header)

    def replay(self, referee: Referee) -> str | None:
        """Replay the ``.tlog`` into ``referee`` (whose log is this object), check that the
        old log holds nothing more, and put the rebuilt log in place. Returns the
        ``SCORE`` line when the match is over already (then written to the log)."""
        self._replaying = True
        score = None
        tlog_bytes = 0
        if self._tlog_file is not None:
            reader = TransactionReader(
                self._tlog_file, self._tlog_name, is_limit=self.config.game.is_limit
            )
            try:
                referee.replay(reader)
            except TransactionFileError as exc:
                raise self._refuse(str(exc)) from None
            except TransactionLogError as exc:
                raise self._refuse(str(reader.error(str(exc)))) from None
            tlog_bytes = reader.complete_bytes
        if referee.match_over:
            score = referee.finish_match()  # checked against the old SCORE, if any
        expected = self._expected
        if expected is not None and not expected.is_score:
            raise self._refuse(
                f"{self._log_name} has hands that {self._tlog_name} does not "
                f"(line {expected.number})"
            )
        # Every check passed: from here on the files change.
        self._expected = None  # a SCORE left over is that of a match now extended
        self._replaying = False
        if self._tlog_file is not None and os.path.getsize(self._tlog_path) > tlog_bytes:
            os.truncate(self._tlog_path, tlog_bytes)
        if self._new is not None and self._new_path is not None:
            self._new.flush()
            os.replace(self._new_path, self._log_path)
            self._new_path = None
        self._close_old()
        return score

    def _close_old(self) -> None:
        for file in (self._tlog_file, self._old_file):
            if file is not None:
                file.close()
        self._tlog_file = self._old_file = None

    def close(self) -> None:
        """Close every file; a rebuilt log that has not replaced the old one is deleted."""
        self._close_old()
        if self._new is not None:
            with contextlib.suppress(OSError):
                self._new.close()
            self._new = None
        if self._new_path is not None:
            self._new_path.unlink(missing_ok=True)
            self._new_path = None


def _same_file(a: str, b: str) -> bool:
    """Whether two game file names as logged (see :func:`~dealer.referee.config.logged_text`) are
    one file."""
    with contextlib.suppress(OSError, ValueError):
        return os.path.samefile(os.fsdecode(a.encode("latin-1")), os.fsdecode(b.encode("latin-1")))
    return False
