"""One run of the benchmark server, played here (its dealer on a thread, as in its process),
with real sockets on the loopback: a house agent in the run, the user's bot connecting from
the test; the log on disk, hand by hand."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from acpcbot.client import play_match
from acpcbot.errors import AcpcError
from acpcbot.game import LIMIT_HOLDEM, bundled_game
from agents.registry import create_agent, entrant
from dealer.analysis.playedlog import read_log
from dealer.benchmark.runs import RunOrder, RunOutcome, RunSeat, RunStatus, SeatKind, play_run
from dealer.referee.config import TimeLimits

GAME = bundled_game()


def order(tmp_path: Path, hands: int = 30, **more: object) -> RunOrder:
    seats = (
        RunSeat("ann", SeatKind.USER),
        RunSeat("example", SeatKind.AGENT, entrant=entrant("example"), agent_seed=5),
    )
    settings: dict[str, object] = {
        "limits": TimeLimits(5_000, 60_000, 5_000),
        "start_timeout_ms": 10_000,
        "admit": "127.0.0.1",
    }
    settings.update(more)
    return RunOrder(
        1, "ann.t1.r1", GAME, LIMIT_HOLDEM, hands, 7, seats, tmp_path / "ann.t1.r1.log",
        **settings,  # type: ignore[arg-type]
    )  # fmt: skip


class Run:
    """``play_run`` on a thread, its ports handed to the test's event loop."""

    def __init__(self, order: RunOrder, stopping: Callable[[], bool] = lambda: False) -> None:
        self.order = order
        self.ports: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
        self.outcome: asyncio.Future[RunOutcome] = asyncio.get_running_loop().create_future()
        loop = asyncio.get_running_loop()

        def play() -> None:
            def listening(ports: list[int]) -> None:
                loop.call_soon_threadsafe(self.ports.set_result, ports)

            outcome = play_run(order, listening, stopping=stopping)
            loop.call_soon_threadsafe(self.outcome.set_result, outcome)

        threading.Thread(target=play, daemon=True).start()

    async def user_port(self) -> int:
        return (await asyncio.wait_for(self.ports, 10))[0]

    async def ended(self) -> RunOutcome:
        return await asyncio.wait_for(self.outcome, 60)


def logged_hands(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.startswith("STATE:")]


async def test_a_run_plays_every_hand_and_logs_it(tmp_path: Path) -> None:
    run = Run(order(tmp_path))
    port = await run.user_port()
    summary = await play_match("127.0.0.1", port, create_agent("always-call", seed=0), game=GAME)
    outcome = await run.ended()
    assert (outcome.status, outcome.hands, outcome.error) == (RunStatus.FINISHED, 30, None)
    log = read_log(run.order.log)
    assert log.seat_names == ("ann", "example") and log.hands == 30
    assert log.score_agrees()
    ann, house = outcome.sums
    assert ann.count == house.count == 30
    assert float(ann.total) == summary.chips == -float(house.total)
    assert run.order.log.read_text().splitlines()[0] == (
        f"# name/game/hands/seed ann.t1.r1 {LIMIT_HOLDEM} 30 7"
    )


async def test_a_log_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "ann.t1.r1.log"
    path.write_text("an earlier run's\n")
    outcome = play_run(order(tmp_path), lambda ports: None)
    assert outcome.status is RunStatus.FAILED
    assert outcome.error is not None and "File exists" in outcome.error
    assert path.read_text() == "an earlier run's\n"


async def test_a_user_bot_that_disconnects_ends_the_run_with_its_whole_hands(
    tmp_path: Path,
) -> None:
    run = Run(order(tmp_path, hands=5000))
    port = await run.user_port()
    played = asyncio.Event()

    def hand_over(chips: float, decisions: int, fallbacks: int) -> None:
        played.set()

    bot = asyncio.create_task(
        play_match(
            "127.0.0.1", port, create_agent("always-call", seed=0), game=GAME, on_hand=hand_over
        )
    )
    await asyncio.wait_for(played.wait(), 20)
    await asyncio.sleep(0.05)
    bot.cancel()  # the bot dies: its connection closes, in the middle of whatever it was
    outcome = await run.ended()
    assert outcome.status is RunStatus.FAILED and 0 < outcome.hands < 5000
    assert outcome.error is not None and "seat 1 (ann, port" in outcome.error
    assert len(logged_hands(run.order.log)) == outcome.hands  # every whole hand, no other
    assert read_log(run.order.log).hands == outcome.hands


async def test_a_user_bot_that_never_acts_times_out(tmp_path: Path) -> None:
    run = Run(order(tmp_path, limits=TimeLimits(300, 60_000, 5_000)))
    port = await run.user_port()
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"VERSION:2.0.0\r\n")  # then silence
    outcome = await run.ended()
    writer.close()
    assert outcome.status is RunStatus.FAILED and outcome.hands == 0
    assert outcome.error is not None and "seat 1 (ann, port" in outcome.error


async def test_a_user_bot_that_never_comes_ends_the_run_at_the_startup_timeout(
    tmp_path: Path,
) -> None:
    run = Run(order(tmp_path, start_timeout_ms=300))
    port = await run.user_port()
    outcome = await run.ended()
    assert outcome.status is RunStatus.FAILED and outcome.hands == 0
    assert outcome.error == f"timed out waiting for seat 1 (ann, port {port}) to connect"
    assert logged_hands(run.order.log) == []


async def test_only_the_expected_address_takes_the_user_seat(tmp_path: Path) -> None:
    run = Run(order(tmp_path, hands=5))
    port = await run.user_port()

    def stranger() -> bytes:
        with socket.socket() as sock:
            sock.bind(("127.0.0.2", 0))
            sock.connect(("127.0.0.1", port))
            sock.settimeout(5)
            return sock.recv(1)

    assert await asyncio.to_thread(stranger) == b""  # closed at once
    await play_match("127.0.0.1", port, create_agent("always-call", seed=0), game=GAME)
    assert (await run.ended()).status is RunStatus.FINISHED


async def test_a_run_asked_to_stop_stops_after_its_hand(tmp_path: Path) -> None:
    stop_after = 5
    hands = [0]

    def stopping() -> bool:
        hands[0] = len(logged_hands(tmp_path / "ann.t1.r1.log"))
        return hands[0] >= stop_after

    run = Run(order(tmp_path, hands=100), stopping)
    port = await run.user_port()
    with pytest.raises(AcpcError):  # the dealer ends the match between hands
        await play_match("127.0.0.1", port, create_agent("always-call", seed=0), game=GAME)
    outcome = await run.ended()
    assert (outcome.status, outcome.hands) == (RunStatus.INTERRUPTED, stop_after)
    assert len(logged_hands(run.order.log)) == stop_after
