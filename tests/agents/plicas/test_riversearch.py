"""The river search unit on small ranges whose values can be worked out by hand."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from acpcbot.actions import ActionType
from acpcbot.game import bundled_game
from acpcbot.protocol.matchstate import parse_betting
from acpcbot.rules import HandState, replay
from agents.plicas.calibration import Calibration
from agents.plicas.model import PRIOR, OpponentAction, OpponentProfile
from agents.plicas.riversearch import MIX_WIDTH, RiverValues, river_values
from agents.plicas.situation import RIVER
from agents.triple import Triple

BET = 20
VALUES = np.array([100, 200, 300, 400])
"""Four combos the opponent may hold, equally likely unless a test says otherwise."""
EVEN = np.ones(4)


def opponent(
    facing: tuple[float, float, float], checked_to: tuple[float, float, float]
) -> OpponentProfile:
    """A profile that answers a river bet with ``facing`` and a check with ``checked_to``
    (fold, call, raise) at every level, in both positions."""
    frequencies = PRIOR.frequencies.copy()
    frequencies[RIVER, :, 1] = facing
    frequencies[RIVER, :, 0] = checked_to
    return dataclasses.replace(PRIOR, frequencies=frequencies)


STATION = opponent(facing=(0.0, 1.0, 0.0), checked_to=(0.0, 1.0, 0.0))
"""Never folds, never bets or raises."""
FOLDER = opponent(facing=(1.0, 0.0, 0.0), checked_to=(0.0, 1.0, 0.0))
"""Folds to every bet, never bets."""


def river(betting: str) -> HandState:
    """The state after ``betting`` (protocol text) of heads-up limit hold'em."""
    return replay(bundled_game(), parse_betting(betting))


def checked_to_last() -> HandState:
    """The agent (position 1) acts last; the opponent checked (pot 60)."""
    return river("rc/rc/cc/c")


def test_against_a_calling_station_a_bet_wins_the_showdown_share_of_a_bigger_pot() -> None:
    # our hand (250) beats two of the four combos; checking behind wins 30 from them and
    # loses 30 to the rest, betting 50 each way
    values = river_values(checked_to_last(), 250, VALUES, EVEN, profile=STATION)
    assert values.call == pytest.approx(0.0)
    assert values.raise_ == pytest.approx(0.0)
    values = river_values(checked_to_last(), 350, VALUES, EVEN, profile=STATION)
    assert values.call == pytest.approx(30 * 0.5)
    assert values.raise_ == pytest.approx(50 * 0.5)
    assert values.fold is None  # nothing to call: a fold is not an option


def test_against_a_calling_station_a_beaten_hand_folds_to_a_bet() -> None:
    facing = river("rc/rc/cc/cr")  # position 0 checked, 1 bet: 30 in against 50
    values = river_values(facing, 50, VALUES, EVEN, profile=STATION)
    assert values.fold == -30
    assert values.call == pytest.approx(-50)
    assert values.triple(BET) == Triple(1.0, 0.0, 0.0)
    values = river_values(facing, 500, VALUES, EVEN, profile=STATION)
    assert values.raise_ == pytest.approx(70)  # it calls the raise with all it holds
    assert values.triple(BET) == Triple(0.0, 0.0, 1.0)


def test_against_an_opponent_that_always_folds_any_hand_bets() -> None:
    values = river_values(checked_to_last(), 50, VALUES, EVEN, profile=FOLDER)
    assert values.call == pytest.approx(-30)
    assert values.raise_ == pytest.approx(30)
    assert values.triple(BET).raise_ == 1.0


def test_the_weights_are_the_range() -> None:
    # 250 beats the two weakest combos: with them three times as likely it wins 3 in 4
    heavy_low = np.array([3.0, 3.0, 1.0, 1.0])
    values = river_values(checked_to_last(), 250, VALUES, heavy_low, profile=STATION)
    assert values.call == pytest.approx(30 * 0.5)
    # combos with value 0 use a board card: never in the range, whatever their weight
    values = river_values(checked_to_last(), 250, np.array([100, 0, 300, 0]), EVEN, profile=STATION)
    assert values.call == pytest.approx(0.0)


def test_the_opponents_raises_come_from_the_top_of_its_range() -> None:
    # A bet into an opponent that raises half the time: under the model the raises are its
    # strongest hands, so the middling hand gains less from betting than checking behind.
    raiser = opponent(facing=(0.0, 0.5, 0.5), checked_to=(0.0, 1.0, 0.0))
    values = river_values(checked_to_last(), 250, VALUES, EVEN, profile=raiser)
    assert values.raise_ is not None
    assert values.raise_ < values.call + 1e-9
    # the nuts re-raises to the cap
    nuts = river_values(checked_to_last(), 500, VALUES, EVEN, profile=raiser)
    assert nuts.raise_ is not None and nuts.raise_ > 50 * 0.5


def test_showdowns_that_revealed_bluffs_make_its_raises_worth_calling() -> None:
    raiser = opponent(facing=(0.0, 0.5, 0.5), checked_to=(0.0, 1.0, 0.0))
    calibration = Calibration()
    for _ in range(200):  # its river raises over our bets were its weakest hands
        calibration.record(OpponentAction(RIVER, 0, True, 1, ActionType.RAISE, ()), 0.05)
    spot = checked_to_last()
    model_only = river_values(spot, 250, VALUES, EVEN, profile=raiser)
    calibrated = river_values(spot, 250, VALUES, EVEN, profile=raiser, calibration=calibration)
    assert model_only.raise_ is not None and calibrated.raise_ is not None
    assert calibrated.raise_ > model_only.raise_ + 1.0


def test_at_the_cap_there_is_no_raise() -> None:
    capped = river("cc/cc/cc/rrrr")  # 70 in against 90, the fourth raise
    values = river_values(capped, 500, VALUES, EVEN, profile=PRIOR)
    assert values.raise_ is None
    assert values.triple(BET).raise_ == 0.0
    assert values.call == pytest.approx(90)


def test_close_values_are_mixed_and_the_better_one_is_taken_more_often() -> None:
    near = RiverValues(fold=None, call=10.0, raise_=10.0 + 0.5 * MIX_WIDTH * BET)
    triple = near.triple(BET)
    assert triple.raise_ == pytest.approx(0.75)
    assert triple.call == pytest.approx(0.25)
    far = RiverValues(fold=-30.0, call=10.0, raise_=10.0 + 2 * MIX_WIDTH * BET)
    assert far.triple(BET) == Triple(0.0, 0.0, 1.0)
