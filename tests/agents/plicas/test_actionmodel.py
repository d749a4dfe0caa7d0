"""The action model learns what an opponent does with each kind of hand, from its actions
and the showdowns, without the showdowns' bias, and forgets what it stopped doing."""

from __future__ import annotations

import random

import numpy as np
import pytest

from acpcbot.actions import ActionType
from acpcbot.game import bundled_game
from acpcbot.handeval.combos import CLASS_SIZES, COMBO_CARDS, NUM_COMBOS, combo_index, parse_class
from acpcbot.rules import CALL, RAISE, HandState
from agents.common.weights import COMBOS_WITH_CARD
from agents.plicas.actionmodel import ActionModel
from agents.plicas.holdingbuckets import fine_buckets
from agents.plicas.memory import Memory

GAME = bundled_game()
STRONG = {parse_class(name) for name in ("AA", "KK", "QQ", "JJ", "TT", "AKs", "AKo", "AQs")}


def play_openings(
    model: ActionModel,
    hands: int,
    rng: random.Random,
    raises: set[int],
    shown_share: float,
) -> None:
    """The opponent, in the small blind, raises the classes ``raises`` and folds the rest;
    a raise reaches a showdown ``shown_share`` of the time, a fold never shows."""
    root = HandState(GAME)
    preflop = fine_buckets(())
    for _ in range(hands):
        ours = rng.sample(range(52), 2)
        live = np.ones(NUM_COMBOS)
        for card in ours:
            live[COMBOS_WITH_CARD[card]] = 0.0
        holding = rng.choice(np.flatnonzero(live).tolist())
        a, b = (int(c) for c in COMBO_CARDS[holding])
        kind = ActionType.RAISE if int(preflop[holding]) in raises else ActionType.FOLD
        decision = model.decision(root, kind, preflop)
        shown = (
            combo_index(a, b) if kind is ActionType.RAISE and rng.random() < shown_share else None
        )
        model.learn([decision], live, shown)
        model.memory.next_hand()


def raise_rate(model: ActionModel) -> float:
    """The model's raise probability of a random holding at the opening."""
    probs = model.probabilities(HandState(GAME))
    return float(CLASS_SIZES @ probs[:, 2]) / NUM_COMBOS


def test_folded_hands_count_where_the_model_says_they_were() -> None:
    model = ActionModel()
    play_openings(model, 3000, random.Random(1), STRONG, shown_share=0.5)
    probs = model.probabilities(HandState(GAME))
    aces, trash = parse_class("AA"), parse_class("72o")
    assert probs[aces, 2] > 0.5  # seen raising at showdowns
    assert probs[trash, 0] > 0.9  # never shown: its folds are counted by expectation
    weak = [k for k in range(169) if k not in STRONG]
    assert np.mean(probs[weak, 0]) > 0.8
    # every hand is counted once: the model raises as often as the opponent did
    truth = sum(CLASS_SIZES[k] for k in STRONG) / NUM_COMBOS
    assert raise_rate(model) == pytest.approx(truth, abs=0.02)


def test_showdowns_alone_would_say_it_always_raises() -> None:
    """What the expectation step corrects: the showdowns show only the raises."""
    model = ActionModel()
    rng = random.Random(2)
    root = HandState(GAME)
    preflop = fine_buckets(())
    shown_raises = 0
    for _ in range(500):
        holding = rng.randrange(NUM_COMBOS)
        if int(preflop[holding]) in STRONG:
            model.learn(
                [model.decision(root, ActionType.RAISE, preflop)], np.ones(NUM_COMBOS), holding
            )
            shown_raises += 1
    assert shown_raises > 0
    assert model.probabilities(root)[parse_class("AA"), 2] > 0.9
    # with no folded hands counted, the model raises far more often than the opponent
    truth = sum(CLASS_SIZES[k] for k in STRONG) / NUM_COMBOS
    assert raise_rate(model) > 3 * truth


def test_it_forgets_a_style_it_stopped_playing() -> None:
    rng = random.Random(3)
    everything = set(range(169))
    # The new style lasts four memory spans (1,000 openings against a memory of 250).
    forgetting, remembering = ActionModel(Memory(250)), ActionModel()
    for model in (forgetting, remembering):
        play_openings(model, 1500, rng, everything, shown_share=0.3)  # raises every hand
        play_openings(model, 1000, rng, STRONG, shown_share=0.3)  # then only the best
    truth = sum(CLASS_SIZES[k] for k in STRONG) / NUM_COMBOS
    assert raise_rate(forgetting) == pytest.approx(truth, abs=0.03)
    assert raise_rate(remembering) > truth + 0.3  # still half the raise-everything style


def test_evidence_counts_the_decisions_seen_at_a_history() -> None:
    model = ActionModel()
    root = HandState(GAME)
    assert model.evidence(root) == 0.0
    play_openings(model, 40, random.Random(4), STRONG, shown_share=1.0)
    assert model.evidence(root) == pytest.approx(40.0)
    assert model.evidence(root.child(RAISE)) == 0.0
    assert model.evidence(root.child(CALL)) == 0.0


def test_probabilities_are_legal_and_sum_to_one() -> None:
    model = ActionModel()
    hand = HandState(GAME)
    checked = hand.child(CALL)  # the big blind may check: no fold
    for state in (hand, checked, hand.child(RAISE).child(RAISE).child(RAISE)):
        probs = model.probabilities(state)
        assert np.allclose(probs.sum(axis=1), 1.0)
        if not state.can_fold():
            assert (probs[:, 0] == 0).all()
        if not state.can_raise():
            assert (probs[:, 2] == 0).all()
