"""Playing a match's halves: each on the referee (:func:`play_half`), one after the other
here, or side by side in processes.

:func:`play_half` plays one half over any transport (in-process, over loopback TCP through
the acpcbot client, or for remote players), writing its log (and, recording decisions, its
``.probs``) a hand at a time, or going on with the files an earlier run left
(:mod:`dealer.running.replayedfile`), and returns its
:class:`~dealer.running.duplicate.HalfOutcome`.

The halves of a duplicate match are independent, so each may run in a process of its own
(forked, so that what this process loaded, tables and compiled code, is shared). Each
reports its progress now and then through a queue (agent A's chips in each hand since the
last report and, for ``--mqtt-hands``, the log's ``STATE`` lines), its log lines (written
by the parent, above the progress bar: two processes writing one stderr could splice their
lines), and its outcome when it ends; the process that runs the match feeds
the reports to its :class:`~acpcbot.progress.monitor.MatchMonitor` (one progress line, the
running mbb/g over the pairs both halves played, the telemetry) and may stop every half
after its current hand through a shared flag. Either way the halves play exactly the same
hands: the logs are byte-identical.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import ctypes
import multiprocessing
import os
import queue
import re
import signal
import sys
import time
import traceback
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.context import ForkContext, SpawnContext
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any, Protocol

from acpcbot import eventloop
from acpcbot.client import MatchSummary, play_match
from acpcbot.errors import AcpcError
from acpcbot.eventloop import loop_factory
from acpcbot.game import Game
from acpcbot.logconfig import lines_to
from acpcbot.player import Entrant, MatchInfo, Player, Strategy
from acpcbot.progress.monitor import MatchMonitor
from acpcbot.writing import OutputFile, WriteError
from dealer.analysis.aivat import AivatHalf, aivat_half
from dealer.analysis.playedlog import read_log
from dealer.referee.decisionlog import DecisionRecorder, decisions_path
from dealer.referee.faults import MatchAbortedError
from dealer.referee.inprocess import SeatTally, play_in_process
from dealer.referee.listeners import Listeners
from dealer.referee.logtee import LogTee
from dealer.referee.matchlog import LogLines, MatchLog
from dealer.referee.referee import Referee
from dealer.referee.server import referee_over_tcp
from dealer.referee.transcript import Transcript
from dealer.running.childprocess import die_with_parent
from dealer.running.duplicate import (
    DEFAULT_START_TIMEOUT_MS,
    Decisions,
    DuplicatePlan,
    HalfOutcome,
    Listening,
    Transport,
)
from dealer.running.isolation import IsolatedPlayer
from dealer.running.replayedfile import ReplayedFile

__all__ = [
    "AfterHalf",
    "BeforeHalf",
    "HalfDone",
    "HalfJob",
    "Halves",
    "HandReport",
    "PlayerFactory",
    "StopHalf",
    "begin_here",
    "first_failure",
    "play_half",
    "process_context",
    "settle_imports",
]

AfterHalf = Callable[[int, Sequence[Player]], Any]
"""Called in the process that played a half, with the half (0 or 1) and its players in
agent order (A, B), after the half finished; what it returns is collected (it must pickle
when halves run in processes)."""

BeforeHalf = Callable[[int], bool]
"""Asked in the process that runs the match, before each half after the first (with the
half, 1) when the halves are played one after the other: whether to play it."""

_REPORT_EVERY = 64
"""Hands between a half's looks at the clock for a progress report."""
_REPORT_INTERVAL_S = 0.2
"""Least time between two progress reports of a half running in a process."""

Report = Callable[[int, int, float, "array[float]", list[str]], None]
"""Told now and then by a half: the half, its hands and agent A's chips so far, A's chips in
each hand since the last report, and (for ``--mqtt-hands``) their ``STATE`` lines."""


PlayerFactory = Callable[[int, int], Player]
"""Makes a fresh player: ``(which, seed)`` with ``which`` 0 for agent A and 1 for B."""

_REFEREE_GRACE_S = 1.0
"""How long the referee gets to end a match by itself after a client failed."""

HandReport = Callable[[int, float], None]
"""Told after every hand of a half: hands played so far, agent A's chips so far."""


ListeningReport = Callable[[int, list[int]], None]
"""Told when a half with remote players listens: the half and its ports in seat order."""


class StopHalf(BaseException):
    """Raised by a :data:`HandReport` to stop the half after the hand just played (the
    log and the outcome keep every hand before it), or by a player to stop it at once (its
    hand in progress is not played out: a person whose web server stops). A
    ``BaseException``, so that neither transport takes it for a player's failure."""


def play_half(
    plan: DuplicatePlan,
    half: int,
    game: Game,
    out_dir: Path,
    make_player: PlayerFactory,
    *,
    on_hand: HandReport | None = None,
    listening: Listening | None = None,
    on_listening: ListeningReport | None = None,
    on_state: Callable[[str], None] | None = None,
    record_decisions: bool = False,
    replay: bool = False,
    stopping: Callable[[], bool] | None = None,
) -> HalfOutcome:
    """Play half ``half`` of ``plan`` and write its log to ``out_dir``.

    ``on_hand`` is told every hand; it may raise :class:`StopHalf`, which ends the half
    with ``finished`` false. A failure the project reports (a failing in-process agent, an
    aborted TCP match: :class:`AcpcError`) also ends it, with ``error`` set; the hands
    played before either are in the log and the outcome. With remote players
    (:attr:`Transport.REMOTE`) ``make_player`` is not called: the half listens as
    ``listening`` says (127.0.0.1 and ports the system chooses by default), tells
    ``on_listening`` its ports, and waits for the players; their decisions are theirs to
    count (``None`` in the outcome). ``on_state`` is told every ``STATE`` line written
    (``--mqtt-hands``). With ``record_decisions`` every decision's probabilities go to a
    decisions file beside the log (:mod:`dealer.referee.decisionlog`); the log is the same. Only
    players played here can say theirs, so remote players and ``record_decisions`` do
    not go together. With ``replay`` the files an earlier run of the match left are gone on
    with (:mod:`dealer.running.replayedfile`): the half is played from its start, and what
    they hold is checked instead of written. A file that cannot be written ends the half
    with ``error`` and ``failed_writing`` set. ``stopping`` is asked now and then while
    the half waits for remote players, where no hand is played to tell ``on_hand``: when
    it says yes, the half ends as :class:`StopHalf` ends it.
    """
    seats = plan.seats(half)
    config = plan.config(half, game)
    seat_a = seats.index(0)
    recorded: array[float] = array("d")
    totals = [0.0]
    recorder: DecisionRecorder | None = None

    def record(referee: Referee, by_position: tuple[float, ...]) -> None:
        value = by_position[referee.position_of(seat_a)]
        recorded.append(value)
        totals[0] += value
        if recorder is not None:
            recorder.hand_done(referee.hand.hand_number)
        if on_hand is not None:
            on_hand(len(recorded), totals[0])

    by_seat: list[Decisions | None] = [None, None]
    error: str | None = None
    finished = False
    if record_decisions and plan.transport is Transport.REMOTE:
        raise ValueError("remote players' decisions cannot be recorded here")
    started = [time.perf_counter()]
    """When play began (for remote players, when the last of them connected)."""
    log_path = out_dir / plan.log_name(half)
    failed_writing: WriteError | None = None
    try:
        with contextlib.ExitStack() as files:
            # A log a replay goes on with is checked, not written, as far as it goes.
            file = files.enter_context(_output_file(log_path, replay))
            # Each hand is handed to the system before the next is dealt (a killed match
            # loses no finished hand; see MatchLog).
            players = []
            if plan.transport is not Transport.REMOTE:
                players = [make_player(i, plan.agent_seeds[i]) for i in seats]
            # An agent played in a process of its own plays over TCP (the other agent too).
            isolating = any(isinstance(player, IsolatedPlayer) for player in players)
            in_process = plan.transport is Transport.INPROCESS and not isolating
            log = MatchLog(file)
            log.header(config.header)
            lines: LogLines = log if on_state is None else LogTee(log, on_state)
            referee = Referee(config, log=lines, on_hand=record)
            if record_decisions:
                side = files.enter_context(_output_file(decisions_path(log_path), replay))
                recorder = DecisionRecorder(side, referee, players)
                recorder.install()
            try:
                if plan.transport is Transport.REMOTE:
                    where = listening or Listening()
                    by_seat = eventloop.run(
                        _referee_remote(
                            referee,
                            half,
                            where,
                            on_listening or (lambda *_: None),
                            started=started,
                            stopping=stopping,
                        )
                    )
                elif in_process:
                    tally = SeatTally(game.num_players)
                    try:
                        play_in_process(referee, players, tally=tally)
                    finally:
                        by_seat = [
                            Decisions(made, illegal=repaired)
                            for made, repaired in zip(tally.decisions, tally.repaired, strict=True)
                        ]
                else:
                    by_seat = eventloop.run(_play_over_tcp(referee, players))
                finished = True
            except (StopHalf, KeyboardInterrupt):
                pass  # stopped on purpose: the hands played so far count
            finally:
                log.flush()  # every hand recorded is in the log
                if recorder is not None:
                    recorder.flush()
    except WriteError as exc:  # the files are unbuffered: nothing is left to fail again
        failed_writing, error, finished = exc, str(exc), False
    except AcpcError as exc:
        error, finished = str(exc), False
    by_agent = (by_seat[seats.index(0)], by_seat[seats.index(1)])
    return HalfOutcome(
        half,
        plan.log_name(half),
        recorded,
        time.perf_counter() - started[0],
        by_agent,
        finished,
        error,
        failed_writing,
    )


def _output_file(path: Path, replay: bool) -> OutputFile:
    """``path`` to write a half's file into: from its start, or, replaying an earlier run
    of the match, checked against what that run wrote into it."""
    if replay and path.exists():
        return ReplayedFile(path)
    return OutputFile(path)


async def _play_over_tcp(referee: Referee, players: list[Player]) -> list[Decisions | None]:
    """Play the match over loopback TCP through the acpcbot client; each seat's decisions
    as its client counted them."""

    config = referee.config
    reporter = Transcript(None)
    listeners = await Listeners.open("127.0.0.1", [], config.game.num_players)
    clients = [
        asyncio.create_task(
            player.play("127.0.0.1", port, game=config.game, name=name)
            if isinstance(player, IsolatedPlayer)
            else play_match("127.0.0.1", port, player, game=config.game, name=name)
        )
        for player, port, name in zip(players, listeners.ports, config.names, strict=True)
    ]
    # An isolated agent starts an interpreter first (and may compile its kernels): the
    # referee waits for it as long as for remote players; it fails at once if its process
    # does (below).
    isolating = any(isinstance(player, IsolatedPlayer) for player in players)
    start_timeout_ms = DEFAULT_START_TIMEOUT_MS if isolating else 30_000
    # Our own clients, in this process: holding idle states spares them wake-ups.
    refereeing = asyncio.create_task(
        referee_over_tcp(
            referee, listeners, reporter, start_timeout_ms=start_timeout_ms, hold_idle=True
        )
    )
    try:
        failed = await _first_client_failure(refereeing, clients, config.names)
    except StopHalf:  # a player stopped the half at once: its hand in progress is dropped
        refereeing.cancel()
        await asyncio.gather(refereeing, *clients, return_exceptions=True)
        raise
    if failed is not None:
        # A seat whose client is gone would only time out: unless the referee ends the
        # match itself at once (then its error says more), the client's error is the news.
        await asyncio.wait((refereeing,), timeout=_REFEREE_GRACE_S)
        if not refereeing.done():
            refereeing.cancel()
            await asyncio.gather(refereeing, *clients, return_exceptions=True)
            raise failed
    try:
        await refereeing
    except MatchAbortedError as exc:
        # The clients see the connections drop; what they say about it helps.
        outcomes = await asyncio.gather(*clients, return_exceptions=True)
        if any(isinstance(outcome, StopHalf) for outcome in outcomes):
            raise StopHalf from None  # the referee saw the stopping player go first
        said = [
            f"{name}'s client: {outcome}"
            for name, outcome in zip(config.names, outcomes, strict=True)
            if isinstance(outcome, Exception)
        ]
        raise MatchAbortedError(*exc.lines, *said, seat=exc.seat) from None
    except StopHalf:
        await asyncio.gather(*clients, return_exceptions=True)
        raise
    decisions: list[Decisions | None] = []
    for name, outcome in zip(
        config.names, await asyncio.gather(*clients, return_exceptions=True), strict=True
    ):
        if isinstance(outcome, BaseException):
            raise AcpcError(f"{name}'s client failed after the match: {outcome}")
        assert isinstance(outcome, MatchSummary)
        decisions.append(
            Decisions(
                outcome.decisions,
                failed=outcome.failed_decisions,
                illegal=outcome.illegal_decisions,
                over_budget=outcome.over_budget_decisions,
            )
        )
    return decisions


_STOP_POLL_S = 0.2
"""How often a half waiting for its remote players asks whether to stop (SIGTERM, Ctrl-C)."""


async def _referee_remote(
    referee: Referee,
    half: int,
    listening: Listening,
    on_listening: ListeningReport,
    *,
    started: list[float],
    stopping: Callable[[], bool] | None = None,
) -> list[Decisions | None]:
    """Listen for the half's players, referee their match, and say which seat (and
    player) was lost when one goes away. ``started[0]`` is set to when the last player
    connected: the time waited for them is not the match's. While it waits, ``stopping``
    is asked every :data:`_STOP_POLL_S` seconds (a stop asked for ends the wait)."""
    config = referee.config
    seats = config.game.num_players
    listeners = await Listeners.open(listening.host, listening.half_ports(half, seats), seats)
    ports = listeners.ports  # (a seat's port closes once its player is in)
    on_listening(half, ports)
    try:
        accepting = asyncio.ensure_future(listeners.accept(listening.start_timeout_ms))
        try:
            while not (await asyncio.wait({accepting}, timeout=_STOP_POLL_S))[0]:
                if stopping is not None and stopping():
                    raise StopHalf
            accepting.result()
        except BaseException:
            accepting.cancel()
            listeners.close()
            raise
        started[0] = time.perf_counter()
        # Players elsewhere do not share this process: holding idle states spares them
        # wake-ups, and no read spins (the players may share this machine's cores).
        await referee_over_tcp(
            referee,
            listeners,
            Transcript(None),
            start_timeout_ms=listening.start_timeout_ms,
            hold_idle=True,
        )
    except MatchAbortedError as exc:
        lines = [line.removeprefix("ERROR: ") for line in exc.lines]
        if exc.seat is not None:
            seat = f"seat {exc.seat + 1}"
            named = f"{seat} ({config.names[exc.seat]}, port {ports[exc.seat]})"
            lines[0] = re.sub(rf"\b{seat}\b", named, lines[0], count=1)
        raise MatchAbortedError(f"half {half + 1}: " + "; ".join(lines), seat=exc.seat) from None
    return [None] * seats


async def first_failure(
    referee: asyncio.Task[Any], clients: Sequence[asyncio.Task[Any]]
) -> tuple[int, BaseException] | None:
    """Wait for the referee; the first of ``clients`` that fails while it runs (an agent
    that cannot start, say): its index and its error, or ``None``."""
    waiting: set[asyncio.Future[Any]] = {referee, *clients}
    while not referee.done():
        done, waiting = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if task is referee or task.cancelled():
                continue
            exc = task.exception()
            if exc is not None:
                return clients.index(task), exc
    return None


async def _first_client_failure(
    referee: asyncio.Task[str], clients: Sequence[asyncio.Task[Any]], names: Sequence[str]
) -> AcpcError | None:
    """The client that fails while the referee runs, as the error to report; one whose
    player raised :class:`StopHalf` raises it."""
    failed = await first_failure(referee, clients)
    if failed is None:
        return None
    which, exc = failed
    if isinstance(exc, StopHalf):
        raise exc
    return AcpcError(f"{names[which]}'s client failed: {exc}")


def process_context() -> ForkContext | SpawnContext:
    """Forking shares what this process loaded (tables, compiled code) with the halves.
    Call :func:`settle_imports` before each fork."""
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def settle_imports() -> None:
    """Import here, before forking, what a forked process may import late and another
    thread of this one may be importing right now: a process forked in the middle of
    another thread's import inherits that module's import lock, held for ever, and hangs
    when it imports the module too. (Seen: a remote half resolving its listening address
    while the telemetry's thread resolved the broker's, both importing the IDNA codec.) An
    import under way in another thread finishes before the same import here returns."""
    codecs.lookup("idna")  # any host name resolved (a TCP half, the telemetry)
    loop_factory()  # uvloop, when installed: the event loop of a TCP half


def begin_here(entrants: Iterable[tuple[Entrant, str]], game: Game) -> None:
    """Begin a player of each entrant (with its name) here, to load what its match's
    players load as they begin (tables, compiled kernels): processes forked from this one
    then share it, instead of each loading it (each compiling it, on a cold cache). A player
    begun here plays nothing; one that cannot begin fails where it plays, which says so."""
    for entrant, name in entrants:
        with contextlib.suppress(Exception):
            entrant.create(0).begin_match(MatchInfo(game, name=name))


class _StopFlag(Protocol):
    value: bool


@dataclass(frozen=True)
class HalfJob:
    """What playing any half of a match takes (sent to the halves' processes)."""

    entrants: tuple[Entrant, Entrant]
    """The agents (A, B)."""
    plan: DuplicatePlan
    game: Game
    out: Path
    stop_flag: _StopFlag
    """Set (by the process that runs the match) to stop every half after its hand."""
    after_half: AfterHalf | None
    state_lines: bool = False
    """Report the ``STATE`` lines too (``--mqtt-hands``)."""
    listening: Listening | None = None
    """Where a half with remote players listens (:class:`dealer.running.duplicate.Listening`)."""
    record_decisions: bool = False
    """Write every decision's probabilities beside each log (:mod:`dealer.referee.decisionlog`)."""
    replay: bool = False
    """Go on with the files an earlier run of the match left (see
    :func:`play_half`)."""

    def announce(self, half: int, ports: list[int]) -> None:
        """Say on stderr where a half with remote players waits for them, and with which
        agent seeds they play the match (``acpcbot play ... --seed N``)."""
        where = self.listening.host if self.listening is not None else "127.0.0.1"
        seats = ", ".join(
            f"{self.plan.names[which]} (agent seed {self.plan.agent_seeds[which]}) on port {port}"
            for which, port in zip(self.plan.seats(half), ports, strict=True)
        )
        line = f"acpcbot: half {half + 1} waits on {where} for {seats}\n"
        # One write to the file descriptor, past sys.stderr: this runs in a forked half, whose
        # copy of sys.stderr's buffer is whatever another thread of the parent had in it at
        # the fork (a test once read a bare newline where this line should have been).
        os.write(sys.stderr.fileno(), line.encode("utf-8", "backslashreplace"))

    def load_once(self) -> None:
        """Load here what every half's players load as their match begins (tables, compiled
        kernels): halves forked from this process then share it, instead of each loading
        it (each compiling it, on a cold cache). A player begun here plays nothing; one
        that cannot begin fails in its half, which says so."""
        if self.plan.transport is Transport.REMOTE:
            return  # no player plays here
        begin_here(zip(self.entrants, self.plan.names, strict=True), self.game)

    def strategies(self) -> dict[str, Strategy]:
        """The fixed strategies among the players, by their names in the logs (AIVAT asks
        them what they play at histories that did not happen)."""
        found = {}
        for name, entrant in zip(self.plan.names, self.entrants, strict=True):
            strategy = entrant.strategy(self.game)
            if strategy is not None:
                found[name] = strategy
        return found

    def play(self, half: int, report: Report) -> HalfDone:
        """Play ``half`` here, telling ``report`` now and then how it goes; the outcome,
        what ``after_half`` made of the players and, recording decisions, agent A's AIVAT
        estimate over the half (computed here, in the half's process)."""
        players: list[Player] = []
        entrants = self.entrants
        stop_flag = self.stop_flag
        hands_per_half = self.plan.hands
        values: array[float] = array("d")
        lines: list[str] = []
        last = [0.0]

        def make_player(which: int, seed: int) -> Player:
            player = entrants[which].create(seed)
            players.append(player)
            return player

        def on_hand(hands: int, chips: float) -> None:
            if stop_flag.value:
                raise StopHalf
            values.append(chips - last[0])  # exact: chips are sums of whole or half chips
            last[0] = chips
            if hands % _REPORT_EVERY == 0 or hands == hands_per_half:
                report(half, hands, chips, values[:], lines[:])
                del values[:]
                lines.clear()

        outcome = play_half(
            self.plan,
            half,
            self.game,
            self.out,
            make_player,
            on_hand=on_hand,
            on_state=lines.append if self.state_lines else None,
            listening=self.listening,
            on_listening=self.announce,
            record_decisions=self.record_decisions,
            replay=self.replay,
            stopping=lambda: bool(stop_flag.value),
        )
        collected = None
        if self.after_half is not None and outcome.finished:
            in_seats = self.plan.seats(half)
            collected = self.after_half(half, [players[in_seats.index(i)] for i in (0, 1)])
        aivat = None
        if self.record_decisions and outcome.error is None and outcome.values:
            log = read_log(self.out / outcome.log)
            aivat = aivat_half(log, self.game, self.plan.names[0], oracles=self.strategies())
        return HalfDone(outcome, collected, aivat)


@dataclass(frozen=True)
class HalfDone:
    """What playing a half came to (sent from the half's process)."""

    outcome: HalfOutcome
    collected: Any
    """What ``after_half`` returned (``None`` without it, or when the half did not finish)."""
    aivat: AivatHalf | None
    """Agent A's AIVAT estimate over the half, when decisions were recorded."""


class Halves:
    """Plays a match's halves (here, or in processes) and keeps what they came to."""

    def __init__(
        self,
        entrants: tuple[Entrant, Entrant],
        plan: DuplicatePlan,
        game: Game,
        out: Path,
        *,
        monitor: MatchMonitor,
        after_half: AfterHalf | None = None,
        on_progress: Callable[[int, float], None] | None = None,
        listening: Listening | None = None,
        record_decisions: bool = False,
        replay: bool = False,
        before_half: BeforeHalf | None = None,
    ) -> None:
        self.context = process_context()
        self.before_half = before_half
        stop_flag: _StopFlag = self.context.RawValue(ctypes.c_bool, False)
        self.job = HalfJob(
            entrants,
            plan,
            game,
            out,
            stop_flag,
            after_half,
            monitor.hands_wanted,
            listening,
            record_decisions,
            replay,
        )
        self.plan = plan
        self.monitor = monitor
        self.on_progress = on_progress
        self.outcomes: dict[int, HalfOutcome] = {}
        """What each half that ended came to, by half."""
        self.collected: dict[int, Any] = {}
        """What ``after_half`` returned, by half."""
        self.aivat: dict[int, AivatHalf] = {}
        """Agent A's AIVAT estimate over each half that recorded decisions, by half."""
        self._hands = [0] * self.plan.halves
        self._chips = [0.0] * self.plan.halves

    def stop(self) -> None:
        """Stop every half after its current hand."""
        self.job.stop_flag.value = True

    def report(
        self, half: int, hands: int, chips: float, values: array[float], lines: list[str]
    ) -> None:
        self._hands[half] = hands
        self._chips[half] = chips
        self.monitor.report(half, values)
        if lines:
            self.monitor.hands(half, self.plan.log_name(half), lines)
        if self.on_progress is not None:
            self.on_progress(sum(self._hands), sum(self._chips))

    def play_here(self) -> None:
        """One half after the other, in this process."""
        for half in range(self.plan.halves):
            if self.job.stop_flag.value:
                return
            if half and self.before_half is not None and not self.before_half(half):
                return
            done = self.job.play(half, self.report)
            self._keep(half, done)
            if not done.outcome.finished:
                return

    def _keep(self, half: int, done: HalfDone) -> None:
        self.outcomes[half] = done.outcome
        self.collected[half] = done.collected
        if done.aivat is not None:
            self.aivat[half] = done.aivat

    def play_in_processes(self) -> None:
        """Every half at once, each in a process of its own reporting through a queue."""
        messages: Queue[tuple[Any, ...]] = self.context.Queue()
        workers = {
            half: self.context.Process(
                target=_worker,
                args=(self.job, half, messages),
                name=f"acpcbot-half-{half + 1}",
                daemon=True,
            )
            for half in range(self.plan.halves)
        }
        self.job.load_once()
        settle_imports()
        for worker in workers.values():
            worker.start()
        try:
            self._gather(workers, messages)
        except BaseException:
            # Stopping at once (a second Ctrl-C, a crash): the halves still playing end
            # without their outcome.
            self.stop()
            for worker in workers.values():
                if worker.is_alive():
                    worker.terminate()
            raise
        for worker in workers.values():
            worker.join()

    def _gather(self, workers: Mapping[int, BaseProcess], messages: Queue[tuple[Any, ...]]) -> None:
        crashed: list[str] = []
        while len(self.outcomes) + len(crashed) < len(workers):
            try:
                message = messages.get(timeout=0.5)
            except queue.Empty:
                for half, worker in workers.items():
                    if half in self.outcomes or worker.is_alive():
                        continue
                    # Its last message may still be in the pipe: look once more.
                    with contextlib.suppress(queue.Empty):
                        self._take(messages.get(timeout=1.0), crashed)
                    if half not in self.outcomes:
                        crashed.append(
                            f"half {half + 1}'s process died (exit code {worker.exitcode})"
                        )
                        self.stop()
                continue
            self._take(message, crashed)
        if crashed:
            raise RuntimeError("\n".join(crashed))

    def _take(self, message: tuple[Any, ...], crashed: list[str]) -> None:
        kind, half, *rest = message
        if kind == "progress":
            self.report(half, *rest)
        elif kind == "line":
            self.monitor.display.write(rest[0])
        elif kind == "done":
            (done,) = rest
            self._keep(half, done)
            if not done.outcome.finished:  # failed or stopped: the other half stops too
                self.stop()
        else:
            crashed.append(f"half {half + 1} crashed:\n{rest[0]}")
            self.stop()


def _worker(job: HalfJob, half: int, messages: Queue[tuple[Any, ...]]) -> None:
    """A half in a process of its own. Ctrl-C reaches the whole process group: the parent
    alone decides, and tells the halves through the job's stop flag."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    last = [0.0]
    values: array[float] = array("d")
    lines: list[str] = []

    def report(
        half: int, hands: int, chips: float, new_values: array[float], new_lines: list[str]
    ) -> None:
        values.extend(new_values)
        lines.extend(new_lines)
        now = time.perf_counter()
        if now - last[0] >= _REPORT_INTERVAL_S or hands == job.plan.hands:
            last[0] = now
            messages.put(("progress", half, hands, chips, values[:], lines[:]))
            del values[:]
            lines.clear()

    def line(text: str) -> None:  # the parent writes it, above its progress bar
        messages.put(("line", half, text))

    try:
        with lines_to(line):
            done = job.play(half, report)
        messages.put(("done", half, done))
    except BaseException:
        messages.put(("crashed", half, traceback.format_exc()))
    finally:
        messages.close()
        messages.join_thread()
