"""The dealer's stderr, in the reference's words.

Always: the log header, ``WARNING:``/``ERROR:`` lines and the ``SCORE`` line. Unless quiet:
``STARTED``/``FINISHED``, every line sent (``TO``) and received (``FROM``) with its time,
and the seconds each seat has used every 100 hands. Output is collected and written in
one go by :meth:`Transcript.flush`, which the dealer calls before it waits for a client and
after every hand; a broken stderr is ignored rather than fatal.
"""

from __future__ import annotations

from typing import BinaryIO


def stamp(us: int) -> str:
    """``sec.usec`` like the reference's ``%zu.%06zu``.

    >>> stamp(1795220925327687)
    '1795220925.327687'
    """
    seconds, micros = divmod(us, 1_000_000)
    return f"{seconds}.{micros:06d}"


class Transcript:
    """Collects stderr lines; ``stream`` ``None`` keeps only warnings and errors in
    :attr:`messages` (for in-process matches and tests)."""

    __slots__ = ("_pending", "_stream", "messages", "quiet")

    def __init__(self, stream: BinaryIO | None, *, quiet: bool = True) -> None:
        self._stream = stream
        self._pending: list[bytes] = []
        self.quiet = quiet or stream is None
        self.messages: list[str] = []
        """Every ``WARNING``/``ERROR`` line so far."""

    def line(self, text: str) -> None:
        """A line printed whatever the verbosity (header, ``SCORE``)."""
        if self._stream is not None:
            self._pending.append(text.encode("latin-1") + b"\n")

    def warning(self, text: str) -> None:
        self.message(f"WARNING: {text}")

    def message(self, text: str) -> None:
        """A ``WARNING:``/``ERROR:`` line (or its continuation)."""
        self.messages.append(text)
        self.line(text)

    def verbose(self, text: str) -> None:
        """A line only printed without ``-q``."""
        if not self.quiet:
            self._pending.append(text.encode("latin-1") + b"\n")

    def sent(self, seat: int, us: int, data: bytes) -> None:
        """``TO`` record; ``data`` is the state line with its ``\\r\\n``."""
        if not self.quiet:
            self._pending.append(b"TO %d at %s %s" % (seat + 1, stamp(us).encode(), data))

    def received(self, seat: int, us: int, line: bytes, terminated: bool) -> None:
        """``FROM`` record of one line as read."""
        if not self.quiet:
            end = b"\n" if terminated else b""
            self._pending.append(b"FROM %d at %s %s%s" % (seat + 1, stamp(us).encode(), line, end))

    def flush(self) -> None:
        if not self._pending or self._stream is None:
            return
        data = b"".join(self._pending)
        self._pending.clear()
        try:
            self._stream.write(data)
            self._stream.flush()
        except (BrokenPipeError, OSError):
            self._stream = None  # nobody is listening any more; keep playing
