"""PLICAS against real opponents on the in-process dealer: the model and DPRC adapt."""

from __future__ import annotations

from acpcbot.game import LIMIT_HOLDEM, bundled_game
from agents.plicas.agent import Plicas
from agents.plicas.model import PRIOR
from agents.registry import create_agent
from dealer.config import MatchConfig
from dealer.engine import MatchEngine
from dealer.inprocess import play_in_process


def play(opponent: str, hands: int, seed: int = 3, options: str = "") -> Plicas:
    """A match of ``hands`` hands; the PLICAS agent as it stands at the end."""
    config = MatchConfig("behaviour", bundled_game(), LIMIT_HOLDEM, hands, seed, ("p", "o"))
    agent = create_agent(f"plicas:{options}" if options else "plicas", seed)
    assert isinstance(agent, Plicas)
    play_in_process(MatchEngine(config), [agent, create_agent(opponent, seed + 1)])
    assert agent.model.hands_seen == hands
    return agent


def test_the_model_sees_a_maniacs_aggression() -> None:
    agent = play("always-raise", 150)
    profile = agent.model.profile()
    assert all(a > 0.9 for a in profile.aggression)
    assert profile.range > 0.9  # it never folds preflop
    assert agent.model.counts[..., 0].sum() == 0  # it never folded
    seen = [(r, p) for r in range(4) for p in (0, 1) if profile.evidence[r, p, 1, 1] > 20]
    assert seen and all(profile.fold_to_bet(r, p, 1) < 0.1 for r, p in seen)


def test_dprc_tightens_against_a_tight_opponent_and_widens_against_a_loose_one() -> None:
    tight = play("tight-passive", 150)
    loose = play("loose-passive", 150)
    r_tight, r_loose = tight.current_range(), loose.current_range()
    assert tight.model.range < 0.5 < 0.75 < loose.model.range
    assert r_tight < 0.5 < 0.75 < r_loose
    for agent, r_p in ((tight, r_tight), (loose, r_loose)):
        assert r_p <= agent.model.range + 0.005  # never wider than the opponent (grid: 1%)


def test_without_the_model_the_maniac_is_read_as_a_generic_opponent() -> None:
    learned = play("always-raise", 60)
    generic = play("always-raise", 60, options="model=off")
    assert generic.model.profile().range > 0.9  # the model still counts...
    assert generic.reading_profile() is PRIOR  # ...but the readings ignore it
    assert learned.reading_profile().range > 0.9
