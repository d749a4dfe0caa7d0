"""AIVAT beside the plain results: for a match just played, or for logs on disk.

:func:`aivat_logs` corrects one log, or the two logs of a duplicate pair, for one player
(:mod:`dealer.analysis.aivat`), reading each log's decisions file when there is one; the report
holds the AIVAT estimate with its 95% confidence interval, the plain one it is compared with,
and how many actions had known probabilities. :func:`aivat_json` is the ``aivat`` object of
``summary.json`` and of ``--json`` output, :func:`aivat_lines` the text. A tournament pools
its matches' estimates pairing by pairing (:class:`PooledAivat`, :func:`pool_estimates`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acpcbot.errors import UsageError
from acpcbot.game import Game
from acpcbot.logreader import game_of_log
from dealer.analysis.aivat import (
    PREFLOP_SAMPLES,
    AivatHalf,
    AivatPair,
    CheckDownValue,
    Oracle,
    aivat_half,
    aivat_pair,
)
from dealer.analysis.logresults import LogsReport, ReportKind, report_json, report_lines
from dealer.analysis.playedlog import PlayedLog
from dealer.analysis.stats import Z95, Estimate

__all__ = [
    "AivatReport",
    "PooledAivat",
    "aivat_json",
    "aivat_lines",
    "aivat_logs",
    "pool_estimates",
    "pooled_json",
    "pooled_lines",
    "report_aivat",
]

KnownStrategies = Callable[[Sequence[str], Game], Mapping[str, Oracle]]
"""Looks up the fixed strategies of a log's players by their names, in its game (the command
line hands ``agents.registry.known_strategies``)."""


@dataclass(frozen=True)
class AivatReport:
    """A player's AIVAT estimate over one log or a duplicate pair, and the plain one."""

    halves: tuple[AivatHalf, ...]
    pair: AivatPair | None
    plain: Estimate
    """The uncorrected estimate over the same samples (pairs or hands)."""

    @property
    def estimate(self) -> Estimate:
        return self.pair.estimate if self.pair is not None else self.halves[0].estimate

    @property
    def ratio(self) -> float:
        """The AIVAT CI's half-width over the plain one's (``nan`` when undefined)."""
        plain = self.plain.ci95_mbb
        mine = self.estimate.ci95_mbb
        if not math.isfinite(plain) or not math.isfinite(mine) or plain <= 0:
            return math.nan
        return mine / plain

    @property
    def actions(self) -> int:
        return sum(h.actions for h in self.halves)

    @property
    def known(self) -> int:
        return sum(h.known for h in self.halves)


def aivat_logs(
    logs: Sequence[PlayedLog],
    game: Game,
    plain: Estimate,
    player: str | None = None,
    *,
    decisions: bool = True,
    oracles: Mapping[str, Oracle] | None = None,
) -> AivatReport:
    """AIVAT for ``player`` (default: seat 1 of the first log) over one log or a duplicate
    pair (already checked to be one); ``plain`` is the plain estimate to compare with;
    ``oracles``: the strategies known anywhere, by player name."""
    name = logs[0].seat_names[0] if player is None else player
    value = CheckDownValue(game)
    if len(logs) == 2:
        pair = aivat_pair(
            logs[0], logs[1], game, name, decisions=decisions, value=value, oracles=oracles
        )
        return AivatReport(pair.halves, pair, plain)
    half = aivat_half(logs[0], game, name, decisions=decisions, value=value, oracles=oracles)
    return AivatReport((half,), None, plain)


def report_aivat(
    report: LogsReport, player: str | None = None, known: KnownStrategies | None = None
) -> AivatReport:
    """AIVAT over the logs of ``report`` (one log or a duplicate pair: ``acpcbot results
    --aivat``) for ``player`` (default: the report's), with the strategies ``known`` finds."""
    if report.kind is ReportKind.SIDE_BY_SIDE:
        raise UsageError("--aivat needs one log or the two logs of a duplicate pair")
    plain = report.pair.estimate if report.pair is not None else report.halves[0].estimate
    first = report.logs[0]
    game = game_of_log(first.path, first.header, advice="give --big-blind")
    oracles = known(report.logs[0].seat_names, game) if known is not None else None
    return aivat_logs(report.logs, game, plain, player or report.halves[0].player, oracles=oracles)


def report_output(
    report: LogsReport, player: str | None, known: KnownStrategies | None, *, aivat: bool
) -> tuple[dict[str, Any], list[str]]:
    """What ``acpcbot results`` prints of ``report``: its JSON and its lines, with (``aivat``)
    the AIVAT estimate's (:func:`report_aivat`), its lines before the checks'."""
    data, lines = report_json(report), report_lines(report)
    if aivat:
        estimate = report_aivat(report, player, known)
        data["aivat"] = aivat_json(estimate)
        checks = len(lines) - len(report.checks)
        lines[checks:checks] = aivat_lines(estimate)
    return data, lines


def _number(value: float) -> float | None:
    return None if math.isinf(value) or math.isnan(value) else round(value, 3)


def aivat_json(report: AivatReport) -> dict[str, Any]:
    """The ``aivat`` object: the estimate as the plain keys name it, and how it was made."""
    e = report.estimate
    return {
        "mbb_per_game": _number(e.mbb_per_game),
        "ci95": _number(e.ci95_mbb),
        ("pair_sd_mbb" if report.pair is not None else "sd_mbb"): _number(e.sd_mbb),
        "samples": "pairs" if report.pair is not None else "hands",
        "count": e.samples,
        "ci95_ratio": _number(report.ratio),
        "actions": report.actions,
        "actions_known": report.known,
        "value_function": report.halves[0].value_function,
        "preflop_samples": PREFLOP_SAMPLES,
        "halves": [
            {
                "log": half.log,
                "player": half.player,
                "decisions_file": half.decisions_file,
                "hands": half.hands,
                "mbb_per_game": _number(half.estimate.mbb_per_game),
                "ci95": _number(half.estimate.ci95_mbb),
                "sd_mbb": _number(half.estimate.sd_mbb),
                "actions": half.actions,
                "actions_known": half.known,
            }
            for half in report.halves
        ],
    }


def aivat_lines(report: AivatReport) -> list[str]:
    """The AIVAT estimate for people: one line, and one on what was corrected."""
    e = report.estimate
    over = (
        f"over {e.samples:,} duplicate pairs, SD {e.sd_mbb:.1f} mbb per pair"
        if report.pair is not None
        else f"over {e.samples:,} hands, SD {e.sd_mbb:.1f} mbb per hand"
    )
    if math.isinf(e.ci95_mbb):
        line = f"AIVAT: {e.mbb_per_game:+.1f} mbb/g (too few samples for a CI)"
    else:
        line = f"AIVAT: {e.mbb_per_game:+.1f} mbb/g ± {e.ci95_mbb:.1f} (95% CI) {over}"
    ratio = report.ratio
    if math.isfinite(ratio) and ratio > 0:
        line += f"; CI {ratio:.2f} × the plain one ({1 / ratio**2:.1f}× fewer hands)"
    known = report.known
    share = known / report.actions if report.actions else 0.0
    missing = [Path(h.log).name for h in report.halves if h.decisions_file is None]
    what = f"chance corrections, action corrections at {known:,} of {report.actions:,} actions "
    seconds = max(h.seconds for h in report.halves)
    what += f"({100 * share:.0f}%), computed in {seconds:.1f} s"
    if missing:
        what += f"; no decisions file beside {', '.join(missing)}"
    return [line, f"  {what}"]


@dataclass(frozen=True)
class PooledAivat:
    """A tournament pairing's AIVAT estimate over the matches that recorded decisions."""

    agents: tuple[str, str]
    matches: int
    estimate: Estimate
    plain: Estimate
    """The plain estimate over the same matches."""

    @property
    def ratio(self) -> float:
        if not (math.isfinite(self.plain.ci95_mbb) and math.isfinite(self.estimate.ci95_mbb)):
            return math.nan
        return self.estimate.ci95_mbb / self.plain.ci95_mbb if self.plain.ci95_mbb else math.nan


def pool_estimates(parts: Sequence[tuple[int, float, float]]) -> Estimate:
    """Samples given as (count, mean, SD) per part, pooled exactly (all in mbb)."""
    n = sum(count for count, _, _ in parts)
    if n == 0:
        return Estimate(0, 0.0, 0.0, math.inf)
    total = sum(count * mean for count, mean, _ in parts)
    squares = sum((count - 1) * sd * sd + count * mean * mean for count, mean, sd in parts)
    mean = total / n
    if n < 2:
        return Estimate(n, mean, 0.0, math.inf)
    sd = math.sqrt(max(squares - n * mean * mean, 0.0) / (n - 1))
    return Estimate(n, mean, sd, Z95 * sd / math.sqrt(n))


def pooled_json(pooled: PooledAivat) -> dict[str, Any]:
    e = pooled.estimate
    return {
        "agents": list(pooled.agents),
        "matches": pooled.matches,
        "pairs": e.samples,
        "mbb_per_game": _number(e.mbb_per_game),
        "ci95": _number(e.ci95_mbb),
        "pair_sd_mbb": _number(e.sd_mbb),
        "ci95_ratio": _number(pooled.ratio),
    }


def pooled_lines(pooled: Sequence[PooledAivat]) -> list[str]:
    """Each pairing's AIVAT estimate for people."""
    lines = ["AIVAT, each pairing over its matches (row agent's mbb/g, 95% CI):"]
    for p in pooled:
        e = p.estimate
        ratio = f"; CI {p.ratio:.2f} × the plain one" if math.isfinite(p.ratio) else ""
        lines.append(
            f"  {p.agents[0]} vs {p.agents[1]}: {e.mbb_per_game:+.1f} ± {e.ci95_mbb:.1f} over "
            f"{e.samples:,} pairs of {p.matches} match{'es' if p.matches != 1 else ''}{ratio}"
        )
    return lines
