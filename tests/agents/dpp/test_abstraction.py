"""The HULHE bucket function: total, deterministic, and equal to the training tables."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from acpcbot.handeval.combos import COMBO_CARDS, NUM_CLASSES, class_of
from agents.dpp import handstrength
from agents.dpp.abstraction import LEVELS, HoldemAbstraction, HoldemBuckets, packaged_abstraction
from agents.dpp.isomorphism import SUIT_PERMUTATIONS, CanonicalFlops, canonical_keys


@pytest.fixture(scope="module")
def abstraction() -> HoldemAbstraction:
    return packaged_abstraction()


@pytest.fixture(scope="module")
def buckets(abstraction: HoldemAbstraction) -> HoldemBuckets:
    return HoldemBuckets(abstraction, (169, 256, 256, 128))


def test_every_hole_on_every_flop_has_a_computed_level(abstraction: HoldemAbstraction) -> None:
    """All 22,100 flops × 1326 holes: a live (hole, flop) is renamed onto a live entry of its
    canonical flop — one the table builder computed — and levels are percentiles."""
    flops = np.array(list(combinations(range(52), 3)), dtype=np.int64)
    keys, permutation = canonical_keys(flops)
    canonical = CanonicalFlops.build()
    board_id = np.searchsorted(canonical.boards @ np.array([2704, 52, 1]), keys)
    assert np.array_equal(canonical.boards[board_id] @ np.array([2704, 52, 1]), keys)
    bit = np.int64(1) << np.arange(52, dtype=np.int64)
    combo_mask = bit[COMBO_CARDS].sum(axis=1)
    histogram = np.zeros(LEVELS, dtype=np.int64)
    live_total = 0
    for chunk in np.array_split(np.arange(len(flops)), 20):
        live = (combo_mask[None, :] & bit[flops[chunk]].sum(axis=1)[:, None]) == 0
        suits = SUIT_PERMUTATIONS[permutation[chunk]]  # (flops, 4): old suit -> new suit
        renamed = (COMBO_CARDS // 4)[None] * 4 + suits[:, None, :][
            np.arange(len(chunk))[:, None, None], 0, COMBO_CARDS % 4
        ]  # (flops, combos, 2)
        hi = np.maximum(renamed[..., 0], renamed[..., 1])
        lo = np.minimum(renamed[..., 0], renamed[..., 1])
        target_mask = bit[canonical.boards[board_id[chunk]]].sum(axis=1)
        renamed_mask = bit[hi] | bit[lo]
        assert not ((renamed_mask & target_mask[:, None]) != 0)[live].any()
        levels = abstraction.flop_levels[board_id[chunk][:, None], hi * (hi - 1) // 2 + lo]
        histogram += np.bincount(levels[live], minlength=LEVELS)
        live_total += int(live.sum())
    assert live_total == 22100 * 1176 and histogram.size == LEVELS
    share = histogram / live_total  # every level holds about 1/256 of all combinations
    assert share.min() > 0.5 / LEVELS and share.max() < 2.0 / LEVELS


def test_flop_table_matches_the_exact_value(buckets: HoldemBuckets) -> None:
    rng = random.Random(5)
    flop_breaks = buckets.abstraction.breakpoints[0]
    for _ in range(3):
        cards = rng.sample(range(52), 5)
        value = handstrength.flop_value(cards[0], cards[1], np.array(cards[2:], dtype=np.int64))
        expected = int(np.searchsorted(flop_breaks, value, side="right"))
        assert buckets.level(1, cards[:2], cards[2:]) == expected


def test_buckets_are_total_and_deterministic(buckets: HoldemBuckets) -> None:
    rng = random.Random(11)
    coarse = HoldemBuckets(buckets.abstraction, (169, 8, 8, 8))
    counts = [np.zeros(n, dtype=np.int64) for n in buckets.counts]
    for _ in range(400):
        cards = rng.sample(range(52), 7)
        hole, board = cards[:2], cards[2:]
        for round_, shown in ((0, 0), (1, 3), (2, 4), (3, 5)):
            bucket = buckets.bucket(round_, hole, board[:shown])
            assert bucket == buckets.bucket(round_, hole[::-1], board[:shown][::-1])
            assert 0 <= bucket < buckets.counts[round_]
            assert coarse.bucket(round_, hole, board[:shown]) == (
                bucket if round_ == 0 else bucket * 8 // buckets.counts[round_]
            )
            counts[round_][bucket] += 1
    assert counts[0].size == NUM_CLASSES
    # the river's percentile buckets spread random hands evenly (128 buckets, 400 hands)
    assert np.count_nonzero(counts[3]) > 90


def test_turn_and_river_values_count_every_opponent() -> None:
    board = np.array([0, 5, 10, 15, 20], dtype=np.int64)
    values = np.empty(1326, dtype=np.int64)
    ranks = np.empty(1326, dtype=np.int64)
    handstrength.board_river_values(board, values, ranks)
    live = values >= 0
    assert live.sum() == 1081 and values.max() <= 2 * 990
    # wins and losses balance over all pairs: the mean hand strength is exactly 1/2
    assert values[live].sum() == 1081 * 990
    for combo in (0, 700, 1325):
        c, d = COMBO_CARDS[combo]
        if live[combo]:
            assert values[combo] == handstrength.river_value(c, d, board)
    turn = handstrength.turn_value(51, 50, board[:4])
    rivers = [r for r in range(52) if r not in (0, 5, 10, 15, 51, 50)]
    assert turn == sum(
        handstrength.river_value(51, 50, np.array([0, 5, 10, 15, r])) ** 2 for r in rivers
    )
    assert class_of(51, 50) == class_of(50, 51)


def test_every_possible_value_has_a_level(abstraction: HoldemAbstraction) -> None:
    """Turn and river buckets are computed from exact values: each of the values a hand can
    have — 0 up to the largest the counts allow — falls in one of the 256 levels."""
    largest = {1: 47 * 46 * 1980**2, 2: 46 * 1980**2, 3: 1980}
    for round_, top in largest.items():
        breaks = abstraction.breakpoints[round_ - 1]
        assert np.all(np.diff(breaks) >= 0) and breaks[0] > 0
        reached = breaks[breaks <= top]
        probes = np.concatenate(([0, top], reached - 1, reached))
        levels = np.searchsorted(breaks, probes, side="right")
        assert levels.min() == 0 and levels.max() < LEVELS
    river_levels = np.searchsorted(abstraction.breakpoints[2], np.arange(1981), side="right")
    assert np.all(np.diff(river_levels) >= 0) and river_levels[-1] == LEVELS - 1


def test_values_agree_with_the_engines_hand_strength() -> None:
    """The integer values are the engine's HS and E[HS²] up to their constant factors."""
    from acpcbot.cards import parse_cards
    from acpcbot.handeval.equity import hand_strength, hs_moments

    hole, board = parse_cards("AhTd"), parse_cards("Kh7h2c9s4d")
    river = handstrength.river_value(hole[0], hole[1], np.array(board, dtype=np.int64))
    assert river / 1980 == pytest.approx(hand_strength(hole, board), abs=1e-12)
    turn = handstrength.turn_value(hole[0], hole[1], np.array(board[:4], dtype=np.int64))
    expected = hs_moments(hole, board[:4]).mean_square
    assert turn / (46 * 1980**2) == pytest.approx(expected, abs=1e-12)
