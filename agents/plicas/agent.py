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

import copy
import dataclasses
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, NamedTuple

import numpy as np

from acpcbot.actions import Action
from acpcbot.cards import Card, parse_cards
from acpcbot.game import Game
from acpcbot.handeval.combos import NUM_COMBOS, combo_index
from acpcbot.handeval.evaluator import rank7
from acpcbot.handeval.holdings import holding_squared_strength, holdings_against_ranges
from acpcbot.logconfig import notice
from acpcbot.player import BettingView, HandResult, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import HandState, replay
from agents.base import Agent
from agents.common.handloop import play_hand, random_deal
from agents.common.rehearsal import rehearse_once
from agents.common.weights import board_ranking
from agents.known import StrategyTable, holding_index
from agents.plicas.actionmodel import ActionModel
from agents.plicas.actionprior import action_prior
from agents.plicas.bluff import bluff_triple
from agents.plicas.calibration import Calibration
from agents.plicas.casebase import Case, CaseBase, case_triple
from agents.plicas.change import ChangeDetector
from agents.plicas.config import DYNAMIC, REHEARSED, STATIC, PlicasConfig
from agents.plicas.dpac import dpac_shift
from agents.plicas.dprc import choose_range
from agents.plicas.exploitation import ExploitationUnit
from agents.plicas.foldequity import at_least_raise, fold_equity_raise
from agents.plicas.frozen import FrozenPolicy
from agents.plicas.generic import generic_opponent
from agents.plicas.memory import Memory
from agents.plicas.merge import decide, merge
from agents.plicas.model import PRIOR, OpponentAction, OpponentModel, OpponentProfile
from agents.plicas.postflop import postflop_triple
from agents.plicas.preflop import preflop_triple
from agents.plicas.reading import Reading
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
        self.frozen = False
        """Whether it has stopped learning (``freeze-after``) and plays :attr:`policy`."""
        self.hands_played = 0
        """Hands of this match finished (the training's not counted)."""
        self.training = False
        """Whether it is playing its training (:meth:`_play_training`)."""

    @classmethod
    def from_options(cls, seed: int, options: Mapping[str, str]) -> Plicas:
        """The agent with ``options`` (``KEY=VALUE`` of the agent spec) applied; frozen from
        the first hand (``freeze-after=0``), an agent with a fixed strategy."""
        config = cls.CONFIG.with_options(options)
        if config.freeze_after == 0:
            return FrozenPlicas(seed, config)
        return cls(seed, config)

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
        config = self.config
        self.memory = Memory(config.memory, config.forget)
        fitted = config.fitted_prior
        self.model = OpponentModel(self.memory, generic_opponent().profile if fitted else None)
        self.cases = CaseBase(self.memory)
        self.calibration = Calibration(memory=self.memory)
        actions = ActionModel(self.memory, prior=action_prior() if fitted else None)
        self.exploitation = ExploitationUnit(actions, config.exploit_evidence, config.ahead)
        self.detector = ChangeDetector(self.memory) if config.detect else None
        self._own_range = (-1, config.static_range)
        self._hand_number = -1
        self._learned = PRIOR
        self._replay: HandState | None = None
        # Every kernel a decision reaches compiled now, before the dealer's clock runs: once
        # a process, throwaway PLICASes play the scripted hands of agents.common.rehearsal.
        rehearse_once("PLICAS's kernels", _rehearsing_agents, game)
        if config.freezes:  # only a PLICAS that freezes compiles a frozen one's sweep
            rehearse_once("a frozen PLICAS's kernels", _frozen_kernels, game)
        self.frozen = False
        if config.train:
            self._train(game)
        self.hands_played = 0
        if config.freeze_after == 0:
            self.freeze()

    # -- learning before the match, and no more ----------------------------------------

    def learners(self) -> Learned:
        """Everything it learns about the opponent (what a training leaves behind)."""
        return Learned(
            self.memory,
            self.model,
            self.calibration,
            self.cases,
            self.exploitation.model,
            self.detector,
        )

    def _train(self, game: Game) -> None:
        """Play ``train-hands`` hands against ``train``, learning, with the training's own
        seed (every copy of this configuration learns the same, whatever its seed; a
        process trains each configuration once and copies what it learned)."""
        key = (game, dataclasses.replace(self.config, freeze_after=0))
        learned = _TRAINED.get(key)
        if learned is None:
            _TRAINED[key] = copy.deepcopy(self._play_training(game))
        else:
            restored = copy.deepcopy(learned)  # one copy: the units keep sharing one memory
            self.memory, self.model, self.calibration, self.cases = restored[:4]
            self.exploitation.model, self.detector = restored.actions, restored.detector
        self.start_match_anew()

    def _play_training(self, game: Game) -> Learned:
        """Play the configuration's training (``plicas:train=dpp-coarse,train-hands=50000``),
        the seats alternating hand by hand, in this process (:mod:`agents.common.handloop`):
        its cards and this agent's choices in it come from ``train-seed``, not from the
        agent's seed, so every copy of the configuration (both seats of a duplicate match,
        LBR's model of it) learns the same. It takes about as long as playing those hands in
        a match, and says so. What it learned (:meth:`learners`)."""
        from agents.registry import create_agent, nested_spec  # (the registry lists PLICAS)

        config = self.config
        opponent = create_agent(nested_spec(config.train), config.train_seed)
        opponent.begin_match(MatchInfo(game, name="training"))
        notice(
            f"training PLICAS against {config.train} for {config.train_hands:,} hands",
            event="training",
            opponent=config.train,
            hands=config.train_hands,
        )
        started = time.perf_counter()
        deals = random.Random(config.train_seed)
        self.rng = random.Random(config.train_seed + 1)
        self.training = True
        try:
            for number in range(config.train_hands):
                seats = (self, opponent) if number % 2 == 0 else (opponent, self)
                play_hand(game, number, random_deal(game, deals), seats)
        finally:
            self.training = False
        self.start_match_anew()
        seconds = time.perf_counter() - started
        notice(f"trained PLICAS in {seconds:.1f} s", event="trained", seconds=round(seconds, 1))
        return self.learners()

    def start_match_anew(self) -> None:
        """Forget the hand in progress and restart the random stream from the seed (what it
        learned stays): after the training, the match's first hand."""
        self._hand_number = -1
        self.exploitation.forget_hand()
        self.rng = random.Random(self.seed)

    def freeze(self) -> None:
        """Learn nothing more: from now on play :attr:`policy`, one fixed strategy."""
        self.frozen = True
        self.model.learning = False
        self._learned = self.model.profile()
        if self.config.freeze_after > 0:
            self.policy = FrozenPolicy(self)
            return
        # frozen from the first hand: what it learned follows from its configuration alone,
        # so every copy in this process (both seats, LBR's model of it) plays one policy
        key = (self.game, self.config)
        policy = _POLICIES.get(key)
        if policy is None:
            policy = _POLICIES[key] = FrozenPolicy(self)
        self.policy = policy

    def observe(self, state: MatchState, betting: BettingView) -> None:
        if self.frozen:  # the policy reads each hand from its betting
            return
        if state.hand_number != self._hand_number:
            self._hand_number = state.hand_number
            self.weights.reset(state.own_cards)
            self._learned = self.model.profile()  # what the model knew before this hand
        self._reweight(self.model.observe(state, self.game))
        if self.config.exploit:
            self._replay = self.exploitation.follow(state, betting, state.position)
        if self.detector is not None:
            self.detector.follow(state, betting)

    def end_hand(self, result: HandResult) -> None:
        if self.frozen:
            return
        self._learn(result)
        if self.training:
            return
        self.hands_played += 1
        if self.hands_played >= self.config.freeze_after:
            self.freeze()

    def _learn(self, result: HandResult) -> None:
        """Every learning unit takes in the finished hand; then the memory moves on, and
        the change detector says whether the opponent has changed (if so, the memory has
        discounted everything learned before)."""
        self._learn_units(result)
        self.memory.next_hand()
        if self.detector is not None:
            state = result.state
            shown = state.hole_cards[1 - state.position]
            self.detector.end_hand(combo_index(*shown) if shown else None, state.board_cards)

    def _learn_units(self, result: HandResult) -> None:
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
        if self.frozen:
            table = self.policy.table(betting, state.board_cards)
            row = table[holding_index(self.game, state.own_cards)]
            return self.sample(Triple(float(row[0]), float(row[1]), float(row[2])), betting)
        situation = Situation.of(state, betting)
        profile = self.reading_profile()
        if situation.round == 0:
            reading = self.reader.preflop(situation, self.weights.weights, profile)
            steal_fold = profile.fold_to_bet(0, situation.opponent, 1)
            triple = preflop_triple(situation, reading, self.own_range(situation), steal_fold)
            return self._decide([(triple, 1.0)], state, betting)
        seed = self.rng.getrandbits(31)
        reading = self.reader.postflop(situation, self.weights.weights, profile, seed)
        weighted = self.postflop_weighted(situation, betting, reading, profile, self._drawn_shift)
        return self._decide(weighted, state, betting)

    def _drawn_shift(self) -> int:
        """DPAC's shift of the own bucket for this decision (0 with DPAC off)."""
        if not self.config.dpac:
            return 0
        profile = self.reading_profile()
        return dpac_shift(profile.postflop_aggression, profile.range, self.rng.random())

    def postflop_weighted(
        self,
        situation: Situation,
        betting: BettingView,
        reading: Reading,
        profile: OpponentProfile,
        shift: Callable[[], int],
    ) -> list[tuple[Triple, float]]:
        """The rule units' triples after the flop, each with its weight: the bluff unit's in
        its spot, else the river search's (when on), else the value rule with the own
        bucket moved by ``shift()`` (asked only then) and the fold-equity unit's floor; and
        the case-based unit's facing a river bet."""
        weighted: list[tuple[Triple, float]] = []
        rule: Triple | None = None
        if self.config.bluff:
            connect = self.tables.connect(profile.range)
            rule = bluff_triple(situation, reading, profile, connect)
        if rule is None and self.config.river_search and situation.round == RIVER:
            rule = self._river_search(situation, betting, profile)
        if rule is None:
            rule = postflop_triple(situation, reading, profile, shift(), self.game.raise_size)
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
        return weighted

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
        if not (self.config.dprc and self.model.remembered_hands >= self.config.dprc_hands):
            return self.config.static_range
        profile = self.model.profile()
        return choose_range(
            self.tables.range_grid,
            self.tables.range_ev,
            profile.range,
            profile.average_pot / min(self.game.blind),
        )

    def strategy_table(self, betting: BettingView, board: Sequence[Card]) -> StrategyTable:
        """Frozen, its probabilities for every holding (:class:`FrozenPolicy`)."""
        if not self.frozen:
            return super().strategy_table(betting, board)
        return self.policy.table(betting, board)


class FrozenPlicas(Plicas):
    """PLICAS frozen from the first hand of the match (``freeze-after=0``, after its
    training if it has one): one fixed strategy, which it gives for every holding."""

    fixed_strategy = True


class Learned(NamedTuple):
    """Everything a PLICAS learns about its opponent, all of it through one memory."""

    memory: Memory
    model: OpponentModel
    calibration: Calibration
    cases: CaseBase
    actions: ActionModel
    detector: ChangeDetector | None


_TRAINED: dict[tuple[Game, PlicasConfig], Learned] = {}
"""What each configuration learned in its training, by game (once per process)."""
_POLICIES: dict[tuple[Game, PlicasConfig], FrozenPolicy] = {}
"""The policy of each configuration frozen from the first hand, by game."""


class PlicasStatic(Plicas):
    """PLICAS without adaptation (:data:`~agents.plicas.config.STATIC`): DPRC, DPAC, the case
    base and the bluff unit off, hands read against the frozen generic opponent."""

    name = "plicas-static"
    CONFIG = STATIC


def _rehearsing_agents() -> list[Agent]:
    _detector_kernels()
    return [Plicas(0, config) for config in REHEARSED]


def _frozen_kernels() -> list[Agent]:
    """The sweep a frozen PLICAS reads every holding with (:mod:`agents.plicas.frozen`),
    compiled before the match of a PLICAS that freezes (it may freeze in the middle of the
    match, and its next decision must not compile); no agent to rehearse."""
    holdings_against_ranges(parse_cards("2c7d9sKhAs"), np.ones((1, NUM_COMBOS)))
    return []


def _detector_kernels() -> None:
    """The one holding's E[HS²] the change detector reads a shown hand's bucket with when
    the exploitation unit has not bucketed that turn or river (with the unit on, only now
    and then: :func:`agents.plicas.holdingbuckets.fine_bucket`)."""
    holding_squared_strength(parse_cards("AsAc"), parse_cards("2c7d9sKh"))
