"""One PNG per street in the manner of Saund's Fig. 6 (``--plot``; matplotlib, the ``plot``
extra).

Along the street's decision points (the showdown last on the river): the entropy ``H(p)`` of
the omniscient observer, and the average information cost ``H(p) + KL(p ‖ q)`` of the public
observer from the cards alone and from the cards and the bets, with ``log2 N`` (1 bit: a
coin toss) for scale. The lower the bet-inference curve lies below the cards-only one, the
more the bets reveal.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

from acpcbot.errors import AcpcError
from acpcbot.extras import need_matplotlib
from acpcbot.game import HOLDEM_ROUNDS
from acpcbot.smallfile import shown_path
from acpcbot.writing import check_writable, replace_file, writing
from agents.infogain.measure import InfoGainReport, StreetReport

__all__ = ["street_plots", "street_png", "write_street_plots"]


def street_plots(folder: Path, *, force: bool = False) -> list[Path]:
    """The PNGs ``--plot DIR`` draws, one per street, checked before any work: matplotlib
    installed, none of them there already unless ``force``, each writable."""
    need_matplotlib()
    plots = [folder / f"infogain-{street}.png" for street in HOLDEM_ROUNDS]
    existing = [path for path in plots if path.exists()]
    if existing and not force:
        raise AcpcError(
            f"{shown_path(existing[0])} exists; --force replaces the infogain PNGs in "
            f"{shown_path(folder)}"
        )
    for path in plots:
        check_writable(path, make_folder=True)
    return plots


def write_street_plots(report: InfoGainReport, plots: list[Path]) -> None:
    """Draw each street of ``report`` into its PNG of :func:`street_plots`."""
    with writing(plots[0].parent):
        plots[0].parent.mkdir(parents=True, exist_ok=True)
    for path, street in zip(plots, report.streets, strict=True):
        replace_file(path, street_png(report, street))


def street_png(report: InfoGainReport, street: StreetReport) -> bytes:
    """The PNG of one street of ``report``."""
    from matplotlib.figure import Figure

    points = street.by_point
    x = list(range(1, len(points) + 1))
    figure = Figure(figsize=(7.0, 4.5))
    axes = figure.subplots()
    axes.axhline(1.0, color="#999999", linewidth=1, label="log2 N (a coin toss)")
    axes.plot(x, [p.entropy for p in points], "o-", color="#2a7d2a", label="H(p), omniscient")
    axes.plot(
        x,
        [p.entropy + p.kl_cards for p in points],
        "s--",
        color="#c23b22",
        label="H + KL, cards only",
    )
    axes.plot(
        x,
        [p.entropy + p.kl_bet for p in points],
        "^--",
        color="#2456a6",
        label="H + KL, cards and bets",
    )
    axes.set_xticks(x, [f"{i}\n({p.points:,})" for i, p in enumerate(points, start=1)])
    axes.set_xlabel("decision point of the street (points averaged)")
    axes.set_ylabel("bits")
    axes.set_ylim(bottom=0.0)
    gain = street.gain_percent
    told = "no gain measured" if math.isnan(gain) else f"gain {gain:+.1f}% ± {street.gain_ci95:.1f}"
    axes.set_title(f"{street.street}: {told} over {report.hands:,} hands", fontsize=10)
    axes.legend(fontsize=8, loc="best")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()
