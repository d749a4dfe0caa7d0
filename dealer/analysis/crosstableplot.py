"""A tournament's crosstable as a PNG heatmap (``--plot``; matplotlib, the ``plot`` extra).

Each cell is the row agent's mbb/g against the column agent, coloured on a symmetric scale
(blue: the row wins, red: it loses; logarithmic beyond 100 mbb/g, so that both a close
pairing and a rout read) and labelled with its value and its 95% CI. The diagonal and
pairings without a finished match are left grey.
"""

from __future__ import annotations

import io
import math

from dealer.analysis.crosstable import Crosstable

__all__ = ["heatmap_png"]

_LINEAR_MBB = 100.0
"""The colour scale is linear within ± this many mbb/g, logarithmic beyond."""


def heatmap_png(table: Crosstable, caption: str) -> bytes:
    """``table`` drawn as a PNG image, ``caption`` under its title (what was played)."""
    import numpy as np
    from matplotlib.colors import SymLogNorm
    from matplotlib.figure import Figure

    names = table.agents
    n = len(names)
    values = np.full((n, n), np.nan)
    labels = [["" for _ in names] for _ in names]
    for i, row in enumerate(names):
        for j, column in enumerate(names):
            cell = table.cell(row, column)
            if cell is None:
                continue
            e = cell.estimate
            values[i, j] = e.mbb_per_game
            ci = "?" if math.isinf(e.ci95_mbb) else f"{e.ci95_mbb:.0f}"
            labels[i][j] = f"{e.mbb_per_game:+.0f}\n± {ci}"
    finite = values[~np.isnan(values)]
    limit = max(float(np.abs(finite).max()) if finite.size else 0.0, _LINEAR_MBB)
    side = 1.2 + 0.9 * n
    figure = Figure(figsize=(side + 2.5, side + 1.2))
    axes = figure.subplots()
    axes.set_facecolor("#dddddd")
    image = axes.imshow(
        np.ma.masked_invalid(values),
        cmap="RdBu",
        norm=SymLogNorm(linthresh=_LINEAR_MBB, vmin=-limit, vmax=limit, base=10),
    )
    fontsize = max(5.0, min(10.0, 60.0 / n))
    for i in range(n):
        for j in range(n):
            if labels[i][j]:
                dark = abs(values[i, j]) > limit / 3
                axes.text(
                    j,
                    i,
                    labels[i][j],
                    ha="center",
                    va="center",
                    fontsize=fontsize,
                    color="white" if dark else "black",
                )
    axes.set_xticks(range(n), names, rotation=45, ha="right", fontsize=fontsize + 1)
    axes.set_yticks(range(n), names, fontsize=fontsize + 1)
    axes.set_title(f"mbb/g won by the row from the column (± 95% CI)\n{caption}", fontsize=10)
    figure.colorbar(image, ax=axes, label="mbb/g", shrink=0.8)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()
