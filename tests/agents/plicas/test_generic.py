"""The generic opponent: pooled from a match's halves, saved, shipped and read back frozen."""

from __future__ import annotations

import io

import numpy as np
import pytest

from acpcbot.actions import ActionType
from acpcbot.game import Game
from agents.plicas.calibration import Calibration
from agents.plicas.generic import (
    generic_opponent,
    load,
    pooled,
    pooled_calibration,
    save,
)
from agents.plicas.model import PRIOR, OpponentAction, OpponentModel
from tests.agents.plicas.test_model import feed, finish

FLOP_BET = OpponentAction(1, 0, True, 1, ActionType.RAISE, ())


def one_hand(game: Game, hand: int) -> OpponentModel:
    model = OpponentModel()
    text = f"MATCHSTATE:0:{hand}:rrc/rrf:AsKd|/Ah7c2d"
    feed(model, game, [text])
    finish(model, game, text, (40.0, -40.0))
    return model


def test_pooled_adds_the_counts_of_both_halves(limit_game: Game) -> None:
    halves = [one_hand(limit_game, 0), one_hand(limit_game, 1)]
    total = pooled(halves)
    assert np.array_equal(total.counts, halves[0].counts * 2)
    assert total.hands_seen == 2 and total.preflop_decisions == 2 and total.flop_hands == 2
    assert total.flop_pot_total == 2 * halves[0].flop_pot_total
    assert halves[0].hands_seen == 1  # the halves are left as they were


def test_save_and_load_keep_what_was_learned(limit_game: Game) -> None:
    model = pooled(one_hand(limit_game, h) for h in range(3))
    calibration = pooled_calibration([Calibration(), Calibration()])
    for place in (0.95, 0.85):
        calibration.record(FLOP_BET, place)
    stream = io.BytesIO()
    save(stream, model, calibration)
    stream.seek(0)
    frozen = load(stream)
    assert frozen.hands == 3
    assert np.allclose(frozen.profile.frequencies, model.profile().frequencies)
    assert frozen.profile.range == pytest.approx(model.profile().range)
    assert frozen.calibration.observations(FLOP_BET) == 2
    with pytest.raises(ValueError, match="read-only"):
        frozen.calibration.record(FLOP_BET, 0.5)


def test_the_shipped_opponent_is_a_sound_player_learned_from_many_hands() -> None:
    generic = generic_opponent()
    profile = generic.profile
    assert generic.hands >= 100_000
    assert 0.7 < profile.range < 0.95  # plays most hands, folds some
    # It folds some of its hands to a flop bet, raises some, calls most: none of the field's
    # one-action bots, and not the prior the learned model starts from.
    fold, call, raise_ = profile.response(1, 0, True, 1)
    assert 0.1 < fold < 0.5 and 0.05 < raise_ < 0.5 and call > 0.3
    assert not np.allclose(profile.frequencies, PRIOR.frequencies, atol=0.02)
    assert generic.calibration.observations(FLOP_BET) > 1000
