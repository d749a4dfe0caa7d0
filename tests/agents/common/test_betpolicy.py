"""Saund's factored policy and its fit to a player."""

from __future__ import annotations

import random

import numpy as np
import pytest

from acpcbot.actions import ActionType
from agents.common.betpolicy import PolicyFit, SaundPolicy, saund_triple

ACTIONS = (ActionType.FOLD, ActionType.CALL, ActionType.RAISE)


@pytest.mark.parametrize("facing", [False, True])
@pytest.mark.parametrize("odds", [0.1, 0.3, 0.46])
def test_triples_are_distributions_and_stronger_hands_bet_more(facing: bool, odds: float) -> None:
    wins = np.linspace(0.0, 1.0, 201)
    triples = SaundPolicy().triples(wins, facing=facing, odds=odds)
    assert (triples >= 0).all()
    np.testing.assert_allclose(triples.sum(axis=1), 1.0)
    assert (np.diff(triples[:, 0]) <= 1e-12).all()  # fold falls with strength
    if not facing:
        assert not triples[:, 0].any()  # nobody folds for free
        assert (np.diff(triples[:, 2]) >= -1e-12).all()


def test_the_fold_edge_follows_the_odds() -> None:
    params = SaundPolicy().array()
    # 0.3 wins more often than odds of 0.2 ask, less often than odds of 0.4 do.
    assert saund_triple(0.3, True, 0.2, params)[0] == 0.0
    assert saund_triple(0.3, True, 0.4, params)[0] == pytest.approx(0.95)


def saund_player(fit: PolicyFit, rng: random.Random, hands: int) -> None:
    """Feed ``fit`` flop decisions of a player who follows Saund's policy exactly."""
    params = SaundPolicy().array()
    for _ in range(hands):
        strength = rng.random()
        probabilities = saund_triple(strength, False, 0.0, params)
        action = rng.choices(ACTIONS, probabilities)[0]
        fit.count(1, False, 0, action)
        fit.reveal(1, False, 0, strength, 0.0, action)


def test_a_player_who_follows_saund_is_read_as_predictable() -> None:
    fit = PolicyFit()
    saund_player(fit, random.Random(1), 300)
    assert fit.predictability(1) > 0.8
    strengths = np.array([0.05, 0.5, 0.95])
    bets = fit.likelihood(1, False, 0, strengths, 0.0, ActionType.RAISE)
    assert bets[2] > 5 * bets[0]  # its bets say it is strong


@pytest.mark.parametrize("shapes", [False, True])
def test_a_player_who_always_calls_tells_nothing(shapes: bool) -> None:
    fit = PolicyFit(shapes=shapes)
    rng = random.Random(2)
    for _ in range(300):
        strength = rng.random()
        fit.count(1, False, 0, ActionType.CALL)
        fit.reveal(1, False, 0, strength, 0.0, ActionType.CALL)
    assert fit.predictability(1) < 0.02
    calls = fit.likelihood(1, False, 0, np.linspace(0, 1, 50), 0.0, ActionType.CALL)
    assert calls.max() / calls.min() < 1.02


def test_learned_shapes_follow_a_policy_saunds_does_not_describe() -> None:
    # This player bets exactly its middling hands (0.4..0.6), as no Saund policy does.
    fit = PolicyFit(shapes=True)
    rng = random.Random(3)
    for _ in range(2000):
        strength = rng.random()
        action = ActionType.RAISE if 0.4 <= strength < 0.6 else ActionType.CALL
        fit.count(1, False, 0, action)
        fit.reveal(1, False, 0, strength, 0.0, action)
    bets = fit.likelihood(1, False, 0, np.array([0.1, 0.5, 0.9]), 0.0, ActionType.RAISE)
    assert bets[1] > 0.9 and bets[0] < 0.05 and bets[2] < 0.05


def test_a_fold_edge_is_learned_from_folds_whose_cards_stay_hidden() -> None:
    # The player folds every holding weaker than 0.5 facing a flop bet. Its cards are never
    # shown; each decision is weighed under the observer's (uniform) table.
    from acpcbot.cards import parse_cards
    from agents.common.decisions import Decision
    from agents.common.weights import WeightTable, holding_strengths

    board = parse_cards("AhKd7s")
    strengths = holding_strengths(board)
    live = np.flatnonzero(strengths > 0)
    fit = PolicyFit(shapes=True, folds_revealed=False, fold_edges=True)
    rng = random.Random(4)
    folded = 0
    for _ in range(200):
        holding = rng.choice(live)
        action = ActionType.FOLD if strengths[holding] < 0.5 else ActionType.CALL
        folded += action is ActionType.FOLD
        table = WeightTable()
        turn = Decision(1, 0, True, 1, 20, 10, 0.3, action)
        fit.reweight(table, turn, board)
        fit.learn(turn)
    edges, weights = fit.edge_table()
    # What the edge folds of the table is what the player was seen to fold (the edge
    # itself may sit anywhere in a gap between holdings' strengths).
    assert np.mean(strengths[live] < edges[1, 1]) == pytest.approx(folded / 200, abs=0.03)
    assert weights[1, 1] == pytest.approx(200 / 220)
    folds = fit.likelihood(1, True, 1, np.array([0.2, 0.8]), 0.3, ActionType.FOLD)
    assert folds[0] > 0.8 and folds[1] < 0.15
