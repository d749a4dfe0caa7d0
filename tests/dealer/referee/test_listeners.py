"""Seats listening on addresses of their own, and admitting only the peer they expect (real
loopback sockets: Linux routes all of 127.0.0.0/8 to the loopback, so 127.0.0.2 is another
address of this machine)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from dealer.referee.faults import MatchAbortedError
from dealer.referee.listeners import Listeners


async def _connect_from(source: str, host: str, port: int) -> socket.socket:
    """A blocking socket connected to ``host:port`` from the address ``source``."""

    def connect() -> socket.socket:
        sock = socket.socket()
        sock.bind((source, 0))
        sock.connect((host, port))
        return sock

    return await asyncio.to_thread(connect)


async def _closed_by_peer(sock: socket.socket) -> bool:
    sock.settimeout(5)
    return await asyncio.to_thread(sock.recv, 1) == b""


async def test_a_seat_listens_where_it_is_told() -> None:
    listeners = await Listeners.open("127.0.0.1", [], 2, hosts=[None, "127.0.0.2"])
    try:
        hosts = [server.sockets[0].getsockname()[0] for server in listeners._servers]
        assert hosts == ["127.0.0.1", "127.0.0.2"]
    finally:
        listeners.close()


async def test_a_seat_admits_only_its_peer_and_waits_on_for_it() -> None:
    listeners = await Listeners.open("127.0.0.1", [], 2, admit=["127.0.0.3", None])
    first, second = listeners.ports
    stranger = await _connect_from("127.0.0.2", "127.0.0.1", first)
    assert await _closed_by_peer(stranger)  # closed at once, the seat still free
    expected = await _connect_from("127.0.0.3", "127.0.0.1", first)
    anyone = await _connect_from("127.0.0.2", "127.0.0.1", second)
    try:
        seats = await listeners.accept(5_000)
        assert [seat.gone for seat in seats] == [False, False]
        expected.sendall(b"VERSION:2.0.0\r\n")
        line = await seats[0].next_line(5)
        assert line == (b"VERSION:2.0.0", True)
        for seat in seats:
            await seat.close(grace=0.5)
    finally:
        for sock in (stranger, expected, anyone):
            sock.close()
        listeners.close()


async def test_a_seat_whose_peer_never_comes_times_out() -> None:
    listeners = await Listeners.open("127.0.0.1", [], 1, admit=["127.0.0.3"])
    stranger = await _connect_from("127.0.0.2", "127.0.0.1", listeners.ports[0])
    try:
        with pytest.raises(MatchAbortedError, match="timed out waiting for seat 1"):
            await listeners.accept(300)
    finally:
        stranger.close()
        listeners.close()
