"""The running estimate of a match agrees with the final one however the halves interleave."""

from __future__ import annotations

import random

import pytest

from acpcbot.progress.running import Z95, RunningMatch
from dealer.analysis.stats import Z95 as DEALER_Z95
from dealer.analysis.stats import estimate, pair_samples


def test_the_same_quantile_as_the_dealer() -> None:
    assert Z95 == DEALER_Z95


@pytest.mark.parametrize("seed", range(5))
def test_pairs_in_any_interleaving_give_the_final_estimate(seed: int) -> None:
    rng = random.Random(seed)
    halves = [[float(rng.choice((-240, -10, 0, 5, 10, 120, 240))) for _ in range(500)]]
    halves.append([-v + rng.choice((-10.0, 0.0, 10.0)) for v in halves[0]])
    running = RunningMatch(1000, big_blind=10)
    done = [0, 0]
    while done != [500, 500]:
        half = rng.randrange(2)
        step = min(rng.randrange(1, 80), 500 - done[half])
        running.add(half, halves[half][done[half] : done[half] + step])
        done[half] += step
    progress = running.snapshot()
    pairs, _ = pair_samples(dict(enumerate(halves[0])), dict(enumerate(halves[1])))
    final = estimate(pairs, 10)
    assert (progress.hands, progress.samples, progress.paired) == (1000, 500, True)
    assert progress.mbb_per_game == pytest.approx(final.mbb_per_game)
    assert progress.ci95 == pytest.approx(final.ci95_mbb)


def test_before_two_pairs_and_without_duplicate_the_estimate_is_over_hands() -> None:
    running = RunningMatch(10, big_blind=10)
    running.add(0, [10.0, -10.0, 30.0])
    first = running.snapshot()
    assert (first.paired, first.samples, first.mbb_per_game) == (False, 3, 1000.0)
    single = RunningMatch(3, big_blind=10, duplicate=False)
    single.add(0, [10.0, -10.0, 30.0])
    assert single.snapshot().estimate_text() == first.estimate_text() == "+1000.0 ± 2263.2 mbb/g"
