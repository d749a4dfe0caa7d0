"""Results from finished match logs: what ``acpcbot results`` computes and prints.

One log gives a player's (seat 1's by default) results over its hands. Two logs are combined
only when they are a duplicate pair (:mod:`dealer.analysis.twins`); else that is an error naming
every difference, unless they are asked for side by side, each on its own. A pair's results
are its player A's by default, whatever order the logs are given in (a shell's ``DIR/*.log``
sorts them by name): the agent ``acpcbot match`` reports, when the ``summary.json`` beside
the logs is that match's, else the player whose name sorts first; the first half is the log
where that player sits in seat 1. Every log's ``SCORE``
line is checked against its ``STATE`` lines: a disagreement, and a last line cut while it was
written, are warnings; under ``strict`` a log that does not end in an agreeing ``SCORE`` line
fails.

The big blind comes from the log's game (:func:`acpcbot.logreader.game_of_log`: the game
file its header names, by its file name, beside the log or bundled; heads-up limit hold'em
without a header), unless one is given.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from acpcbot.errors import UsageError
from acpcbot.game import LIMIT_HOLDEM, Game
from acpcbot.logconfig import notice
from acpcbot.logreader import LogError, game_of_log
from acpcbot.protocol.logfile import LogHeader
from acpcbot.protocol.matchstate import clip_line
from acpcbot.smallfile import FileRefusedError, read_small_file
from dealer.analysis.playedlog import PlayedLog, read_log
from dealer.analysis.results import (
    HalfResult,
    PairResult,
    ResultsError,
    duplicate_result,
    half_json,
    half_line,
    log_result,
    pair_json,
    pair_line,
)
from dealer.analysis.twins import labels, twin_differences

__all__ = [
    "LogsReport",
    "ReportKind",
    "big_blind_of",
    "notice_headerless",
    "report_json",
    "report_lines",
    "report_logs",
]

"""The largest game file read (a ``.game`` file is a few hundred bytes)."""
MAX_SUMMARY_BYTES = 4 << 20
"""The largest ``summary.json`` read (a match's is a few kB)."""


class ReportKind(enum.Enum):
    """What the logs were read as."""

    SINGLE = "single"
    PAIR = "pair"
    SIDE_BY_SIDE = "side-by-side"


@dataclass(frozen=True)
class LogsReport:
    """The results of one or two logs with their checks and warnings."""

    kind: ReportKind
    logs: tuple[PlayedLog, ...]
    big_blinds: tuple[int, ...]
    """Per log."""
    halves: tuple[HalfResult, ...]
    """Per log: the player's results in it."""
    pair: PairResult | None
    """Over the pairs (:attr:`ReportKind.PAIR` only)."""
    not_a_pair: tuple[str, ...]
    """Side by side: why the two logs are not a duplicate pair (empty if they are)."""
    checks: tuple[str, ...]
    """Per log: how its ``SCORE`` line compares with its ``STATE`` lines."""
    warnings: tuple[str, ...]
    failed: int
    """Logs that do not end in a ``SCORE`` line agreeing with their ``STATE`` lines."""


def report_logs(
    paths: Sequence[Path],
    *,
    big_blind: int | None = None,
    player: str | None = None,
    side_by_side: bool = False,
    strict: bool = False,
) -> LogsReport:
    """Read one or two logs and compute their results (see the module's docstring)."""
    if not 1 <= len(paths) <= 2:
        raise UsageError("give one log, or the two logs of a duplicate pair")
    if side_by_side and len(paths) != 2:
        raise UsageError("--side-by-side needs two logs")
    logs = tuple(read_log(path, partial(_header_game, path)) for path in paths)
    for log in logs if big_blind is None else ():
        if log.header is None:
            notice_headerless(log.where, "--big-blind")
    pair = None
    not_a_pair: tuple[str, ...] = ()
    if len(logs) == 1:
        kind = ReportKind.SINGLE
        blinds: tuple[int, ...] = (big_blind or big_blind_of(logs[0]),)
        halves: tuple[HalfResult, ...] = (log_result(logs[0], blinds[0], player),)
    else:
        first, second = logs
        not_a_pair = tuple(twin_differences(first, second))
        if side_by_side:
            kind = ReportKind.SIDE_BY_SIDE
            blinds = tuple(big_blind or big_blind_of(log) for log in logs)
            name = player or first.seat_names[0]
            other = name if name in second.chips or player else second.seat_names[0]
            halves = (log_result(first, blinds[0], name), log_result(second, blinds[1], other))
        elif not_a_pair:
            a, b = labels(first, second)
            raise ResultsError(
                f"{a} and {b} are not a duplicate pair: "
                f"{'; '.join(not_a_pair)}; give --side-by-side for each log's results on its own"
            )
        else:
            kind = ReportKind.PAIR
            if player is None:
                logs = first, second = _in_match_order(first, second)
            blinds = (big_blind or big_blind_of(first),) * 2
            pair = duplicate_result(first, second, blinds[0], player)
            halves = pair.halves
    checks, warnings, failed = _checks(logs, strict)
    return LogsReport(kind, logs, blinds, halves, pair, not_a_pair, checks, warnings, failed)


def _in_match_order(first: PlayedLog, second: PlayedLog) -> tuple[PlayedLog, PlayedLog]:
    """A duplicate pair's logs in the order ``acpcbot match`` plays them (see the module's
    description): the first one seats player A in seat 1."""
    names = first.path.name, second.path.name
    halves = _summary_halves(first.path.parent)
    if first.path.parent == second.path.parent and set(names) <= set(halves):
        in_order = halves.index(names[0]) < halves.index(names[1])
    else:
        in_order = first.seat_names[0] <= second.seat_names[0]
    return (first, second) if in_order else (second, first)


def _summary_halves(folder: Path) -> list[str]:
    """The logs of the match whose ``summary.json`` is in ``folder``, in half order (none
    when there is no such summary)."""
    try:
        summary = json.loads(read_small_file(folder / "summary.json", limit=MAX_SUMMARY_BYTES))
    except (FileRefusedError, ValueError):
        return []
    halves = summary.get("halves") if isinstance(summary, dict) else None
    if not isinstance(halves, list):
        return []
    return [
        half["log"]
        for half in halves
        if isinstance(half, dict) and isinstance(half.get("log"), str)
    ]


def _checks(
    logs: Sequence[PlayedLog], strict: bool
) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    checks: list[str] = []
    warnings: list[str] = []
    failed = 0
    for log in logs:
        if log.cut_line is not None:
            warnings.append(
                f"{log.where}:{log.cut_line}: the last line is cut short (the log was cut while "
                f"being written); the {log.hands} complete hands before it are counted"
            )
        agrees = log.score_agrees()
        if agrees is None:
            check = f"{log.where}: no SCORE line (the match did not finish)"
            if strict:
                warnings.append(check)
        elif agrees:
            check = f"{log.where}: {log.score} agrees with the STATE lines"
        else:
            check = (
                f"{log.where}: {log.score} disagrees with the STATE lines, which sum to "
                f"{log.totals_text()}"
            )
            warnings.append(check)
        checks.append(check)
        failed += not agrees or log.cut_line is not None
    return tuple(checks), tuple(warnings), failed


def report_lines(report: LogsReport) -> list[str]:
    """The report as people read it."""
    if report.kind is ReportKind.SINGLE:
        lines = [half_line(report.halves[0])]
    elif report.kind is ReportKind.PAIR:
        assert report.pair is not None
        lines = [
            f"half {i} ({log.name}): {half_line(half)}"
            for i, (log, half) in enumerate(zip(report.logs, report.halves, strict=True), 1)
        ]
        lines.append(pair_line(report.pair))
    else:
        lines = [
            f"log {i} ({log.name}): {half_line(half)}"
            for i, (log, half) in enumerate(zip(report.logs, report.halves, strict=True), 1)
        ]
        if report.not_a_pair:
            lines.append(f"not a duplicate pair, not combined: {'; '.join(report.not_a_pair)}")
        else:
            lines.append("a duplicate pair, shown side by side as asked (not combined)")
    return lines + list(report.checks)


def report_json(report: LogsReport) -> dict[str, Any]:
    """The report as JSON (the keys of earlier versions kept)."""
    data: dict[str, Any]
    if report.kind is ReportKind.SINGLE:
        data = half_json(report.halves[0])
        data["big_blind"] = report.big_blinds[0]
    elif report.kind is ReportKind.PAIR:
        assert report.pair is not None
        data = {**pair_json(report.pair), "duplicate": True, "big_blind": report.big_blinds[0]}
    else:
        data = {
            "duplicate": False,
            "not_a_pair": list(report.not_a_pair),
            "logs": [
                {**half_json(half), "big_blind": blind}
                for half, blind in zip(report.halves, report.big_blinds, strict=True)
            ],
        }
    data["checks"] = list(report.checks)
    data["warnings"] = list(report.warnings)
    return data


def _header_game(path: Path, header: LogHeader | None) -> Game | None:
    """The game whose rules the hands of the log at ``path`` are checked under: the one its
    header names, when it can be read (without a header, only what needs no game is
    checked)."""
    if header is None:
        return None
    try:
        return game_of_log(path, header)
    except LogError:
        return None


def notice_headerless(where: str, option: str) -> None:
    """Say that the log ``where``, whose header names no game, is read as heads-up limit
    hold'em (:func:`acpcbot.logreader.game_of_log`'s rule, the game acpcbot plays), naming the
    ``option`` that gives another (a log of another game then fails at its first hand that
    does not fit, saying it may be one)."""
    notice(
        f"{where} has no header naming its game: read as heads-up limit hold'em "
        f"({LIMIT_HOLDEM}); {option} for another",
        event="headerless_log",
        log=where,
    )


def big_blind_of(log: PlayedLog) -> int:
    """The big blind of the log's game (:func:`acpcbot.logreader.game_of_log`)."""
    blind = game_of_log(log.path, log.header, advice="give --big-blind").big_blind
    if blind <= 0:
        game = clip_line(log.header.game_path, 80) if log.header is not None else "?"
        raise ResultsError(f"the game {game!r} of {log.where} has no big blind; give --big-blind")
    return blind
