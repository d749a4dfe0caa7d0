"""The PLICAS agent: the units wired into one decision pipeline (PLICAS Fig. 1-3).

Every state updates the opponent model and, for the opponent's actions, its weight table.
On the agent's turn:

* preflop — DPRC sets the own range r_p (or the fixed one), the preflop rule unit gives the
  triple;
* postflop — the hand is read against the opponent's weighted range; the bluff unit decides
  the paper's bluffing spot, the postflop rule unit (own bucket shifted by DPAC) every other
  one, raising at least as often as the fold-equity unit finds aggression pays (on the
  river the river search instead, when it is switched on); facing a river bet the
  case-based unit adds a second triple when it has enough similar cases;
* the triples are merged by confidence and sampled with the agent's seeded RNG.

A finished hand that reached a showdown becomes a case.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from acpcbot.actions import Action
from acpcbot.game import Game
from acpcbot.handeval.combos import combo_index
from acpcbot.handeval.evaluator import rank7
from acpcbot.player import BettingView, HandResult, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import HandState, replay
from agents.base import Agent
from agents.common.rehearsal import rehearse_once
from agents.common.weights import board_ranking
from agents.plicas.actionmodel import ActionModel
from agents.plicas.bluff import bluff_triple
from agents.plicas.calibration import Calibration
from agents.plicas.casebase import Case, CaseBase, case_triple
from agents.plicas.config import DYNAMIC, REHEARSED, STATIC, PlicasConfig
from agents.plicas.dpac import dpac_shift
from agents.plicas.dprc import choose_range
from agents.plicas.exploitation import ExploitationUnit
from agents.plicas.foldequity import at_least_raise, fold_equity_raise
from agents.plicas.generic import generic_opponent
from agents.plicas.merge import decide, merge
from agents.plicas.model import PRIOR, OpponentAction, OpponentModel, OpponentProfile
from agents.plicas.postflop import postflop_triple
from agents.plicas.preflop import preflop_triple
from agents.plicas.riversearch import river_values
from agents.plicas.situation import RIVER, Situation, action_lines
from agents.plicas.strength import HandReader
from agents.plicas.tables import PlicasTables
from agents.plicas.weights import RangeWeights
from agents.triple import Triple


class Plicas(Agent):
    """PLICAS with the configuration :attr:`CONFIG` (every dynamic unit on)."""

    name = "plicas"
    CONFIG: ClassVar[PlicasConfig] = DYNAMIC

    def __init__(self, seed: int = 0, config: PlicasConfig | None = None) -> None:
        super().__init__(seed)
        self.config = self.CONFIG if config is None else config
        self.model = OpponentModel()
        self.cases = CaseBase()
        self._own_range: tuple[int, float] = (-1, 1.0)

    @classmethod
    def from_options(cls, seed: int, options: Mapping[str, str]) -> Plicas:
        """The agent with ``options`` (``KEY=VALUE`` of the agent spec) applied."""
        return cls(seed, cls.CONFIG.with_options(options))

    @classmethod
    def check_options(cls, options: Mapping[str, str]) -> None:
        cls.CONFIG.with_options(options)

    @classmethod
    def unsupported(cls, game: Game) -> str | None:
        if not game.is_limit or game.num_players != 2 or game.num_rounds != 4:
            return f"{cls.name} plays heads-up limit hold'em only"
        return None

    # -- match and hands ----------------------------------------------------------------

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        game = info.game
        self.tables = PlicasTables.load()
        self.reader = HandReader(self.tables, self.config.samples)
        self.weights = RangeWeights(self.tables)
        self.model = OpponentModel()
        self.cases = CaseBase()
        self.calibration = Calibration()
        self._own_range = (-1, self.config.static_range)
        self._hand_number = -1
        self._learned = PRIOR
        config = self.config
        self.exploitation = ExploitationUnit(ActionModel(config.memory), config.exploit_evidence)
        self._replay: HandState | None = None
        # Every kernel a decision reaches compiled now, before the dealer's clock runs: once
        # a process, throwaway PLICASes play the scripted hands of agents.common.rehearsal.
        rehearse_once("PLICAS's kernels", _rehearsing_agents, game)

    def observe(self, state: MatchState, betting: BettingView) -> None:
        if state.hand_number != self._hand_number:
            self._hand_number = state.hand_number
            self.weights.reset(state.own_cards)
            self._learned = self.model.profile()  # what the model knew before this hand
        self._reweight(self.model.observe(state, self.game))
        if self.config.exploit:
            self._replay = self.exploitation.follow(state, betting, state.position)

    def end_hand(self, result: HandResult) -> None:
        self._reweight(self.model.end_hand(result, self.game))
        state = result.state
        opponent_cards = state.hole_cards[1 - state.position]
        if self.config.exploit:
            self.exploitation.finish(combo_index(*opponent_cards) if opponent_cards else None)
        if not opponent_cards:
            return
        if self.config.model:  # else the calibration is never read
            shown = combo_index(*opponent_cards)
            for event, place in self.weights.places:
                self.calibration.record(event, float(place[shown]))
        if not self.config.case_base:
            return
        lines = action_lines(self.game, state.betting)
        buckets = tuple(
            self.reader.bucket_of(opponent_cards, state.board_cards[: self.game.board_total(r)])
            for r in range(len(state.betting))
        )
        opponent = 1 - state.position
        self.cases.add(Case(lines[opponent], lines[state.position], buckets))

    def _reweight(self, events: list[OpponentAction]) -> None:
        calibration = self.reading_calibration()
        profile = self.reading_profile()
        for event in events:
            self.weights.update(event, profile, calibration)

    def reading_profile(self) -> OpponentProfile:
        """What the model learned before this hand, or the generic opponent's profile with
        ``model`` off."""
        return self._learned if self.config.model else generic_opponent().profile

    def reading_calibration(self) -> Calibration:
        """What the opponent's showdowns have shown so far, or the generic opponent's
        calibration with ``model`` off."""
        return self.calibration if self.config.model else generic_opponent().calibration

    # -- deciding -----------------------------------------------------------------------

    def act(self, state: MatchState, betting: BettingView) -> Action:
        situation = Situation.of(state, betting)
        profile = self.reading_profile()
        if situation.round == 0:
            reading = self.reader.preflop(situation, self.weights.weights, profile)
            steal_fold = profile.fold_to_bet(0, situation.opponent, 1)
            triple = preflop_triple(situation, reading, self.own_range(situation), steal_fold)
            return self._decide([(triple, 1.0)], state, betting)
        seed = self.rng.getrandbits(31)
        reading = self.reader.postflop(situation, self.weights.weights, profile, seed)
        weighted: list[tuple[Triple, float]] = []
        rule: Triple | None = None
        if self.config.bluff:
            connect = self.tables.connect(profile.range)
            rule = bluff_triple(situation, reading, profile, connect)
        if rule is None and self.config.river_search and situation.round == RIVER:
            rule = self._river_search(situation, betting, profile)
        if rule is None:
            shift = 0
            if self.config.dpac:
                shift = dpac_shift(profile.postflop_aggression, profile.range, self.rng.random())
            rule = postflop_triple(situation, reading, profile, shift, self.game.raise_size)
            if self.config.fold_equity:
                level = situation.num_raises + 1
                fold = profile.fold_to_bet(situation.round, situation.opponent, level)
                rule = at_least_raise(rule, fold_equity_raise(situation, reading, fold))
        weighted.append((rule, 1.0))
        if self.config.case_base:
            threshold = self.config.case_threshold
            found = case_triple(situation, reading.bucket, self.cases, threshold)
            if found is not None:
                triple, similar = found
                weighted.append((triple, self.config.case_weight * similar / (similar + threshold)))
        return self._decide(weighted, state, betting)

    def _decide(
        self, weighted: list[tuple[Triple, float]], state: MatchState, betting: BettingView
    ) -> Action:
        """The baseline's triples merged, then with the exploitation unit's by its
        confidence, sampled."""
        if not self.config.exploit or self._replay is None:
            return decide(weighted, betting, self)
        advice, confidence = self.exploitation.advice(
            self._replay, state.own_cards, state.board_cards
        )
        baseline = merge(weighted, betting)
        return decide([(baseline, 1.0 - confidence), (advice, confidence)], betting, self)

    def _river_search(
        self, situation: Situation, betting: BettingView, profile: OpponentProfile
    ) -> Triple:
        ranking = board_ranking(tuple(situation.board))
        hand = self._replay  # the hand the exploitation unit follows, when it is on
        if hand is None:
            hand = replay(self.game, betting.actions, situation.hand_number)
        calibration = self.reading_calibration()
        own = rank7(*situation.hole, *situation.board)
        values = river_values(
            hand,
            own,
            ranking.values,
            self.weights.weights,
            profile=profile,
            calibration=calibration,
        )
        return values.triple(situation.bet)

    def own_range(self, situation: Situation) -> float:
        """r_p for this hand (chosen at its first preflop decision)."""
        hand, r_p = self._own_range
        if hand != situation.hand_number:
            r_p = self.current_range()
            self._own_range = (situation.hand_number, r_p)
        return r_p

    def current_range(self) -> float:
        """r_p as DPRC would choose it now: from the opponent's range and the average pot
        once the model has seen ``dprc_hands`` hands, else the fixed ``static_range``."""
        if not (self.config.dprc and self.model.hands_seen >= self.config.dprc_hands):
            return self.config.static_range
        profile = self.model.profile()
        return choose_range(
            self.tables.range_grid,
            self.tables.range_ev,
            profile.range,
            profile.average_pot / min(self.game.blind),
        )


class PlicasStatic(Plicas):
    """PLICAS without adaptation (:data:`~agents.plicas.config.STATIC`): DPRC, DPAC, the case
    base and the bluff unit off, hands read against the frozen generic opponent."""

    name = "plicas-static"
    CONFIG = STATIC


def _rehearsing_agents() -> list[Agent]:
    return [Plicas(0, config) for config in REHEARSED]
