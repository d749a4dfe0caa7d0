"""Saund's information gain: exact range shares, positive gain where bets tell, none where
they cannot."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from acpcbot.cards import parse_cards
from acpcbot.game import bundled_game
from acpcbot.handeval.combos import COMBO_CARDS, NUM_COMBOS, combo_index
from acpcbot.handeval.equity import hand_vs_hand
from acpcbot.protocol.logfile import parse_state_line
from agents.infogain.kernels import runout_values, runouts_share
from agents.infogain.measure import (
    FLOP_RUNOUTS,
    HiddenCardsError,
    InfoGain,
    InfoGainReport,
    _runouts,
)

RUNOUTS = 20
"""Flop runouts sampled in these tests (the default is 100)."""


def one_hot(hand: str) -> np.ndarray:
    weights = np.zeros(NUM_COMBOS)
    weights[combo_index(*parse_cards(hand))] = 1.0
    return weights


@pytest.mark.parametrize("board", ["AhKd7s", "AhKd7s2c", "AhKd7s2c9h"])
def test_one_holding_against_another_is_their_exact_equity(board: str) -> None:
    shown = parse_cards(board)
    runouts = runout_values(_runouts(shown, FLOP_RUNOUTS, 0), COMBO_CARDS)
    q = runouts_share(*runouts, one_hot("QsJs"), one_hot("8c8d"))
    assert q == pytest.approx(
        hand_vs_hand(parse_cards("QsJs"), parse_cards("8c8d"), shown).equity[0]
    )


def test_card_removal_between_the_ranges_is_exact() -> None:
    # AA against {AK, KK}: the aces block the ace-king; on this river the aces win every
    # pair that can be dealt, so card removal decides nothing but the weights do.
    shown = parse_cards("2c7d9hJs3s")
    runouts = runout_values(_runouts(shown, FLOP_RUNOUTS, 0), COMBO_CARDS)
    w0 = one_hot("AsAh")
    w1 = one_hot("AdKc") + one_hot("KsKd") + one_hot("AsKh")  # AsKh meets AsAh
    assert runouts_share(*runouts, w0, w1) == 1.0
    w1 = one_hot("AdAc") + one_hot("KsKd")
    assert runouts_share(*runouts, w0, w1) == pytest.approx(0.75)  # a tie and a win


def test_uniform_ranges_split_evenly() -> None:
    runouts = runout_values(_runouts(parse_cards("AhKd7s2c"), FLOP_RUNOUTS, 0), COMBO_CARDS)
    uniform = np.ones(NUM_COMBOS)
    assert runouts_share(*runouts, uniform, uniform) == pytest.approx(0.5)


def measure(log: Path) -> InfoGainReport:
    game = bundled_game()
    gain = InfoGain(game, RUNOUTS)
    for line in log.read_text().splitlines():
        if line.startswith("STATE:"):
            gain.add(parse_state_line(line, game))
    return gain.report()


def test_bets_of_two_field_agents_reveal_their_cards(field_log: Path) -> None:
    report = measure(field_log)
    overall = report.overall
    assert report.hands == 200
    assert overall.gain_percent - overall.gain_ci95 > 0.0  # positive, significantly
    assert overall.kl_bet < overall.kl_cards
    for street in report.streets:
        assert street.points > 0 and street.gain_percent > 0.0, street
    # The cards alone never favour a player in hold'em: KL(p || 1/2) = 1 - H(p).
    assert overall.kl_cards == pytest.approx(1.0 - overall.entropy, abs=1e-9)


def test_players_who_always_call_reveal_nothing(callers_log: Path) -> None:
    report = measure(callers_log)
    for street in (*report.streets, report.overall):
        assert abs(street.gain_percent) <= street.gain_ci95 + 0.1, street
    assert all(max(values) < 0.05 for values in report.predictability.values())


def test_a_hand_with_hidden_cards_is_refused() -> None:
    gain = InfoGain(bundled_game(), RUNOUTS)
    with pytest.raises(HiddenCardsError, match="hand 5 does not show both players' hole cards"):
        gain.add(parse_state_line("STATE:5:cc/r:AsKd|/2c3d4h:10|-10:a|b"))
