"""One listening socket per seat, each taking exactly one connection (like the reference).

The ports are the ones asked for or, for 0, chosen by the operating system; the dealer
prints them in seat order. Unlike the reference, the sockets listen on one address
(127.0.0.1 unless told otherwise), not on every interface; a seat may listen on an address of
its own (a benchmark server's user seat on the public address, its house bots' seats on the
loopback), and admit only a connection from a given address: any other is closed at once and
the seat keeps waiting for the one it expects.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections.abc import Callable, Sequence

from dealer.referee.faults import MatchAbortedError
from dealer.referee.seat import SeatConnection


class _Refused(asyncio.Protocol):
    """A second connection to a seat's port: closed at once."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.close()


def same_address(peer: str, wanted: str) -> bool:
    """Whether ``peer`` (a connection's address) is ``wanted``, an IPv4 address also when
    it comes mapped into IPv6 (a dual-stack socket's ``::ffff:a.b.c.d``).

    >>> same_address("::ffff:10.0.0.7", "10.0.0.7"), same_address("10.0.0.8", "10.0.0.7")
    (True, False)
    """
    try:
        a, b = ipaddress.ip_address(peer), ipaddress.ip_address(wanted)
    except ValueError:
        return peer == wanted
    a = a.ipv4_mapped or a if isinstance(a, ipaddress.IPv6Address) else a
    b = b.ipv4_mapped or b if isinstance(b, ipaddress.IPv6Address) else b
    return a == b


class _Admission(asyncio.Protocol):
    """A connection to a seat that admits one peer address: from that address it becomes
    the seat's connection (made by ``take``, which is told the transport); from any other
    it is closed at once, and the seat waits on."""

    def __init__(self, wanted: str, take: Callable[[], SeatConnection]) -> None:
        self._wanted = wanted
        self._take = take
        self._seat: SeatConnection | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        if not peer or not same_address(str(peer[0]), self._wanted):
            transport.close()
            return
        self._seat = self._take()
        self._seat.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._seat is not None:
            self._seat.data_received(data)

    def eof_received(self) -> bool | None:
        return self._seat.eof_received() if self._seat is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self._seat is not None:
            self._seat.connection_lost(exc)

    def pause_writing(self) -> None:
        if self._seat is not None:
            self._seat.pause_writing()

    def resume_writing(self) -> None:
        if self._seat is not None:
            self._seat.resume_writing()


class Listeners:
    """The listening sockets of a match and the connections they accepted."""

    def __init__(
        self, servers: list[asyncio.Server], seats: list[asyncio.Future[SeatConnection]]
    ) -> None:
        self._servers = servers
        self._seats = seats

    @classmethod
    async def open(
        cls,
        host: str,
        ports: Sequence[int],
        seats: int,
        *,
        hosts: Sequence[str | None] = (),
        admit: Sequence[str | None] = (),
    ) -> Listeners:
        """Listen for ``seats`` seats; ``ports`` may be shorter (the rest are chosen).
        ``hosts[seat]``, when given and not ``None``, is where that seat listens instead of
        ``host``; ``admit[seat]``, when given and not ``None``, is the only peer address
        whose connection that seat takes."""
        loop = asyncio.get_running_loop()
        accepted: list[asyncio.Future[SeatConnection]] = [
            loop.create_future() for _ in range(seats)
        ]
        servers: list[asyncio.Server] = []

        def factory_for(seat: int) -> asyncio.Protocol:
            if accepted[seat].done():
                return _Refused()
            wanted = admit[seat] if seat < len(admit) else None
            if wanted is not None:
                return _Admission(wanted, lambda: take(seat))
            return take(seat)

        def take(seat: int) -> SeatConnection:
            connection = SeatConnection()
            accepted[seat].set_result(connection)
            loop.call_soon(servers[seat].close)  # one connection per seat
            return connection

        try:
            for seat in range(seats):
                port = ports[seat] if seat < len(ports) else 0
                where = hosts[seat] if seat < len(hosts) else None
                servers.append(
                    await loop.create_server(
                        lambda seat=seat: factory_for(seat),  # type: ignore[misc]
                        where if where is not None else host,
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
