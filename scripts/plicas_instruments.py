"""PLICAS with instruments: what the diagnostics in ``scripts/plicas_*.py`` measure.

Not an agent, and not shipped with the agents: :class:`ProbingPlicas` reads the whole deal
from the in-process referee on purpose (to value every action on the cards really dealt),
which no player may do. The scripts beside it import it (``python scripts/NAME.py`` puts
this folder on the import path).

Each class plays exactly as :class:`~agents.plicas.agent.Plicas` (same decisions from the
same seed and states) and records something on the side:

* :class:`RecordingPlicas` — the reading (estimated equity) behind each postflop decision
  (``scripts/plicas_readings.py``);
* :class:`ProbingPlicas` — before each decision, the value of every legal action by rollouts
  on the cards the dealer really dealt (``scripts/plicas_regret.py``);
* :class:`TimedPlayer` — how long each decision of any player took
  (``scripts/plicas_latency.py``, ``scripts/bench_plicas.py``; :func:`timed_match` plays
  a timed match).

They are diagnostics, not agents of the registry: a script builds them from a PLICAS spec
(:func:`plicas_config`) and plays them in-process.
"""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from acpcbot import bundled_game
from acpcbot.actions import Action
from acpcbot.cards import Card
from acpcbot.deal import Deal
from acpcbot.handeval import rank_hand
from acpcbot.player import BettingView, HandResult, MatchInfo, Player
from acpcbot.protocol.matchstate import MatchState, view_of
from acpcbot.rules import CALL, FOLD, RAISE, HandState
from agents.errors import AgentSpecError
from agents.plicas.agent import Plicas
from agents.plicas.config import PlicasConfig
from agents.plicas.model import OpponentProfile
from agents.plicas.reading import Reading
from agents.plicas.situation import Situation
from agents.plicas.strength import HandReader
from agents.registry import create_agent
from dealer.referee import MatchConfig, Referee, play_in_process

__all__ = [
    "ACTIONS",
    "ActionValues",
    "DealSource",
    "LastReading",
    "ProbingPlicas",
    "ReadingRecord",
    "RecordingPlicas",
    "TimedPlayer",
    "plicas_config",
    "quantile",
    "timed_match",
]

FloatArray = npt.NDArray[np.float64]

ACTIONS = (FOLD, CALL, RAISE)
"""The actions :class:`ProbingPlicas` values, in the order of :attr:`ActionValues.chosen`."""
_KINDS = tuple(action.type for action in ACTIONS)


def plicas_config(spec: str) -> PlicasConfig:
    """The configuration a PLICAS agent spec gives (``plicas:bluff=off``, ``plicas-static``);
    an :class:`~agents.errors.AgentSpecError` for any other spec."""
    agent = create_agent(spec)
    if not isinstance(agent, Plicas):
        raise AgentSpecError(f"{spec!r} is not a PLICAS agent")
    return agent.config


class LastReading(HandReader):
    """A :class:`HandReader` that remembers the last reading it gave."""

    def __init__(self, inner: HandReader) -> None:
        super().__init__(inner.tables, inner.samples)
        self.last: Reading | None = None

    def preflop(
        self, situation: Situation, weights: FloatArray, profile: OpponentProfile
    ) -> Reading:
        self.last = super().preflop(situation, weights, profile)
        return self.last

    def postflop(
        self, situation: Situation, weights: FloatArray, profile: OpponentProfile, seed: int
    ) -> Reading:
        self.last = super().postflop(situation, weights, profile, seed)
        return self.last


@dataclass(frozen=True, slots=True)
class ReadingRecord:
    """One postflop decision and the equity PLICAS estimated for it."""

    hand_number: int
    round: int
    facing_bet: bool
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    estimate: float
    """The reading's ``strength``: equity against the weighted range, to the river."""


class RecordingPlicas(Plicas):
    """PLICAS recording the reading behind each of its postflop decisions."""

    def __init__(self, seed: int, config: PlicasConfig) -> None:
        super().__init__(seed, config)
        self.decisions: list[ReadingRecord] = []
        self.last_reading: LastReading | None = None

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        self.reader = self.last_reading = LastReading(self.reader)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        action = super().act(state, betting)
        reading = self.last_reading.last if self.last_reading is not None else None
        if state.round > 0 and reading is not None:
            s = Situation.of(state, betting)
            self.decisions.append(
                ReadingRecord(
                    s.hand_number, s.round, s.facing_bet, s.hole, s.board, reading.strength
                )
            )
        return action


@dataclass(frozen=True, slots=True)
class ActionValues:
    """One decision of :class:`ProbingPlicas`: what it chose and what each action was worth."""

    hand_number: int
    round: int
    facing_bet: bool
    num_raises: int
    chosen: int
    """0 fold, 1 call, 2 raise (:data:`ACTIONS`)."""
    q_fold: float
    q_call: float
    q_raise: float
    """Chips at the end of the hand after each action (nan where illegal)."""
    strength: float
    strength_called: float


class DealSource(Protocol):
    """Whatever knows the whole deal of the current hand: the in-process dealer's referee."""

    @property
    def deal(self) -> Deal: ...


SHARED = ("tables", "reader", "last_reading", "cases", "calibration", "_strategy", "_buckets")
"""Attributes rollout copies share with the real player: unchanged within a hand."""
_PROBE_ONLY = ("deals", "opponent", "decisions")
"""The probing agent's own attributes, which its copies share rather than copy."""


def snapshot(player: Player, rng: random.Random) -> Player:
    """A copy of ``player`` sharing :data:`SHARED`, its decisions reseeded from ``rng``."""
    names = (*SHARED, *_PROBE_ONLY)
    memo = {id(getattr(player, n)): getattr(player, n) for n in names if hasattr(player, n)}
    clone = copy.deepcopy(player, memo)
    clone.rng = random.Random(rng.getrandbits(64))  # type: ignore[attr-defined]
    return clone


class ProbingPlicas(Plicas):
    """PLICAS valuing every legal action by rollouts before it decides.

    At each decision, for each legal action, the rest of the hand is played ``rollouts``
    times: the action is taken, then copies of both players (fresh seeds per rollout) go on
    with their own policies on the cards really dealt, and the chips PLICAS ends with are
    averaged. Then it decides as plain PLICAS; the match is unchanged by the probing.
    Set :attr:`deals` (the dealer) and :attr:`opponent` before the match.
    """

    def __init__(self, seed: int, config: PlicasConfig, rollouts: int) -> None:
        super().__init__(seed, config)
        self.rollouts = rollouts
        self.decisions: list[ActionValues] = []
        self.deals: DealSource | None = None
        self.opponent: Player | None = None
        self.last_reading: LastReading | None = None

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        self.reader = self.last_reading = LastReading(self.reader)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        if not isinstance(betting, HandState):
            raise TypeError("ProbingPlicas needs the hand itself (play it in-process)")
        if self.deals is None:
            raise RuntimeError("ProbingPlicas: set .deals to the dealer before the match")
        deal = self.deals.deal
        ranks = tuple(rank_hand((*hole, *deal.board)) for hole in deal.hole_cards)
        q_fold, q_call, q_raise = (self._value(state, betting, a, deal, ranks) for a in ACTIONS)
        action = super().act(state, betting)
        reading = self.last_reading.last if self.last_reading is not None else None
        situation = Situation.of(state, betting)
        self.decisions.append(
            ActionValues(
                state.hand_number,
                situation.round,
                situation.facing_bet,
                situation.num_raises,
                _KINDS.index(action.type),
                q_fold,
                q_call,
                q_raise,
                reading.strength if reading else float("nan"),
                reading.strength_called if reading else float("nan"),
            )
        )
        return action

    def _value(
        self, state: MatchState, hand: HandState, action: Action, deal: Deal, ranks: Sequence[int]
    ) -> float:
        """Mean chips at the end of the hand after ``action``, or nan if it is illegal;
        ``ranks`` are the positions' showdown ranks on the full board."""
        if not hand.is_legal(action):
            return float("nan")
        if self.opponent is None:
            raise RuntimeError("ProbingPlicas: set .opponent before the match")
        me = state.position
        rng = random.Random(
            hand.hand_number * 1009 + hand.num_actions * 31 + _KINDS.index(action.type)
        )
        after = hand.child(action)
        if after.finished:  # a fold, or a call to the showdown: nothing random is left
            return after.values(ranks if after.is_showdown else None)[me]
        total = 0.0
        for _ in range(self.rollouts):
            rest = after.copy()
            players = {me: snapshot(self, rng), 1 - me: snapshot(self.opponent, rng)}
            while not rest.finished:
                for position, player in players.items():
                    player.observe(view_of(rest, deal, position), rest)
                acting = rest.current_player
                view = view_of(rest, deal, acting)
                player = players[acting]
                # the copy of the agent decides as plain PLICAS (no probing inside a rollout)
                if acting == me and isinstance(player, Plicas):
                    chosen = Plicas.act(player, view, rest)
                else:
                    chosen = player.act(view, rest)
                rest.apply_coerced(chosen)
            total += rest.values(ranks if rest.is_showdown else None)[me]
        return total / self.rollouts


class TimedPlayer:
    """Forwards to a player and records how long each decision took, by round: the
    ``observe`` of the state that puts it to act plus the ``act`` (what a client waits for)."""

    def __init__(self, inner: Player, clock: Callable[[], float] = time.perf_counter) -> None:
        self.inner = inner
        self.clock = clock
        self.decides_instantly = inner.decides_instantly
        self.times: list[tuple[int, float]] = []
        """(round, seconds) per decision."""
        self._observed = 0.0

    def begin_match(self, info: MatchInfo) -> None:
        self.inner.begin_match(info)

    def observe(self, state: MatchState, betting: BettingView) -> None:
        started = self.clock()
        self.inner.observe(state, betting)
        self._observed = self.clock() - started

    def act(self, state: MatchState, betting: BettingView) -> Action:
        started = self.clock()
        action = self.inner.act(state, betting)
        self.times.append((state.round, self.clock() - started + self._observed))
        self._observed = 0.0
        return action

    def end_hand(self, result: HandResult) -> None:
        self.inner.end_hand(result)


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}
"""The clocks a decision is timed with: the wall clock (what a dealer's time limit sees) or
the thread's CPU time (what the decision costs, without a busy machine's waits)."""


def timed_match(
    spec: str, opponent: str, hands: int, seed: int, clock: str = "wall"
) -> list[tuple[int, float]]:
    """(round, seconds) of every decision of the agent ``spec`` over an in-process match of
    ``hands`` hands against ``opponent``, timed with the clock named ``clock``
    (:data:`CLOCKS`)."""
    game = bundled_game()
    config = MatchConfig("latency", game, "latency.game", hands, seed, ("a", "b"))
    agent = TimedPlayer(create_agent(spec, seed), CLOCKS[clock])
    play_in_process(Referee(config), [agent, create_agent(opponent, seed + 1)])
    return agent.times


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (the value at that rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
