"""Duplicate matches: the same cards twice, the seats reversed, the agents fresh each time.

Half 1 seats agent A in seat 1 and B in seat 2; half 2 swaps them, with the same dealer
seed (so every hand deals the same cards to the same positions) and the same agent seeds.
Each agent therefore plays the cards its opponent had, and luck largely cancels out when
each hand number's two results are averaged: the confidence interval is computed over
those pairs.

The two halves are independent: :func:`play_half` plays one, in whatever process it is
called, and returns a :class:`HalfOutcome` (plain data, so it can cross a process boundary);
:func:`duplicate_run` puts the halves together. Both halves run on one referee
(:mod:`dealer.referee.referee`) over any transport: ``inprocess`` calls the agents directly;
``tcp`` runs our TCP server on 127.0.0.1 and both agents through the acpcbot client, exactly
as against any ACPC dealer; ``remote`` runs the TCP server alone, on the address and ports
of a :class:`Listening`, for players that connect from elsewhere (``acpcbot play`` in other
containers or on other machines, or any ACPC client). For deterministic agents all three
write byte-identical logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import re
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acpcbot import eventloop
from acpcbot.errors import AcpcError, UsageError
from acpcbot.game import LIMIT_HOLDEM, Game
from acpcbot.player import Player
from acpcbot.writing import OutputFile, WriteError
from dealer.analysis.results import HalfResult, PairResult, half_result, pair_result
from dealer.analysis.stats import pair_samples
from dealer.referee.config import MatchConfig, TimeLimits
from dealer.referee.decisionlog import DecisionRecorder, decisions_path
from dealer.referee.faults import MatchAbortedError
from dealer.referee.inprocess import SeatTally, play_in_process
from dealer.referee.listeners import Listeners
from dealer.referee.logtee import LogTee
from dealer.referee.matchlog import LogLines, MatchLog
from dealer.referee.referee import Referee
from dealer.referee.server import referee_over_tcp
from dealer.referee.transcript import Transcript
from dealer.running.replayedfile import ReplayedFile

__all__ = [
    "Decisions",
    "DuplicatePlan",
    "DuplicateRun",
    "HalfOutcome",
    "HalfRun",
    "HandReport",
    "Listening",
    "MatchStatus",
    "PlayerFactory",
    "StopHalf",
    "Transport",
    "derived_seed",
    "duplicate_run",
    "listening_for",
    "play_half",
]

PlayerFactory = Callable[[int, int], Player]
"""Makes a fresh player: ``(which, seed)`` with ``which`` 0 for agent A and 1 for B."""

_REFEREE_GRACE_S = 1.0
"""How long the referee gets to end a match by itself after a client failed."""

HandReport = Callable[[int, float], None]
"""Told after every hand of a half: hands played so far, agent A's chips so far."""


class Transport(enum.Enum):
    """How the dealer talks to the agents."""

    TCP = "tcp"
    INPROCESS = "inprocess"
    REMOTE = "remote"
    """Over TCP to players that connect from elsewhere: no agent runs with the dealer."""


DEFAULT_START_TIMEOUT_MS = 600_000
"""How long a half with remote players waits for them to connect (10 minutes)."""


@dataclass(frozen=True)
class Listening:
    """Where the halves of a match with remote players listen for them.

    ``ports`` are half 1's seats 1 and 2, then half 2's seats 1 and 2; a port that is 0 or
    not given is chosen by the operating system.

    >>> Listening("0.0.0.0", (18791, 18792, 18793)).half_ports(1, 2)
    [18793, 0]
    """

    host: str = "127.0.0.1"
    ports: tuple[int, ...] = ()
    start_timeout_ms: int = DEFAULT_START_TIMEOUT_MS
    """Negative: wait for ever."""

    def half_ports(self, half: int, seats: int) -> list[int]:
        """The ports of ``half``'s seats, in seat order (0: chosen by the system)."""
        wanted = self.ports[half * seats : (half + 1) * seats]
        return [*wanted, *[0] * (seats - len(wanted))]


def listening_for(
    transport: Transport,
    host: str | None = None,
    ports: tuple[int, ...] | None = None,
    start_timeout_s: float | None = None,
) -> Listening | None:
    """Where a match's halves listen (``--host``, ``--ports``, ``--start-timeout``, each
    ``None`` when not given): for remote players, with the defaults for what is not given
    (a negative timeout: for ever); for any other transport none, and none may be given.

    >>> listening_for(Transport.REMOTE, ports=(7000,), start_timeout_s=-1)
    Listening(host='127.0.0.1', ports=(7000,), start_timeout_ms=-1)
    >>> listening_for(Transport.TCP, host="0.0.0.0")
    Traceback (most recent call last):
    acpcbot.errors.UsageError: --host: for --transport remote only
    """
    if transport is not Transport.REMOTE:
        given = {"--host": host, "--ports": ports, "--start-timeout": start_timeout_s}
        if named := [option for option, value in given.items() if value is not None]:
            raise UsageError(f"{', '.join(named)}: for --transport remote only")
        return None
    timeout_ms = DEFAULT_START_TIMEOUT_MS
    if start_timeout_s is not None:
        timeout_ms = -1 if start_timeout_s < 0 else round(start_timeout_s * 1000)
    return Listening(host or "127.0.0.1", ports or (), timeout_ms)


ListeningReport = Callable[[int, list[int]], None]
"""Told when a half with remote players listens: the half and its ports in seat order."""


class MatchStatus(enum.Enum):
    """How far a match got (``status`` in ``summary.json``)."""

    RUNNING = "running"
    FINISHED = "finished"
    INTERRUPTED = "interrupted"
    """Stopped early on purpose (Ctrl-C): the hands played so far are kept."""
    FAILED = "failed"
    """Ended by an error (a failing agent, a broken connection)."""


def derived_seed(seed: int, which: int) -> int:
    """The default seed of agent ``which`` (0 = A, 1 = B): a splitmix64 step of the match
    seed, so different match seeds give unrelated agent seeds.

    >>> derived_seed(42, 0), derived_seed(42, 1)
    (2853895696, 787334419)
    """
    z = (seed * 0x9E3779B97F4A7C15 + (which + 1) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    return (z ^ (z >> 31)) & 0xFFFFFFFF


@dataclass(frozen=True)
class DuplicatePlan:
    """Everything that defines a duplicate match (and so its results).

    >>> plan = DuplicatePlan(("plicas", "dpp"), 100, 3, (derived_seed(3, 0), 7))
    >>> plan.match_name, plan.half_name(1)
    ('plicas-vs-dpp.seed3.n100.seed-b7', 'dpp-plicas.seed3.n100.seed-b7')
    """

    agents: tuple[str, str]
    """The agents' names in the logs (their specs, written as a log can hold them)."""
    hands: int
    """Hands per half."""
    seed: int
    agent_seeds: tuple[int, int]
    transport: Transport = Transport.INPROCESS
    duplicate: bool = True
    game_path: str = LIMIT_HOLDEM
    limits: TimeLimits = field(default_factory=TimeLimits)
    """The players' time limits over TCP (the reference's by default); not part of what
    defines the match (:func:`dealer.running.summary.plan_json`), as the logs' header says
    which were used."""

    @property
    def names(self) -> tuple[str, str]:
        """The players' names in the logs (the agent names, made distinct)."""
        a, b = self.agents
        return (f"{a}-A", f"{b}-B") if a == b else (a, b)

    @property
    def halves(self) -> int:
        """How many halves are played (1 without ``duplicate``)."""
        return 2 if self.duplicate else 1

    @property
    def seed_tag(self) -> str:
        """The agent seeds that are not the ones derived from :attr:`seed`, as a name
        suffix (empty for the defaults), so that matches that differ only in them do not
        share file names."""
        return "".join(
            f".seed-{which}{own}"
            for index, (which, own) in enumerate(zip("ab", self.agent_seeds, strict=True))
            if own != derived_seed(self.seed, index)
        )

    @property
    def match_name(self) -> str:
        """The match's name: the default output folder."""
        a, b = self.agents
        return f"{a}-vs-{b}.seed{self.seed}.n{self.hands}{self.seed_tag}"

    def seats(self, half: int) -> tuple[int, int]:
        """Which agent (0 = A, 1 = B) sits in seats 1 and 2 in ``half`` (0 or 1)."""
        return (0, 1) if half == 0 else (1, 0)

    def half_name(self, half: int) -> str:
        """The name of half ``half``'s match, in its log's header and file name."""
        first, second = (self.names[i] for i in self.seats(half))
        return f"{first}-{second}.seed{self.seed}.n{self.hands}{self.seed_tag}"

    def log_name(self, half: int) -> str:
        return f"{self.half_name(half)}.log"

    def decisions_name(self, half: int) -> str:
        """The decisions file beside :meth:`log_name` (:mod:`dealer.referee.decisionlog`)."""
        return decisions_path(Path(self.log_name(half))).name

    def config(self, half: int, game: Game) -> MatchConfig:
        """The dealer's settings for ``half`` (raises :class:`AcpcError` for names a log
        cannot hold)."""
        names = tuple(self.names[i] for i in self.seats(half))
        return MatchConfig(
            self.half_name(half),
            game,
            self.game_path,
            self.hands,
            self.seed,
            names,
            limits=self.limits,
        )


@dataclass(frozen=True, slots=True)
class Decisions:
    """One agent's decisions in a half, and those made for it.

    A fallback is a check/call played instead of the agent's choice: because the agent
    raised an exception (``failed``), chose an illegal action (``illegal``; in-process the
    dealer repairs it like the reference), or ran out of its time budget (``over_budget``;
    over TCP only).

    >>> total = Decisions(10, failed=2) + Decisions(5, illegal=1)
    >>> total.decisions, total.fallbacks
    (15, 3)
    """

    decisions: int
    failed: int = 0
    illegal: int = 0
    over_budget: int = 0

    @property
    def fallbacks(self) -> int:
        return self.failed + self.illegal + self.over_budget

    def __add__(self, other: Decisions) -> Decisions:
        return Decisions(
            self.decisions + other.decisions,
            self.failed + other.failed,
            self.illegal + other.illegal,
            self.over_budget + other.over_budget,
        )


@dataclass(frozen=True)
class HalfOutcome:
    """One half as played: plain data, to be sent from the process that played it."""

    half: int
    """0 or 1."""
    log: str
    """The log's file name."""
    values: array[float]
    """Agent A's chips in each hand played, in hand order."""
    seconds: float
    decisions: tuple[Decisions | None, Decisions | None]
    """Agents A's and B's decisions; ``None`` when unknown (a client that failed)."""
    finished: bool
    """Every hand was played."""
    error: str | None = None
    """Why the half ended early, when it failed."""
    failed_writing: WriteError | None = None
    """The file that could not be written, when that is why it failed."""


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
            # A resumed match replays the hands a log lacks, so an in-process match's log
            # need not hit the disk every hand; over TCP a player can die at any time, and
            # every finished hand must be kept.
            in_process = plan.transport is Transport.INPROCESS
            flush_every = 256 if in_process else 1
            log = MatchLog(file, flush_every=flush_every)
            log.header(config.header)
            lines: LogLines = log if on_state is None else LogTee(log, on_state)
            referee = Referee(config, log=lines, on_hand=record)
            players = []
            if plan.transport is not Transport.REMOTE:
                players = [make_player(i, plan.agent_seeds[i]) for i in seats]
            if record_decisions:
                side = files.enter_context(_output_file(decisions_path(log_path), replay))
                recorder = DecisionRecorder(side, referee, players, flush_every=flush_every)
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
    from acpcbot.client import MatchSummary, play_match

    config = referee.config
    reporter = Transcript(None)
    listeners = await Listeners.open("127.0.0.1", [], config.game.num_players)
    clients = [
        asyncio.create_task(play_match("127.0.0.1", port, player, game=config.game, name=name))
        for player, port, name in zip(players, listeners.ports, config.names, strict=True)
    ]
    # Our own clients, in this process: holding idle states spares them wake-ups.
    refereeing = asyncio.create_task(
        referee_over_tcp(referee, listeners, reporter, start_timeout_ms=30_000, hold_idle=True)
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


async def _first_client_failure(
    referee: asyncio.Task[str], clients: Sequence[asyncio.Task[Any]], names: Sequence[str]
) -> AcpcError | None:
    """Wait for the referee; a client that fails while it runs (an agent that cannot start,
    say) is returned as the error to report, one whose player raised :class:`StopHalf`
    raises it."""
    waiting: set[asyncio.Future[Any]] = {referee, *clients}
    while not referee.done():
        done, waiting = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if task is referee or task.cancelled():
                continue
            exc = task.exception()
            if isinstance(exc, StopHalf):
                raise exc
            if exc is not None:
                name = next(n for n, c in zip(names, clients, strict=True) if c is task)
                return AcpcError(f"{name}'s client failed: {exc}")
    return None


@dataclass(frozen=True)
class HalfRun:
    """One half as played, with agent A's results."""

    result: HalfResult
    log: str
    """The log's file name."""
    seats: tuple[str, str]
    seconds: float
    decisions: tuple[Decisions | None, Decisions | None]
    finished: bool


@dataclass(frozen=True)
class DuplicateRun:
    """A (duplicate) match as played: finished, or stopped early (see :attr:`status`)."""

    plan: DuplicatePlan
    out_dir: Path
    big_blind: int
    halves: tuple[HalfRun, ...]
    pair: PairResult | None
    """Over the pairs; ``None`` without the second half."""
    seconds: float
    """Wall-clock time of the whole match (halves may run side by side)."""
    status: MatchStatus = MatchStatus.FINISHED
    error: str | None = None

    @property
    def hands(self) -> int:
        """Hands played, over every half."""
        return sum(h.result.hands for h in self.halves)

    @property
    def hands_per_second(self) -> float:
        return self.hands / max(self.seconds, 1e-9)

    def decisions(self, which: int) -> Decisions | None:
        """Agent ``which``'s decisions over every half (``None`` when a half's are unknown)."""
        total = Decisions(0)
        for half in self.halves:
            counted = half.decisions[which]
            if counted is None:
                return None
            total += counted
        return total


def duplicate_run(
    plan: DuplicatePlan,
    out_dir: Path,
    big_blind: int,
    outcomes: Sequence[HalfOutcome],
    *,
    seconds: float,
    status: MatchStatus,
    error: str | None = None,
) -> DuplicateRun:
    """The match from its halves' outcomes (in half order; a half never started is left
    out), with agent A's results in each and over the pairs."""
    a, b = plan.names
    halves = []
    for outcome in outcomes:
        values = dict(enumerate(outcome.values))
        first, second = (plan.names[i] for i in plan.seats(outcome.half))
        halves.append(
            HalfRun(
                half_result(outcome.log, a, b, values, big_blind),
                outcome.log,
                (first, second),
                outcome.seconds,
                outcome.decisions,
                outcome.finished,
            )
        )
    pair = None
    if plan.duplicate and len(outcomes) == 2:
        a_first, a_second = (dict(enumerate(o.values)) for o in outcomes)
        paired = pair_samples(a_first, a_second)
        pair = pair_result(halves[0].result, halves[1].result, paired, big_blind)
    return DuplicateRun(plan, out_dir, big_blind, tuple(halves), pair, seconds, status, error)
