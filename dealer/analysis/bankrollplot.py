"""Bankroll curves as a PNG (``--plot``; matplotlib, the ``plot`` extra), as the PLICAS paper
shows its results (its Fig. 5).

The upper panel is the player's bankroll, the cumulative mbb won, hand after hand: in each
half (or log) and, for a duplicate match, over the pairs (each hand number's two results
averaged, where the luck of the cards largely cancels). The lower panel is the running
mbb/g with its 95% confidence interval as a band: over the pairs when there are pairs,
otherwise for each half. matplotlib is imported only when a picture is drawn. A match draws
its halves (:func:`match_curves`), ``acpcbot results --plot`` the logs it read
(:func:`logs_png`).
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acpcbot.errors import UsageError
from acpcbot.extras import need_matplotlib
from acpcbot.writing import check_writable
from dealer.analysis.logresults import LogsReport, ReportKind
from dealer.analysis.stats import Z95, pair_sorted, to_mbb

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "PLOT",
    "Curve",
    "bankroll_png",
    "logs_plot_path",
    "logs_png",
    "match_curves",
    "pair_curve",
]

PLOT = "bankroll.png"
"""The picture's name in a match's folder (``acpcbot match --plot``)."""

_POINTS = 2000
"""Points drawn per curve at most (a long match is thinned evenly)."""
_HALF_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:purple")
_PAIR_COLOUR = "black"


@dataclass(frozen=True)
class Curve:
    """One player's chips in consecutive samples (hands, or duplicate pairs)."""

    label: str
    chips: Sequence[float]


def match_curves(
    player: str, halves: Sequence[tuple[str, Sequence[float]]], duplicate: bool
) -> tuple[list[Curve], Curve | None]:
    """The curves of a match whose halves gave ``player`` ``chips`` hand by hand (hand 0
    first): each half's, labelled, and the pairs' when both halves of a duplicate match
    are there (hands paired by number, as far as both went).

    >>> curves, pairs = match_curves("a", [("half 1", [10.0, -20.0]), ("half 2", [-10.0])], True)
    >>> [c.label for c in curves], pairs.chips
    (['half 1', 'half 2'], [0.0])
    """
    curves = [Curve(label, chips) for label, chips in halves]
    pairs = None
    if duplicate and len(halves) == 2:
        first, second = (chips for _, chips in halves)
        pairs = pair_curve(player, [(x + y) / 2 for x, y in zip(first, second, strict=False)])
    return curves, pairs


def pair_curve(player: str, samples: Sequence[float]) -> Curve:
    """The curve of duplicate pair samples (each hand number's two results averaged)."""
    return Curve(f"duplicate pairs (the mean of {player}'s two results)", samples)


def _running(chips: Sequence[float], big_blind: int) -> tuple[Any, Any, Any, Any]:
    """Sample numbers (from 1), cumulative mbb, running mbb/g and its 95% CI half-width."""
    import numpy as np

    mbb = np.asarray(chips, dtype=float) * to_mbb(1.0, big_blind)
    n = np.arange(1, len(mbb) + 1, dtype=float)
    total = np.cumsum(mbb)
    mean = total / n
    squares = np.cumsum(mbb * mbb)
    with np.errstate(divide="ignore", invalid="ignore"):
        variance = np.maximum(squares - total * total / n, 0.0) / (n - 1)
        ci = Z95 * np.sqrt(variance / n)
    ci[n < 2] = np.nan
    return n, total, mean, ci


def _thin(length: int) -> npt.NDArray[np.intp]:
    """Which of ``length`` points to draw: all, or :data:`_POINTS` evenly, the last
    included."""
    import numpy as np

    if length <= _POINTS:
        return np.arange(length)
    return np.unique(np.linspace(0, length - 1, _POINTS).round().astype(np.intp))


def _estimate_text(mean: float, ci: float) -> str:
    return f"{mean:+.1f}" + ("" if math.isnan(ci) else f" ± {ci:.1f}") + " mbb/g (95% CI)"


def bankroll_png(
    title: str,
    player: str,
    big_blind: int,
    curves: Sequence[Curve],
    pairs: Curve | None = None,
) -> bytes:
    """``player``'s bankroll (see the module's description) as a PNG image; ``title`` says
    what was played."""
    import numpy as np
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter

    figure = Figure(figsize=(10, 7.5))
    top, bottom = figure.subplots(2, 1, sharex=False, height_ratios=(3, 2))
    figure.suptitle(title, fontsize=12)
    thousands = FuncFormatter(lambda value, _: f"{value:,.0f}")

    drawn = [(c, _HALF_COLOURS[i % len(_HALF_COLOURS)], 1.2) for i, c in enumerate(curves)]
    if pairs is not None:
        drawn.append((pairs, _PAIR_COLOUR, 2.0))
    banded = [(pairs, _PAIR_COLOUR)] if pairs is not None else [(c, col) for c, col, _ in drawn]
    for curve, colour, width in drawn:
        if not curve.chips:
            continue
        n, total, mean, ci = _running(curve.chips, big_blind)
        keep = _thin(len(n))
        label = f"{curve.label}: {_estimate_text(float(mean[-1]), float(ci[-1]))}"
        top.plot(n[keep], total[keep], color=colour, linewidth=width, label=label)
    top.axhline(0, color="grey", linewidth=0.8)
    top.set_title(f"{player}'s bankroll", fontsize=10)
    top.set_xlabel("hands played" + (" (pairs for the duplicate curve)" if pairs else ""))
    top.set_ylabel("cumulative winnings (mbb)")
    top.yaxis.set_major_formatter(thousands)
    top.xaxis.set_major_formatter(thousands)
    top.legend(loc="best", fontsize=8)
    top.grid(alpha=0.3)

    low, high = math.inf, -math.inf
    for curve, colour in banded:
        if curve is None or len(curve.chips) < 2:
            continue
        n, _, mean, ci = _running(curve.chips, big_blind)
        keep = _thin(len(n))
        bottom.plot(n[keep], mean[keep], color=colour, linewidth=1.5, label=curve.label)
        bottom.fill_between(
            n[keep],
            (mean - ci)[keep],
            (mean + ci)[keep],
            color=colour,
            alpha=0.15,
            linewidth=0,
            label="95% confidence interval",
        )
        # Scale to the settled part: the first hands' interval is wide enough to hide the rest.
        settled = max(1, len(n) // 10)
        window = slice(settled, None)
        low = min(low, float(np.nanmin((mean - ci)[window])))
        high = max(high, float(np.nanmax((mean + ci)[window])))
    if math.isfinite(low) and math.isfinite(high):
        pad = 0.1 * (high - low) or 10.0
        bottom.set_ylim(low - pad, high + pad)
    bottom.axhline(0, color="grey", linewidth=0.8)
    over = "over the duplicate pairs" if pairs is not None else "over hands"
    bottom.set_title(f"{player}'s running mbb/g {over}, with its 95% CI", fontsize=10)
    bottom.set_xlabel("pairs played" if pairs is not None else "hands played")
    bottom.set_ylabel("mbb/g")
    bottom.xaxis.set_major_formatter(thousands)
    bottom.yaxis.set_major_formatter(thousands)
    bottom.legend(loc="best", fontsize=8)
    bottom.grid(alpha=0.3)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


def logs_plot_path(first_log: Path, plot_file: Path | None = None) -> Path:
    """Where ``acpcbot results --plot`` draws: ``plot_file`` (a ``.png``), else beside the
    first log (``LOG.bankroll.png``, LOG without its ``.log``); checked before the logs are
    read (matplotlib installed, the file writable)."""
    need_matplotlib()
    if plot_file is not None and plot_file.suffix.lower() != ".png":
        raise UsageError(f"--plot-file {plot_file}: a bankroll picture is a .png file")
    path = plot_file or first_log.with_name(f"{first_log.name.removesuffix('.log')}.bankroll.png")
    check_writable(path)
    return path


def logs_png(report: LogsReport) -> bytes:
    """The bankroll curves of ``report``'s player (``acpcbot results --plot``): in each log
    and, for a duplicate pair, over the pairs."""
    player = report.halves[0].player
    curves = [
        Curve(f"log {i} ({log.name}, {half.player})", log.chips[half.player])
        for i, (log, half) in enumerate(zip(report.logs, report.halves, strict=True), 1)
    ]
    pairs = None
    opponent = report.halves[0].opponent
    if report.kind is ReportKind.PAIR:
        first, second = report.logs
        samples, _ = pair_sorted(
            first.hand_numbers, first.chips[player], second.hand_numbers, second.chips[player]
        )
        pairs = pair_curve(player, samples)
        what = f"duplicate pair, {len(samples):,} pairs"
    else:
        what = "one log" if report.kind is ReportKind.SINGLE else "two logs, not combined"
    header = report.logs[0].header
    seed = f", seed {header.seed}" if header is not None else ""
    title = f"{player} vs {opponent}: {what}{seed}"
    return bankroll_png(title, player, report.big_blinds[0], curves, pairs)
