"""Noticing that the opponent has changed: a CUSUM test of a recent view of its play against
the long view PLICAS has learned.

Two views of the opponent are kept side by side, each as counts per context:

* **what it does** — its fold / call / raise at each *local* history (the round, who acts,
  the pot and this round's betting): what every hand shows, whatever the cards;
* **with what** — at a showdown, the coarse bucket of the hand it showed (its strength in
  each round, :mod:`agents.plicas.holdingbuckets`) behind each of its actions, per coarse
  context and action: what the reshuffling opponent of ``reshuffler`` changes while every
  frequency stays the same.

The *long* view fades with PLICAS's :class:`~agents.plicas.memory.Memory` (it is one of the
units the memory discounts); the *recent* view fades within :data:`RECENT` hands and is
smoothed towards the long one by :data:`SMOOTHING` pseudo-observations, so that while
nothing changes the two agree and only noise separates them. Each observation scores the
log-likelihood ratio of the recent view against the long one, both asked *before* they
learn it: its expectation is slightly negative while the opponent stays the same (the
recent view is the noisier) and positive once it has changed (the recent view has seen the
new play). A page of Page (1954): the statistic ``S = max(0, S + score)``, summed hand by
hand, crosses :data:`THRESHOLD` only after a run of hands the long view explains worse than
the recent one. Then the memory discounts everything learned so far
(:meth:`Memory.discount`), the statistic restarts, and the detector counts a change.

>>> from acpcbot.game import bundled_game
>>> from acpcbot.rules import CALL, RAISE, HandState
>>> from agents.plicas.memory import Memory
>>> memory = Memory(hands=10_000)
>>> detector = ChangeDetector(memory)
>>> def hands(kind, count):                # the small blind (position 1) acts first
...     for _ in range(count):
...         hand = HandState(bundled_game())
...         detector.saw(hand, kind)
...         if detector.end_hand():
...             return True
...     return False
>>> hands(CALL.type, 2000)                 # always calls: nothing changes
False
>>> hands(RAISE.type, 50), memory.changes  # then always raises
(True, 1)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from acpcbot.actions import ActionType
from acpcbot.cards import Card
from acpcbot.player import BettingView
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import HandState
from agents.plicas.holdingbuckets import COARSE, coarse_map, fine_bucket
from agents.plicas.memory import Memory

__all__ = ["RECENT", "SMOOTHING", "THRESHOLD", "ChangeDetector"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

RECENT = 300
"""Hands the recent view remembers (its counts fade by ``1 - 1/RECENT`` a hand)."""
SMOOTHING = 10.0
"""Pseudo-observations of the long view in the recent one."""
PRIOR = 1.0
"""Pseudo-observations of a uniform guess in the long view."""
THRESHOLD = 30.0
"""The statistic (in nats) at which a change is declared."""
_COLUMN = {ActionType.FOLD: 0, ActionType.CALL: 1, ActionType.RAISE: 2}
_BOARD_CARDS = (0, 3, 4, 5)
"""Board cards seen in each round of hold'em (the only game PLICAS plays)."""
_FOLD_AT = 1e12


class _View:
    """Counts per context, each an array, stored times a running scale."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.counts: dict[object, FloatArray] = {}

    def row(self, key: object) -> FloatArray:
        found = self.counts.get(key)
        if found is None:
            found = self.counts[key] = np.zeros(self.width)
        return found

    def rescale(self, factor: float) -> None:
        for key, counts in self.counts.items():
            self.counts[key] = counts * factor


class ChangeDetector:
    """The CUSUM test of the module's docstring, on the opponent's actions and showdowns."""

    def __init__(self, memory: Memory, threshold: float = THRESHOLD, recent: int = RECENT) -> None:
        self.memory = memory
        self.threshold = threshold
        self.long = (_View(3), _View(COARSE))
        self.recent = (_View(3), _View(COARSE))
        for view in self.long:
            memory.register(view)
        self._recent_decay = 1.0 - 1.0 / recent
        self._recent_scale = 1.0
        self.statistic = 0.0
        """The CUSUM statistic (nats)."""
        self.peak = 0.0
        """The largest it has been."""
        self.changes: list[int] = []
        """The hands (counted from 0) at whose end a change was declared."""
        self.hands = 0
        self._score = 0.0
        self._decisions: list[tuple[object, int]] = []
        self._hand: HandState | None = None
        self._hand_number = -1
        self._applied = 0

    # -- what it sees -------------------------------------------------------------------

    def follow(self, state: MatchState, betting: BettingView) -> None:
        """Bring the hand up to ``state`` (a new hand starts it over): each new action of
        the opponent is seen."""
        if state.hand_number != self._hand_number or self._hand is None:
            self._hand_number = state.hand_number
            self._hand = HandState(betting.game, state.hand_number)
            self._applied = 0
        hand = self._hand
        actions = [a for round_actions in betting.actions for a in round_actions]
        for action in actions[self._applied :]:
            if hand.current_player != state.position:
                self.saw(hand, action.type)
            hand.apply(action)
        self._applied = len(actions)

    def saw(self, hand: HandState, kind: ActionType) -> None:
        """The opponent took ``kind`` at ``hand`` (before the action)."""
        here = hand.betting_text().rsplit("/", 1)[-1]
        key = (hand.round, hand.current_player, hand.pot, here)
        legal = np.array([hand.can_fold(), True, hand.can_raise()], dtype=np.float64)
        column = _COLUMN[kind]
        self._observe(0, key, column, legal)
        facing = hand.amount_to_call() > 0
        context = (hand.round, hand.current_player, facing, min(hand.num_raises, 3), column)
        self._decisions.append((context, hand.round))

    def _showed(self, holding: int, board: Sequence[Card]) -> None:
        """At a showdown: the coarse bucket of the hand it showed behind each of its
        actions, in that action's round."""
        every = np.ones(COARSE)
        for context, round_ in self._decisions:
            fine = fine_bucket(board[: _BOARD_CARDS[round_]], holding)
            if fine >= 0:
                self._observe(1, context, int(coarse_map(round_)[fine]), every)

    def _observe(self, which: int, key: object, seen: int, legal: FloatArray) -> None:
        long_counts = self.long[which].row(key) / self.memory.scale
        recent_counts = self.recent[which].row(key) / self._recent_scale
        prior = legal / legal.sum()
        long_p = (long_counts + PRIOR * prior) / (long_counts.sum() + PRIOR)
        recent_p = (recent_counts + SMOOTHING * long_p) / (recent_counts.sum() + SMOOTHING)
        self._score += math.log(recent_p[seen]) - math.log(long_p[seen])
        self.long[which].row(key)[seen] += self.memory.weight
        self.recent[which].row(key)[seen] += self._recent_scale

    # -- hand by hand -------------------------------------------------------------------

    def end_hand(self, shown: int | None = None, board: Sequence[Card] = ()) -> bool:
        """The hand is over (after the memory's own :meth:`Memory.next_hand`), the opponent
        showing holding ``shown`` (or nothing) with ``board``: whether the statistic crossed
        the threshold, a change declared and the memory discounted."""
        if shown is not None:
            self._showed(shown, board)
        self._decisions = []
        self._hand = None
        self.statistic = max(0.0, self.statistic + self._score)
        self.peak = max(self.peak, self.statistic)
        self._score = 0.0
        self._recent_scale /= self._recent_decay
        if self._recent_scale > _FOLD_AT:
            for view in self.recent:
                view.rescale(1.0 / self._recent_scale)
            self._recent_scale = 1.0
        changed = self.statistic > self.threshold
        if changed:
            self.changes.append(self.hands)
            self.statistic = 0.0
            self.memory.discount()
        self.hands += 1
        return changed
