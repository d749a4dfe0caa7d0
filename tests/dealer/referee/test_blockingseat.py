"""A seat's blocking reads over a real TCP connection on 127.0.0.1: the spin and its rest."""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Iterator

import pytest

from dealer.referee.blockingseat import SPIN_MISSES, SPIN_REST, BlockingSeat
from dealer.referee.seat import SeatGoneError


@pytest.fixture
def connection() -> Iterator[tuple[socket.socket, socket.socket]]:
    with socket.create_server(("127.0.0.1", 0)) as server:
        player = socket.create_connection(server.getsockname())
        dealer, _ = server.accept()
    with player, dealer:
        yield dealer, player


def test_a_seat_whose_replies_miss_the_spin_rests_from_spinning(
    connection: tuple[socket.socket, socket.socket],
) -> None:
    dealer, player = connection
    seat = BlockingSeat(dealer, 5.0, spin_s=200e-6)
    for _ in range(SPIN_MISSES):  # the player is silent: every spin misses
        assert seat.spin_rest == 0
        assert seat.next_line(time.monotonic() + 0.001) is None
    assert seat.spin_rest == SPIN_REST
    for left in range(SPIN_REST, 0, -1):
        assert seat.spin_rest == left
        player.sendall(b"MATCHSTATE:0:0::Ah2c|:c\r\n")
        assert seat.next_line(time.monotonic() + 5) == (b"MATCHSTATE:0:0::Ah2c|:c", True)
    assert seat.spin_rest == 0
    # One more miss after the rest starts another; a reply caught by the spin ends them.
    assert seat.next_line(time.monotonic() + 0.001) is None
    assert seat.spin_rest == SPIN_REST
    seat = BlockingSeat(dealer, 5.0, spin_s=200e-6)
    for _ in range(10 * SPIN_MISSES):
        player.sendall(b"x\r\n")  # already there when the read spins
        assert seat.next_line(time.monotonic() + 5) == (b"x", True)
        assert seat.spin_rest == 0


def test_send_writes_what_is_queued_then_its_data(
    connection: tuple[socket.socket, socket.socket],
) -> None:
    dealer, player = connection
    seat = BlockingSeat(dealer, 5.0)
    seat.queue(b"MATCHSTATE:0:0::Ah2c|\r\n")
    seat.queue(b"MATCHSTATE:0:0:r:Ah2c|\r\n")
    seat.send(b"MATCHSTATE:0:0:rr:Ah2c|\r\n")
    expected = b"MATCHSTATE:0:0::Ah2c|\r\nMATCHSTATE:0:0:r:Ah2c|\r\nMATCHSTATE:0:0:rr:Ah2c|\r\n"
    player.settimeout(5)
    received = b""
    while len(received) < len(expected):
        received += player.recv(4096)
    assert received == expected
    seat.send(b"MATCHSTATE:0:0:rrr:Ah2c|\r\n")  # nothing queued now: this alone
    assert player.recv(4096) == b"MATCHSTATE:0:0:rrr:Ah2c|\r\n"
    seat.flush()  # nothing left
    player.setblocking(False)
    with pytest.raises(BlockingIOError):
        player.recv(4096)


def test_send_to_a_seat_that_is_gone_is_a_seat_gone_error(
    connection: tuple[socket.socket, socket.socket],
) -> None:
    dealer, player = connection
    seat = BlockingSeat(dealer, 5.0)
    player.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    player.close()  # a reset: the next writes fail
    time.sleep(0.05)
    with pytest.raises(SeatGoneError, match="it disconnected"):
        for _ in range(3):
            seat.send(b"MATCHSTATE:0:0::Ah2c|\r\n")
