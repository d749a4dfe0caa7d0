"""A tournament's results: the crosstable and the two rankings, as text and as JSON.

:func:`tournament_report` makes them from the matches found finished in the tournament's
folder (:func:`dealer.running.tournamentfolder.check_match`); :func:`read_tournament` rebuilds them
from a folder alone (``acpcbot results --tournament DIR``). The rankings
(:mod:`dealer.analysis.rankings`) need a round robin with a finished match in every pairing; a
tournament of one agent against the rest (``vs``) has that agent's row only.
:func:`pairings_aivat` pools each pairing's AIVAT estimates from its matches' summaries, and
:func:`plot_caption` says what the crosstable's heatmap shows.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer.analysis.aivatreport import PooledAivat, pool_estimates
from dealer.analysis.crosstable import Cell, Crosstable, pool
from dealer.analysis.rankings import Placing, instant_runoff, total_bankroll
from dealer.analysis.stats import Estimate, to_mbb
from dealer.running.matchfolder import SUMMARY, read_summary
from dealer.running.tournamentfolder import MatchCheck, check_match, read_plan
from dealer.running.tournamentplan import TournamentPlan

__all__ = [
    "TournamentReport",
    "pairings_aivat",
    "plot_caption",
    "read_tournament",
    "tournament_json",
    "tournament_lines",
    "tournament_report",
]

_UNFINISHED_SHOWN = 5
"""Unfinished matches named in the text (all of them are in the JSON)."""


@dataclass(frozen=True)
class TournamentReport:
    """What a tournament's folder says about it."""

    plan: TournamentPlan
    checks: tuple[MatchCheck, ...]
    """Every planned match, finished or not."""
    crosstable: Crosstable
    total: tuple[Placing, ...] | None
    """The ranking by total bankroll (``None``: see :attr:`no_rankings`)."""
    runoff: tuple[Placing, ...] | None
    no_rankings: str | None
    """Why there are no rankings."""

    @property
    def finished(self) -> int:
        return sum(c.finished for c in self.checks)

    @property
    def unfinished(self) -> list[MatchCheck]:
        return [c for c in self.checks if not c.finished]


def tournament_report(plan: TournamentPlan, checks: Iterable[MatchCheck]) -> TournamentReport:
    """The crosstable and the rankings of ``plan`` from its matches' ``checks``."""
    checks = tuple(checks)
    names = plan.names
    crosstable = pool(
        names,
        plan.big_blind,
        [(names[a], names[b]) for a, b in plan.pairings],
        [(names[c.match.a], names[c.match.b], c.sums) for c in checks if c.sums is not None],
    )
    total = runoff = None
    if not crosstable.round_robin:
        why = f"{names[0]} against the rest (the rankings need every two agents paired)"
    elif not crosstable.complete:
        missing = sum(not p.matches for p in crosstable.pairings)
        none = f"{missing} has none" if missing == 1 else f"{missing} have none"
        why = f"they need a finished match in every pairing ({none} yet)"
    else:
        why = None
        total = tuple(total_bankroll(names, crosstable.value))
        runoff = tuple(instant_runoff(names, crosstable.value))
    return TournamentReport(plan, checks, crosstable, total, runoff, why)


def read_tournament(path: Path) -> TournamentReport:
    """The results of the tournament in the folder ``path``, from its files alone."""
    plan = read_plan(path)
    return tournament_report(plan, (check_match(path, m) for m in plan.matches()))


def plot_caption(report: TournamentReport) -> str:
    """What the crosstable's heatmap shows (:func:`dealer.analysis.crosstableplot.heatmap_png`).

    >>> from dealer.running.tournamentplan import TournamentPlan
    >>> plan = TournamentPlan(("a", "b"), ("a", "b"), 100)
    >>> unplayed = [MatchCheck(match, None, "not played") for match in plan.matches()]
    >>> plot_caption(tournament_report(plan, unplayed))
    '1 seed × 2 × 100 hands per pairing; 0 of 1 matches finished'
    """
    plan = report.plan
    return (
        f"{_count(plan.seeds, 'seed')} × 2 × {plan.hands:,} hands per pairing; "
        f"{report.finished} of {len(report.checks)} matches finished"
    )


def _mbb(value: float) -> float | None:
    """JSON has no infinity: an undefined interval is ``null``."""
    return None if math.isinf(value) or math.isnan(value) else round(value, 3)


def _cell_text(cell: Cell | None, row: str, column: str, planned: bool) -> str:
    if row == column:
        return "."
    if cell is None:
        return "?" if planned else ""
    return _estimate_text(cell.estimate)


def _estimate_text(e: Estimate) -> str:
    if math.isinf(e.ci95_mbb):
        return f"{e.mbb_per_game:+.1f} ± ?"
    return f"{e.mbb_per_game:+.1f} ± {e.ci95_mbb:.1f}"


def _count(n: int, what: str) -> str:
    """``n`` things, in words.

    >>> _count(1, "seed"), _count(2, "seed")
    ('1 seed', '2 seeds')
    """
    return f"{n} {what}{'s' if n != 1 else ''}"


def _placing_mbb(report: TournamentReport, placing: Placing) -> float:
    return to_mbb(float(placing.bankroll), report.plan.big_blind)


def tournament_lines(report: TournamentReport, width: int | None = None) -> list[str]:
    """The results as people read them; a crosstable wider than ``width`` comes in blocks
    of its columns, each row's name before each block."""
    plan = report.plan
    seeds = ", ".join(str(s) for s in plan.card_seeds)
    kind = (
        f"{plan.names[0]} against {len(plan.names) - 1} agents"
        if plan.vs
        else (f"round robin of {len(plan.names)} agents")
    )
    lines = [
        f"tournament: {kind}, {_count(len(plan.pairings), 'pairing')} × "
        f"{_count(plan.seeds, 'seed')} ({seeds}) × "
        f"2 × {plan.hands:,} hands, {plan.game}: {report.finished} of {len(report.checks)} "
        "matches finished"
    ]
    unfinished = report.unfinished
    if unfinished:
        shown = "; ".join(f"{c.match.name} ({c.why})" for c in unfinished[:_UNFINISHED_SHOWN])
        more = (
            f"; and {len(unfinished) - _UNFINISHED_SHOWN} more"
            if (len(unfinished) > _UNFINISHED_SHOWN)
            else ""
        )
        lines.append(f"  not finished: {shown}{more}")
    lines.extend(_vs_lines(report) if plan.vs else _matrix_lines(report, width))
    lines.extend(_ranking_lines(report))
    return lines


def _matrix_lines(report: TournamentReport, width: int | None) -> list[str]:
    table = report.crosstable
    names = table.agents
    planned = {frozenset((p.a, p.b)) for p in table.pairings}
    rows = [
        [_cell_text(table.cell(r, c), r, c, frozenset((r, c)) in planned) for c in names]
        for r in names
    ]
    label = max(len(f"{i} {n}") for i, n in enumerate(names, 1))
    widths = [
        max(len(str(j)), *(len(row[j - 1]) for row in rows)) for j in range(1, len(names) + 1)
    ]
    pairs = sorted({p.sums.count for p in table.pairings if p.matches})
    if not pairs:
        per = "no"
    elif len(pairs) == 1:
        per = f"{pairs[0]:,}"
    else:
        per = f"{pairs[0]:,} to {pairs[-1]:,}"
    lines = [
        f"mbb/g won by the row from the column, ± 95% CI over the duplicate pairs of every "
        f"seed ({per} pairs a pairing):"
    ]
    blocks: list[list[int]] = [[]]  # the columns of each block, as many as fit in width
    for j, w in enumerate(widths):
        if (
            blocks[-1]
            and width is not None
            and label + sum(2 + widths[k] for k in blocks[-1]) + 2 + w > width
        ):
            blocks.append([])
        blocks[-1].append(j)
    for block in blocks:
        lines.append(" " * label + "".join(f"  {j + 1:>{widths[j]}}" for j in block))
        for i, (name, row) in enumerate(zip(names, rows, strict=True), 1):
            cells = "".join(f"  {row[j]:>{widths[j]}}" for j in block)
            lines.append(f"{f'{i} {name}':<{label}}{cells}")
    return lines


def _vs_lines(report: TournamentReport) -> list[str]:
    table = report.crosstable
    agent = table.agents[0]
    opponents = table.agents[1:]
    width = max(len("opponent"), *(len(o) for o in opponents))
    lines = [
        f"{agent}: mbb/g against each opponent, ± 95% CI over the duplicate pairs of every "
        "seed, SD of one pair, and whether the CI excludes 0 (+/-) or not (~):",
        f"{'opponent':<{width}}  {'pairs':>9}  {'mbb/g':>9}  {'±95%':>7}  {'SD':>7}  sig",
    ]
    for opponent in opponents:
        cell = table.cell(agent, opponent)
        if cell is None:
            lines.append(f"{opponent:<{width}}  {'not finished':>9}")
            continue
        e = cell.estimate
        low, high = e.interval
        sig = "+" if low > 0 else "-" if high < 0 else "~"
        lines.append(
            f"{opponent:<{width}}  {cell.pairs:>9,}  {e.mbb_per_game:>+9.1f}  "
            f"{e.ci95_mbb:>7.1f}  {e.sd_mbb:>7.0f}   {sig}"
        )
    return lines


def _ranking_lines(report: TournamentReport) -> list[str]:
    if report.total is None or report.runoff is None:
        return [f"no rankings: {report.no_rankings}"]
    width = max(len(n) for n in report.plan.names)
    lines = ["ranking by total bankroll (mean mbb/g against every other agent):"]
    for p in report.total:
        lines.append(f"  {p.rank:>2}  {p.agent:<{width}}  {_placing_mbb(report, p):+9.1f}")
    lines.append(
        "ranking by bankroll instant run-off (each round, the lowest bankroll against the "
        "agents left is out):"
    )
    winners = sum(p.rank == 1 for p in report.runoff)
    first = "won" if winners == 1 else f"tied first ({winners} agents)"
    for p in report.runoff:
        what = first if p.rank == 1 else "out"
        lines.append(
            f"  {p.rank:>2}  {p.agent:<{width}}  {what} in round {p.round} "
            f"({_placing_mbb(report, p):+.1f} against the agents left)"
        )
    return lines


def tournament_json(report: TournamentReport) -> dict[str, Any]:
    """The results as JSON (``results.json``, ``--json``)."""
    plan = report.plan
    table = report.crosstable
    names = table.agents

    def matrix(field: str) -> list[list[Any]]:
        rows = []
        for r in names:
            row: list[Any] = []
            for c in names:
                cell = table.cell(r, c)
                if cell is None:
                    row.append(None)
                elif field == "pairs":
                    row.append(cell.pairs)
                else:
                    row.append(_mbb(getattr(cell.estimate, field)))
            rows.append(row)
        return rows

    def placings(ranking: Sequence[Placing] | None, runoff: bool) -> list[dict[str, Any]] | None:
        if ranking is None:
            return None
        return [
            {
                "rank": p.rank,
                "agent": p.agent,
                "mbb_per_game": _mbb(_placing_mbb(report, p)),
                **({"round": p.round} if runoff else {}),
            }
            for p in ranking
        ]

    pairings = []
    for p in table.pairings:
        e = p.sums.estimate(plan.big_blind)
        pairings.append(
            {
                "agents": [p.a, p.b],
                "matches": p.matches,
                "pairs": p.sums.count,
                "mbb_per_game": _mbb(e.mbb_per_game) if p.matches else None,
                "ci95": _mbb(e.ci95_mbb) if p.matches else None,
                "pair_sd_mbb": _mbb(e.sd_mbb) if p.matches else None,
            }
        )
    return {
        **plan.to_json(),
        "matches": {
            "planned": len(report.checks),
            "finished": report.finished,
            "unfinished": [{"match": c.match.name, "why": c.why} for c in report.unfinished],
        },
        "crosstable": {
            "agents": list(names),
            "mbb_per_game": matrix("mbb_per_game"),
            "ci95": matrix("ci95_mbb"),
            "pairs": matrix("pairs"),
        },
        "pairings": pairings,
        "rankings": {
            "total_bankroll": placings(report.total, runoff=False),
            "instant_runoff": placings(report.runoff, runoff=True),
            **({"missing": report.no_rankings} if report.no_rankings else {}),
        },
    }


def pairings_aivat(report: TournamentReport, folder: Path) -> tuple[PooledAivat, ...]:
    """Each pairing's AIVAT estimate, from the ``aivat`` of its finished matches'
    ``summary.json`` (matches played without it are left out)."""
    names = report.plan.names
    by_pairing: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for check in report.checks:
        if not check.finished:
            continue
        summary = read_summary(folder / check.match.name / SUMMARY)
        if summary is None or not isinstance(summary.get("aivat"), dict):
            continue
        by_pairing.setdefault((check.match.a, check.match.b), []).append(summary)
    pooled = []
    for (a, b), summaries in sorted(by_pairing.items()):
        aivat = [
            (int(s["aivat"]["count"]), float(s["aivat"]["mbb_per_game"]), _sd(s["aivat"]))
            for s in summaries
        ]
        plain = [(int(s["hands"]) // 2, float(s["mbb_per_game"]), _sd(s)) for s in summaries]
        pooled.append(
            PooledAivat(
                (names[a], names[b]), len(summaries), pool_estimates(aivat), pool_estimates(plain)
            )
        )
    return tuple(pooled)


def _sd(data: dict[str, Any]) -> float:
    value = data.get("pair_sd_mbb")
    return float(value) if isinstance(value, int | float) else 0.0
