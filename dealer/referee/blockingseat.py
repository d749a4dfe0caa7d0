"""One seat's connection in blocking mode, for the referee's hand loop (one thread).

After the handshake the dealer plays every hand on plain blocking sockets: per action one
``send`` to the acting seat and one ``recv`` from it, with no event loop in between
(measurably faster than callbacks: see ``scripts/bench_dealer.py``). The socket is a
duplicate of the asyncio connection's, which stops reading; lines that connection had
already received are read first.

The reply time limit is the socket's receive timeout (``SO_RCVTIMEO``), set once, so the
usual wait is a single system call; a wait that resumes part-way (a partial line, a
comment) polls for the time left. Before blocking, a read may first *spin* for a few
hundred microseconds (``spin_s``): a reply that comes back that quickly is then taken
without the thread going to sleep, which spares the wake-up that dominates a round trip on
loopback (what it gains: docs/dealer/speed.md). A seat whose replies keep missing the spin
(a player that thinks, or a machine so busy that the player is not even scheduled in time)
is not spun for for a while: :data:`SPIN_MISSES` misses in a row, and the next
:data:`SPIN_REST` reads block at once, then one spins again to see whether it pays now.

A peer that goes away is not an exception here: reads then come back empty and
:meth:`BlockingSeat.flush` raises :class:`~dealer.referee.seat.SeatGoneError` (as it does when
the seat stops reading its states for as long as the reply time limit).
"""

from __future__ import annotations

import contextlib
import select
import socket
import struct
import time
from collections import deque

from acpcbot.protocol.framing import LineBuffer
from dealer.referee.seat import CUT_PIECE_BYTES, Line, SeatGoneError

READ_BYTES = 65536
SPIN_MISSES = 4
"""Spins in a row that found no reply, after which a seat rests from spinning."""
SPIN_REST = 64
"""Reads that block at once, without spinning, in a seat's rest."""


class BlockingSeat:
    """The dealer's end of one seat's connection, read and written synchronously."""

    __slots__ = (
        "_buffer",
        "_full_wait_s",
        "_lines",
        "_outgoing",
        "_socket",
        "_spin_misses",
        "_spin_rest",
        "_spin_s",
        "at_eof",
    )

    def __init__(
        self,
        sock: socket.socket | None,
        response_s: float,
        *,
        lines: deque[Line] | None = None,
        buffer: LineBuffer | None = None,
        at_eof: bool = False,
        spin_s: float = 0.0,
    ) -> None:
        self._socket = sock
        self._spin_s = spin_s
        self._spin_misses = 0
        self._spin_rest = 0
        self._lines: deque[Line] = lines if lines is not None else deque()
        self._buffer = buffer if buffer is not None else LineBuffer(split_long=True)
        self._outgoing: list[bytes] = []
        self.at_eof = at_eof or sock is None
        """The peer sent no more data (it closed or shut down its side)."""
        self._full_wait_s = 0.0
        """The receive timeout set on the socket (0: none, every wait polls)."""
        if sock is not None:
            sock.setblocking(True)
        if sock is not None and response_s > 0:
            seconds = int(response_s)
            timeout = struct.pack("ll", seconds, round((response_s - seconds) * 1e6))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, timeout)
            # A seat that stops reading cannot block the dealer for longer either.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, timeout)
            self._full_wait_s = response_s

    def queue(self, data: bytes) -> None:
        """Send ``data`` at the next :meth:`flush`."""
        self._outgoing.append(data)

    def flush(self) -> None:
        """Write everything queued; :class:`SeatGoneError` if the seat is gone."""
        outgoing = self._outgoing
        if outgoing:
            data = b"".join(outgoing) if len(outgoing) > 1 else outgoing[0]
            outgoing.clear()
            self.send(data)

    def send(self, data: bytes) -> None:
        """Write what is queued and then ``data``, in one system call;
        :class:`SeatGoneError` if the seat is gone."""
        outgoing = self._outgoing
        if outgoing:
            outgoing.append(data)
            data = b"".join(outgoing)
            outgoing.clear()
        if self._socket is None:
            raise SeatGoneError("it disconnected")
        try:
            self._socket.sendall(data)
        except BlockingIOError:  # the send timeout
            raise SeatGoneError("it stopped reading") from None
        except OSError:
            raise SeatGoneError("it disconnected") from None

    def next_line(self, deadline: float) -> Line | None:
        """The next line, or ``None`` at the end of input or at ``deadline``
        (:func:`time.monotonic`)."""
        lines = self._lines
        while not lines:
            if self.at_eof or self._socket is None:
                return None
            data = self._spin() if self._spin_s and self._may_spin() else None
            if data is None:
                data = self._wait_and_receive(deadline)
                if data is None:
                    return None
            if data:
                end = data.find(b"\n")
                if end == len(data) - 1 and end < CUT_PIECE_BYTES and not self._buffer.pending:
                    # The usual read: exactly one line (what LineBuffer.feed would give).
                    return data[:-2] if data.endswith(b"\r\n") else data[:-1], True
                pieces = self._buffer.feed(data)
                for piece in pieces:
                    lines.append((piece, len(piece) != CUT_PIECE_BYTES))
            else:
                self._end_input()
        return lines.popleft()

    @property
    def spin_rest(self) -> int:
        """Reads left that block without spinning first (0: the next one spins)."""
        return self._spin_rest

    def _may_spin(self) -> bool:
        """Whether this read spins (if not, one read of the rest is over)."""
        if self._spin_rest:
            self._spin_rest -= 1
            return False
        return True

    def _spin(self) -> bytes | None:
        """Data received within ``spin_s`` without sleeping (``b""``: the end of input),
        else ``None``, counting the miss towards a rest."""
        sock = self._socket
        assert sock is not None
        give_up = time.perf_counter() + self._spin_s
        while True:
            try:
                data = sock.recv(READ_BYTES, socket.MSG_DONTWAIT)
            except BlockingIOError:
                if time.perf_counter() > give_up:
                    self._spin_misses += 1
                    if self._spin_misses >= SPIN_MISSES:
                        self._spin_rest = SPIN_REST
                        self._spin_misses = SPIN_MISSES - 1  # after the rest, one try
                    return None
            except OSError:  # reset by the peer: the end of its input
                return b""
            else:
                self._spin_misses = 0
                return data

    def _wait_and_receive(self, deadline: float) -> bytes | None:
        """Data from a blocking read (``b""``: the end of input), or ``None`` at
        ``deadline``."""
        sock = self._socket
        assert sock is not None
        left = deadline - time.monotonic()
        # A full wait relies on the socket's own timeout; anything shorter polls.
        if left < self._full_wait_s - 0.01 or not self._full_wait_s:
            poller = select.poll()
            poller.register(sock, select.POLLIN)
            if not poller.poll(max(0, int(left * 1000 + 0.999))):
                return None
        try:
            return sock.recv(READ_BYTES)
        except BlockingIOError:  # the receive timeout
            return None
        except OSError:  # reset by the peer: the end of its input
            return b""

    def shut_down(self) -> None:
        """End the connection both ways, from any thread: a read or write blocked on it
        returns at once (the end of the input, a failed send)."""
        if self._socket is not None:
            with contextlib.suppress(OSError):  # closed already
                self._socket.shutdown(socket.SHUT_RDWR)

    def _end_input(self) -> None:
        self.at_eof = True
        partial = self._buffer.pending
        if partial:  # the reference returns what it has at the end of input
            self._lines.append((partial, False))
            self._buffer = LineBuffer(split_long=True)

    def close(self) -> None:
        """Send what is queued (if possible) and let go of this socket (the connection
        itself is closed by its asyncio side)."""
        with contextlib.suppress(SeatGoneError):
            self.flush()
        if self._socket is not None:
            self._socket.close()
