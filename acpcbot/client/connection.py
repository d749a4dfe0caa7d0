"""The thin asyncio layer: a TCP connection to a dealer that yields lines and sends bytes.

Framing is the pure :class:`~acpcbot.framing.LineBuffer`, kept for the whole connection,
so a read may hold several lines or part of one. Comment lines are skipped here. Transport
trouble becomes an :class:`~acpcbot.errors.AcpcError` with a message a user can act on.

::

    async with connect("127.0.0.1", 18791, connect_timeout=10, read_timeout=900) as dealer:
        await dealer.send(b"VERSION:2.0.0\\r\\n")
        async for line in dealer:
            ...
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from acpcbot.errors import ConnectError, ConnectionLostError, DealerTimeoutError
from acpcbot.framing import LineBuffer, LineTooLongError, is_comment

READ_SIZE = 1 << 16


class DealerConnection:
    """An open connection; iterate it for the lines the dealer sends (comments skipped)."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        peer: str,
        read_timeout: float | None,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self.peer = peer
        self.read_timeout = read_timeout
        self.buffer = LineBuffer()
        self.bytes_received = 0

    @property
    def mid_line(self) -> bool:
        """Part of a line has arrived without its end."""
        return bool(self.buffer.pending)

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[bytes]:
        feed = self.buffer.feed
        while True:
            data = await self._read()
            if not data:
                if self.buffer.pending:
                    raise ConnectionLostError(
                        f"{self.peer} closed the connection in the middle of a line "
                        f"({len(self.buffer.pending)} bytes without a line end)"
                    )
                return
            self.bytes_received += len(data)
            try:
                lines = feed(data)
            except LineTooLongError as exc:
                raise LineTooLongError(f"{self.peer} sent a line that is too long: {exc}") from None
            for line in lines:
                if not is_comment(line):
                    yield line

    async def _read(self) -> bytes:
        try:
            async with asyncio.timeout(self.read_timeout):
                return await self._reader.read(READ_SIZE)
        except TimeoutError:
            raise DealerTimeoutError(
                f"{self.peer} sent nothing for {self.read_timeout:g} s (read timeout)"
            ) from None
        except OSError as exc:
            raise ConnectionLostError(f"connection to {self.peer} lost: {_reason(exc)}") from None

    async def send(self, data: bytes) -> None:
        """Write ``data`` (one or more whole lines)."""
        try:
            self._writer.write(data)
            await self._writer.drain()
        except OSError as exc:
            raise ConnectionLostError(
                f"connection to {self.peer} lost while sending: {_reason(exc)}"
            ) from None

    async def aclose(self) -> None:
        self._writer.close()
        with contextlib.suppress(OSError):
            await self._writer.wait_closed()


@contextlib.asynccontextmanager
async def connect(
    host: str, port: int, *, connect_timeout: float | None, read_timeout: float | None
) -> AsyncIterator[DealerConnection]:
    """Open a connection to a dealer (``async with``); it is closed on the way out."""
    peer = f"{host}:{port}"
    try:
        async with asyncio.timeout(connect_timeout):
            reader, writer = await asyncio.open_connection(host, port)
    except TimeoutError:
        raise ConnectError(
            f"cannot connect to {peer}: timed out after {connect_timeout:g} s"
        ) from None
    except OSError as exc:
        raise ConnectError(f"cannot connect to {peer}: {_reason(exc)}") from None
    connection = DealerConnection(
        reader, writer, peer=f"the dealer at {peer}", read_timeout=read_timeout
    )
    try:
        yield connection
    finally:
        await connection.aclose()


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__
