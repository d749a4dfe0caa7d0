"""One listening socket per seat, each taking exactly one connection (like the reference).

The ports are the ones asked for or, for 0, chosen by the operating system; the dealer
prints them in seat order. Unlike the reference, the sockets listen on one address
(127.0.0.1 unless told otherwise), not on every interface.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

from dealer.referee.faults import MatchAbortedError
from dealer.referee.seat import SeatConnection


class _Refused(asyncio.Protocol):
    """A second connection to a seat's port: closed at once."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.close()


class Listeners:
    """The listening sockets of a match and the connections they accepted."""

    def __init__(
        self, servers: list[asyncio.Server], seats: list[asyncio.Future[SeatConnection]]
    ) -> None:
        self._servers = servers
        self._seats = seats

    @classmethod
    async def open(cls, host: str, ports: Sequence[int], seats: int) -> Listeners:
        """Listen for ``seats`` seats; ``ports`` may be shorter (the rest are chosen)."""
        loop = asyncio.get_running_loop()
        accepted: list[asyncio.Future[SeatConnection]] = [
            loop.create_future() for _ in range(seats)
        ]
        servers: list[asyncio.Server] = []

        def factory_for(seat: int) -> asyncio.Protocol:
            if accepted[seat].done():
                return _Refused()
            connection = SeatConnection()
            accepted[seat].set_result(connection)
            loop.call_soon(servers[seat].close)  # one connection per seat
            return connection

        try:
            for seat in range(seats):
                port = ports[seat] if seat < len(ports) else 0
                servers.append(
                    await loop.create_server(
                        lambda seat=seat: factory_for(seat),  # type: ignore[misc]
                        host,
                        port,
                        backlog=8,
                        reuse_address=True,
                    )
                )
        except (OSError, UnicodeError) as exc:  # UnicodeError: a host name IDNA refuses
            for server in servers:
                server.close()
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise MatchAbortedError(
                f"ERROR: could not create listen socket for player {len(servers) + 1}: {why}"
            ) from None
        return cls(servers, accepted)

    @property
    def ports(self) -> list[int]:
        return [int(server.sockets[0].getsockname()[1]) for server in self._servers]

    async def accept(self, start_timeout_ms: int) -> list[SeatConnection]:
        """Wait for every seat to connect, in seat order; a negative timeout waits forever."""
        deadline = None if start_timeout_ms < 0 else time.monotonic() + start_timeout_ms / 1000
        connections = []
        for seat, accepted in enumerate(self._seats):
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                async with asyncio.timeout(left):
                    connection = await asyncio.shield(accepted)
                    await asyncio.shield(connection.connected)
            except TimeoutError:
                raise MatchAbortedError(
                    f"ERROR: timed out waiting for seat {seat + 1} to connect", seat=seat
                ) from None
            connections.append(connection)
        return connections

    def close(self) -> None:
        """Stop listening and drop every connection (after an error)."""
        for server in self._servers:
            server.close()
        for accepted in self._seats:
            if accepted.done():
                accepted.result().abort()
