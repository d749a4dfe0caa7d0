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

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from acpcbot.actions import Action, ActionType, action_type_from_char
from acpcbot.errors import AcpcError

_LINE_RE = re.compile(r"^(\S)(-?\d*)\s+(\d+)\s+(\d+)\.(\d{1,6})\s+(\d+)\.(\d{1,6})\s*$")


class TransactionLogError(AcpcError):
    """A ``.tlog`` line that cannot be read or replayed."""


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
    """Read one ``.tlog`` line (the reference's own files included)."""
    match = _LINE_RE.match(line)
    kind = action_type_from_char(match.group(1)) if match else None
    if match is None or kind is None:
        raise TransactionLogError(f"could not parse transaction {line.rstrip()!r}")
    size_text = match.group(2)
    if kind is ActionType.RAISE and not is_limit:
        if not size_text:
            raise TransactionLogError(f"no-limit raise without a size: {line.rstrip()!r}")
        action = Action(kind, int(size_text))
    elif size_text:
        raise TransactionLogError(f"unexpected size in transaction {line.rstrip()!r}")
    else:
        action = Action(kind)

    def micros(seconds: str, fraction: str) -> int:
        return int(seconds) * 1_000_000 + int(fraction.ljust(6, "0"))

    return Transaction(
        action,
        int(match.group(3)),
        micros(match.group(4), match.group(5)),
        micros(match.group(6), match.group(7)),
    )


def read_transactions(path: Path, *, is_limit: bool) -> list[Transaction]:
    """Every complete line of a ``.tlog``. A last line without its ``\\n`` (the dealer was
    killed while writing it) is cut off the file, so appending goes on cleanly."""
    if not path.exists():
        return []
    data = path.read_bytes()
    complete = data.rfind(b"\n") + 1
    if complete < len(data):
        os.truncate(path, complete)
    text = data[:complete].decode("latin-1")
    return [parse_transaction(line, is_limit=is_limit) for line in text.splitlines() if line]


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
