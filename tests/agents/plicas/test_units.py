"""The rule units and the bluff unit on concrete situations with hand-written readings."""

from __future__ import annotations

import numpy as np
import pytest

from acpcbot.game import Game
from acpcbot.protocol.matchstate import decode_match_state
from agents.plicas.bluff import bluff_applies, bluff_probability, bluff_triple, fold_estimate
from agents.plicas.model import PRIOR, OpponentModel, OpponentProfile
from agents.plicas.postflop import postflop_triple
from agents.plicas.preflop import preflop_triple
from agents.plicas.reading import Reading
from agents.plicas.situation import Situation

BETS = (10, 10, 20, 20)
TRASH = Reading(0.2, 0.15, 0.2, 8)
MIDDLE = Reading(0.45, 0.4, 0.45, 6)


def situation(game: Game, text: str) -> Situation:
    state, betting = decode_match_state(text, game)
    return Situation.of(state, betting)


# -- bluff unit ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reading", "fires"),
    [
        ("MATCHSTATE:0:1:cc/:9c2d|/AhKhQs", TRASH, True),  # first to act on the flop
        ("MATCHSTATE:1:1:cc/c:|9c2d/AhKhQs", TRASH, True),  # checked to: not invested
        ("MATCHSTATE:1:1:cc/r:|9c2d/AhKhQs", TRASH, False),  # the opponent bet
        ("MATCHSTATE:0:1:cc/:9c2d|/AhKhQs", MIDDLE, False),  # a playable hand
        ("MATCHSTATE:0:1:cc/cc/:9c2d|/AhKhQs/3c", TRASH, False),  # the turn
        ("MATCHSTATE:0:1:cc/crr:9c2d|/AhKhQs", TRASH, False),  # not the first action
        ("MATCHSTATE:1:1:c:|9c2d", TRASH, False),  # preflop
    ],
)
def test_bluff_fires_only_at_the_first_flop_action_with_an_unplayable_hand(
    limit_game: Game, text: str, reading: Reading, fires: bool
) -> None:
    s = situation(limit_game, text)
    assert bluff_applies(s, reading) is fires
    assert (bluff_triple(s, reading, PRIOR, connect=0.3) is not None) is fires


def test_bluff_frequency_follows_the_connect_table(limit_game: Game) -> None:
    s = situation(limit_game, "MATCHSTATE:0:1:cc/:9c2d|/AhKhQs")
    breakeven = s.bet / (s.pot + s.bet)
    for connect in (0.9, 0.7, 0.5, 0.3, 0.1):
        triple = bluff_triple(s, TRASH, PRIOR, connect)
        assert triple is not None and triple.fold == 0.0
        fold = 1.0 - connect  # no observed flop bets yet: the table alone
        expected = max(0.0, (fold - breakeven) / (1 - breakeven))
        assert triple.raise_ == pytest.approx(expected)
    assert bluff_probability(1.0, 20, 10) == 1.0


def calling_station(hands: int) -> OpponentProfile:
    model = OpponentModel()
    model.counts[1, 0, 1, 1] = [0, hands, 0]  # in position 0, called every flop bet
    return model.profile()


def test_observed_folds_override_the_table_for_a_calling_station(limit_game: Game) -> None:
    s = situation(limit_game, "MATCHSTATE:1:1:cc/c:|9c2d/AhKhQs")  # the opponent is 0
    assert fold_estimate(0.3, PRIOR, 0) == pytest.approx(0.7)
    station = calling_station(500)
    assert fold_estimate(0.3, station, 0) < 0.05
    assert fold_estimate(0.3, station, 1) == pytest.approx(0.7)  # the other position
    triple = bluff_triple(s, TRASH, station, connect=0.3)
    assert triple is not None and triple.raise_ == 0.0


# -- preflop rule unit --------------------------------------------------------------------


def test_preflop_raises_exactly_the_hands_inside_the_range(limit_game: Game) -> None:
    s = situation(limit_game, "MATCHSTATE:1:0::|7c2d")  # small blind, first action
    for share, own_range, played in ((0.6, 0.5, False), (0.4, 0.5, True), (0.95, 1.0, True)):
        reading = Reading(0.4, 0.35, 0.4, 7, top_share=share)
        triple = preflop_triple(s, reading, own_range)
        assert triple.call == 0.0  # the small blind never limps, however weak the hand
        assert triple.raise_ == (1.0 if played else 0.0)
        assert triple.fold == (0.0 if played else 1.0)


def test_preflop_steals_outside_the_range_only_from_an_opponent_that_folds(
    limit_game: Game,
) -> None:
    s = situation(limit_game, "MATCHSTATE:1:0::|7c2d")
    outside = Reading(0.3, 0.3, 0.3, 8, top_share=0.99)
    steals = [preflop_triple(s, outside, 0.5, fold).raise_ for fold in (0.0, 0.1, 0.2, 0.3, 0.6)]
    # Called, 30% equity in a 40-chip pot is worth 12 of the 15 chips the raise costs.
    assert steals[0] == steals[1] == 0.0
    assert 0.0 < steals[2] < steals[3] < steals[4] == 1.0
    assert preflop_triple(s, outside, 0.5, 0.6).call == 0.0


def test_preflop_big_blind_never_folds_a_free_check(limit_game: Game) -> None:
    s = situation(limit_game, "MATCHSTATE:0:0:c:7c2d|")
    triple = preflop_triple(s, Reading(0.3, 0.3, 0.3, 8, top_share=1.0), 0.2)
    assert triple.call == 1.0


def test_preflop_calls_by_pot_odds_against_a_raise(limit_game: Game) -> None:
    s = situation(limit_game, "MATCHSTATE:0:0:r:Kc9d|")  # big blind facing a raise
    strong_enough = preflop_triple(s, Reading(0.45, 0.4, 0.55, 5, 0.4), 1.0)
    too_weak = preflop_triple(s, Reading(0.2, 0.15, 0.3, 8, 0.95), 1.0)
    assert strong_enough.fold == 0.0 and strong_enough.call > 0.5
    assert too_weak.fold == 1.0


# -- postflop rule unit -------------------------------------------------------------------


def test_postflop_value_bets_grow_with_strength_against_the_calling_range(limit_game: Game) -> None:
    s = situation(limit_game, "MATCHSTATE:0:1:cc/:9c9d|/AhKhQs")
    raises = [
        postflop_triple(s, Reading(x, x, x, 4), PRIOR, 0, BETS).raise_
        for x in np.linspace(0.3, 0.9, 13)
    ]
    assert raises == sorted(raises) and raises[0] == 0.0 and raises[-1] == 1.0


def test_postflop_dpac_shift_changes_aggression_only(limit_game: Game) -> None:
    s = situation(limit_game, "MATCHSTATE:1:1:cc/crr:|9c9d/AhKhQs")  # facing a check-raise
    assert s.facing_bet and s.num_raises == 2
    reading = Reading(0.5, 0.5, 0.6, 5)
    down, none, up = (postflop_triple(s, reading, PRIOR, k, BETS) for k in (-1, 0, 1))
    assert down.raise_ < none.raise_ < up.raise_
    share = [t.call / (t.call + t.fold) for t in (down, none, up)]
    assert share[0] == pytest.approx(share[1]) == pytest.approx(share[2])


def test_postflop_calls_by_effective_odds_on_the_river(limit_game: Game) -> None:
    # River, pot 100 chips, facing a 20-chip bet: calling needs 20 / 120 of the pot.
    s = situation(limit_game, "MATCHSTATE:0:1:cc/crc/rc/cr:9c9d|/AhKhQs/3c/4d")
    assert s.pot == 100 and s.to_call == 20
    needed = 20 / 120
    call = postflop_triple(s, Reading(needed + 0.05, 0.1, 0.3, 8), PRIOR, 0, BETS)
    fold = postflop_triple(s, Reading(needed - 0.05, 0.1, 0.3, 8), PRIOR, 0, BETS)
    assert call.call == 1.0 and fold.fold == 1.0
