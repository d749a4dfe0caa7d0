"""One run of a request: our TCP dealer on fresh ports, the house bots, and the user's bot
connecting from elsewhere; the log written hand by hand. Plays in a process of its own
(:mod:`dealer.benchmark.pool`), never in the server's.

Each seat listens on a port the system chooses. A *user* seat (``LOCAL``) listens on the
address clients reach the server by, and admits only a connection from the address it
expects (the one of the connection that is told ``RUN HOST PORT``); any other connection is
closed at once and the seat waits on, until the startup timeout. A *house agent* seat
listens on the loopback and is played here, in this process, by the acpcbot client, with
the seed :func:`dealer.benchmark.seeds.agent_seed` gives it; a *startup script* seat listens
on the loopback too, and its script is run as the reference runs it, with ``HOST PORT
POSITION`` (its output thrown away). Nobody elsewhere can take a house seat.

The log (``USER.TAG.rN.log``, never an existing file overwritten) gets every hand as it
ends, so a run cut short keeps every finished hand. A run ends :attr:`RunStatus.FINISHED`,
:attr:`RunStatus.FAILED` (a player that crashed, disconnected, timed out or never came: the
error names the seat and the player) or :attr:`RunStatus.INTERRUPTED` (stopped after a hand,
when the server stops).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import os
import re
import signal
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acpcbot import eventloop
from acpcbot.client import play_match
from acpcbot.errors import AcpcError
from acpcbot.game import Game
from acpcbot.player import Entrant
from acpcbot.writing import OutputFile
from dealer.analysis.stats import SampleSums
from dealer.referee.config import MatchConfig, TimeLimits
from dealer.referee.faults import MatchAbortedError
from dealer.referee.listeners import Listeners
from dealer.referee.matchlog import MatchLog
from dealer.referee.referee import Referee
from dealer.referee.server import referee_over_tcp
from dealer.referee.transcript import Transcript
from dealer.running.halves import StopHalf, first_failure

__all__ = ["RunOrder", "RunOutcome", "RunSeat", "RunStatus", "SeatKind", "play_run"]

HOUSE_HOST = "127.0.0.1"
"""Where house seats listen (and their bots connect)."""

_STOP_POLL_S = 0.2
"""How often a run waiting for its players asks whether to stop."""
_SCRIPT_GRACE_S = 2.0
"""How long a startup script's process gets to end after its match before it is killed."""


class SeatKind(enum.Enum):
    USER = "user"
    """The requesting user's bot, connecting from elsewhere."""
    AGENT = "agent"
    """A house agent, played in the run's process."""
    SCRIPT = "script"
    """A house bot started by its startup script."""


class RunStatus(enum.Enum):
    FINISHED = "finished"
    FAILED = "failed"
    INTERRUPTED = "interrupted"


@dataclass(frozen=True)
class RunSeat:
    """Who plays a seat."""

    name: str
    """The player's name in the log (the user's name, or the house bot's)."""
    kind: SeatKind
    entrant: Entrant | None = None
    """A house agent's."""
    script: Path | None = None
    """A startup script."""
    agent_seed: int = 0
    """A house agent's seed."""
    position: int = 0
    """A startup script's ``POSITION`` argument: its index among the run's house bots (as
    the reference counts them)."""


@dataclass(frozen=True)
class RunOrder:
    """Everything a run needs (plain data: it crosses to the run's process)."""

    run_id: int
    match_name: str
    game: Game
    game_file: str
    hands: int
    seed: int
    seats: tuple[RunSeat, ...]
    log: Path
    limits: TimeLimits = field(default_factory=TimeLimits)
    start_timeout_ms: int = 60_000
    """How long the players get to connect (negative: for ever)."""
    user_host: str = "127.0.0.1"
    """Where user seats listen."""
    admit: str | None = None
    """The only address user seats take a connection from (``None``: any)."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)


@dataclass(frozen=True)
class RunOutcome:
    """How a run ended (plain data)."""

    run_id: int
    status: RunStatus
    hands: int
    sums: tuple[SampleSums, ...]
    """Each seat's winnings per hand, as sums, in seat order."""
    seconds: float
    error: str | None = None


ListeningReport = Callable[[list[int]], None]
"""Told the seats' ports (in seat order) as soon as they listen."""


def play_run(
    order: RunOrder,
    on_listening: ListeningReport,
    *,
    stopping: Callable[[], bool] = lambda: False,
    on_hand: Callable[[int], None] | None = None,
) -> RunOutcome:
    """Play ``order``'s run here (blocking) and say how it ended. ``stopping`` is asked
    after every hand and now and then while the players are awaited: when it says yes, the
    run stops there (:attr:`RunStatus.INTERRUPTED`). ``on_hand`` hears the hands played."""
    config = MatchConfig(
        order.match_name,
        order.game,
        order.game_file,
        order.hands,
        order.seed,
        order.names,
        limits=order.limits,
    )
    values = [array("d") for _ in order.seats]

    def record(referee: Referee, by_position: tuple[float, ...]) -> None:
        for seat, seat_values in enumerate(values):
            seat_values.append(by_position[referee.position_of(seat)])
        if on_hand is not None:
            on_hand(len(values[0]))
        if stopping():
            raise StopHalf

    started = time.perf_counter()
    status, error = RunStatus.FINISHED, None
    try:
        with OutputFile(order.log, "xb") as file:
            log = MatchLog(file)  # flushed every hand: a crash keeps each finished hand
            log.header(config.header)
            referee = Referee(config, log=log, on_hand=record)
            try:
                eventloop.run(_play(order, referee, on_listening, stopping))
            except StopHalf:
                status = RunStatus.INTERRUPTED
            finally:
                log.flush()
    except AcpcError as exc:
        status, error = RunStatus.FAILED, str(exc)
    return RunOutcome(
        order.run_id,
        status,
        len(values[0]),
        tuple(SampleSums.of(v) for v in values),
        time.perf_counter() - started,
        error,
    )


async def _play(
    order: RunOrder,
    referee: Referee,
    on_listening: ListeningReport,
    stopping: Callable[[], bool],
) -> None:
    seats = order.seats
    user = [seat.kind is SeatKind.USER for seat in seats]
    listeners = await Listeners.open(
        HOUSE_HOST,
        [],
        len(seats),
        hosts=[order.user_host if u else None for u in user],
        admit=[order.admit if u else None for u in user],
    )
    ports = listeners.ports
    on_listening(ports)
    bots: list[asyncio.Task[Any]] = []
    scripts: list[asyncio.subprocess.Process] = []
    try:
        for seat, port in zip(seats, ports, strict=True):
            if seat.kind is SeatKind.AGENT:
                bots.append(asyncio.create_task(_house_agent(seat, port, order.game)))
            elif seat.kind is SeatKind.SCRIPT:
                scripts.append(await _start_script(seat, port))
        await _await_players(listeners, order.start_timeout_ms, stopping)
        refereeing = asyncio.create_task(
            referee_over_tcp(
                referee,
                listeners,
                Transcript(None),
                start_timeout_ms=order.start_timeout_ms,
                hold_idle=True,
            )
        )
        failed = await _first_failure(refereeing, bots)
        if failed is not None:
            refereeing.cancel()
            with contextlib.suppress(BaseException):
                await refereeing
            raise failed
        await refereeing
    except MatchAbortedError as exc:
        raise _named(exc, order, ports) from None
    finally:
        listeners.close()
        for bot in bots:
            bot.cancel()
        await asyncio.gather(*bots, return_exceptions=True)
        await asyncio.gather(*(_end_script(p) for p in scripts))


async def _await_players(
    listeners: Listeners, start_timeout_ms: int, stopping: Callable[[], bool]
) -> None:
    """Wait for every seat's player, asking ``stopping`` now and then."""
    accepting = asyncio.ensure_future(listeners.accept(start_timeout_ms))
    try:
        while not (await asyncio.wait({accepting}, timeout=_STOP_POLL_S))[0]:
            if stopping():
                raise StopHalf
        accepting.result()
    except BaseException:
        accepting.cancel()
        raise


async def _house_agent(seat: RunSeat, port: int, game: Game) -> None:

    assert seat.entrant is not None
    player = seat.entrant.create(seat.agent_seed)
    await play_match(HOUSE_HOST, port, player, game=game, name=seat.name)


async def _start_script(seat: RunSeat, port: int) -> asyncio.subprocess.Process:
    assert seat.script is not None
    try:
        return await asyncio.create_subprocess_exec(
            seat.script,
            HOUSE_HOST,
            str(port),
            str(seat.position),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            start_new_session=True,  # its whole group is ended with it
        )
    except OSError as exc:
        raise AcpcError(
            f"could not start bot {seat.name} ({seat.script}): {exc.strerror}"
        ) from None


async def _end_script(process: asyncio.subprocess.Process) -> None:
    """Let a startup script end by itself after its match, else end its process group."""
    try:
        await asyncio.wait_for(process.wait(), _SCRIPT_GRACE_S)
        return
    except TimeoutError:
        pass
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        try:
            await asyncio.wait_for(process.wait(), _SCRIPT_GRACE_S)
            return
        except TimeoutError:
            continue


async def _first_failure(
    refereeing: asyncio.Task[str], bots: list[asyncio.Task[Any]]
) -> AcpcError | None:
    """A house agent that fails while the match runs (before the referee notices its seat
    is gone): its error, to report."""
    failed = await first_failure(refereeing, bots)
    if failed is None:
        return None
    await asyncio.wait({refereeing}, timeout=1.0)  # the referee's word is better
    if refereeing.done():
        return None
    return AcpcError(f"a house bot failed: {failed[1]}")


def _named(exc: MatchAbortedError, order: RunOrder, ports: list[int]) -> MatchAbortedError:
    """The referee's error with the seat's player named: ``seat 1 (alice, port 40001)``."""
    lines = [line.removeprefix("ERROR: ") for line in exc.lines]
    if exc.seat is not None and lines:
        seat = f"seat {exc.seat + 1}"
        named = f"{seat} ({order.seats[exc.seat].name}, port {ports[exc.seat]})"
        lines[0] = re.sub(rf"\b{seat}\b", named, lines[0], count=1)
    return MatchAbortedError("; ".join(lines), seat=exc.seat)
