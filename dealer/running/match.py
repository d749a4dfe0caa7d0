"""Running a duplicate match between two entrants: the one code path every caller uses.

``acpcbot match``, ``acpcbot lbr``, a tournament's tasks (:mod:`dealer.running.tasks`, on any
executor) and the scripts describe a match as a :class:`MatchRequest` of two
:class:`~acpcbot.player.Entrant` s (the command line makes them from agent specs with
``agents.registry.entrant``) and call :func:`run_match`, which

1. checks everything before it writes a file (:func:`check_match`): the numbers, the game,
   that each agent can play the game (asked of its entrant: no agent is made and no match
   begun only to be checked), the names the logs will hold;
2. takes the output folder (:class:`dealer.running.matchfolder.MatchFolder`): its path
   checked (once), locked while the match runs, refused when it holds another match unless
   ``force``, and every file the match writes there checked to be writable;
3. plays the halves: with ``jobs`` > 1 side by side in processes of their own (they are
   independent: the logs are byte-identical to playing them one after the other here),
   feeding their reports to one progress line and, with ``mqtt``, to the match's telemetry
   (:class:`~acpcbot.progress.monitor.MatchMonitor`), published from this process. When
   the folder holds an earlier run of this very match (interrupted, killed, failed), the
   match goes on with it: each half is played again from its first hand, its logs checked
   instead of written as far as they go (:mod:`dealer.running.replayedfile`), and then on
   to its end. Replaying, not reading the logs into the agents, is what brings a learning
   agent, and every agent's random stream, to exactly where it was: the logs, the
   ``.probs`` files and ``summary.json`` (times aside) are those of a run never stopped, over
   any transport. With ``force`` the earlier run's files are removed and the match starts
   over;
4. writes ``summary.json`` (atomically) as the match starts (``"status": "running"``) and
   ends: ``finished``, ``failed`` (an agent that raised in-process, a broken connection)
   or ``interrupted`` (Ctrl-C), the last two with the hands played so far and their
   results; with ``plot`` it draws ``bankroll.png``, and with ``mqtt`` it publishes the
   final status and adds what became of the messages (``telemetry``) to the summary. A
   failed match raises :class:`MatchFailedError`, an interrupted one
   :class:`MatchInterruptedError`, each after its summary is written. A file that cannot
   be written (a full disk) fails the match too: the summary says ``failed`` if it can
   still be written, and :class:`~acpcbot.writing.WriteError` names the file.

With ``aivat`` every decision's probabilities are recorded beside each log
(:mod:`dealer.referee.decisionlog`) and the AIVAT estimate (:mod:`dealer.analysis.aivat`) joins
the plain one: ``aivat`` in ``summary.json``, a line in the text.

The first Ctrl-C stops every half after the hand it is playing; a second one stops at once.
See :mod:`dealer.running` for an example.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from acpcbot.errors import AcpcError, UnsupportedGameError, UsageError
from acpcbot.extras import need_matplotlib, need_mqtt
from acpcbot.game import LIMIT_HOLDEM, Game, load_game
from acpcbot.logconfig import get_logger, lines_to, notice
from acpcbot.logreader import LogError, open_log
from acpcbot.player import Entrant
from acpcbot.progress.display import ProgressDisplay, Show
from acpcbot.progress.monitor import MatchMonitor
from acpcbot.progress.running import RunningMatch
from acpcbot.protocol.constants import MAX_HANDS
from acpcbot.smallfile import shown_path
from acpcbot.telemetry.channel import Channel, told_text
from acpcbot.telemetry.codec import Kind
from acpcbot.telemetry.url import BrokerAddress
from acpcbot.writing import WriteError, replace_file, writing
from dealer.analysis.aivat import pair_of
from dealer.analysis.aivatreport import AivatReport, aivat_json, aivat_lines, aivat_logs
from dealer.analysis.bankrollplot import PLOT, bankroll_png, match_curves
from dealer.analysis.playedlog import read_log
from dealer.referee.config import TimeLimits
from dealer.referee.decisionlog import decisions_path
from dealer.running.duplicate import (
    DuplicatePlan,
    DuplicateRun,
    Listening,
    MatchStatus,
    Transport,
    derived_seed,
    duplicate_json,
    duplicate_run,
    duplicate_text,
    plan_json,
    started_json,
)
from dealer.running.halves import AfterHalf, BeforeHalf, Halves
from dealer.running.isolation import IsolatedEntrant
from dealer.running.matchfolder import MatchFolder

__all__ = [
    "AfterHalf",
    "BeforeHalf",
    "MatchFailedError",
    "MatchInterruptedError",
    "MatchRequest",
    "MatchRun",
    "check_match",
    "default_jobs",
    "run_match",
]

log = get_logger("match")

_EARLIER = {"running": "killed while it ran", "finished": "it finished"}
"""An earlier run's status, as the notice of a match going on with it says it."""


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class MatchRequest:
    """A duplicate match to play, as its callers describe it."""

    agent_a: Entrant
    """The agent results are given for."""
    agent_b: Entrant
    hands: int = 1000
    """Hands per half."""
    seed: int = 0
    """The dealer's card seed."""
    seed_a: int | None = None
    """Agent A's seed (``None``: derived from :attr:`seed`)."""
    seed_b: int | None = None
    game: str = LIMIT_HOLDEM
    """A ``.game`` file or the name of a bundled game."""
    transport: Transport = Transport.INPROCESS
    duplicate: bool = True
    out: Path | None = None
    """The results folder (``None``: ``./`` + the match's name)."""
    force: bool = False
    """Replace another match found in :attr:`out`."""
    jobs: int | None = None
    """Halves played at once, each in a process of its own (``None``: the cores)."""
    progress: bool | Show = False
    """The progress line on stderr (:class:`~acpcbot.progress.display.Show`): ``True`` (or
    :attr:`Show.AUTO`) a bar on a terminal and now and then a plain line elsewhere,
    :attr:`Show.ALWAYS` plain lines every few seconds elsewhere, ``False`` never."""
    mqtt: BrokerAddress | None = None
    """Publish the match's status and progress to this MQTT broker."""
    mqtt_hands: bool = False
    """With :attr:`mqtt`, publish every hand too."""
    plot: bool = False
    """Draw the bankroll curves into the match's folder (:data:`PLOT`)."""
    listening: Listening | None = None
    """With :attr:`Transport.REMOTE`: where the halves listen for their players (127.0.0.1
    and ports chosen by the system by default)."""
    aivat: bool = False
    """Record every decision's probabilities beside the logs and add the AIVAT estimate."""
    limits: TimeLimits = field(default_factory=TimeLimits)
    """The players' time limits over TCP (the reference dealer's by default), as the logs'
    headers record them; a player over one ends the half, as it ends a reference match."""

    @property
    def entrants(self) -> tuple[Entrant, Entrant]:
        return (self.agent_a, self.agent_b)

    @property
    def agent_seeds(self) -> tuple[int, int]:
        return (
            self.seed_a if self.seed_a is not None else derived_seed(self.seed, 0),
            self.seed_b if self.seed_b is not None else derived_seed(self.seed, 1),
        )

    def plan(self) -> DuplicatePlan:
        """The match as the dealer plays it."""
        return DuplicatePlan(
            agents=(self.agent_a.name, self.agent_b.name),
            hands=self.hands,
            seed=self.seed,
            agent_seeds=self.agent_seeds,
            transport=self.transport,
            duplicate=self.duplicate,
            game_path=self.game,
            limits=self.limits,
            isolated=(
                isinstance(self.agent_a, IsolatedEntrant),
                isinstance(self.agent_b, IsolatedEntrant),
            ),
        )

    @property
    def out_dir(self) -> Path:
        return self.out if self.out is not None else Path(self.plan().match_name)


@dataclass(frozen=True)
class MatchRun:
    """A match as :func:`run_match` played it."""

    request: MatchRequest
    run: DuplicateRun
    summary: dict[str, Any]
    """What ``summary.json`` holds."""
    collected: tuple[Any, ...] = field(default=())
    """What ``after_half`` returned, by half (``None`` for a half that did not finish)."""
    plot: Path | None = None
    """The bankroll picture drawn (``plot``)."""
    aivat: AivatReport | None = None
    """Agent A's AIVAT estimate (with ``aivat``)."""
    unwritten: WriteError | None = None
    """The first file that could not be written (a log, ``summary.json``, the plot)."""

    def text(self) -> list[str]:
        """The summary for people, line by line."""
        lines = duplicate_text(self.run)
        if self.aivat is not None:
            where = next(i for i, line in enumerate(lines) if line.startswith("  decisions:"))
            lines[where:where] = [f"  {line}" for line in aivat_lines(self.aivat)]
            side = [decisions_path(Path(h.log)).name for h in self.run.halves]
            lines[-1] += f", {', '.join(side)}"
        if self.plot is not None:
            lines.append(f"  bankroll curves in {self.plot}")
        telemetry = self.summary.get("telemetry")
        if isinstance(telemetry, dict):
            lines.append(f"  {told_text(telemetry)}")
        return lines


class MatchFailedError(AcpcError):
    """The match ended with an error; its summary (``"status": "failed"``) is written."""

    def __init__(self, message: str, match: MatchRun) -> None:
        super().__init__(message)
        self.match = match


class MatchInterruptedError(KeyboardInterrupt):
    """The match was interrupted; its summary (``"status": "interrupted"``) is written."""

    def __init__(self, message: str, match: MatchRun) -> None:
        super().__init__(message)
        self.match = match


def run_match(
    request: MatchRequest,
    *,
    after_half: AfterHalf | None = None,
    on_progress: Callable[[int, float], None] | None = None,
    before_half: BeforeHalf | None = None,
) -> MatchRun:
    """Check, play and record ``request``'s match (see the module's description).
    ``on_progress`` is told now and then the hands played so far (over both halves) and
    agent A's chips over them, as the progress line is (a tournament sums its matches).
    ``before_half`` is asked before the second half whether to play it (a person who plays
    the first half decides on the rematch): with it the halves are played one after the
    other in this process, and a ``False`` ends the match as Ctrl-C between the halves
    would (interrupted, the first half's hands kept)."""
    game = check_match(request)
    if before_half is not None and request.transport is Transport.REMOTE:
        raise AcpcError("remote players' halves are played at once: no asking between them")
    plan = request.plan()
    out = request.out_dir
    files = [plan.log_name(half) for half in range(plan.halves)] + [PLOT]
    side_files = [plan.decisions_name(half) for half in range(plan.halves)]
    with MatchFolder.open(out, plan_json(plan), files + side_files, force=request.force) as folder:
        earlier = folder.earlier
        replay = earlier is not None
        replaying = _played_before(out, plan) if replay else ()
        if earlier is not None:
            notice(
                f"going on with the earlier run of this match in {out} "
                f"({_EARLIER.get(earlier, earlier)}): the {sum(replaying):,} hands it played "
                "are played again first, checked against its logs, so that the agents are "
                "where they were; --force starts over",
                event="resuming_match",
                folder=str(out),
                status=earlier,
                hands=sum(replaying),
            )
        with writing(out):  # (each file was checked to be writable)
            if not request.plot:  # an earlier run's picture would not be this run's
                (out / PLOT).unlink(missing_ok=True)
            if not request.aivat:  # an earlier run's, which this run's logs would not match
                for name in side_files:
                    (out / name).unlink(missing_ok=True)
        folder.write_summary(started_json(plan, str(out)))
        monitor = _monitor(request, plan, game, out, replaying)
        halves = Halves(
            request.entrants,
            plan,
            game,
            out,
            monitor=monitor,
            after_half=after_half,
            on_progress=on_progress,
            listening=request.listening,
            record_decisions=request.aivat,
            replay=replay,
            before_half=before_half,
        )
        started = time.perf_counter()
        crash: str | None = None
        # Remote players connect to both halves at once: both must listen from the start.
        at_once = plan.transport is Transport.REMOTE and plan.halves > 1
        with _first_interrupt_stops(halves.stop), lines_to(monitor.display.write):
            try:
                in_turn = before_half is not None
                if at_once or (
                    not in_turn and min(request.jobs or default_jobs(), plan.halves) > 1
                ):
                    halves.play_in_processes()
                else:
                    halves.play_here()
            except KeyboardInterrupt:
                pass  # a second Ctrl-C: what the halves that ended played is recorded below
            except BaseException as exc:
                crash = f"{type(exc).__name__}: {exc}"
                raise
            finally:
                monitor.close_display()
                match = _record(request, halves, folder, time.perf_counter() - started, crash)
                match = _finish(match, halves, monitor, folder)
    if match.unwritten is not None:
        raise match.unwritten
    status = match.run.status
    if status is MatchStatus.FAILED:
        assert match.run.error is not None
        raise MatchFailedError(match.run.error, match)
    if status is MatchStatus.INTERRUPTED:
        raise MatchInterruptedError(
            f"interrupted after {match.run.hands:,} of {plan.halves * plan.hands:,} hands; "
            f"the results so far are in {out / 'summary.json'}",
            match,
        )
    return match


def check_match(request: MatchRequest) -> Game:
    """Raise :class:`UsageError` for anything wrong with ``request`` that its numbers, its
    game and its entrants show (:meth:`~acpcbot.player.Entrant.check`: no agent is made,
    no match begun; writing nothing), an :class:`AcpcError` for a plug-in whose code fails as
    it is checked; return its game. :func:`run_match` calls it first, then takes the folder,
    whose path is checked there (once); a caller planning many matches can check them all
    before playing any."""
    if not 0 < request.hands <= MAX_HANDS:
        raise UsageError(
            f"the number of hands must be 1 .. {MAX_HANDS:,} (the reference dealer's limit), "
            f"not {request.hands:,}"
        )
    seeds = {"seed": request.seed, "seed-a": request.seed_a, "seed-b": request.seed_b}
    for what, seed in seeds.items():
        if seed is not None and not 0 <= seed < 2**32:
            raise UsageError(f"--{what} must be 0 .. 4294967295, not {seed}")
    if request.jobs is not None and request.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {request.jobs}")
    if request.listening is not None and request.transport is not Transport.REMOTE:
        raise UsageError("where to listen for players is for --transport remote only")
    if request.transport is Transport.REMOTE and any(request.plan().isolated):
        raise UsageError("--isolate is for agents played here, not --transport remote")
    if request.aivat and request.transport is Transport.REMOTE:
        raise UsageError(
            "--aivat needs the agents' probabilities at each decision: play them here "
            "(--transport inprocess or tcp), not remote"
        )
    if request.plot:
        need_matplotlib()
    if request.mqtt is not None:
        need_mqtt()
    elif request.mqtt_hands:
        raise UsageError("--mqtt-hands needs --mqtt URL")
    game = load_game(request.game)
    if game.num_players != 2:
        raise UsageError(
            f"a duplicate match is heads-up: {request.game} is a game of {game.num_players} "
            "players (acpc-dealer plays any number)"
        )
    plan = request.plan()
    for half in range(plan.halves):
        plan.config(half, game)  # names a log cannot hold fail here
    if request.listening is not None:
        ports = request.listening.ports
        if len(ports) > 2 * game.num_players:
            raise UsageError(
                f"{len(ports)} ports given; a duplicate match listens on {2 * game.num_players} "
                "(half 1's seats, then half 2's)"
            )
        if len({port for port in ports if port}) < len([port for port in ports if port]):
            raise UsageError(f"a port is given twice: {','.join(map(str, ports))}")
    if plan.transport is Transport.REMOTE:
        return game  # the players are whoever connects
    for entrant in request.entrants:
        try:
            entrant.check(game)
        except UnsupportedGameError as exc:  # the request's fault
            raise UsageError(f"{entrant.spec} cannot play {request.game}: {exc}") from None
    return game


def _played_before(out: Path, plan: DuplicatePlan) -> tuple[int, ...]:
    """The hands (whole lines) each half's log in ``out`` holds: what a resumed match plays
    again first (a log that cannot be read counts none: the replay says what is wrong)."""
    played = []
    for half in range(plan.halves):
        path = out / plan.log_name(half)
        hands = 0
        if path.exists():
            try:
                with open_log(path, whole_lines_only=True) as log:
                    hands = log.read().hands
            except LogError:
                pass
        played.append(hands)
    return tuple(played)


def _monitor(
    request: MatchRequest, plan: DuplicatePlan, game: Game, out: Path, replaying: tuple[int, ...]
) -> MatchMonitor:
    """What the halves' reports feed: the progress line (saying how far a resumed match has
    played again the hands of its earlier run, ``replaying``) and the telemetry (which
    publishes ``running`` now)."""
    a, b = plan.names
    total = plan.halves * plan.hands
    display = ProgressDisplay(f"{a} vs {b}", total, show=Show.of(request.progress))
    channel = None
    if request.mqtt is not None:

        def warn(text: str) -> None:
            display.write(f"acpcbot: warning: {text}")

        def note(text: str) -> None:
            display.write(f"acpcbot: {text}")

        describe = {
            "source": "acpcbot match",
            **plan_json(plan),
            "hands_total": total,
            "transport": plan.transport.value,
            "out": str(out),
        }
        channel = Channel(request.mqtt, Kind.MATCH, plan.match_name, describe, warn=warn, note=note)
        channel.start()
    running = RunningMatch(total, game.big_blind, duplicate=plan.duplicate)
    return MatchMonitor(running, display, a, channel, hands=request.mqtt_hands, replaying=replaying)


def _finish(
    match: MatchRun, halves: Halves, monitor: MatchMonitor, folder: MatchFolder
) -> MatchRun:
    """The picture (``plot``), the final status and the telemetry's counts (``mqtt``, then
    added to ``summary.json``). Never raises: the match is recorded already (a file that
    could not be written is kept in :attr:`MatchRun.unwritten`)."""
    request, summary = match.request, match.summary
    plot = None
    unwritten = match.unwritten
    if request.plot and match.run.hands:
        try:
            plot = _draw(match, halves)
        except WriteError as exc:  # the match stands without its picture, but says so
            unwritten = _unwritten(unwritten, exc)
        except Exception as exc:
            log.warning("plot_failed", error=f"{type(exc).__name__}: {exc}")
    if monitor.channel is None:
        return replace(match, plot=plot, unwritten=unwritten)
    result = {
        key: summary.get(key)
        for key in (
            "hands",
            "samples",
            "mbb_per_game",
            "ci95",
            "pair_sd_mbb",
            "seconds",
            "hands_per_second",
        )
    }
    body: dict[str, Any] = {"result": result, "summary": summary}
    if match.run.error is not None:
        body["error"] = match.run.error
    stats = monitor.close(match.run.status.value, body)
    assert stats is not None
    summary = {**summary, "telemetry": monitor.channel.told(stats)}
    unwritten = _unwritten(unwritten, _write_summary(folder, summary))
    return replace(match, summary=summary, plot=plot, unwritten=unwritten)


def _draw(match: MatchRun, halves: Halves) -> Path:
    """``bankroll.png`` of the hands played."""
    plan = halves.plan
    a, b = plan.names
    outcomes = [halves.outcomes[h] for h in sorted(halves.outcomes)]
    labelled = [
        (f"half {o.half + 1} ({a} in seat {plan.seats(o.half).index(0) + 1})", o.values)
        for o in outcomes
    ]
    curves, pairs = match_curves(a, labelled, plan.duplicate)
    kind = "duplicate match" if plan.duplicate else "match"
    title = (
        f"{a} vs {b}: {kind}, {plan.halves} × {plan.hands:,} hands, seed {plan.seed} "
        f"({match.run.hands:,} hands played)"
    )
    path = match.run.out_dir / PLOT
    replace_file(path, bankroll_png(title, a, halves.job.game.big_blind, curves, pairs))
    return path


def _record(
    request: MatchRequest, halves: Halves, folder: MatchFolder, seconds: float, crash: str | None
) -> MatchRun:
    """The match as far as it got, written to ``summary.json``."""
    plan = halves.plan
    outcomes = [halves.outcomes[h] for h in sorted(halves.outcomes)]
    errors = [o.error for o in outcomes if o.error is not None]
    if crash is not None:
        errors.insert(0, crash)
    if errors:
        status = MatchStatus.FAILED
    elif len(outcomes) < plan.halves or not all(o.finished for o in outcomes):
        status = MatchStatus.INTERRUPTED
    else:
        status = MatchStatus.FINISHED
    if plan.transport is Transport.REMOTE and outcomes:
        # The halves ran at once, each timed from its players' arrival: the time spent
        # waiting for players to start is not the match's.
        seconds = min(seconds, max(o.seconds for o in outcomes))
    run = duplicate_run(
        plan,
        halves.job.out,
        halves.job.game.big_blind,
        outcomes,
        seconds=seconds,
        status=status,
        error=errors[0] if errors else None,
    )
    summary = duplicate_json(run)
    aivat = None
    if request.aivat and crash is None and run.halves and status is not MatchStatus.FAILED:
        aivat = _aivat(run, halves)
        summary["aivat"] = aivat_json(aivat)
    unwritten = next((o.failed_writing for o in outcomes if o.failed_writing is not None), None)
    unwritten = _unwritten(unwritten, _write_summary(folder, summary))
    collected = tuple(halves.collected.get(h) for h in range(plan.halves))
    return MatchRun(request, run, summary, collected, aivat=aivat, unwritten=unwritten)


def _write_summary(folder: MatchFolder, summary: dict[str, Any]) -> WriteError | None:
    """Write ``summary.json``; what kept it from being written, if anything did."""
    try:
        folder.write_summary(summary)
    except WriteError as exc:
        return exc
    return None


def _unwritten(first: WriteError | None, then: WriteError | None) -> WriteError | None:
    """One error for the files a match could not write: the first, saying that the summary
    was not updated either.

    >>> full = "No space left on device"
    >>> log, summary = WriteError(Path("m/a.log"), full), WriteError(Path("m/summary.json"), full)
    >>> print(_unwritten(log, summary))
    cannot write m/a.log: No space left on device (m/summary.json not updated either)
    """
    if first is None or then is None:
        return first or then
    return WriteError(first.path, f"{first.reason} ({shown_path(then.path)} not updated either)")


def _aivat(run: DuplicateRun, halves: Halves) -> AivatReport:
    """Agent A's AIVAT estimate over the halves played (each computed by its half)."""
    plain = run.pair.estimate if run.pair is not None else run.halves[0].result.estimate
    done = [halves.aivat[h] for h in sorted(halves.aivat)]
    if run.pair is not None and len(done) == 2:
        return AivatReport(tuple(done), pair_of(done[0], done[1], run.big_blind), plain)
    if len(done) == 0:  # a half that stopped before its first hand
        logs = [read_log(run.out_dir / half.log) for half in run.halves[:1]]
        return aivat_logs(logs, halves.job.game, plain, run.plan.names[0])
    return AivatReport(tuple(done[:1]), None, plain)


@contextlib.contextmanager
def _first_interrupt_stops(stop: Callable[[], None]) -> Iterator[None]:
    """While in the block, the first SIGINT calls ``stop`` (the halves end after their
    current hand) and the next one raises :class:`KeyboardInterrupt` as usual. SIGTERM
    (``kill``, ``docker stop``) calls ``stop`` and nothing more, so that the results of the
    hands played are written. Only the main thread can handle signals: elsewhere (a worker
    thread) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    previous_term = signal.getsignal(signal.SIGTERM)

    def handler(signum: int, frame: object) -> None:
        del frame
        if signum == signal.SIGINT:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        stop()

    if previous is not signal.SIG_IGN:  # unless someone wants Ctrl-C ignored
        signal.signal(signal.SIGINT, handler)
    if previous_term is not signal.SIG_IGN:
        signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.signal(signal.SIGTERM, previous_term)


@contextlib.contextmanager
def sigterm_ignored() -> Iterator[None]:
    """While in the block, SIGTERM is ignored: the hands are played, and what is left (the
    summary printed, a plot) is written whatever comes, as when docker stops every container
    once a player's has ended (:func:`run_match` stops the hands on SIGTERM and writes
    summary.json; this covers what follows). Only the main thread can: elsewhere nothing
    changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
