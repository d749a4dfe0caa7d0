"""PLICAS against real opponents on the in-process dealer: the model, DPRC and the
fold-equity unit adapt."""

from __future__ import annotations

import numpy as np

from acpcbot.actions import Action, ActionType
from acpcbot.game import LIMIT_HOLDEM, bundled_game
from acpcbot.player import BettingView, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from agents.plicas.agent import Plicas
from agents.plicas.config import DYNAMIC
from agents.plicas.generic import generic_opponent
from agents.plicas.model import PRIOR
from agents.plicas.riversearch import MIX_WIDTH
from agents.plicas.situation import Situation
from agents.registry import create_agent
from dealer.referee.config import MatchConfig
from dealer.referee.inprocess import play_in_process
from dealer.referee.referee import Referee


def play(opponent: str, hands: int, seed: int = 3, options: str = "") -> Plicas:
    """A match of ``hands`` hands; the PLICAS agent as it stands at the end."""
    config = MatchConfig("behaviour", bundled_game(), LIMIT_HOLDEM, hands, seed, ("p", "o"))
    agent = create_agent(f"plicas:{options}" if options else "plicas", seed)
    assert isinstance(agent, Plicas)
    play_in_process(Referee(config), [agent, create_agent(opponent, seed + 1)])
    assert agent.model.hands_seen == hands
    return agent


def test_the_model_sees_a_maniacs_aggression() -> None:
    agent = play("always-raise", 100)
    profile = agent.model.profile()
    assert all(a > 0.9 for a in profile.aggression)
    assert profile.range > 0.9  # it never folds preflop
    assert agent.model.counts[..., 0].sum() == 0  # it never folded
    seen = [(r, p) for r in range(4) for p in (0, 1) if profile.evidence[r, p, 1, 1] > 20]
    assert seen and all(profile.fold_to_bet(r, p, 1) < 0.1 for r, p in seen)


def test_dprc_tightens_against_a_tight_opponent_and_widens_against_a_loose_one() -> None:
    tight = play("tight-passive", 100)
    loose = play("loose-passive", 100)
    r_tight, r_loose = tight.current_range(), loose.current_range()
    assert tight.model.range < 0.5 < 0.75 < loose.model.range
    assert r_tight < 0.5 < 0.75 < r_loose
    for agent, r_p in ((tight, r_tight), (loose, r_loose)):
        assert r_p <= agent.model.range + 0.005  # never wider than the opponent (grid: 1%)


def test_without_the_model_the_maniac_is_read_as_a_generic_opponent() -> None:
    learned = play("always-raise", 60)
    generic = play("always-raise", 60, options="model=off")
    assert generic.model.profile().range > 0.9  # the model still counts...
    sound = generic_opponent()
    assert generic.reading_profile() is sound.profile  # ...but the readings ignore it
    assert generic.reading_calibration() is sound.calibration
    assert not generic.calibration.counts.any()  # and its showdowns are not recorded
    assert learned.reading_profile().range > 0.9
    assert learned.reading_calibration().counts.any()


class CountingPlicas(Plicas):
    """PLICAS counting its own decisions after the flop and the bets and raises among them."""

    postflop: list[int]

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        self.postflop = [0, 0]

    def act(self, state: MatchState, betting: BettingView) -> Action:
        action = super().act(state, betting)
        if state.round > 0:
            self.postflop[0] += 1
            self.postflop[1] += action.type is ActionType.RAISE
        return action


def postflop_aggression(opponent: str, options: str, hands: int = 100, seed: int = 5) -> float:
    config = MatchConfig("behaviour", bundled_game(), LIMIT_HOLDEM, hands, seed, ("p", "o"))
    key, value = options.split("=")
    # the exploitation unit off: its best response would blur the one unit measured here;
    # the fitted prior off: the unit reacts to the fold rates it learns from a vague start
    switches = {key: value, "exploit": "off", "fitted-prior": "off"}
    agent = CountingPlicas(seed, DYNAMIC.with_options(switches))
    play_in_process(Referee(config), [agent, create_agent(opponent, seed + 1)])
    decisions, raises = agent.postflop
    return raises / decisions


def test_the_fold_equity_unit_bets_into_a_frequent_folder() -> None:
    # tight-passive folds to a bet below hand strength 0.5; always-call never folds
    on, off = (
        postflop_aggression("tight-passive", "fold-equity=on"),
        postflop_aggression("tight-passive", "fold-equity=off"),
    )
    assert on > off + 0.05
    station_on = postflop_aggression("always-call", "fold-equity=on")
    station_off = postflop_aggression("always-call", "fold-equity=off")
    assert abs(station_on - station_off) < 0.03


class RiverPlicas(Plicas):
    """PLICAS noting, at each river decision with nothing to call, its hand's showdown
    share against the opponent's weighted range and whether it bet."""

    river: list[tuple[int, float, bool]]

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        self.river = []

    def act(self, state: MatchState, betting: BettingView) -> Action:
        action = super().act(state, betting)
        if state.round == 3 and betting.amount_to_call() == 0:
            situation = Situation.of(state, betting)
            reading = self.reader.postflop(situation, self.weights.weights, PRIOR, 0)
            share = reading.strength
            self.river.append((state.hand_number, share, action.type is ActionType.RAISE))
        return action


def test_the_river_search_bets_into_a_calling_station_for_value_only() -> None:
    # Against an opponent that calls everything and never bets, a river bet wins one more
    # bet exactly when the hand beats more than half of the range it calls with: the search
    # bets above that, never as a bluff. It mixes bet and check within MIX_WIDTH of a bet,
    # and the model keeps a few of the prior's folds (a hand that ties most of the range,
    # on a board that plays itself, gains half the pot from each), so the edge is blurred
    # by up to MIX_WIDTH of share either side.
    config = MatchConfig("behaviour", bundled_game(), LIMIT_HOLDEM, 200, 7, ("p", "o"))
    options = {"river-search": "on", "exploit": "off", "fitted-prior": "off"}
    agent = RiverPlicas(7, DYNAMIC.with_options(options))
    play_in_process(Referee(config), [agent, create_agent("always-call", 8)])
    bets = [share for _, share, bet in agent.river if bet]
    checks = [share for _, share, bet in agent.river if not bet]
    assert len(bets) > 30 and len(checks) > 30
    assert min(bets) > 0.5 - MIX_WIDTH
    assert max(checks) < 0.5 + MIX_WIDTH
    assert np.mean(bets) > 0.7 and np.mean(checks) < 0.3
