"""Merging never weights an illegal action; DPAC shifts by the opponent's style."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from acpcbot.actions import ActionType
from acpcbot.game import Game, bundled_game
from acpcbot.player import decision_key
from acpcbot.protocol.matchstate import decode_match_state
from agents.plicas.dpac import dpac_shift, shift_probabilities
from agents.plicas.merge import decide, merge
from agents.simple import ExamplePlayer
from agents.triple import Triple

STATES = (
    "MATCHSTATE:1:0::|AsKd",  # facing the big blind: all three legal
    "MATCHSTATE:0:0:c:AsKd|",  # the big blind after a limp: no fold
    "MATCHSTATE:1:0:rrr:|AsKd",  # capped preflop: no raise
    "MATCHSTATE:0:0:cc/rrrr:AsKd|/Ah7c2d",  # capped flop: fold or call
)
weights = st.floats(min_value=0.0, max_value=5.0)
triples = st.tuples(weights, weights, weights).map(lambda w: Triple.of(*w))


@given(st.lists(st.tuples(triples, weights), min_size=1, max_size=4), st.sampled_from(STATES))
def test_merged_triples_are_normalised_and_legal(
    weighted: list[tuple[Triple, float]], text: str
) -> None:
    _, betting = decode_match_state(text, bundled_game())
    merged = merge(weighted, betting)
    assert abs(merged.fold + merged.call + merged.raise_ - 1.0) < 1e-9
    if not betting.can_fold():
        assert merged.fold == 0.0
    if not betting.can_raise():
        assert merged.raise_ == 0.0


def test_decide_samples_only_legal_actions(limit_game: Game) -> None:
    agent = ExamplePlayer(7)
    for text in STATES:
        _, betting = decode_match_state(text, limit_game)
        for _ in range(200):
            action = decide([(Triple(0.4, 0.2, 0.4), 1.0)], betting, agent)
            assert betting.is_legal(action)
            assert action.type in betting.legal_action_types()
            # the probabilities drawn from are kept, and give the action drawn weight
            said = agent.last_triple
            assert said is not None and agent.last_triple_at == decision_key(betting)
            merged = merge([(Triple(0.4, 0.2, 0.4), 1.0)], betting)
            assert (said.fold, said.call) == pytest.approx((merged.fold, merged.call))
            assert said.probability(action.type) > 0


def test_merge_weights_follow_confidence(limit_game: Game) -> None:
    _, betting = decode_match_state(STATES[0], limit_game)
    merged = merge(
        [(Triple(1, 0, 0), 3.0), (Triple(0, 0, 1), 1.0), (Triple(0, 1, 0), 0.0)], betting
    )
    assert merged == Triple(0.75, 0.0, 0.25)
    assert merge([], betting).probability(ActionType.CALL) == 1.0


def test_dpac_more_aggressive_against_passive_loose_opponents() -> None:
    up, down = shift_probabilities(aggression=0.0, range_=1.0)
    assert up > 0 and down == 0
    up, down = shift_probabilities(aggression=1.0, range_=1.0)  # a maniac
    assert up == 0 and down > 0
    up, down = shift_probabilities(aggression=0.35, range_=0.3)  # a tight opponent
    assert up == 0 and down > 0


def test_dpac_shift_frequency_matches_its_probability() -> None:
    rng = random.Random(1)
    up, _ = shift_probabilities(0.1, 0.9)
    shifts = [dpac_shift(0.1, 0.9, rng.random()) for _ in range(20000)]
    assert set(shifts) <= {0, 1}
    assert abs(shifts.count(1) / len(shifts) - up) < 0.02
