"""Loki-2's simulation: the obvious-move cut-off, ties, and decisions that must be right."""

from __future__ import annotations

import numpy as np
import pytest

from acpcbot.actions import ActionType
from acpcbot.game import Game
from acpcbot.player import MatchInfo
from acpcbot.protocol.matchstate import decode_match_state
from agents.loki2.agent import Loki2
from agents.loki2.config import Loki2Config
from agents.loki2.simulation import CALL, FOLD, RAISE, best_action, obvious

ALL = np.array([True, True, True])
NO_FOLD = np.array([False, True, True])


def test_the_cut_off_needs_a_lead_past_the_sum_of_the_standard_deviations() -> None:
    sds = np.array([0.0, 0.75, 1.25])  # fold's EV is exactly 0
    margin = 0.75 + 1.25
    for lead, expected in ((margin - 1e-9, False), (margin, False), (margin + 1e-9, True)):
        evs = np.array([0.0, 3.0, 3.0 + lead])
        assert obvious(evs, sds, ALL) is expected, lead
    # The second best may be folding: then only the leader's deviation counts.
    assert obvious(np.array([0.0, -5.0, 0.76]), np.array([0.0, 0.5, 0.75]), ALL) is True
    assert obvious(np.array([0.0, -5.0, 0.74]), np.array([0.0, 0.5, 0.75]), ALL) is False
    # Fold is not an option when checking is free; one legal action is always obvious.
    assert obvious(np.array([0.0, -1.0, -0.5]), np.array([0.0, 0.2, 0.2]), NO_FOLD) is True
    assert obvious(np.array([0.0, 1.0, 9.0]), sds, np.array([False, True, False])) is True


def test_ties_go_to_the_more_aggressive_action() -> None:
    assert best_action(np.array([0.0, 2.0, 2.0]), ALL) == RAISE
    assert best_action(np.array([0.0, 0.0, -1.0]), ALL) == CALL
    assert best_action(np.array([0.0, -1.0, -1.0]), ALL) == FOLD
    assert best_action(np.array([0.0, -1.0, -1.0]), NO_FOLD) == RAISE
    assert best_action(np.array([0.0, 1.0, 5.0]), np.array([True, True, False])) == CALL


def decide(game: Game, text: str, config: Loki2Config) -> tuple[ActionType, Loki2]:
    agent = Loki2(4, config)
    agent.begin_match(MatchInfo(game, seat=0))
    state, betting = decode_match_state(text, game)
    agent.observe(state, betting)
    return agent.act(state, betting).type, agent


def test_the_nuts_raise_a_river_bet_and_the_cut_off_stops_early(limit_game: Game) -> None:
    nuts = "MATCHSTATE:0:3:cc/cc/cc/r:AsKs|/QsJsTs/2d/3c"  # a royal flush, facing a bet
    action, agent = decide(limit_game, nuts, Loki2Config())
    assert action is ActionType.RAISE
    fold, call, raise_ = agent.last_evs[:3]
    assert raise_ > call > 0.0 == fold
    assert agent.last_trials < agent.config.trials
    _, full = decide(limit_game, nuts, Loki2Config(cutoff=False))
    assert full.last_trials == full.config.trials


def test_a_hopeless_hand_folds_to_a_river_raise(limit_game: Game) -> None:
    # 3-high facing a bet and a re-raise on a board of four hearts.
    hopeless = "MATCHSTATE:1:3:cc/crc/crc/crr:|3c2d/AhKhQh/Jh/9d"
    action, agent = decide(limit_game, hopeless, Loki2Config())
    assert action is ActionType.FOLD
    assert agent.last_evs[1] < 0.0
    assert agent.last_triple is not None and agent.last_triple.fold == 1.0


def test_options_are_checked(limit_game: Game) -> None:
    from agents.errors import AgentOptionError
    from agents.loki2.config import options_help
    from agents.registry import AGENTS, create_agent

    assert AGENTS["loki2"].options == options_help()  # the listing's copy is up to date

    agent = create_agent("loki2:trials=200,cutoff=off", seed=1)
    assert isinstance(agent, Loki2) and agent.config == Loki2Config(trials=200, cutoff=False)
    with pytest.raises(AgentOptionError, match="loki2 option trials=0: trials is an integer"):
        create_agent("loki2:trials=0")
