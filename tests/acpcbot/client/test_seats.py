"""One agent at several seats at once: each seat's outcome, a failing seat not stopping the
others (the replay of a recorded reference-dealer match on one port, nothing on the other)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from acpcbot.client.seats import play_seats
from acpcbot.errors import ConnectError, UsageError
from acpcbot.game import bundled_game
from agents.registry import create_agent
from tests.acpcbot.client.replay_dealer import (
    HASH_RAISER,
    ReplayDealer,
    SeatScript,
    serving_in_thread,
)


def _closed_port() -> int:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port: int = unused.getsockname()[1]
    return port


def test_every_seat_ends_with_its_summary_or_its_error(vectors: Path) -> None:
    script = SeatScript.load(vectors / "transcripts" / HASH_RAISER, 1)
    dealer = ReplayDealer(script)
    with serving_in_thread(dealer.handle) as port:
        closed = _closed_port()
        played, refused = play_seats(
            "127.0.0.1",
            [port, closed],
            [create_agent("hash"), create_agent("hash")],
            game=bundled_game(),
            read_timeout=10,
            uvloop=False,
        )
    assert bytes(dealer.received) == script.from_player
    assert played.summary is not None and played.summary.chips == 1155.0
    assert played.error is None and played.told is None
    assert played.json()["dealer"] == f"127.0.0.1:{port}" and played.json()["hands"] == 50
    assert refused.summary is None and isinstance(refused.error, ConnectError)
    assert refused.failure.startswith(f"cannot connect to 127.0.0.1:{closed}")


def test_a_port_given_twice_is_refused_before_anything_is_played() -> None:
    """Two matches cannot share a seat: refused before any connection is tried (the port is
    closed: a connection tried would fail otherwise)."""
    closed = _closed_port()
    with pytest.raises(UsageError, match=f"^a port is given twice: {closed} 7 {closed}$"):
        play_seats(
            "127.0.0.1", [closed, 7, closed], [create_agent("hash")] * 3, game=bundled_game()
        )
