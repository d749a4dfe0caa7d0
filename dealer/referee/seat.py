"""One seat's TCP connection as the dealer sees it (an asyncio protocol).

Incoming bytes are cut into lines the way the reference's ``getLine`` cuts them (at most
4095 bytes at a time, see :class:`acpcbot.protocol.framing.LineBuffer`). Outgoing states are
queued and written in one go by :meth:`SeatConnection.flush`: the dealer flushes a seat
just before it waits for that seat's reply and when the match ends, so a seat that is
not about to act costs no system call per state, and every seat still gets its lines in
order.

Memory stays bounded whatever a seat sends: once :data:`MAX_QUEUED_LINES` lines wait to be
read (a client that sends hundreds of megabytes before or with its ``VERSION`` line, while
the dealer still waits for another seat), the connection stops reading until the dealer has
taken some: the rest waits in the kernel's socket buffer, and the sender is held back.

A peer that goes away is not an exception here: reads then come back empty and
:meth:`SeatConnection.flush` reports that the seat is gone, and the dealer ends the match
cleanly with an error naming the seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections import deque
from typing import cast

from acpcbot.protocol.framing import MAX_LINE_BYTES, LineBuffer

CUT_PIECE_BYTES = MAX_LINE_BYTES - 1
"""A line this long was cut at the reference's limit: it had no line ending."""

MAX_QUEUED_LINES = 64
"""Lines (each at most :data:`CUT_PIECE_BYTES`) kept before the connection stops reading."""

Line = tuple[bytes, bool]
"""A line without its ending, and whether it had one (``\\n``)."""


class SeatGoneError(ConnectionError):
    """The seat's connection is closed (or, for a blocking seat, it stopped reading):
    nothing more can be sent to it."""


class SeatConnection(asyncio.Protocol):
    """The dealer's end of one seat's connection."""

    def __init__(self) -> None:
        self._buffer = LineBuffer(split_long=True)
        self._lines: deque[Line] = deque()
        self._outgoing: list[bytes] = []
        self._waiter: asyncio.Future[None] | None = None
        self._transport: asyncio.Transport | None = None
        self._paused = False
        """Reading is paused: :data:`MAX_QUEUED_LINES` lines are waiting."""
        self.at_eof = False
        """The peer sent no more data (it closed or shut down its side)."""
        self.gone = False
        """The connection is closed."""
        loop = asyncio.get_running_loop()
        self.connected: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()

    # -- asyncio.Protocol ----------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports do not derive from asyncio.Transport but have its methods.
        self._transport = cast(asyncio.Transport, transport)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if not self.connected.done():
            self.connected.set_result(None)

    def data_received(self, data: bytes) -> None:
        pieces = self._buffer.feed(data)
        if pieces:
            lines = self._lines
            for piece in pieces:
                lines.append((piece, len(piece) != CUT_PIECE_BYTES))
            if len(lines) >= MAX_QUEUED_LINES and not self._paused and self._transport:
                self._paused = True
                self._transport.pause_reading()
            self._wake()

    def eof_received(self) -> bool:
        self._end_input()
        return True  # keep our side open: a half-closed peer may still read its states

    def connection_lost(self, exc: Exception | None) -> None:
        self.gone = True
        self._end_input()
        if not self.closed.done():
            self.closed.set_result(None)

    def _end_input(self) -> None:
        if not self.at_eof:
            self.at_eof = True
            partial = self._buffer.pending
            if partial:  # the reference returns what it has at the end of input
                self._lines.append((partial, False))
                self._buffer = LineBuffer(split_long=True)
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    # -- for the dealer --------------------------------------------------------------

    def queue(self, data: bytes) -> None:
        """Send ``data`` at the next :meth:`flush`."""
        self._outgoing.append(data)

    def flush(self) -> None:
        """Write everything queued; :class:`SeatGoneError` if the seat is gone."""
        if not self._outgoing:
            return
        transport = self._transport
        if self.gone or transport is None or transport.is_closing():
            raise SeatGoneError
        data = b"".join(self._outgoing) if len(self._outgoing) > 1 else self._outgoing[0]
        self._outgoing.clear()
        transport.write(data)

    def hand_over(self) -> tuple[socket.socket | None, deque[Line], LineBuffer]:
        """Stop reading and give a duplicate of the socket (``None`` if the connection is
        closed already), with the lines received and not yet read and the partial line
        after them, to a blocking reader (:class:`dealer.referee.blockingseat.BlockingSeat`).
        The connection stays open until :meth:`close` or :meth:`abort`."""
        transport = self._transport
        duplicate = None
        if transport is not None and not self.gone and not transport.is_closing():
            if not self._paused:
                self._paused = True
                transport.pause_reading()
            sock = transport.get_extra_info("socket")
            duplicate = socket.socket(fileno=os.dup(sock.fileno()))
        lines, self._lines = self._lines, deque()
        buffer, self._buffer = self._buffer, LineBuffer(split_long=True)
        return duplicate, lines, buffer

    async def next_line(self, timeout: float | None) -> Line | None:
        """The next line, or ``None`` at the end of input or after ``timeout`` seconds."""
        if self._lines:
            return self._taken()
        if self.at_eof:
            return None
        loop = asyncio.get_running_loop()
        waiter = self._waiter = loop.create_future()
        timer = None if timeout is None else loop.call_later(timeout, self._wake)
        try:
            await waiter
        finally:
            self._waiter = None
            if timer is not None:
                timer.cancel()
        return self._taken() if self._lines else None

    def _taken(self) -> Line:
        """The first line waiting; reading resumes once few are left."""
        line = self._lines.popleft()
        if self._paused and len(self._lines) < MAX_QUEUED_LINES // 2:
            self._paused = False
            transport = self._transport
            if transport is not None and not transport.is_closing():
                transport.resume_reading()
        return line

    def abort(self) -> None:
        """Drop the connection at once."""
        if self._transport is not None:
            self._transport.abort()

    async def close(self, grace: float = 2.0) -> None:
        """Send what is queued (if possible), close, and wait a little for the peer."""
        transport = self._transport
        if transport is None:
            return
        with contextlib.suppress(SeatGoneError):
            self.flush()
        transport.close()
        try:
            await asyncio.wait_for(asyncio.shield(self.closed), grace)
        except TimeoutError:
            transport.abort()
