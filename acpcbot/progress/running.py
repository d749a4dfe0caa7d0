"""A match's results while it is played: hands, hands/s, running mbb/g with its 95% CI, ETA.

:class:`RunningMatch` is told agent A's chips in each hand as the halves play them (in any
order and interleaving: the halves of a duplicate match may run side by side) and keeps
running sums, never the whole match; its clock starts with the first hands reported (not
while agents load or players connect): once both halves have played hand *i*, its two
results are averaged into one *pair* sample. The estimate is over those pairs (as the
final results are), or over single hands while there are fewer than two pairs and in a
match without a second half. Memory is what one half is ahead of the other.

>>> running = RunningMatch(total=10, big_blind=10, clock=iter([0.0, 2.0]).__next__)
>>> running.add(0, [10.0, -10.0, 30.0, 10.0])
>>> running.add(1, [-10.0, 10.0])
>>> p = running.snapshot()
>>> p.hands, p.paired, p.samples, p.mbb_per_game, p.hands_per_second, p.eta_seconds
(6, True, 2, 0.0, 1.0, 4.0)
>>> p.estimate_text()
'+0.0 ± 0.0 mbb/g'
"""

from __future__ import annotations

import collections
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["Z95", "MatchProgress", "RunningMatch", "RunningSums"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval (``dealer.analysis.stats.Z95``: the core cannot
import the dealer)."""


class RunningSums:
    """Count, sum and sum of squares of samples (chips): their mean and 95% CI.

    >>> sums = RunningSums()
    >>> for x in (10.0, -10.0, 30.0, 10.0):
    ...     sums.add(x)
    >>> sums.count, sums.mean, round(sums.ci95, 3)
    (4, 10.0, 16.003)
    """

    __slots__ = ("count", "squares", "total")

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, value: float) -> None:
        self.count += 1
        self.total += value
        self.squares += value * value

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0

    @property
    def ci95(self) -> float:
        """Half-width of the 95% CI of the mean (``inf`` with fewer than 2 samples)."""
        n = self.count
        if n < 2:
            return math.inf
        variance = max(0.0, (self.squares - self.total * self.total / n) / (n - 1))
        return Z95 * math.sqrt(variance / n)


@dataclass(frozen=True, slots=True)
class MatchProgress:
    """How far a match got and what it shows so far (agent A's results, in mbb/g)."""

    hands: int
    """Played so far, over every half."""
    total: int
    """To play, over every half."""
    seconds: float
    """Since the first hands were reported."""
    hands_per_second: float
    """The rate since the first hands were reported (0 until it is known)."""
    mbb_per_game: float
    ci95: float
    """Half-width of the 95% CI (``inf``: too few samples)."""
    samples: int
    paired: bool
    """The estimate is over duplicate pairs (else over hands)."""

    @property
    def eta_seconds(self) -> float | None:
        """Seconds left at the rate so far (``None`` before the first hand)."""
        rate = self.hands_per_second
        return (self.total - self.hands) / rate if rate > 0 else None

    def estimate_text(self) -> str:
        """``+12.3 ± 45.6 mbb/g`` (without the ``±`` part while it is unknown)."""
        if math.isinf(self.ci95):
            return f"{self.mbb_per_game:+.1f} mbb/g"
        return f"{self.mbb_per_game:+.1f} ± {self.ci95:.1f} mbb/g"

    def json(self) -> dict[str, Any]:
        """As a ``progress`` message holds it."""
        # the telemetry package loads asyncio: a display without a broker does without
        from acpcbot.telemetry.codec import finite

        eta = self.eta_seconds
        return {
            "hands": self.hands,
            "hands_total": self.total,
            "hands_per_s": finite(self.hands_per_second, 1),
            "mbb_per_game": finite(self.mbb_per_game),
            "ci95": finite(self.ci95),
            "samples": self.samples,
            "over": "pairs" if self.paired else "hands",
            "elapsed_s": finite(self.seconds),
            "eta_s": finite(eta, 1),
        }


class RunningMatch:
    """Agent A's results as the halves are played (see the module's description)."""

    def __init__(
        self,
        total: int,
        big_blind: int,
        *,
        duplicate: bool = True,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.total = total
        self._mbb = 1000.0 / big_blind
        self._duplicate = duplicate
        self._clock = clock
        self._started: float | None = None
        self._counted_from = 0
        """Hands reported with the first ones: played before the clock started."""
        self.hands = RunningSums()
        self.pairs = RunningSums()
        self._waiting: tuple[collections.deque[float], collections.deque[float]] = (
            collections.deque(),
            collections.deque(),
        )

    def add(self, half: int, values: Iterable[float]) -> None:
        """Agent A's chips in the next hands of ``half`` (0 or 1), in hand order."""
        hands = self.hands
        first = self._started is None
        if not self._duplicate:
            for value in values:
                hands.add(value)
        else:
            self._pair(half, values)
        if first:
            self._started = self._clock()
            self._counted_from = hands.count

    def _pair(self, half: int, values: Iterable[float]) -> None:
        hands = self.hands
        mine, other = self._waiting[half], self._waiting[1 - half]
        pairs = self.pairs
        for value in values:
            hands.add(value)
            if other:
                pairs.add((other.popleft() + value) / 2)
            else:
                mine.append(value)

    def snapshot(self) -> MatchProgress:
        """The match so far."""
        seconds = 0.0 if self._started is None else self._clock() - self._started
        counted = self.hands.count - self._counted_from
        sums = self.pairs if self.pairs.count >= 2 else self.hands
        return MatchProgress(
            hands=self.hands.count,
            total=self.total,
            seconds=seconds,
            hands_per_second=counted / seconds if seconds > 0 and counted > 0 else 0.0,
            mbb_per_game=sums.mean * self._mbb,
            ci95=sums.ci95 * self._mbb,
            samples=sums.count,
            paired=sums is self.pairs,
        )
