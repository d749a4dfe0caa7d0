"""The thin asyncio layer: a TCP connection to a dealer that yields lines and sends bytes.

Framing is the pure :class:`~acpcbot.protocol.framing.LineBuffer`, kept for the whole connection,
so a read may hold several lines or part of one. Comment lines are dropped here. Transport
trouble becomes an :class:`~acpcbot.errors.AcpcError` with a message a user can act on.

::

    async with connect("127.0.0.1", 18791, connect_timeout=10, read_timeout=900) as dealer:
        await dealer.send(b"VERSION:2.0.0\\r\\n")
        async for lines in dealer.batches():
            for line in lines:
                dealer.write(...)
            await dealer.drain()

A match is tens of thousands of tiny messages, so this layer is a bare
:class:`asyncio.Protocol` (framing as bytes arrive, no stream buffer copies), the read
timeout is one deadline per connection that moves with every wait, rather than an
``asyncio.timeout`` per read (whose timer costs about as much as decoding a state), and
the lines come in batches (all that one read completed) so that the event loop runs once
per read rather than once per line.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import cast

from acpcbot.errors import (
    ConnectError,
    ConnectionLostError,
    DealerTimeoutError,
)
from acpcbot.protocol.framing import LineBuffer, LineTooLongError, is_comment

MAX_QUEUED_LINES = 4096
"""Reading pauses when this many lines wait to be handled (a dealer must wait for answers,
so only a misbehaving one gets here)."""


class _LineProtocol(asyncio.Protocol):
    """Frames incoming bytes into a queue of lines; remembers how the connection ended."""

    def __init__(self, peer: str, read_timeout: float | None) -> None:
        self.peer = peer
        self.read_timeout = read_timeout
        self.buffer = LineBuffer()
        self.lines: list[bytes] = []
        """Lines received and not yet taken (:meth:`DealerConnection.batches` takes all)."""
        self.transport: asyncio.Transport | None = None
        self.ended = False
        self.error: Exception | None = None
        self._loop = asyncio.get_running_loop()
        self._waiter: asyncio.Future[None] | None = None
        self._wait_started = 0.0
        self._deadline: asyncio.TimerHandle | None = None
        self._write_paused: asyncio.Future[None] | None = None
        self.read_paused = False
        self.handler: Callable[[list[bytes]], None] | None = None
        """Called with each read's lines instead of queueing them (see
        :meth:`DealerConnection.serve`)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        if self.read_timeout is not None:
            self._deadline = self._loop.call_later(self.read_timeout, self._check_deadline)

    def data_received(self, data: bytes) -> None:
        try:
            lines = self.buffer.feed(data)
        except LineTooLongError as exc:
            self._end(LineTooLongError(f"{self.peer} sent a line that is too long: {exc}"))
            assert self.transport is not None
            self.transport.abort()
            return
        if self.handler is not None:
            self._handle([line for line in lines if not is_comment(line)])
            return
        append = self.lines.append
        for line in lines:
            if not is_comment(line):
                append(line)
        if len(self.lines) > MAX_QUEUED_LINES and self.transport is not None:
            self.transport.pause_reading()
            self.read_paused = True
        self._wake()

    def eof_received(self) -> bool:
        if self.buffer.pending:
            self._end(
                ConnectionLostError(
                    f"{self.peer} closed the connection in the middle of a line "
                    f"({len(self.buffer.pending)} bytes without a line end)"
                )
            )
        self._end(None)
        return False  # close our side too

    def connection_lost(self, exc: Exception | None) -> None:
        if exc is not None:
            self._end(ConnectionLostError(f"connection to {self.peer} lost: {_reason(exc)}"))
        self._end(None)
        if self._deadline is not None:
            self._deadline.cancel()
        if self._write_paused is not None and not self._write_paused.done():
            self._write_paused.set_result(None)

    def _handle(self, lines: list[bytes]) -> None:
        assert self.handler is not None
        if lines:
            try:
                self.handler(lines)
            except Exception as exc:  # the match is over: the waiting side raises it
                self._end(exc)
                assert self.transport is not None
                self.transport.close()
                return
        # Handled within this callback, so the client is waiting for the dealer again.
        self._wait_started = self._loop.time()

    def pause_writing(self) -> None:
        self._write_paused = self._loop.create_future()
        if self.handler is not None and self.transport is not None:
            # A handler cannot wait: stop reading (so stop answering) until the dealer reads.
            self.transport.pause_reading()

    def resume_writing(self) -> None:
        if self._write_paused is not None and not self._write_paused.done():
            self._write_paused.set_result(None)
        self._write_paused = None
        if self.handler is not None and self.transport is not None:
            self.transport.resume_reading()

    async def wait_for_data(self) -> None:
        """Wait until a line, the end or an error arrives (or the read deadline passes)."""
        if self.read_paused and self.transport is not None:
            self.read_paused = False
            self.transport.resume_reading()
        self._waiter = self._loop.create_future()
        self._wait_started = self._loop.time()
        try:
            await self._waiter
        finally:
            self._waiter = None

    async def writable(self) -> None:
        if self._write_paused is not None:
            await self._write_paused

    def _end(self, error: Exception | None) -> None:
        if error is not None and self.error is None:
            self.error = error
        self.ended = True
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _check_deadline(self) -> None:
        """The read timeout: only time spent waiting for the dealer counts."""
        assert self.read_timeout is not None
        now = self._loop.time()
        if self._waiter is None:
            self._deadline = self._loop.call_at(now + self.read_timeout, self._check_deadline)
        elif now - self._wait_started >= self.read_timeout:
            self._end(
                DealerTimeoutError(
                    f"{self.peer} sent nothing for {self.read_timeout:g} s (read timeout)"
                )
            )
        else:
            self._deadline = self._loop.call_at(
                self._wait_started + self.read_timeout, self._check_deadline
            )


class DealerConnection:
    """An open connection; iterate it for the lines the dealer sends (comments skipped).

    The iteration ends when the dealer closes the connection after a complete line;
    errors (a line too long, a connection lost or cut inside a line, the read timeout)
    are raised after the lines that arrived before them.
    """

    def __init__(self, transport: asyncio.Transport, protocol: _LineProtocol) -> None:
        self._transport = transport
        self._protocol = protocol
        self.peer = protocol.peer

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[bytes]:
        async for lines in self.batches():
            for line in lines:
                yield line

    async def batches(self) -> AsyncIterator[list[bytes]]:
        """The lines as they arrive: every line received since the last batch, in order."""
        protocol = self._protocol
        while True:
            if protocol.lines:
                lines = protocol.lines
                protocol.lines = []
                yield lines
                continue
            if protocol.error is not None:
                raise protocol.error
            if protocol.ended:
                return
            await protocol.wait_for_data()

    async def serve(self, handler: Callable[[list[bytes]], None]) -> None:
        """Call ``handler`` with the lines of every read, right in the event loop's read
        callback (no task switch per read), until the dealer ends the connection; raise
        what ended it, as iterating would. ``handler`` must not block: it may :meth:`write`
        but not wait, and whatever it raises ends the connection and is raised here."""
        protocol = self._protocol
        if protocol.lines:  # what arrived before
            lines = protocol.lines
            protocol.lines = []
            handler(lines)
        protocol.handler = handler
        try:
            while not protocol.ended:
                await protocol.wait_for_data()
        finally:
            protocol.handler = None
        if protocol.error is not None:
            raise protocol.error

    async def send(self, data: bytes) -> None:
        """Write ``data`` (one or more whole lines) and wait until it may write more."""
        self.write(data)
        await self.drain()

    def write(self, data: bytes) -> None:
        """Write ``data`` (one or more whole lines) without waiting; :meth:`drain` after."""
        if self._transport.is_closing():
            raise self._protocol.error or ConnectionLostError(
                f"{self.peer} closed the connection before the client could answer"
            )
        self._transport.write(data)

    async def drain(self) -> None:
        """Wait while the transport's write buffer is too full (the dealer is not reading)."""
        await self._protocol.writable()

    def close(self) -> None:
        self._transport.close()


@contextlib.asynccontextmanager
async def connect(
    host: str, port: int, *, connect_timeout: float | None, read_timeout: float | None
) -> AsyncIterator[DealerConnection]:
    """Open a connection to a dealer (``async with``); it is closed on the way out."""
    peer = f"{host}:{port}"
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(connect_timeout):
            transport, protocol = await loop.create_connection(
                lambda: _LineProtocol(f"the dealer at {peer}", read_timeout), host, port
            )
    except TimeoutError:
        raise ConnectError(
            f"cannot connect to {peer}: timed out after {connect_timeout:g} s"
        ) from None
    except OSError as exc:
        raise ConnectError(f"cannot connect to {peer}: {_reason(exc)}") from None
    connection = DealerConnection(transport, protocol)
    try:
        yield connection
    finally:
        connection.close()


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__
