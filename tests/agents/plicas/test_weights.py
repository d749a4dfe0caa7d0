"""The weight table: percentiles, likelihoods and Bayes re-weighting (Loki-2 §4)."""

from __future__ import annotations

import numpy as np
import pytest

from acpcbot.actions import ActionType
from acpcbot.cards import parse_cards
from acpcbot.handeval.combos import NUM_COMBOS, combo_index, parse_class
from agents.common.weights import percentiles
from agents.plicas.model import PRIOR, OpponentAction, OpponentModel
from agents.plicas.tables import PlicasTables
from agents.plicas.weights import RangeWeights, likelihood


def test_percentiles_share_ties_and_skip_zero_weights() -> None:
    values = np.array([5, 1, 3, 3, 9], dtype=np.int64)
    weights = np.array([1.0, 1.0, 1.0, 1.0, 0.0])
    assert percentiles(values, weights).tolist() == [0.875, 0.125, 0.5, 0.5, 1.0]


def test_likelihoods_of_the_three_actions_sum_to_one() -> None:
    place = np.linspace(0, 1, 101)
    for response in ((0.3, 0.5, 0.2), (0.0, 1.0, 0.0), (0.5, 0.0, 0.5), (0.1, 0.1, 0.8)):
        total = sum(likelihood(place, response, a) for a in ActionType)
        assert np.allclose(total, 1.0)


def event(action: ActionType, board: str = "") -> OpponentAction:
    round_ = 0 if not board else 1
    return OpponentAction(round_, 0, True, 1, action, parse_cards(board))


def test_no_information_from_an_opponent_that_always_raises() -> None:
    model = OpponentModel()
    model.counts[0, 0, 1, 1] = [0, 0, 400]
    model.counts[1, 0, 1, 1] = [0, 0, 400]
    weights = RangeWeights(PlicasTables.load())
    weights.reset(parse_cards("2c7d"))
    weights.update(event(ActionType.RAISE), model.profile())
    weights.update(event(ActionType.RAISE, "AhKd9s"), model.profile())
    live = weights.weights[weights.weights > 0]
    assert len(live) == 1081  # C(47, 2): combos without 2c, 7d, Ah, Kd, 9s
    assert np.mean(live > 0.9) > 0.9 and live.mean() > 0.9


def test_a_raise_from_a_selective_opponent_moves_weight_to_strong_hands() -> None:
    weights = RangeWeights(PlicasTables.load())
    weights.reset(parse_cards("2c7d"))
    weights.update(event(ActionType.RAISE), PRIOR)  # raises 25% of the time facing a raise
    w = weights.weights
    aces = w[combo_index(*parse_cards("AsAh"))]
    trash = w[combo_index(*parse_cards("3s8h"))]
    assert aces == 1.0 and trash < 0.25
    assert w[combo_index(*parse_cards("2c3c"))] == 0.0  # holds one of our cards
    by_class = PlicasTables.load().class_weights(w)
    assert by_class[parse_class("KK")] > by_class[parse_class("K5o")]
    assert np.count_nonzero(w) == NUM_COMBOS - 101


def test_board_cards_leave_the_range() -> None:
    weights = RangeWeights(PlicasTables.load())
    weights.reset(parse_cards("2c7d"))
    weights.update(event(ActionType.CALL, "AhKd9s"), PRIOR)
    assert weights.weights[combo_index(*parse_cards("AhAs"))] == 0.0
    assert weights.weights.sum() == pytest.approx(weights.weights[weights.weights > 0].sum())
