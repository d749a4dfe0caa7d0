"""The transaction log (``.tlog``): one line per action, enough to resume a match.

Each line is ``<action> <hand> <sent s.us> <received s.us>`` as the reference's
``logTransaction`` writes it; the file is flushed after every line.

>>> from acpcbot.actions import RAISE
>>> line = format_transaction(Transaction(RAISE, 0, 1795220837509321, 1795220837509334))
>>> line
'r 0 1795220837.509321 1795220837.509334\\n'
>>> parse_transaction(line, is_limit=True) == Transaction(RAISE, 0, 1795220837509321,
...                                                       1795220837509334)
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from acpcbot.actions import Action, ActionType, action_type_from_char, canonical_action
from acpcbot.errors import AcpcError

# ASCII digits only (re.ASCII), and no more of them than the reference's types hold: a
# damaged file is refused with a message, never read into a huge number.
_LINE_RE = re.compile(
    r"^(\S)(-?\d{0,10})\s+(\d{1,10})\s+(\d{1,18})\.(\d{1,6})\s+(\d{1,18})\.(\d{1,6})\s*$",
    re.ASCII,
)
MAX_LINE_BYTES = 4096
"""The longest ``.tlog`` line read (the reference's ``MAX_LINE_LEN``); ours are ~40 bytes."""


class TransactionLogError(AcpcError):
    """A ``.tlog`` line that cannot be read or replayed."""


class TransactionFileError(TransactionLogError):
    """A :class:`TransactionLogError` whose message names the file and the line."""


@dataclass(frozen=True, slots=True)
class Transaction:
    """One action as the dealer applied it, with its send and receive times (µs)."""

    action: Action
    hand_number: int
    sent_us: int
    received_us: int


def format_transaction(t: Transaction) -> str:
    """The ``.tlog`` line of a transaction, with its ``\\n``."""
    sent_s, sent_us = divmod(t.sent_us, 1_000_000)
    received_s, received_us = divmod(t.received_us, 1_000_000)
    return f"{t.action} {t.hand_number} {sent_s}.{sent_us:06d} {received_s}.{received_us:06d}\n"


def parse_transaction(line: str, *, is_limit: bool) -> Transaction:
    """Read one ``.tlog`` line (the reference's own files included).

    >>> parse_transaction("c 0 1.5 2.000001", is_limit=True).received_us
    2000001
    >>> parse_transaction("c ² 1.5 2.0", is_limit=True)
    Traceback (most recent call last):
    ...
    dealer.referee.tlog.TransactionLogError: could not parse transaction 'c \\xb2 1.5 2.0'
    """
    match = _LINE_RE.match(line)
    kind = action_type_from_char(match.group(1)) if match else None
    if match is None or kind is None:
        raise TransactionLogError(f"could not parse transaction {_shown(line)}")
    size_text = match.group(2)
    action: Action | None
    if kind is ActionType.RAISE and not is_limit:
        if not size_text or size_text == "-":
            raise TransactionLogError(f"no-limit raise without a size: {_shown(line)}")
        action = Action(kind, int(size_text))
    elif size_text:
        raise TransactionLogError(f"unexpected size in transaction {_shown(line)}")
    else:
        action = canonical_action(kind.value)
    assert action is not None

    def micros(seconds: str, fraction: str) -> int:
        return int(seconds) * 1_000_000 + int(fraction.ljust(6, "0"))

    return Transaction(
        action,
        int(match.group(3)),
        micros(match.group(4), match.group(5)),
        micros(match.group(6), match.group(7)),
    )


def _shown(line: str) -> str:
    """A line in an error message: quoted, in ASCII, cut if long."""
    text = line.rstrip("\r\n")
    return ascii(text) if len(text) <= 80 else f"{text[:80]!a}..."


class TransactionReader:
    """Reads a ``.tlog`` line by line (the file may be long: nothing is kept but the line
    being read). A last line without its ``\\n`` (the dealer was killed while writing it) is
    not read; :attr:`complete_bytes` tells where the complete lines end, so that the caller
    can cut the rest off before appending.

    Errors name the file and the line: :class:`TransactionLogError`.
    """

    def __init__(self, file: BinaryIO, name: str, *, is_limit: bool) -> None:
        self._file = file
        self._name = name
        self._is_limit = is_limit
        self.complete_bytes = 0
        """Bytes of complete lines read so far."""
        self.line_number = 0
        """The number of the last line read (1-based)."""

    def __iter__(self) -> Iterator[Transaction]:
        while True:
            raw = self._file.readline(MAX_LINE_BYTES + 1)
            if not raw.endswith(b"\n") and len(raw) <= MAX_LINE_BYTES:
                return  # the end, perhaps after a half-written line
            self.line_number += 1
            if len(raw) > MAX_LINE_BYTES:
                raise self.error(f"longer than {MAX_LINE_BYTES} bytes")
            self.complete_bytes += len(raw)
            if raw.strip():
                try:
                    yield parse_transaction(raw.decode("latin-1"), is_limit=self._is_limit)
                except TransactionLogError as exc:
                    raise self.error(str(exc)) from None

    def error(self, what: str) -> TransactionFileError:
        """An error about the line just read."""
        return TransactionFileError(f"{self._name} line {self.line_number}: {what}")


def read_transactions(path: Path, *, is_limit: bool) -> list[Transaction]:
    """Every complete line of a (small) ``.tlog``, without changing the file."""
    with path.open("rb") as file:
        return list(TransactionReader(file, str(path), is_limit=is_limit))


class TransactionLog:
    """Writes ``.tlog`` lines, each flushed at once."""

    __slots__ = ("_file",)

    def __init__(self, file: BinaryIO) -> None:
        self._file = file

    def record(self, transaction: Transaction) -> None:
        self._file.write(format_transaction(transaction).encode("ascii"))
        self._file.flush()

    def close(self) -> None:
        self._file.close()
