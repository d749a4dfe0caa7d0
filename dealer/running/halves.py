"""Playing a match's halves: one after the other here, or side by side in processes.

The halves of a duplicate match are independent, so each may run in a process of its own
(forked, so that what this process loaded, tables and compiled code, is shared). Each
reports its progress now and then through a queue (agent A's chips in each hand since the
last report and, for ``--mqtt-hands``, the log's ``STATE`` lines), its log lines (written
by the parent, above the progress bar: two processes writing one stderr could splice their
lines), and its :class:`HalfOutcome` when it ends; the process that runs the match feeds
the reports to its :class:`~acpcbot.progress.monitor.MatchMonitor` (one progress line, the
running mbb/g over the pairs both halves played, the telemetry) and may stop every half
after its current hand through a shared flag. Either way the halves play exactly the same
hands: the logs are byte-identical.
"""

from __future__ import annotations

import codecs
import contextlib
import ctypes
import multiprocessing
import os
import queue
import signal
import sys
import time
import traceback
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.context import ForkContext, SpawnContext
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any, Protocol

from acpcbot.eventloop import loop_factory
from acpcbot.game import Game
from acpcbot.logconfig import lines_to
from acpcbot.player import Entrant, MatchInfo, Player, Strategy
from acpcbot.progress.monitor import MatchMonitor
from dealer.analysis.aivat import AivatHalf, aivat_half
from dealer.analysis.playedlog import read_log
from dealer.running.duplicate import (
    DuplicatePlan,
    HalfOutcome,
    Listening,
    StopHalf,
    Transport,
    play_half,
)

__all__ = [
    "AfterHalf",
    "BeforeHalf",
    "HalfDone",
    "HalfJob",
    "Halves",
    "die_with_parent",
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
    :func:`~dealer.running.duplicate.play_half`)."""

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
        for entrant, name in zip(self.entrants, self.plan.names, strict=True):
            with contextlib.suppress(Exception):
                entrant.create(0).begin_match(MatchInfo(self.game, name=name))

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


def die_with_parent() -> None:
    """On Linux, have this process killed when its parent dies (say, by SIGKILL): a half (or
    a benchmark server's run) must not play on for nobody, nor keep what it inherited open
    (the match's broker connection, whose last will says the match was aborted)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() == 1:  # the parent died before that: go now
        os._exit(1)


_PR_SET_PDEATHSIG = 1


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
