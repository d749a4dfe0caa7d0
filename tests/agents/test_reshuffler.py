"""``reshuffler``: its base's play exactly for ``at`` hands, then each holding playing as
another one does, the frequencies kept (real in-process matches, the log read back)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from acpcbot.actions import ActionType
from acpcbot.cards import parse_cards
from acpcbot.game import bundled_game
from acpcbot.handeval.combos import COMBO_CARDS, combo_index
from acpcbot.player import MatchInfo
from acpcbot.rules import HandState
from agents.common.weights import holding_strengths
from agents.errors import AgentOptionError
from agents.registry import create_agent
from agents.reshuffler import Reshuffler
from tests.agents.matches import Decision, decisions_of, play_match

GAME = bundled_game()


def started(spec: str, hands_played: int) -> Reshuffler:
    trap = create_agent(spec, 3)
    assert isinstance(trap, Reshuffler)
    trap.begin_match(MatchInfo(GAME))
    trap.hands = hands_played
    return trap


def test_before_the_change_it_plays_exactly_its_base() -> None:
    def lines(spec: str) -> list[str]:
        return play_match(GAME, [create_agent(spec, 3), create_agent("loose-aggressive", 4)], 60, 9)

    assert lines("reshuffler:at=1000") == lines("dpp-coarse")


@pytest.mark.parametrize("board", ["", "Ah7c2d", "Ah7c2dKs", "Ah7c2dKs5h"])
def test_after_it_the_holdings_are_mapped_one_to_one(board: str) -> None:
    cards = parse_cards(board)
    trap = started("reshuffler:at=5", 5)
    live = [i for i in range(len(COMBO_CARDS)) if not set(COMBO_CARDS[i]) & set(cards)]
    stand_ins = [trap.stand_in(tuple(COMBO_CARDS[i]), cards) for i in live]
    assert sorted(stand_ins) == live  # a permutation of the live holdings: frequencies kept
    strengths = holding_strengths(cards)
    moved = np.abs(strengths[stand_ins] - strengths[live])
    assert float(np.median(moved)) > 0.1  # and most of them play a hand far from their own


def test_aces_play_like_a_middling_hand_after_the_change() -> None:
    aces = parse_cards("AsAh")
    before, after = started("reshuffler:at=5", 4), started("reshuffler:at=5", 5)
    assert before.stand_in(aces, ()) == combo_index(*aces)
    stand_in = after.stand_in(aces, ())
    assert 0.4 < float(holding_strengths(())[stand_in]) < 0.6


@pytest.mark.slow
def test_its_frequencies_stay_while_its_hands_change() -> None:
    hands, at = 1200, 600
    players = [create_agent(f"reshuffler:at={at}", 3), create_agent("always-call", 4)]
    lines = play_match(GAME, players, hands, seed=11)
    first = [d for d in decisions_of("p0", lines, GAME) if d.state.round == 0]
    first = [d for d in first if d.state.current_player == 1 and not d.state.num_raises]

    def share(part: list[Decision], kind: ActionType) -> float:
        return Counter(d.action for d in part)[kind] / len(part)

    early, late = [d for d in first if d.hand < at], [d for d in first if d.hand >= at]
    for kind in ActionType:  # the small blind's first action: the base's frequencies
        assert abs(share(early, kind) - share(late, kind)) < 0.08

    def strength_of_folds(part: list[Decision]) -> float:
        folded = [d for d in part if d.action is ActionType.FOLD]
        return float(np.mean([holding_strengths(())[combo_index(*d.hole)] for d in folded]))

    assert strength_of_folds(late) > strength_of_folds(early) + 0.1  # middling hands fold


def test_a_base_without_a_fixed_strategy_is_refused() -> None:
    with pytest.raises(AgentOptionError, match="a fixed strategy"):
        create_agent("reshuffler:base=loki2", 1)


@pytest.mark.parametrize(
    ("spec", "error"),
    [("reshuffler:shift=1.5", "shift=1.5: a number from 0 to 1"), ("reshuffler:at=x", "at=x")],
)
def test_bad_options_are_refused(spec: str, error: str) -> None:
    with pytest.raises(AgentOptionError, match=error):
        create_agent(spec, 1)


def test_a_hand_state_is_what_it_asks_the_base_at() -> None:
    trap = started("reshuffler:at=5", 5)
    hand = HandState(GAME)
    row = trap.base.strategy_table(hand, ())[trap.stand_in(parse_cards("AsAh"), ())]
    assert abs(float(row.sum()) - 1.0) < 1e-9
