"""The engine's precomputed tables in the shapes PLICAS reads them, loaded once per process.

>>> t = PlicasTables.load()
>>> from acpcbot.handeval.combos import parse_class
>>> aces, trash = parse_class("AA"), parse_class("72o")
>>> int(t.class_bucket[aces]), int(t.class_bucket[trash])
(1, 8)
>>> round(float(t.class_top_share[aces]), 4), float(t.class_top_share[trash]) > 0.95
(0.0045, True)
>>> round(t.connect(1.0), 2) < round(t.connect(0.2), 2)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from acpcbot.handeval.combos import COMBO_CLASS, NUM_CLASSES
from agents.common import tables
from agents.common.ranges import RANGE_GRID

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True, eq=False)
class PlicasTables:
    """Read-only arrays; build with :meth:`load`."""

    combo_class: IntArray
    """Class (0..168) of every combo."""
    combo_score: IntArray
    """Preflop strength of every combo for ranking within a range: 168 for the best class
    down to 0 for the worst."""
    combo_order: IntArray
    """``argsort(combo_score)``."""
    class_bucket: IntArray
    """PLICAS bucket 1..8 of every class."""
    class_top_share: FloatArray
    """Share of all combos in classes ranked at least as high as this one."""
    class_equity: FloatArray
    """169×169 showdown equity of class i against class j."""
    class_vs_random: FloatArray
    """Each class's equity against a random hand."""
    range_grid: FloatArray
    """The range sizes of the range table (1%..100%)."""
    range_ev: FloatArray
    """``[i, j]``: equity of the top ``range_grid[i]`` against the top ``range_grid[j]``."""
    connect_table: FloatArray
    """P(connects with the flop) of the top range at each grid size."""

    @staticmethod
    @cache
    def load() -> PlicasTables:
        ranking = np.array(tables.preflop_ranking())
        position = np.empty(NUM_CLASSES, dtype=np.int64)
        position[ranking] = np.arange(NUM_CLASSES)
        class_score = NUM_CLASSES - 1 - position
        return PlicasTables(
            combo_class=np.asarray(COMBO_CLASS, dtype=np.int64),
            combo_score=class_score[COMBO_CLASS],
            combo_order=np.argsort(class_score[COMBO_CLASS]),
            class_bucket=tables.preflop_buckets(),
            class_top_share=tables.class_top_share(),
            class_equity=tables.class_equity_matrix(),
            class_vs_random=tables.preflop_equity(),
            range_grid=np.asarray(RANGE_GRID, dtype=np.float64),
            range_ev=tables.range_ev_table(),
            connect_table=tables.flop_connect_table()[:, -1].copy(),
        )

    def connect(self, range_: float) -> float:
        """How often a hand of the top-``range_`` range connects with a random flop (pair
        or better, two overcards, flush or straight draw)."""
        return float(np.interp(range_, self.range_grid, self.connect_table))

    def class_weights(self, weights: FloatArray) -> FloatArray:
        """Combo weights summed per class."""
        summed = np.bincount(self.combo_class, weights=weights, minlength=NUM_CLASSES)
        return summed.astype(np.float64)
