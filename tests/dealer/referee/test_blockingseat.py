"""A seat's blocking reads over a real TCP connection on 127.0.0.1: the spin and its rest."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from dealer.referee.blockingseat import SPIN_MISSES, SPIN_REST, BlockingSeat


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
