"""Running a tournament: its plan, its folder, its matches on an executor, its results.

:func:`run_tournament`

1. checks everything before it writes a file: the numbers, the game, every agent and
   every pairing (:func:`~dealer.running.match.check_match` on each), and that the packages
   ``--scheduler`` and ``--plot`` need are installed;
2. connects to the Dask scheduler (with ``--scheduler``: one that cannot be reached is an
   error before any file), takes the folder
   (:class:`~dealer.running.tournamentfolder.TournamentFolder`: locked, refused when it holds
   something else) and checks every match already in it
   (:func:`~dealer.running.tournamentfolder.check_match`): the finished ones are kept;
3. plays the others (each exactly as ``acpcbot match`` plays it:
   :func:`~dealer.running.tasks.play_task`) on a local pool of processes or on a Dask
   cluster; each match's files land in its folder as soon as it ends, and are checked like
   the ones found;
4. writes ``results.json`` (and ``crosstable.png``) and ``tournament.json``'s status:
   ``finished``, ``failed`` (a match failed or was given up, or the executor broke: then
   an :class:`AcpcError` says so) or ``interrupted`` (Ctrl-C: then
   :class:`TournamentInterruptedError` is raised), the results being those of the matches
   finished so far.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acpcbot.errors import AcpcError, UsageError
from acpcbot.extras import need_matplotlib, need_mqtt
from acpcbot.game import LIMIT_HOLDEM, load_game
from acpcbot.player import Entrant
from acpcbot.progress.display import Show
from acpcbot.progress.pool import PoolMonitor
from acpcbot.telemetry.channel import Channel, told_text
from acpcbot.telemetry.codec import Kind
from acpcbot.telemetry.url import BrokerAddress
from acpcbot.writing import WriteError, replace_file
from dealer.analysis.aivatreport import PooledAivat, pooled_json, pooled_lines
from dealer.analysis.crosstableplot import heatmap_png
from dealer.running.daskpool import DaskPool, need_distributed
from dealer.running.duplicate import Transport
from dealer.running.localpool import LocalPool
from dealer.running.match import MatchRequest, check_match, default_jobs
from dealer.running.matchfolder import SUMMARY, read_summary
from dealer.running.resultfiles import check_path, json_bytes
from dealer.running.tasks import Executor, MatchTask, TaskResult
from dealer.running.tournamentfolder import (
    CROSSTABLE_PLOT,
    PARTIAL,
    RESULTS,
    MatchCheck,
    TournamentFolder,
)
from dealer.running.tournamentfolder import check_match as check_played
from dealer.running.tournamentplan import PlannedMatch, TournamentError, TournamentPlan
from dealer.running.tournamentreport import (
    TournamentReport,
    pairings_aivat,
    plot_caption,
    tournament_json,
    tournament_lines,
    tournament_report,
)

__all__ = [
    "TournamentInterruptedError",
    "TournamentRequest",
    "TournamentRun",
    "plan_tournament",
    "run_tournament",
    "write_plot",
]


@dataclass(frozen=True)
class TournamentRequest:
    """A tournament, as its callers describe it."""

    entrants: tuple[Entrant, ...]
    """The agents: every pair of them plays, or each against :attr:`vs`."""
    out: Path | None = None
    """The tournament's folder (``None``: ``./tournament.seedS.nN``, see :attr:`out_dir`)."""
    hands: int = 1000
    """Hands per half of each match."""
    seeds: int = 1
    """Matches per pairing, on card seeds :attr:`seed` .. :attr:`seed` + seeds - 1."""
    seed: int = 0
    vs: Entrant | None = None
    """An agent to play against each of :attr:`entrants` (and no other pairing)."""
    game: str = LIMIT_HOLDEM
    transport: Transport = Transport.INPROCESS
    jobs: int | None = None
    """Matches played at once by the local pool (``None``: the cores)."""
    scheduler: str | None = None
    """A Dask scheduler's address: play there instead of the local pool."""
    plot: bool = False
    """Also draw the crosstable as a heatmap (``crosstable.png``)."""
    progress: bool | Show = False
    """The progress line on stderr (as :attr:`MatchRequest.progress`)."""
    mqtt: BrokerAddress | None = None
    """Publish the tournament's status and progress to this MQTT broker."""
    aivat: bool = False
    """Record every decision's probabilities and add each pairing's AIVAT estimate."""

    @property
    def out_dir(self) -> Path:
        """The tournament's folder: :attr:`out`, or one named after the series (the hands,
        the first seed and the game: what a folder's tournament keeps when it grows).

        >>> TournamentRequest((), hands=500, seed=3).out_dir
        PosixPath('tournament.seed3.n500')
        """
        if self.out is not None:
            return self.out
        game = "" if self.game == LIMIT_HOLDEM else f".{Path(self.game).name.removesuffix('.game')}"
        return Path(f"tournament.seed{self.seed}.n{self.hands}{game}")

    @property
    def agents(self) -> tuple[Entrant, ...]:
        """Every agent, in the plan's order: the ``vs`` agent first."""
        return self.entrants if self.vs is None else (self.vs, *self.entrants)


@dataclass(frozen=True)
class TournamentRun:
    """A tournament as :func:`run_tournament` ran it."""

    report: TournamentReport
    status: str
    """``finished``, ``failed`` or ``interrupted``."""
    played: int
    """Matches played to their end by this run."""
    reused: int
    """Matches found finished in the folder."""
    failures: tuple[tuple[str, str], ...]
    """Matches that failed or were given up, with why."""
    seconds: float
    hands: int
    """Hands played by this run."""
    executor: str
    telemetry: dict[str, Any] | None = None
    """With ``mqtt``: the broker, the tournament's id and what became of the messages."""
    aivat: tuple[PooledAivat, ...] = ()
    """Each pairing's AIVAT estimate over its matches that have one (with ``aivat``)."""
    files: tuple[Path, ...] = ()
    """What it wrote besides the matches: ``results.json`` and (``plot``) the heatmap."""

    def text(self, width: int | None = None) -> list[str]:
        """The results and how this run went, for people (the crosstable fitted to
        ``width``, as :func:`tournament_lines` does)."""
        lines = tournament_lines(self.report, width)
        if self.aivat:
            lines += pooled_lines(self.aivat)
        rate = self.hands / max(self.seconds, 1e-9)
        lines.append(
            f"played {self.played} match{'es' if self.played != 1 else ''} ({self.reused} kept "
            f"from an earlier run) in {self.seconds:.1f} s on {self.executor} ({rate:,.0f} "
            f"hands/s); results in {', '.join(str(path) for path in self.files)}"
        )
        if self.telemetry is not None:
            lines.append(told_text(self.telemetry))
        return lines

    def json(self) -> dict[str, Any]:
        """``results.json``: the results and how this run went."""
        return {
            "status": self.status,
            **tournament_json(self.report),
            **({"aivat": [pooled_json(p) for p in self.aivat]} if self.aivat else {}),
            "run": {
                "executor": self.executor,
                "played": self.played,
                "reused": self.reused,
                "failed": [{"match": name, "why": why} for name, why in self.failures],
                "hands": self.hands,
                "seconds": round(self.seconds, 3),
                "hands_per_second": round(self.hands / max(self.seconds, 1e-9), 1),
            },
        }


class TournamentInterruptedError(KeyboardInterrupt):
    """Ctrl-C: the matches finished so far are kept, and their results written."""

    def __init__(self, run: TournamentRun) -> None:
        super().__init__(
            f"interrupted with {run.report.finished} of {len(run.report.checks)} matches "
            "finished; the same command plays the others"
        )
        self.run = run


def write_plot(report: TournamentReport, folder: Path) -> Path:
    """Draw the crosstable into ``folder/crosstable.png``."""

    path = folder / CROSSTABLE_PLOT
    replace_file(path, heatmap_png(report.crosstable, plot_caption(report)))
    return path


def plan_tournament(request: TournamentRequest) -> TournamentPlan:
    """The plan of ``request``'s tournament, every pairing checked (writes nothing)."""
    if request.jobs is not None and request.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {request.jobs}")
    game = load_game(request.game)
    plan = TournamentPlan(
        tuple(entrant.spec for entrant in request.agents),
        tuple(entrant.name for entrant in request.agents),
        request.hands,
        request.seed,
        request.seeds,
        request.game,
        game.big_blind,
        vs=request.vs is not None,
    )
    check_path(request.out_dir, TournamentError)
    for a, b in plan.pairings:
        match = plan.match(a, b, plan.seed)
        check_match(_match_request(request, plan, match, request.out_dir / match.name))
    return plan


def _executor(request: TournamentRequest) -> Executor:
    if request.scheduler is not None:
        return DaskPool(request.scheduler)

    return LocalPool(request.jobs or default_jobs())


def _match_request(
    request: TournamentRequest, plan: TournamentPlan, match: PlannedMatch, out: Path | None
) -> MatchRequest:
    return MatchRequest(
        request.agents[match.a],
        request.agents[match.b],
        hands=plan.hands,
        seed=match.seed,
        game=plan.game,
        transport=request.transport,
        out=out,
        jobs=1,
        aivat=request.aivat,
    )


def run_tournament(
    request: TournamentRequest, say: Callable[[str], None] | None = None
) -> TournamentRun:
    """Check, play and record ``request``'s tournament (see the module's description);
    ``say`` hears a line as each match ends (and when one is tried again)."""
    if request.scheduler is not None:
        need_distributed()
    if request.plot:
        need_matplotlib()
    if request.mqtt is not None:
        need_mqtt()
    plan = plan_tournament(request)
    executor = _executor(request)
    with executor, TournamentFolder.open(request.out_dir, plan) as folder:  # Dask connects first
        checks = {m.name: check_played(folder.path, m) for m in plan.matches()}
        reused = sum(check.finished for check in checks.values())
        tasks = [
            MatchTask(m.name, m.task_key, _match_request(request, plan, m, None))
            for m in plan.matches()
            if not checks[m.name].finished
        ]
        line = _monitor(request, plan, tasks, executor.description)
        tournament = _Tournament(folder, plan, checks, tasks, line, say)
        if reused and say is not None:
            say(f"{reused} of {len(checks)} matches found finished in {folder.path}; kept")
        status = "finished"
        broke: str | None = None
        unwritten: WriteError | None = None
        try:
            executor.run(tasks, tournament, folder.path / PARTIAL)
        except KeyboardInterrupt:
            status = "interrupted"
        except WriteError as exc:  # its folder's disk is full, or read-only now
            status, unwritten = "failed", exc
        except Exception as exc:  # the executor itself broke (say, the scheduler left)
            status = "failed"
            broke = str(exc) if isinstance(exc, AcpcError) else f"{type(exc).__name__}: {exc}"
        finally:
            tournament.line.display.close()
        if status != "finished":
            # Stopped, a match may have moved into the folder without being checked yet.
            for name, check in checks.items():
                if not check.finished and (folder.path / name).is_dir():
                    checks[name] = check_played(folder.path, check.match)
        report = tournament_report(plan, [checks[m.name] for m in plan.matches()])
        if status == "finished" and report.finished < len(checks):
            status = "failed"
        run = TournamentRun(
            report,
            status,
            tournament.played,
            reused,
            tuple(tournament.failures),
            time.perf_counter() - tournament.started,
            tournament.hands_done,
            executor.description,
            aivat=pairings_aivat(report, folder.path) if request.aivat else (),
            files=(
                request.out_dir / RESULTS,
                *([request.out_dir / CROSSTABLE_PLOT] if request.plot else []),
            ),
        )
        run = _published(run, tournament.line, broke or (str(unwritten) if unwritten else None))
        try:
            folder.write_file(RESULTS, json_bytes(run.json()))
            if request.plot:
                write_plot(report, folder.path)
            folder.write_status(status)
        except WriteError as exc:
            unwritten = unwritten or exc
            with contextlib.suppress(WriteError):  # marked failed, when that can be written
                folder.write_status("failed")
    if unwritten is not None:
        raise WriteError(
            unwritten.path,
            f"{unwritten.reason}; the {report.finished} matches finished are kept in "
            f"{request.out_dir}, and the same command plays the others",
        )
    if broke is not None:
        raise AcpcError(
            f"{executor.description} failed: {broke}; the {report.finished} matches finished "
            f"are kept in {request.out_dir}, and the same command plays the others"
        )
    if status == "interrupted":
        raise TournamentInterruptedError(run)
    return run


def _monitor(
    request: TournamentRequest, plan: TournamentPlan, tasks: list[MatchTask], executor: str
) -> PoolMonitor:
    """The progress line, and the tournament's telemetry (``running`` published now)."""
    hands = len(tasks) * plan.hands * 2
    show = Show.of(request.progress)
    channel = None
    if request.mqtt is not None:
        describe = {
            "source": "acpcbot tournament",
            "agents": list(plan.names),
            "hands_per_half": plan.hands,
            "seed": plan.seed,
            "seeds": plan.seeds,
            "game": plan.game,
            "matches_total": len(tasks),
            "hands_total": hands,
            "executor": executor,
            "out": str(request.out_dir),
        }
        display: list[PoolMonitor] = []

        def warn(text: str) -> None:
            if display:
                display[0].display.write(f"acpcbot: warning: {text}")

        channel = Channel(request.mqtt, Kind.TOURNAMENT, request.out_dir.name, describe, warn=warn)
        monitor = PoolMonitor(len(tasks), hands, show=show, channel=channel)
        display.append(monitor)
        channel.start()
        return monitor
    return PoolMonitor(len(tasks), hands, show=show)


def _published(run: TournamentRun, monitor: PoolMonitor, broke: str | None) -> TournamentRun:
    """The final status published (with ``mqtt``), and what became of the messages."""
    channel = monitor.channel
    if channel is None:
        return run
    result = {
        "matches_done": run.report.finished,
        "matches_total": len(run.report.checks),
        "played": run.played,
        "reused": run.reused,
        "failed": [name for name, _ in run.failures],
        "hands": run.hands,
        "seconds": round(run.seconds, 3),
        "hands_per_second": round(run.hands / max(run.seconds, 1e-9), 1),
    }
    body: dict[str, Any] = {"result": result}
    if broke is not None:
        body["error"] = broke
    stats = monitor.close(run.status, body)
    assert stats is not None
    return dataclasses.replace(run, telemetry=channel.told(stats))


@dataclass
class _Tournament:
    """What the executor's events do: each match's files moved into the folder and checked,
    the progress shown and published."""

    folder: TournamentFolder
    plan: TournamentPlan
    checks: dict[str, MatchCheck]
    tasks: list[MatchTask]
    line: PoolMonitor
    say: Callable[[str], None] | None
    played: int = 0
    ended: int = 0
    hands_done: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)
    running: dict[str, int] = field(default_factory=dict)
    """Hands played so far by the matches being played."""
    over: set[str] = field(default_factory=set)
    """The matches that ended (or were given up) in this run."""
    started: float = field(default_factory=time.perf_counter)

    def __post_init__(self) -> None:
        self.by_name = {m.name: m for m in self.plan.matches()}

    def _say(self, text: str) -> None:
        if self.say is not None:
            with self.line.suspended():
                self.say(text)

    def progress(self, name: str, hands: int) -> None:
        if name in self.by_name and name not in self.over:  # a late report is dropped
            self.running[name] = hands

    def finished(self, result: TaskResult) -> None:
        match = self.by_name[result.name]
        files = dict(result.files)
        summary = json.loads(files[SUMMARY])
        summary["out"] = str(self.folder.path / match.name)  # not the worker's scratch folder
        files[SUMMARY] = json_bytes(summary)
        self.folder.install(match, files)
        self.running.pop(result.name, None)
        self.over.add(result.name)
        self.ended += 1
        self.hands_done += result.hands
        if result.error is not None:
            check = MatchCheck(match, None, f"failed: {result.error}")
            self.failures.append((match.name, result.error))
        else:
            check = check_played(self.folder.path, match)
            if check.finished:
                self.played += 1
            else:
                self.failures.append((match.name, f"played, but {check.why}"))
        self.checks[match.name] = check
        self._say(f"{self.ended}/{len(self.tasks)} {match.name}: {self._outcome(check)}")

    def _outcome(self, check: MatchCheck) -> str:
        if check.sums is None:
            return str(check.why)
        e = check.sums.estimate(self.plan.big_blind)
        a = self.plan.names[check.match.a]
        text = f"{a} {e.mbb_per_game:+.1f} mbb/g ± {e.ci95_mbb:.1f}"
        summary = read_summary(self.folder.path / check.match.name / SUMMARY) or {}
        aivat = summary.get("aivat")
        if isinstance(aivat, dict):
            text += f" (AIVAT {aivat.get('mbb_per_game', 0.0):+.1f} ± {aivat.get('ci95', 0.0):.1f})"
        return text

    def retried(self, name: str, attempt: int, why: str) -> None:
        self.running.pop(name, None)
        self._say(f"{name}: {why}; playing it again (attempt {attempt})")

    def gave_up(self, name: str, why: str) -> None:
        self.running.pop(name, None)
        self.over.add(name)
        self.ended += 1
        self.failures.append((name, why))
        self.checks[name] = MatchCheck(self.by_name[name], None, why)
        self._say(f"{self.ended}/{len(self.tasks)} {name}: given up: {why}")

    def tick(self) -> None:
        hands = self.hands_done + sum(self.running.values())
        self.line.update(self.ended, len(self.running), hands)
