"""The dealer's stderr, in the reference's words.

Always: the log header, ``WARNING:``/``ERROR:`` lines and the ``SCORE`` line. Unless quiet:
``STARTED``/``FINISHED``, every line sent (``TO``) and received (``FROM``) with its time,
and the seconds each seat has used every 100 hands. Output is collected and written in
one go by :meth:`Transcript.flush`, which the dealer calls before it waits for a client and
after every hand; a broken stderr is ignored rather than fatal.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import BinaryIO


def stamp(us: int) -> str:
    """``sec.usec`` like the reference's ``%zu.%06zu``.

    >>> stamp(1795220925327687)
    '1795220925.327687'
    """
    seconds, micros = divmod(us, 1_000_000)
    return f"{seconds}.{micros:06d}"


MAX_PENDING = 256
"""Lines collected before they are written out whatever happens (a seat that sends
comment after comment must not make the transcript grow without bound)."""
MAX_MESSAGES = 1000
"""``WARNING``/``ERROR`` lines kept in :attr:`Transcript.messages`; the rest are counted."""


class Transcript:
    """Collects stderr lines; ``stream`` ``None`` keeps only warnings and errors in
    :attr:`messages` (for in-process matches and tests)."""

    __slots__ = ("_pending", "_stream", "guard", "messages", "more_messages", "quiet")

    def __init__(self, stream: BinaryIO | None, *, quiet: bool = True) -> None:
        self._stream = stream
        self._pending: list[bytes] = []
        self.quiet = quiet or stream is None
        self.messages: list[str] = []
        """The first :data:`MAX_MESSAGES` ``WARNING``/``ERROR`` lines."""
        self.more_messages = 0
        """How many more there were."""
        self.guard: Callable[[], AbstractContextManager[None]] | None = None
        """Entered around every write (a progress bar on the same terminal clears itself)."""

    def line(self, text: str) -> None:
        """A line printed whatever the verbosity (header, ``SCORE``)."""
        if self._stream is not None:
            self._add(text.encode("latin-1", "replace") + b"\n")

    def _add(self, data: bytes) -> None:
        pending = self._pending
        pending.append(data)
        if len(pending) >= MAX_PENDING:
            self.flush()

    def warning(self, text: str) -> None:
        self.message(f"WARNING: {text}")

    def message(self, text: str) -> None:
        """A ``WARNING:``/``ERROR:`` line (or its continuation)."""
        if len(self.messages) < MAX_MESSAGES:
            self.messages.append(text)
        else:
            self.more_messages += 1
        self.line(text)

    def verbose(self, text: str) -> None:
        """A line only printed without ``-q``."""
        if not self.quiet:
            self._add(text.encode("latin-1", "replace") + b"\n")

    def sent(self, seat: int, us: int, data: bytes) -> None:
        """``TO`` record; ``data`` is the state line with its ``\\r\\n``."""
        if not self.quiet:
            self._add(b"TO %d at %s %s" % (seat + 1, stamp(us).encode(), data))

    def received(self, seat: int, us: int, line: bytes, terminated: bool) -> None:
        """``FROM`` record of one line as read."""
        if not self.quiet:
            end = b"\n" if terminated else b""
            self._add(b"FROM %d at %s %s%s" % (seat + 1, stamp(us).encode(), line, end))

    def flush(self) -> None:
        if not self._pending or self._stream is None:
            return
        data = b"".join(self._pending)
        self._pending.clear()
        try:
            if self.guard is None:
                self._stream.write(data)
                self._stream.flush()
            else:
                with self.guard():
                    self._stream.write(data)
                    self._stream.flush()
        except (BrokenPipeError, OSError):
            self._stream = None  # nobody is listening any more; keep playing
