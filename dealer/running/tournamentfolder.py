"""A tournament's folder: its plan, a folder per finished match, its results; one run at a
time.

::

    DIR/
      .lock                 held while a tournament runs in DIR
      tournament.json       the plan (TournamentPlan.to_json) and "status"
      results.json          the crosstable and the rankings, as --json prints them
      crosstable.png        the crosstable's heatmap (--plot)
      A-vs-B.seedS.nN/      one per match: summary.json and its halves' logs, exactly as
                            ``acpcbot match`` writes them
      .partial/             a match's files while they are moved in (gone after a run)

:meth:`TournamentFolder.open` locks the folder (a second tournament there is refused at
once, naming the process that runs the first) and refuses a folder that holds anything but
a tournament's files, or a tournament of another series (other hands, first seed or game;
the agents and the number of seeds may change from one run to the next, and the matches
already finished are kept). :meth:`TournamentFolder.install` moves a match's files in with
one rename, so a match's folder appears whole.

A match counts as finished only when :func:`check_match` says so, reading it back: its
``summary.json`` describes this very match with ``"status": "finished"``, and both logs
read as complete (:func:`dealer.analysis.playedlog.read_log` checks every line): the right header
and seats, hand numbers 0 .. N-1, a ``SCORE`` line that agrees. Anything else (a folder
half-written when a run was killed, a log cut or edited since) is played again.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from acpcbot.errors import AcpcError
from acpcbot.smallfile import FileRefusedError, MissingFileError, read_small_file, shown_path
from acpcbot.writing import check_writable, replace_file, temporary_name, writing
from dealer.analysis.playedlog import LogError, PlayedLog, read_log
from dealer.analysis.stats import SampleSums, pair_sorted
from dealer.running.duplicate import plan_json
from dealer.running.matchfolder import SUMMARY, match_logs, read_summary
from dealer.running.resultfiles import LOCK, FolderLock, write_json
from dealer.running.tournamentplan import PlannedMatch, TournamentError, TournamentPlan

__all__ = [
    "CROSSTABLE_PLOT",
    "LOCK",
    "PARTIAL",
    "RESULTS",
    "TOURNAMENT",
    "MatchCheck",
    "TournamentFolder",
    "check_match",
    "read_plan",
    "results_folder",
]

TOURNAMENT = "tournament.json"
RESULTS = "results.json"
CROSSTABLE_PLOT = "crosstable.png"
PARTIAL = ".partial"
_MAX_PLAN_BYTES = 4 << 20
"""A ``tournament.json`` larger than this was not written by a tournament."""


@dataclass(frozen=True)
class MatchCheck:
    """A match as found in a tournament's folder."""

    match: PlannedMatch
    sums: SampleSums | None
    """Agent A's duplicate-pair samples, when the match is finished."""
    why: str | None = None
    """Why it does not count as finished."""

    @property
    def finished(self) -> bool:
        return self.sums is not None


def results_folder(folder: Path) -> list[Path] | None:
    """What ``acpcbot results DIR`` reads in ``folder``: the logs of its match (as its
    ``summary.json`` names them), or ``None`` for a tournament's folder; an error saying what
    the command takes for any other."""
    if (folder / TOURNAMENT).is_file():
        return None
    if logs := match_logs(folder):
        return logs
    raise AcpcError(
        f"{folder} holds no match (no summary.json naming its logs) and no tournament: "
        "results takes a match's .log files, a match's folder or a tournament's folder"
    )


def read_plan(path: Path) -> TournamentPlan:
    """The plan in the folder ``path``'s ``tournament.json``."""
    where = path / TOURNAMENT
    try:
        data = json.loads(read_small_file(where, limit=_MAX_PLAN_BYTES))
        if not isinstance(data, dict):
            raise TournamentError("it is not a JSON object")
        return TournamentPlan.from_json(data)
    except MissingFileError:
        if not path.is_dir():
            raise TournamentError(f"no folder {shown_path(path)}") from None
        raise TournamentError(f"{path} holds no tournament (no {TOURNAMENT})") from None
    except (FileRefusedError, ValueError, TournamentError) as exc:
        raise TournamentError(f"{where} is not a tournament's plan: {exc}") from None


def check_match(path: Path, match: PlannedMatch) -> MatchCheck:
    """Whether ``match`` is finished in the tournament folder ``path`` (see the module)."""
    folder = path / match.name
    if not folder.is_dir():
        return MatchCheck(match, None, "not played")
    summary = read_summary(folder / SUMMARY)
    if summary is None:
        return MatchCheck(match, None, f"no readable {SUMMARY}")
    wanted = json.loads(json.dumps(plan_json(match.plan)))
    if any(summary.get(key) != value for key, value in wanted.items()):
        return MatchCheck(match, None, f"its {SUMMARY} describes another match")
    status = summary.get("status")
    if status != "finished":
        return MatchCheck(match, None, f"status {str(status)[:20]!r}")
    plan = match.plan
    logs = []
    for half in range(plan.halves):
        try:
            log = read_log(folder / plan.log_name(half))
        except LogError as exc:
            return MatchCheck(match, None, str(exc))
        why = _incomplete(log, match, half)
        if why is not None:
            return MatchCheck(match, None, f"{log.where}: {why}")
        logs.append(log)
    a = plan.names[0]
    first, second = logs
    samples, _ = pair_sorted(
        first.hand_numbers, first.chips[a], second.hand_numbers, second.chips[a]
    )
    return MatchCheck(match, SampleSums.of(samples))


def _incomplete(log: PlayedLog, match: PlannedMatch, half: int) -> str | None:
    """Why ``log`` is not half ``half`` of ``match`` played to the end (``None``: it is)."""
    plan = match.plan
    header = log.header
    if header is None:
        return "no header"
    if (header.match_name, header.game_path, header.hands, header.seed) != (
        plan.half_name(half),
        plan.game_path,
        plan.hands,
        plan.seed,
    ):
        return "its header is another match's"
    if log.seat_names != tuple(plan.names[i] for i in plan.seats(half)):
        return "other players or seats"
    if log.cut_line is not None:
        return f"line {log.cut_line} is cut short"
    numbers = log.hand_numbers
    if log.hands != plan.hands or numbers[0] != 0 or numbers[-1] != plan.hands - 1:
        return f"{log.hands} of {plan.hands} hands"
    if not log.score_agrees():
        return "no SCORE line agreeing with its hands"
    return None


class TournamentFolder:
    """A locked tournament folder; :meth:`close` (or leaving the ``with`` block) unlocks it."""

    def __init__(self, path: Path, plan: TournamentPlan, lock: FolderLock) -> None:
        self.path = path
        self.plan = plan
        self._lock: FolderLock | None = lock

    @classmethod
    def open(cls, path: Path, plan: TournamentPlan) -> TournamentFolder:
        """Create (if need be), lock and claim ``path`` for ``plan``'s tournament; its
        ``tournament.json`` says ``"status": "running"``."""
        lock = FolderLock.take(path, "tournament", TournamentError)
        try:
            _claim(path, plan)
            for name in (TOURNAMENT, RESULTS, CROSSTABLE_PLOT):
                check_writable(path / name)
        except BaseException:
            lock.release()
            raise
        folder = cls(path, plan, lock)
        shutil.rmtree(path / PARTIAL, ignore_errors=True)  # an earlier run's leftovers
        try:
            folder.write_status("running")
        except BaseException:
            folder.close()
            raise
        return folder

    def write_status(self, status: str, **more: Any) -> None:
        """Write ``tournament.json``: the plan, ``status`` and ``more``."""
        write_json(self.path / TOURNAMENT, {"status": status, **self.plan.to_json(), **more})

    def write_file(self, name: str, data: bytes) -> None:
        """Replace the file ``name`` (results, a plot) in one step."""
        replace_file(self.path / name, data)

    def install(self, match: PlannedMatch, files: Mapping[str, bytes]) -> None:
        """Put ``match``'s files (``summary.json``, its logs and, recorded with ``--aivat``,
        their decisions files, by name; a failed match may lack a log) in its folder,
        replacing what an unfinished earlier run left there."""
        plan = match.plan
        expected = {SUMMARY}
        for half in range(plan.halves):
            expected |= {plan.log_name(half), plan.decisions_name(half)}
        if SUMMARY not in files or not set(files) <= expected:
            raise TournamentError(
                f"{match.name}: expected the files {sorted(expected)}, got {sorted(files)}"
            )
        partial = self.path / PARTIAL / match.name
        target = self.path / match.name
        with writing(target):
            try:
                shutil.rmtree(partial, ignore_errors=True)
                partial.mkdir(parents=True)
                for name, data in files.items():
                    with (partial / name).open("wb") as file:
                        file.write(data)
                        file.flush()
                        os.fsync(file.fileno())
                if target.exists():
                    old = self.path / PARTIAL / f"{match.name}.old"
                    shutil.rmtree(old, ignore_errors=True)
                    target.rename(old)
                    partial.rename(target)
                    shutil.rmtree(old, ignore_errors=True)
                else:
                    partial.rename(target)
            except BaseException:
                shutil.rmtree(partial, ignore_errors=True)  # (the disk may be full)
                raise

    def close(self) -> None:
        if self._lock is not None:
            shutil.rmtree(self.path / PARTIAL, ignore_errors=True)
            self._lock.release()
            self._lock = None

    def __enter__(self) -> TournamentFolder:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _claim(path: Path, plan: TournamentPlan) -> None:
    """Refuse a folder that holds anything but a tournament of ``plan``'s series."""
    ours = {
        LOCK,
        PARTIAL,
        *(temporary_name(name) for name in (TOURNAMENT, RESULTS, CROSSTABLE_PLOT)),
    }
    entries = {entry.name for entry in path.iterdir()} - ours
    if TOURNAMENT in entries:
        earlier = read_plan(path)
        why = plan.same_series(earlier)
        if why:
            raise TournamentError(
                f"{path} holds another tournament ({'; '.join(why)}); use another --out"
            )
    elif entries:
        shown = ", ".join(sorted(entries)[:3]) + (", ..." if len(entries) > 3 else "")
        raise TournamentError(
            f"{path} holds files that are not a tournament's ({shown}); use another --out"
        )
