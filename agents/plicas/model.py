"""The opponent model: what PLICAS learns about its one opponent during a match.

It is fed every state the agent sees (:meth:`OpponentModel.observe`) and every finished hand
(:meth:`OpponentModel.end_hand`) and keeps, per match: hands seen; the opponent's fold /
call / raise counts per betting context; its preflop range r_o (share of hands it did not
fold preflop); its aggression per street (raises against calls where it could raise); the
average pot; showdown counts. :meth:`OpponentModel.profile` turns the counts into an
:class:`OpponentProfile`, shrunk towards the generic :data:`PRIOR` while evidence is thin.

A betting *context* is ``(round, position, facing, level)``: the opponent's position (0 is
the big blind, first to act after the flop), whether it had a bet to call, and the raises
so far in the round, capped at 2.

>>> from acpcbot.game import bundled_game
>>> from acpcbot.protocol.matchstate import decode_match_state
>>> model = OpponentModel()
>>> game = bundled_game()
>>> state = decode_match_state("MATCHSTATE:0:0:rc/r:AsKd|/Ah7c2d", game)[0]
>>> events = model.observe(state, game)
>>> [(e.round, e.position, e.facing, e.level, e.action.value) for e in events]
[(0, 1, True, 0, 'r')]
>>> model.profile().response(0, 1, True, 0)[2] > PRIOR.response(0, 1, True, 0)[2]
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from acpcbot.actions import ActionType
from acpcbot.cards import Card
from acpcbot.game import Game
from acpcbot.player import HandResult
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import HandState
from agents.plicas.memory import Memory

ROUNDS = 4
LEVELS = 3
ACTIONS = (ActionType.FOLD, ActionType.CALL, ActionType.RAISE)
FloatArray = npt.NDArray[np.float64]


def context_level(num_raises: int) -> int:
    return min(num_raises, LEVELS - 1)


@dataclass(frozen=True, slots=True)
class OpponentAction:
    """One action of the opponent with the context it was taken in."""

    round: int
    position: int
    facing: bool
    level: int
    action: ActionType
    board: tuple[Card, ...]
    """Board cards visible when it acted."""


@dataclass(frozen=True, slots=True, eq=False)
class OpponentProfile:
    """The opponent as the units use it: smoothed frequencies and summary numbers."""

    frequencies: FloatArray
    """``[round, position, facing, level, action]``: probability of fold / call / raise."""
    evidence: FloatArray
    """``[round, position, facing, level]``: decisions observed in each context."""
    range: float
    """r_o: share of hands the opponent does not fold preflop."""
    aggression: FloatArray
    """Per round: raises / (raises + calls) over decisions where raising was legal."""
    average_pot: float
    """Average pot in chips when the flop came, over hands that reached it: the stake the
    preflop ranges contest (later bets are made knowing the board)."""
    hands: int

    def response(
        self, round_: int, position: int, facing: bool, level: int
    ) -> tuple[float, float, float]:
        """(fold, call, raise) of the opponent at ``position`` in a context."""
        f, c, r = self.frequencies[round_, position, int(facing), context_level(level)]
        return float(f), float(c), float(r)

    def fold_to_bet(self, round_: int, position: int, level: int) -> float:
        """Probability it folds when we bet or raise to ``level`` raises this round."""
        return self.response(round_, position, True, level)[0]

    def bets_when_checked_to(self, round_: int, position: int) -> float:
        return self.response(round_, position, False, 0)[2]

    @property
    def postflop_aggression(self) -> float:
        return float(np.mean(self.aggression[1:]))


def _prior_frequencies() -> FloatArray:
    freq = np.zeros((ROUNDS, 2, 2, LEVELS, 3))
    # A vague, moderately sound opponent, the same in both positions: where the learned
    # model starts (the static PLICAS reads the frozen one of :mod:`.generic` instead).
    freq[0, :, 1] = [(0.2, 0.3, 0.5), (0.3, 0.45, 0.25), (0.15, 0.7, 0.15)]
    freq[0, :, 0] = [(0.0, 0.6, 0.4)] * LEVELS
    for r in range(1, ROUNDS):
        freq[r, :, 1] = [(0.3, 0.5, 0.2), (0.3, 0.5, 0.2), (0.25, 0.6, 0.15)]
        freq[r, :, 0] = [(0.0, 0.55, 0.45)] * LEVELS
    return freq


PRIOR = OpponentProfile(
    frequencies=_prior_frequencies(),
    evidence=np.zeros((ROUNDS, 2, 2, LEVELS)),
    range=0.75,
    aggression=np.array([0.4, 0.35, 0.35, 0.35]),
    average_pot=40.0,
    hands=0,
)
PRIOR_STRENGTH = 8.0
"""Pseudo-observations of :data:`PRIOR` added to every context."""


class OpponentModel:
    """Counts of one opponent's play over one match (a fresh one per duplicate half)."""

    TOTALS: ClassVar[tuple[str, ...]] = (
        "counts",
        "raise_chances",
        "hands_seen",
        "preflop_decisions",
        "preflop_folds",
        "flop_hands",
        "flop_pot_total",
        "showdowns",
    )
    """The attributes that sum the match so far (the rest track the hand in progress)."""

    def __init__(self, memory: Memory | None = None, prior: OpponentProfile | None = None) -> None:
        self.prior = PRIOR if prior is None else prior
        """The opponent it assumes until it has seen this one (:data:`PRIOR`, or a fitted
        one: :mod:`agents.plicas.generic`)."""
        self.memory = Memory() if memory is None else memory
        """The totals are stored through it (times its scale), :attr:`hands_seen` aside."""
        self.memory.register(self)
        self.counts = np.zeros((ROUNDS, 2, 2, LEVELS, 3))
        self.raise_chances = np.zeros((ROUNDS, 2))
        """Per round: [raises, calls] where raising was legal."""
        self.hands_seen = 0
        self.preflop_decisions = 0.0
        """Hands in which the opponent acted preflop."""
        self.preflop_folds = 0.0
        self.flop_hands = 0.0
        self.flop_pot_total = 0.0
        self.showdowns = 0.0
        self.learning = True
        """Whether what it sees counts (off: a frozen PLICAS reads the opponent's actions of
        each hand and learns nothing from them)."""
        self._hand: HandState | None = None
        self._hand_number = -1
        self._done = 0
        self._acted_preflop = False
        self._flop_pot: int | None = None

    def merge(self, other: OpponentModel) -> None:
        """Add ``other``'s match totals to this model's (e.g. a duplicate match's halves)."""
        for name in self.TOTALS:
            setattr(self, name, getattr(self, name) + other.total(name) * self.memory.scale)

    def total(self, name: str) -> Any:
        """One of the :attr:`TOTALS` as the observations it is worth now (the hands seen
        as they are)."""
        value = getattr(self, name)
        return value if name == "hands_seen" else value / self.memory.scale

    def rescale(self, factor: float) -> None:
        """Multiply every stored total by ``factor`` (the memory folds its scale in)."""
        for name in self.TOTALS:
            if name != "hands_seen":
                setattr(self, name, getattr(self, name) * factor)

    # -- feeding ------------------------------------------------------------------------

    def observe(self, state: MatchState, game: Game) -> list[OpponentAction]:
        """Take in a state; returns the opponent's actions not seen before, in order."""
        if state.hand_number != self._hand_number or self._hand is None:
            self._hand = HandState(game, state.hand_number)
            self._hand_number = state.hand_number
            self._done = 0
            self._acted_preflop = False
            self._flop_pot = None
        opponent = 1 - state.position
        board = state.board_cards
        events: list[OpponentAction] = []
        flat = [a for actions in state.betting for a in actions]
        hand = self._hand
        for action in flat[self._done :]:
            actor = hand.current_player
            if actor == opponent:
                event = OpponentAction(
                    round=hand.round,
                    position=opponent,
                    facing=hand.amount_to_call() > 0,
                    level=context_level(hand.num_raises),
                    action=action.type,
                    board=board[: hand.game.board_total(hand.round)],
                )
                if self.learning:
                    self._count(event, hand.can_raise())
                events.append(event)
            hand.apply(action)
            if hand.round == 1 and self._flop_pot is None:
                self._flop_pot = hand.pot
        self._done = len(flat)
        return events

    def _count(self, event: OpponentAction, could_raise: bool) -> None:
        kind = ACTIONS.index(event.action)
        weight = self.memory.weight
        self.counts[event.round, event.position, int(event.facing), event.level, kind] += weight
        if could_raise and event.action is not ActionType.FOLD:
            self.raise_chances[event.round, int(event.action is ActionType.CALL)] += weight
        if event.round == 0:
            self._acted_preflop = True
            if event.action is ActionType.FOLD:
                self.preflop_folds += weight

    def end_hand(self, result: HandResult, game: Game) -> list[OpponentAction]:
        """A hand finished; returns the opponent's actions :meth:`observe` had not seen."""
        events = self.observe(result.state, game)
        betting = self._hand
        assert betting is not None
        self._hand = None
        if not self.learning:
            return events
        self.hands_seen += 1
        weight = self.memory.weight
        if self._acted_preflop:
            self.preflop_decisions += weight
        if self._flop_pot is not None:
            self.flop_hands += weight
            self.flop_pot_total += weight * self._flop_pot
        if betting.finished and not any(betting.folded):
            self.showdowns += weight
        return events

    # -- reading ------------------------------------------------------------------------

    @property
    def remembered_hands(self) -> float:
        """The hands it remembers, each weighted as its observations are (as many as it
        has seen until they start to fade, fewer after a change of the opponent)."""
        return self.memory.hands

    @property
    def range(self) -> float:
        """r_o, shrunk towards the prior for the first hands."""
        k = PRIOR_STRENGTH
        decisions = self.total("preflop_decisions")
        kept = decisions - self.total("preflop_folds")
        return float((kept + k * self.prior.range) / (decisions + k))

    def profile(self) -> OpponentProfile:
        """The opponent's smoothed frequencies and summaries."""
        k = PRIOR_STRENGTH
        counts = self.total("counts")
        evidence = counts.sum(axis=-1)
        prior = self.prior
        freq = (counts + k * prior.frequencies) / (evidence + k)[..., None]
        chances = self.total("raise_chances")
        raises, calls = chances[:, 0], chances[:, 1]
        aggression = (raises + k * prior.aggression) / (raises + calls + k)
        pot_weight = 4.0
        average_pot = (self.total("flop_pot_total") + pot_weight * prior.average_pot) / (
            self.total("flop_hands") + pot_weight
        )
        return OpponentProfile(
            frequencies=freq,
            evidence=evidence,
            range=self.range,
            aggression=aggression,
            average_pot=average_pot,
            hands=self.hands_seen,
        )
