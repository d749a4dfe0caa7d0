"""The shared weight table: Bayes' rule by hand, normalisation, dead cards (Loki-2 §4,
Saund eq. 4)."""

from __future__ import annotations

import numpy as np
import pytest

from acpcbot.cards import parse_cards
from acpcbot.handeval.combos import NUM_COMBOS, combo_index
from agents.common.betpolicy import SaundPolicy
from agents.common.weights import COMBOS_WITH_CARD, WeightTable, holding_strengths


def three_holdings() -> tuple[WeightTable, list[int]]:
    """A table whose only live holdings are AsAh, 9c8c and 7d2h, equally likely."""
    table = WeightTable()
    chosen = [combo_index(*parse_cards(h)) for h in ("AsAh", "9c8c", "7d2h")]
    table.weights[:] = 0.0
    table.weights[chosen] = 1.0
    return table, chosen


def test_a_bet_re_weights_three_holdings_as_computed_by_hand() -> None:
    # Saund's policy, nobody has bet: p' = -log2(win); a bet with probability 1 - a = 0.8
    # where p' <= 0.9, b = 0.05 where p' >= 1.1, linear between. Wins 0.9, 0.5, 0.1 give
    # p' = 0.152, 1.0, 3.32: bets with 0.8, (0.8 + 0.05) / 2 = 0.425 and 0.05.
    table, chosen = three_holdings()
    wins = np.zeros(NUM_COMBOS)
    wins[chosen] = [0.9, 0.5, 0.1]
    betting = SaundPolicy().triples(wins, facing=False, odds=0.0)[:, 2]
    assert betting[chosen] == pytest.approx([0.8, 0.425, 0.05])
    table.multiply(betting)
    table.normalise()
    total = 0.8 + 0.425 + 0.05
    assert table.weights[chosen] == pytest.approx([0.8 / total, 0.425 / total, 0.05 / total])
    assert table.weights[chosen] == pytest.approx([0.62745, 0.33333, 0.03922], abs=1e-5)


def test_a_call_facing_a_bet_as_computed_by_hand() -> None:
    # Facing a bet with effective odds 0.25 (p'_e = 2): wins 0.9 raise with 1 - d = 0.8 and
    # call 0.2; 0.5 (p' = 1, halfway through the call/raise blend 0.7..1.2: 40% raise
    # region) raises 0.8 * 0.4 = 0.32 and calls 0.68; 0.1 (p' = 3.32 > 2.1) folds 0.95 and
    # raises (bluffs) 0.05, never calls.
    table, chosen = three_holdings()
    wins = np.zeros(NUM_COMBOS)
    wins[chosen] = [0.9, 0.5, 0.1]
    triples = SaundPolicy().triples(wins, facing=True, odds=0.25)
    expected = [[0.0, 0.2, 0.8], [0.0, 0.68, 0.32], [0.95, 0.0, 0.05]]
    np.testing.assert_allclose(triples[chosen], expected, atol=1e-12)
    table.multiply(triples[:, 1])
    table.normalise()
    assert table.weights[chosen] == pytest.approx([0.2 / 0.88, 0.68 / 0.88, 0.0])


def test_weights_stay_normalised_and_dead_cards_stay_at_zero() -> None:
    rng = np.random.default_rng(5)
    table = WeightTable()
    table.reset(parse_cards("2c7d"))
    board = parse_cards("AhKd9s")
    table.remove(board)
    for _ in range(6):
        table.multiply(rng.random(NUM_COMBOS))
        weights = table.normalise()
        assert weights.sum() == pytest.approx(1.0)
        for card in (*parse_cards("2c7d"), *board):
            assert not weights[COMBOS_WITH_CARD[card]].any()
    assert table.live() == 1081  # C(47, 2)
    assert table.dead == frozenset((*parse_cards("2c7d"), *board))


def test_a_table_every_observation_ruled_out_starts_over_on_the_live_cards() -> None:
    table = WeightTable()
    table.reset(parse_cards("AsAh"))
    table.multiply(np.zeros(NUM_COMBOS))
    weights = table.normalise()
    assert weights.sum() == pytest.approx(1.0)
    assert table.live() == NUM_COMBOS - 101
    assert weights[combo_index(*parse_cards("AsKd"))] == 0.0


def test_strength_is_the_class_equity_before_the_flop_and_the_board_rank_after() -> None:
    aces, trash = combo_index(*parse_cards("AsAh")), combo_index(*parse_cards("7d2c"))
    preflop = holding_strengths(())
    assert preflop[aces] > 0.8 > 0.4 > preflop[trash]
    flop = holding_strengths(parse_cards("7h7s2d"))
    assert flop[trash] > flop[aces]  # a full house beats an overpair
    assert flop[combo_index(*parse_cards("7hAd"))] == 0.0  # uses a board card
