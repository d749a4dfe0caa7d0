"""A tournament's crosstable: each pairing's duplicate matches pooled over their seeds.

A duplicate match gives agent A one sample per hand number, its two halves' results
averaged (a *pair*). A pairing's cell pools the pairs of every finished match of the
pairing (all its card seeds): its mbb/g is their mean and its 95% confidence interval is
over all of them. Seen from B, a cell is negated (the same interval).

>>> from dealer.analysis.stats import SampleSums
>>> table = pool(
...     ("a", "b", "c"),
...     10,
...     [("a", "b"), ("a", "c"), ("b", "c")],
...     [("a", "b", SampleSums.of([10.0, 0.0])), ("a", "b", SampleSums.of([5.0, 5.0]))],
... )
>>> cell = table.cell("b", "a")
>>> cell.matches, cell.pairs, cell.estimate.mbb_per_game
(2, 4, -500.0)
>>> table.cell("a", "c") is None, table.complete
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property

from dealer.analysis.stats import Estimate, SampleSums

__all__ = ["Cell", "Crosstable", "Pairing", "pool"]


@dataclass(frozen=True)
class Pairing:
    """Two agents' matches, pooled: agent A's pairs."""

    a: str
    b: str
    matches: int
    """Finished matches pooled (one per card seed)."""
    sums: SampleSums


@dataclass(frozen=True)
class Cell:
    """A pairing as the row agent sees it."""

    row: str
    column: str
    matches: int
    pairs: int
    chips: Fraction
    """Chips won per hand by the row agent, exactly."""
    estimate: Estimate
    """In mbb/g, for the row agent."""


@dataclass(frozen=True)
class Crosstable:
    """Every planned pairing's pooled results."""

    agents: tuple[str, ...]
    big_blind: int
    pairings: tuple[Pairing, ...]
    """Every planned pairing, those without a finished match included."""

    def cell(self, row: str, column: str) -> Cell | None:
        """The pairing of ``row`` and ``column`` from ``row``'s side (``None`` when they
        were not paired or no match of theirs is finished)."""
        p = self._index.get(frozenset((row, column)))
        if p is None or not p.matches or row == column:
            return None
        e = p.sums.estimate(self.big_blind)
        chips = p.sums.mean
        if row == p.b:
            e = replace(e, mbb_per_game=-e.mbb_per_game + 0.0)  # + 0.0: never -0.0
            chips = -chips
        return Cell(row, column, p.matches, p.sums.count, chips, e)

    def value(self, row: str, column: str) -> Fraction:
        """Chips per hand ``row`` won from ``column`` (for the rankings)."""
        p = self._index.get(frozenset((row, column)))
        if p is None or not p.matches:
            raise KeyError(f"no result for {row} against {column}")
        return p.sums.mean if row == p.a else -p.sums.mean

    @cached_property
    def _index(self) -> dict[frozenset[str], Pairing]:
        return {frozenset((p.a, p.b)): p for p in self.pairings}

    @property
    def complete(self) -> bool:
        """Every planned pairing has a finished match."""
        return all(p.matches for p in self.pairings)

    @property
    def round_robin(self) -> bool:
        """Every two agents are paired."""
        n = len(self.agents)
        return len({frozenset((p.a, p.b)) for p in self.pairings}) == n * (n - 1) // 2


def pool(
    agents: Sequence[str],
    big_blind: int,
    planned: Sequence[tuple[str, str]],
    results: Iterable[tuple[str, str, SampleSums]],
) -> Crosstable:
    """The crosstable of the ``planned`` pairings (A, B) from the ``results`` of their
    finished matches: A, B and A's pair samples, any number per pairing."""
    pooled = {pair: (0, SampleSums()) for pair in planned}
    for a, b, sums in results:
        if (a, b) not in pooled:
            raise KeyError(f"{a} against {b} is not a planned pairing")
        matches, total = pooled[a, b]
        pooled[a, b] = (matches + 1, total + sums)
    pairings = tuple(Pairing(a, b, m, s) for (a, b), (m, s) in pooled.items())
    return Crosstable(tuple(agents), big_blind, pairings)
