"""The case base and the case-based unit.

Every hand that reaches a showdown becomes a :class:`Case`: both players' betting lines and
the opponent's revealed bucket on each street. Two situations are *similar* when the
opponent's line so far is the same (the same actions in the same contexts, street by
street). Facing a river bet, with more than ``threshold`` similar cases,
:func:`case_triple` compares the opponent's bucket distribution in those cases with the
agent's own bucket: the likelier the opponent is stronger, the likelier PLICAS folds.

>>> base = CaseBase()
>>> base.add(Case(opponent_line=("c", "kc", "k", "k"), own_line=("k", "b", "b", "k"),
...               opponent_buckets=(3, 6, 6, 7)))
>>> base.histogram(2, ("c", "kc", "k")).tolist()
[0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]
>>> base.histogram(2, ("c", "kc", "b")) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from agents.plicas.buckets import BUCKETS
from agents.plicas.memory import Memory
from agents.plicas.situation import RIVER, Line, Situation
from agents.triple import Triple

FloatArray = npt.NDArray[np.float64]
Key = tuple[int, Line]


@dataclass(frozen=True, slots=True)
class Case:
    """One showdown: betting lines per street and the opponent's bucket per street."""

    opponent_line: Line
    own_line: Line
    opponent_buckets: tuple[int, ...]
    """Bucket (1..8) of the opponent's hand on each street's board, preflop first."""


class CaseBase:
    """Showdown cases indexed by every prefix of the opponent's line, each case weighted as
    PLICAS's memory weighs what it saw then (:mod:`agents.plicas.memory`)."""

    def __init__(self, memory: Memory | None = None) -> None:
        self.cases = 0
        """Cases added."""
        self._index: dict[Key, FloatArray] = {}
        self.memory = Memory() if memory is None else memory
        self.memory.register(self)

    def __len__(self) -> int:
        return self.cases

    def rescale(self, factor: float) -> None:
        """Multiply every stored count by ``factor`` (the memory folds its scale in)."""
        for key, histogram in self._index.items():
            self._index[key] = histogram * factor

    def add(self, case: Case) -> None:
        self.cases += 1
        weight = self.memory.weight
        for round_, bucket in enumerate(case.opponent_buckets):
            if round_ >= len(case.opponent_line):
                break
            done = case.opponent_line[:round_]
            street = case.opponent_line[round_]
            for k in range(len(street) + 1):
                key = (round_, (*done, street[:k]))
                histogram = self._index.get(key)
                if histogram is None:
                    histogram = self._index[key] = np.zeros(BUCKETS)
                histogram[bucket - 1] += weight

    def histogram(self, round_: int, opponent_line: Line) -> FloatArray | None:
        """Opponent buckets on street ``round_`` in the cases similar to ``opponent_line``
        (its actions on streets ``0..round_``, the last one possibly partial), each case
        weighted as the memory weighs it now."""
        stored = self._index.get((round_, tuple(opponent_line[: round_ + 1])))
        if stored is None:
            return None
        histogram: FloatArray = stored / self.memory.scale
        return histogram


def win_share(histogram: FloatArray, own_bucket: int) -> float:
    """Share of the cases in which the own bucket beats the opponent's (ties count half).

    >>> win_share(np.array([0, 0, 1, 0, 0, 0, 1, 0]), 5)
    0.5
    """
    total = float(histogram.sum())
    weaker = float(histogram[own_bucket:].sum())
    same = float(histogram[own_bucket - 1])
    return (weaker + 0.5 * same) / total


def case_triple(
    situation: Situation, own_bucket: int, base: CaseBase, threshold: int
) -> tuple[Triple, float] | None:
    """The case-based triple and the number of similar cases (as the memory weighs them),
    or ``None`` with ``threshold`` or fewer similar cases, and ``None`` except facing a bet
    on the river.

    The win share ``w`` against the similar cases sets the triple: raise grows from
    ``w = 0.6`` to certainty at 0.9; facing a bet, fold grows as ``w`` falls below the pot
    odds plus a margin, so a stronger average opponent bucket means more folding.

    Why only at a river bet: a case exists only if the hand reached a showdown, so the
    cases similar to a decision are selected by everything that happens after it. Facing a
    river bet nothing is left that the opponent's cards decide (a call shows them down), so
    its shown buckets are a fair sample of the hands that bet. Anywhere earlier its weak
    hands that fold later to our bets, or bluff and win when we fold, never become cases:
    the similar cases are stronger than the range that took the line, and the unit folds
    and checks too much. Against dpp that bias cost more than the unit won, and the case
    base answering at river bets only costs nothing measurable against having none
    (docs/results/plicas.md, "The case base's blind spot").
    """
    if situation.round != RIVER or not situation.facing_bet:
        return None
    histogram = base.histogram(situation.round, situation.opponent_line)
    if histogram is None:
        return None
    similar = float(histogram.sum())
    if similar <= threshold:
        return None
    w = win_share(histogram, own_bucket)
    raise_ = _clip((w - 0.6) / 0.3) if situation.can_raise else 0.0
    fold = 0.0
    if situation.facing_bet:
        fold = _clip((situation.pot_odds + 0.15 - w) / 0.3) * (1.0 - raise_)
    return Triple.of(fold, 1.0 - raise_ - fold, raise_), similar


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))
