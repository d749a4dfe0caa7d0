"""The instrumented PLICAS of the diagnostics (``scripts/plicas_instruments.py``) plays exactly
as PLICAS and records what it says."""

from __future__ import annotations

import math

import pytest

from acpcbot.game import LIMIT_HOLDEM, bundled_game
from acpcbot.player import Player
from agents.errors import AgentSpecError
from agents.plicas.agent import Plicas
from agents.plicas.config import PlicasConfig
from agents.registry import create_agent
from dealer.referee.config import MatchConfig
from dealer.referee.inprocess import play_in_process
from dealer.referee.referee import Referee
from plicas_instruments import (
    ProbingPlicas,
    RecordingPlicas,
    TimedPlayer,
    plicas_config,
)

HANDS = 40
PROBED_HANDS = 12
"""Enough for the probing PLICAS: every decision copies both players and plays the hand out
(the slow part), and a rollout that touched a real player would change the very next draw."""


def log_of(player: Player, opponent: str, seed: int = 5, hands: int = HANDS) -> tuple[Referee, str]:
    config = MatchConfig("i", bundled_game(), LIMIT_HOLDEM, hands, seed, ("p", "o"))
    referee = Referee(config)
    if isinstance(player, ProbingPlicas):
        player.deals = referee
        player.opponent = create_agent(opponent, 2)
        score = play_in_process(referee, [player, player.opponent])
    else:
        score = play_in_process(referee, [player, create_agent(opponent, 2)])
    return referee, score


def test_a_plicas_spec_gives_its_configuration() -> None:
    assert plicas_config("plicas:bluff=off") == PlicasConfig(bluff=False)
    assert not plicas_config("plicas-static").model
    with pytest.raises(AgentSpecError, match="'dpp' is not a PLICAS agent"):
        plicas_config("dpp")


def test_recording_plays_as_plicas_and_records_every_postflop_decision() -> None:
    _, plain = log_of(Plicas(1), "example")
    recording = RecordingPlicas(1, PlicasConfig())
    _, recorded = log_of(recording, "example")
    assert recorded == plain
    assert recording.decisions
    assert {d.round for d in recording.decisions} <= {1, 2, 3}
    assert all(0 <= d.estimate <= 1 for d in recording.decisions)


@pytest.mark.slow
def test_probing_plays_as_plicas_and_values_each_legal_action() -> None:
    _, plain = log_of(Plicas(1), "always-raise", hands=PROBED_HANDS)
    probing = ProbingPlicas(1, PlicasConfig(), rollouts=1)
    _, probed = log_of(probing, "always-raise", hands=PROBED_HANDS)
    assert probed == plain  # the rollouts never touch the real players
    assert probing.decisions
    for d in probing.decisions:
        assert not math.isnan(d.q_call)
        # Facing a bet a fold is always legal; checking, it is not offered.
        assert math.isnan(d.q_fold) != d.facing_bet


def test_timing_forwards_and_times_every_decision() -> None:
    timed = TimedPlayer(create_agent("plicas", 1))
    _, score = log_of(timed, "example")
    _, plain = log_of(Plicas(1), "example")
    assert score == plain
    assert timed.times and all(t >= 0 for _, t in timed.times)
