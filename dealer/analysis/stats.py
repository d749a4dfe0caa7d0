"""Match statistics: mean winnings in mbb/g, their 95% confidence interval, pairing.

One milli-big-blind per game (mbb/g) is a thousandth of a big blind won per hand on
average. In a duplicate match each hand number is played twice with the seats reversed;
averaging player A's results of the two plays gives one *pair* sample, much less noisy
than a single hand, and the confidence interval is computed over those pair samples.

>>> e = estimate([10.0, -10.0, 30.0, 10.0], big_blind=10)
>>> e.samples, e.mbb_per_game, round(e.sd_mbb, 1), round(e.ci95_mbb, 1)
(4, 1000.0, 1633.0, 1600.3)
>>> pair_samples({0: 10.0, 1: -20.0}, {0: -10.0, 1: 40.0, 2: 5.0})
([0.0, 10.0], 1)
>>> pair_sorted([0, 1], [10.0, -20.0], [0, 1, 2], [-10.0, 40.0, 5.0])
([0.0, 10.0], 1)

Samples pooled from many matches need not be kept: :class:`SampleSums` keeps their count,
sum and sum of squares, exactly.

>>> pooled = SampleSums.of([10.0, -10.0]) + SampleSums.of([30.0, 10.0])
>>> pooled.estimate(10) == e, pooled.mean
(True, Fraction(10, 1))
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "Z95",
    "Estimate",
    "SampleSums",
    "estimate",
    "pair_samples",
    "pair_sorted",
    "to_mbb",
]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval (samples are hands: thousands)."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """Mean winnings per sample with their spread, in mbb (per game or per pair)."""

    samples: int
    mbb_per_game: float
    sd_mbb: float
    """Standard deviation of one sample (sample SD, n - 1); 0 with fewer than 2 samples."""
    ci95_mbb: float
    """Half-width of the 95% confidence interval of the mean; ``inf`` with fewer than 2."""

    @property
    def interval(self) -> tuple[float, float]:
        return (self.mbb_per_game - self.ci95_mbb, self.mbb_per_game + self.ci95_mbb)


def to_mbb(chips: float, big_blind: int) -> float:
    """Chips as milli-big-blinds.

    >>> to_mbb(-7.5, 10)
    -750.0
    """
    return 1000.0 * chips / big_blind


def estimate(samples: Sequence[float], big_blind: int) -> Estimate:
    """Mean, SD and 95% CI of chip samples, in mbb."""
    n = len(samples)
    if n == 0:
        return Estimate(0, 0.0, 0.0, math.inf)
    mean = math.fsum(samples) / n
    if n == 1:
        return Estimate(1, to_mbb(mean, big_blind), 0.0, math.inf)
    variance = math.fsum((s - mean) ** 2 for s in samples) / (n - 1)
    sd = math.sqrt(variance)
    return Estimate(
        n,
        to_mbb(mean, big_blind),
        to_mbb(sd, big_blind),
        to_mbb(Z95 * sd / math.sqrt(n), big_blind),
    )


@dataclass(frozen=True, slots=True)
class SampleSums:
    """Samples (chips) as their count, sum and sum of squares, which is all a mean and its
    confidence interval need: the samples of many matches pool by adding their sums.

    The sums are exact (:class:`~fractions.Fraction`) for samples in whole or half chips,
    which pair samples of whole-chip games always are (the float sums of such values are
    exact up to 2**50 chips), so two agents with the same winnings compare equal.
    """

    count: int = 0
    total: Fraction = Fraction(0)
    squares: Fraction = Fraction(0)

    @classmethod
    def of(cls, samples: Sequence[float]) -> SampleSums:
        return cls(
            len(samples),
            Fraction(math.fsum(samples)),
            Fraction(math.fsum(s * s for s in samples)),
        )

    def __add__(self, other: SampleSums) -> SampleSums:
        return SampleSums(
            self.count + other.count, self.total + other.total, self.squares + other.squares
        )

    @property
    def mean(self) -> Fraction:
        """Chips per sample (0 without samples)."""
        return self.total / self.count if self.count else Fraction(0)

    def estimate(self, big_blind: int) -> Estimate:
        """What :func:`estimate` gives for the samples, in mbb."""
        n = self.count
        if n < 2:
            return Estimate(n, to_mbb(float(self.mean), big_blind), 0.0, math.inf)
        variance = (self.squares - self.total * self.total / n) / (n - 1)
        sd = math.sqrt(float(variance))
        return Estimate(
            n,
            to_mbb(float(self.mean), big_blind),
            to_mbb(sd, big_blind),
            to_mbb(Z95 * sd / math.sqrt(n), big_blind),
        )


def pair_samples(
    first: Mapping[int, float], second: Mapping[int, float]
) -> tuple[list[float], int]:
    """One player's results in two halves, by hand number, averaged hand by hand.

    Returns the pair samples in hand order and how many hands had no partner.
    """
    common = sorted(first.keys() & second.keys())
    unpaired = len(first) + len(second) - 2 * len(common)
    return [(first[h] + second[h]) / 2 for h in common], unpaired


def pair_sorted(
    first_hands: Sequence[int],
    first: Sequence[float],
    second_hands: Sequence[int],
    second: Sequence[float],
) -> tuple[list[float], int]:
    """:func:`pair_samples` for results kept as increasing hand numbers with their values
    (as long logs are read): one merge, no dictionary."""
    samples: list[float] = []
    i = j = 0
    while i < len(first_hands) and j < len(second_hands):
        if first_hands[i] == second_hands[j]:
            samples.append((first[i] + second[j]) / 2)
            i += 1
            j += 1
        elif first_hands[i] < second_hands[j]:
            i += 1
        else:
            j += 1
    return samples, len(first_hands) + len(second_hands) - 2 * len(samples)
