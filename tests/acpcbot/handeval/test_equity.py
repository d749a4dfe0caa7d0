from __future__ import annotations

import numpy as np
import pytest

from acpcbot.cards import parse_cards as c
from acpcbot.handeval.combos import COMBO_CARDS, NUM_COMBOS, combo_index, parse_range
from acpcbot.handeval.equity import (
    equity,
    hand_strength,
    hand_vs_hand,
    hand_vs_range,
    hs_moments,
    strength,
)
from acpcbot.handeval.evaluator import rank_batch
from agents.common.preflop import class_matchup


def test_known_preflop_equities() -> None:
    exact = hand_vs_hand(c("AsAc"), c("KdKh"))
    assert exact.exact and exact.trials == 1_712_304
    assert round(100 * exact.equity[0], 2) == 81.26
    assert exact.equity[0] + exact.equity[1] == pytest.approx(1.0)
    assert hand_vs_hand(c("AhKh"), c("QsQd")).equity[0] == pytest.approx(0.4621, abs=1e-4)
    assert class_matchup(*[next(iter(parse_range(n))) for n in ("AA", "KK")]) == pytest.approx(
        0.8195, abs=5e-5
    )


def test_monte_carlo_against_a_random_hand_is_seeded_and_close() -> None:
    first = equity([c("AhAd"), None], trials=200_000, seed=3)
    assert not first.exact and first.trials == 200_000
    assert first == equity([c("AhAd"), None], trials=200_000, seed=3)
    assert first != equity([c("AhAd"), None], trials=200_000, seed=4)
    assert first.equity[0] == pytest.approx(0.852, abs=0.004)
    assert equity([c("7h2d"), None], trials=200_000, seed=3).equity[0] == pytest.approx(
        0.346, abs=0.004
    )


def test_one_random_hand_on_the_flop_is_enumerated_and_matches_sampling() -> None:
    board = c("Kc7d2s")
    exact = equity([c("AhAd"), None], board)
    assert exact.exact and exact.trials == 1081 * 990
    sampled = equity([c("AhAd"), None], board, max_exact=0, trials=300_000, seed=1)
    assert sampled.equity[0] == pytest.approx(exact.equity[0], abs=0.004)
    assert hand_vs_range(c("AhAd"), None, board) == exact


def test_three_hands_share_the_pot() -> None:
    result = equity([c("AhAd"), c("KsKc"), c("7c8c")], c("2c3c"))
    assert result.exact and sum(result.equity) == pytest.approx(1.0)
    mc = equity([c("AhAd"), c("KsKc"), c("7c8c")], c("2c3c"), max_exact=0, trials=200_000)
    assert np.allclose(mc.equity, result.equity, atol=0.005)
    split = equity([c("2c3d"), c("2h3s")], c("AsKsQhJdTc"))
    assert split.equity == (0.5, 0.5)


def test_weighted_range_exact_equals_the_sum_over_its_hands() -> None:
    board = c("Jh8d3c4s")
    hand = c("AcJc")
    weights = np.zeros(NUM_COMBOS)
    weights[combo_index(*c("QdQs"))] = 3.0
    weights[combo_index(*c("9h9c"))] = 1.0
    weights[combo_index(*c("AcKs"))] = 5.0  # meets our ace: ignored
    mixed = hand_vs_range(hand, weights, board)
    qq = hand_vs_hand(hand, c("QdQs"), board).equity[0]
    nines = hand_vs_hand(hand, c("9h9c"), board).equity[0]
    assert mixed.exact and mixed.equity[0] == pytest.approx((3 * qq + nines) / 4)
    sampled = hand_vs_range(hand, weights, board, max_exact=0, trials=100_000, seed=2)
    assert sampled.equity[0] == pytest.approx(mixed.equity[0], abs=0.006)


def test_hand_strength_and_potential_match_a_plain_count() -> None:
    hand, board = c("AdQc"), c("3h4cJh5s")
    known = set(hand + board)
    opponents = [tuple(o) for o in COMBO_CARDS.tolist() if not known & set(o)]
    rivers = [r for r in range(52) if r not in known]
    # Where we stand now, and after each river, evaluated one hand at a time.
    now_ours = rank_batch([hand + board])[0]
    now_theirs = rank_batch([o + board for o in opponents])
    ahead = (now_ours > now_theirs).sum() + 0.5 * (now_ours == now_theirs).sum()
    assert hand_strength(hand, board) == pytest.approx(ahead / len(opponents))
    hp = np.zeros((3, 3))
    for o, theirs_now in zip(opponents, now_theirs, strict=True):
        now = 0 if now_ours > theirs_now else 1 if now_ours == theirs_now else 2
        live = [r for r in rivers if r not in o]
        ours = rank_batch([hand + board + (r,) for r in live])
        theirs = rank_batch([o + board + (r,) for r in live])
        hp[now] += [(ours > theirs).sum(), (ours == theirs).sum(), (ours < theirs).sum()]
    total = hp.sum(axis=1)
    ppot = (hp[2, 0] + hp[2, 1] / 2 + hp[1, 0] / 2) / (total[2] + total[1] / 2)
    npot = (hp[0, 2] + hp[1, 2] / 2 + hp[0, 1] / 2) / (total[0] + total[1] / 2)
    result = strength(hand, board)
    assert (result.ppot, result.npot) == pytest.approx((ppot, npot))
    assert result.ehs == pytest.approx(result.hs * (1 - npot) + (1 - result.hs) * ppot)


def test_expected_strength_is_the_equity_against_a_random_hand() -> None:
    hand, board = c("AhKh"), c("Qh7h2c")
    moments = hs_moments(hand, board)
    assert moments.exact and moments.runouts == 1081
    assert moments.mean == pytest.approx(equity([hand, None], board).equity[0])
    assert moments.mean == pytest.approx(strength(hand, board).ehs)  # full two-card lookahead
    assert moments.mean**2 < moments.mean_square < moments.mean
    preflop = hs_moments(c("AsAd"), samples=3_000, seed=1)
    assert not preflop.exact and preflop.mean == pytest.approx(0.852, abs=0.01)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        equity([c("AhAd"), c("AhKd")])
    with pytest.raises(ValueError, match="at least two"):
        equity([c("AhAd")])
    with pytest.raises(ValueError, match="2 cards"):
        equity([c("AhAdKc"), None])
    with pytest.raises(ValueError, match="1326"):
        hand_vs_range(c("AhAd"), [1.0, 2.0])
    for board in (c("2c3c"), c("2c3c4c5c6c7c")):
        with pytest.raises(ValueError, match="board"):
            strength(c("AhAd"), board)
    with pytest.raises(ValueError, match="no combo"):
        weights = np.zeros(NUM_COMBOS)
        weights[combo_index(*c("AhKd"))] = 1.0
        hand_vs_range(c("AhAd"), weights)


@pytest.mark.parametrize("hands", [[c("AhAd"), None], [None, None, c("7c2d")]])
def test_sampling_in_chunks_draws_the_showdowns_of_one_call(
    hands: list[list[int] | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What makes a long run stoppable (Ctrl-C between chunks) changes no result."""
    from acpcbot.handeval import equity as module
    from acpcbot.handeval.montecarlo import sample_counts

    holes = np.array([[-1, -1] if h is None else h for h in hands], dtype=np.int64)
    board = np.zeros(0, np.int64)
    counts = np.zeros((len(hands), len(hands) + 1))
    sample_counts(holes, board, np.zeros((0, NUM_COMBOS)), COMBO_CARDS, 2_500, 7, counts)
    monkeypatch.setattr(module, "CHUNK_TRIALS", 1_000)
    told: list[int] = []
    chunked = equity(hands, trials=2_500, seed=7, max_exact=0, on_progress=told.append)
    assert told == [1_000, 2_000, 2_500]
    assert chunked.equity == module._shares(counts, 2_500)
