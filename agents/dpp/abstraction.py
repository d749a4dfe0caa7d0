"""The card abstraction of the dpp-like agents for heads-up limit hold'em.

**Buckets.** Preflop: the 169 lossless starting-hand classes
(:mod:`acpcbot.handeval.combos`). Flop and turn: percentile buckets of E[HS²], the expected
square of the river hand strength over the cards to come; river: percentile buckets of HS
(:mod:`agents.dpp.handstrength`; both against a uniformly random opponent hand). Every
round's values are split into 256 percentile *levels* over all (hole, board) combinations
(:mod:`agents.dpp.tables`); an abstraction with ``B`` buckets (a power of two up to 256)
groups ``256 / B`` consecutive levels. Shipped: ``dpp`` 169-256-256-128 and ``dpp-coarse``
169-4-4-4 (169-8-8-8 was tried, and too close to ``dpp`` to tell apart: docs/agents/dpp.md).

**Recall.** Imperfect: at a decision a player knows the betting and its bucket in the
current round only. Perfect recall of 169 preflop classes would multiply the river's
information sets by 169 × B³; forgetting keeps ``dpp`` at 0.9 million information sets
(8 × 169 + 70 × 256 + 630 × 256 + 5670 × 128), a 2–3 MB float16 strategy.

**Chance.** The abstract game deals each player an independent chain of buckets: class
``c`` with probability (combos of ``c``) / 1326, then flop, turn and river buckets from the
transition counts of every real deal, and decides showdowns by the average result of every
real deal with that pair of river buckets. Independence drops what the shared board and card
removal say about the opponent's bucket; in exchange the abstract game is small enough for
full-width CFR+ (minutes, not days) and, because a player's past buckets then say nothing
about the future, a best response bucket by bucket is exact: exploitability inside the
abstraction is computed exactly along training (:mod:`agents.dpp.solver`).

**At the table.** The preflop class and the flop bucket are lookups (the flop's 256 levels
are stored per canonical flop and hole: 2.3 MB, 1.1 MB compressed); turn and river values
are computed exactly (their cost: docs/agents/dpp.md, "Playing"), then placed among the
stored level breakpoints.
The bucket function is total and deterministic: every (hole, board) maps to one bucket,
always the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from typing import IO, TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from acpcbot.cards import Card
from acpcbot.handeval.combos import (
    COMBO_CLASS,
    NUM_CLASSES,
    PERMUTED_COMBOS,
    class_of,
    combo_index,
)
from agents.dpp.chance import AbstractChance
from agents.dpp.isomorphism import CanonicalFlops
from agents.dpp.strategy import Strategy, StrategyFileError, write_arrays

if TYPE_CHECKING:
    from agents.dpp.tables import FineTables

LEVELS = 256
FORMAT = "acpcbot-dpp-abstraction/1"
DATA_FILE = "dpp-abstraction.npz"


@dataclass(frozen=True, eq=False)
class HoldemAbstraction:
    """What an agent needs to bucket cards: flop levels and turn/river breakpoints."""

    flop_levels: npt.NDArray[np.uint8]
    breakpoints: npt.NDArray[np.int64]

    @property
    def name(self) -> str:
        """Identifies the tables a strategy was trained with: ``ehs2-levels/<sha256>``."""
        return f"ehs2-levels/{self.checksum[:16]}"

    @cached_property
    def checksum(self) -> str:
        digest = hashlib.sha256(self.flop_levels.tobytes())
        digest.update(self.breakpoints.astype("<i8").tobytes())
        return digest.hexdigest()

    @classmethod
    def from_tables(cls, tables: FineTables) -> HoldemAbstraction:
        return cls(tables.flop_levels, tables.breakpoints)

    def save(self, target: str | IO[bytes]) -> None:
        write_arrays(
            target,
            {
                "format": np.array(FORMAT),
                "flop_levels": self.flop_levels,
                "breakpoints": self.breakpoints,
                "checksum": np.array(self.checksum),
            },
        )

    @classmethod
    def load(cls, source: str | IO[bytes]) -> HoldemAbstraction:
        try:
            with np.load(source, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (OSError, EOFError, ValueError, KeyError) as exc:
            raise StrategyFileError(f"cannot read abstraction file: {exc}") from None
        if str(arrays.get("format")) != FORMAT:
            raise StrategyFileError(f"not a {FORMAT} file")
        abstraction = cls(arrays["flop_levels"], arrays["breakpoints"])
        if abstraction.checksum != str(arrays["checksum"]):
            raise StrategyFileError("abstraction file checksum mismatch (corrupt file)")
        return abstraction


def packaged_abstraction() -> HoldemAbstraction:
    """The abstraction shipped in ``agents/data``."""
    with resources.files("agents").joinpath("data").joinpath(DATA_FILE).open("rb") as stream:
        return HoldemAbstraction.load(stream)


class HoldemBuckets:
    """The bucket function: ``(round, hole, board) -> bucket`` for given bucket counts."""

    def __init__(self, abstraction: HoldemAbstraction, counts: Sequence[int]) -> None:
        check_counts(counts)
        self.abstraction = abstraction
        self.counts = tuple(counts)
        self._flops = CanonicalFlops.build()

    @classmethod
    def for_strategy(
        cls, strategy: Strategy, abstraction: HoldemAbstraction | None = None
    ) -> HoldemBuckets:
        """The buckets a strategy was trained with (the packaged abstraction by default)."""
        abstraction = abstraction or packaged_abstraction()
        if strategy.abstraction != abstraction.name:
            raise StrategyFileError(
                f"the strategy needs abstraction {strategy.abstraction}, "
                f"the tables are {abstraction.name}"
            )
        return cls(abstraction, strategy.layout.buckets)

    def level(self, round_: int, hole: Sequence[Card], board: Sequence[Card]) -> int:
        """The percentile level (0..255) of a postflop hand."""
        if round_ == 1:
            flop, cards = self._flops.canonical(board[:3], hole)
            return int(self.abstraction.flop_levels[flop, combo_index(*cards)])
        # numba: compiled and loaded when first used
        from agents.dpp import handstrength

        cards_array = np.array(board[: round_ + 2], dtype=np.int64)
        if round_ == 2:
            value = handstrength.turn_value(hole[0], hole[1], cards_array)
        else:
            value = handstrength.river_value(hole[0], hole[1], cards_array)
        breaks = self.abstraction.breakpoints[round_ - 1]
        return int(np.searchsorted(breaks, value, side="right"))

    def warm_up(self) -> None:
        """Load the compiled hand-strength kernels now rather than at the first decision."""
        self.level(2, (51, 47), (0, 4, 9, 13))
        self.level(3, (51, 47), (0, 4, 9, 13, 18))

    def levels_of_every_combo(self, round_: int, board: Sequence[Card]) -> npt.NDArray[np.int64]:
        """:meth:`level` of every combo (indexed by ``combo_index``) on a postflop
        ``board``, at once; entries of combos that meet the board are meaningless."""
        if round_ == 1:
            flop, permutation = self._flops.canonical_permutation(board[:3])
            return np.asarray(
                self.abstraction.flop_levels[flop, PERMUTED_COMBOS[permutation]], dtype=np.int64
            )
        # numba: compiled and loaded when first used
        from agents.dpp import handstrength

        cards_array = np.array(board[: round_ + 2], dtype=np.int64)
        values = np.empty(len(COMBO_CLASS), dtype=np.int64)
        if round_ == 2:
            handstrength.board_turn_values(cards_array, values)
        else:
            handstrength.board_river_values(cards_array, values, np.empty_like(values))
        breaks = self.abstraction.breakpoints[round_ - 1]
        return np.asarray(np.searchsorted(breaks, values, side="right"), dtype=np.int64)

    def every_bucket(self, round_: int, board: Sequence[Card]) -> npt.NDArray[np.int64]:
        """:meth:`bucket` of every combo at once (meaningless for combos meeting the
        board)."""
        if round_ == 0:
            return COMBO_CLASS
        return self.levels_of_every_combo(round_, board) * self.counts[round_] // LEVELS

    def bucket(self, round_: int, hole: Sequence[Card], board: Sequence[Card]) -> int:
        if round_ == 0:
            return class_of(hole[0], hole[1])
        return self.level(round_, hole, board) * self.counts[round_] // LEVELS


def check_counts(counts: Sequence[int]) -> None:
    """Bucket counts must be 169 preflop and powers of two up to 256 after."""
    if len(counts) != 4 or counts[0] != NUM_CLASSES:
        raise ValueError("bucket counts are (169, flop, turn, river)")
    for b in counts[1:]:
        if not (1 <= b <= LEVELS and LEVELS % b == 0):
            raise ValueError(f"postflop bucket counts divide {LEVELS}: {b} does not")


def holdem_chance(tables: FineTables, counts: Sequence[int]) -> AbstractChance:
    """The abstract game's chance model for ``counts`` buckets (see the module docstring)."""
    check_counts(counts)
    groups = [LEVELS // b for b in counts[1:]]

    def grouped(matrix: npt.NDArray[Any], rows: int, columns: int) -> npt.NDArray[np.int64]:
        m = matrix.reshape(matrix.shape[0] // rows, rows, -1).sum(axis=1)
        return np.asarray(m.reshape(m.shape[0], m.shape[1] // columns, columns).sum(axis=2))

    def stochastic(counts_matrix: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        totals = counts_matrix.sum(axis=1, keepdims=True)
        return np.asarray(counts_matrix / np.where(totals > 0, totals, 1), dtype=np.float64)

    transitions = (
        stochastic(grouped(tables.class_to_flop, 1, groups[0])),
        stochastic(grouped(tables.flop_to_turn, groups[0], groups[1])),
        stochastic(grouped(tables.turn_to_river, groups[1], groups[2])),
    )
    total = grouped(tables.showdown_sum, groups[2], groups[2])
    count = grouped(tables.showdown_count, groups[2], groups[2])
    showdown = np.asarray(total / np.where(count > 0, count, 1), dtype=np.float64)
    class_sizes = np.bincount(COMBO_CLASS, minlength=NUM_CLASSES)
    return AbstractChance(
        sizes=tuple(counts),
        initial=np.asarray(class_sizes / class_sizes.sum(), dtype=np.float64),
        transitions=transitions,
        fold=(None, None, None, None),
        showdown=showdown,
    )
