"""Kendall & Willdig's four playing styles as field opponents (seed 001, after Barone & While).

*Loose* players overestimate their hands and play many of them, *tight* ones play few;
*aggressive* players bet and raise often and drive the pot up, *passive* ones rarely raise
and let others drive it. Each style is a small rule set over the hand's strength, as in the
paper's tables ("fold below X, call up to Y, raise Z if the pot is at most W, else call"):

* preflop, a hand-selection threshold: the style plays the top ``play_share`` of starting
  hands (folding the rest to a bet, checking when free) and raises with the top
  ``raise_share``;
* after the flop, the hand strength (equity against a random hand, from the engine) against
  thresholds: fold
  to a bet below ``fold_below``, bet or raise above ``raise_above`` with probability
  ``raise_frequency``, otherwise call; aggressive styles also bet weak hands when checked to
  with probability ``bluff_frequency``;
* no raise once the pot exceeds ``pot_limit`` chips (the tables' "if pot <= W").

Every random choice comes from the agent's seeded RNG.

:class:`KendallLearner` is the paper's adaptive player: a learning value per starting hand,
moved by the hands it wins and loses, decides whether to fold, call or raise
(:func:`learner_triple`).

>>> style_triple(TIGHT_PASSIVE, strength=0.3, facing_bet=True, can_raise=True, pot=40)
Triple(fold=1.0, call=0.0, raise_=0.0)
>>> style_triple(LOOSE_AGGRESSIVE, strength=0.8, facing_bet=True, can_raise=True, pot=40)
Triple(fold=0.0, call=0.09999999999999998, raise_=0.9)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from acpcbot.actions import Action, ActionType
from acpcbot.errors import UnsupportedGameError
from acpcbot.handeval.combos import NUM_CLASSES, class_of
from acpcbot.player import BettingView, HandResult, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import replay
from agents.base import Agent
from agents.triple import Triple


@dataclass(frozen=True, slots=True)
class Style:
    """One of Kendall's playing styles."""

    play_share: float
    """Preflop: share of starting hands played (the best ones)."""
    raise_share: float
    """Preflop: share of starting hands raised."""
    fold_below: float
    """Postflop: a bet is folded below this hand strength."""
    raise_above: float
    """Postflop: bet or raise above this hand strength ..."""
    raise_frequency: float
    """... this often."""
    bluff_frequency: float
    """Postflop: bet a hand below ``fold_below`` this often when nobody has bet."""
    pot_limit: int
    """No raise once the pot holds more chips than this."""


STRENGTH_TRIALS = 2_000
"""Showdowns sampled (or, on the river, enumerated) for the hand strength."""

LOOSE_PASSIVE = Style(0.8, 0.05, 0.3, 0.85, 0.5, 0.0, 120)
LOOSE_AGGRESSIVE = Style(0.8, 0.4, 0.3, 0.6, 0.9, 0.15, 400)
TIGHT_PASSIVE = Style(0.3, 0.05, 0.5, 0.9, 0.5, 0.0, 120)
TIGHT_AGGRESSIVE = Style(0.3, 0.2, 0.5, 0.7, 0.9, 0.1, 400)


def style_triple(
    style: Style, strength: float, facing_bet: bool, can_raise: bool, pot: int
) -> Triple:
    """The style's triple for a hand of postflop ``strength``."""
    may_raise = can_raise and pot <= style.pot_limit
    if strength >= style.raise_above and may_raise:
        return Triple.of(0.0, 1.0 - style.raise_frequency, style.raise_frequency)
    if strength >= style.fold_below:
        return Triple(0.0, 1.0, 0.0)
    if facing_bet:
        return Triple(1.0, 0.0, 0.0)
    bluff = style.bluff_frequency if may_raise else 0.0
    return Triple.of(0.0, 1.0 - bluff, bluff)


def preflop_style_triple(
    style: Style, top_share: float, facing_bet: bool, can_raise: bool, pot: int
) -> Triple:
    """The style's preflop triple for a hand ranked in the top ``top_share`` of hands."""
    if top_share > style.play_share:
        return Triple(1.0, 0.0, 0.0) if facing_bet else Triple(0.0, 1.0, 0.0)
    if top_share <= style.raise_share and can_raise and pot <= style.pot_limit:
        return Triple.of(0.0, 1.0 - style.raise_frequency, style.raise_frequency)
    return Triple(0.0, 1.0, 0.0)


class KendallPlayer(Agent):
    """A fixed-style player; subclasses name the style."""

    STYLE: ClassVar[Style]

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        game = info.game
        holdem = game.num_hole_cards == 2 and game.num_rounds == 4
        if not game.is_limit or game.num_players != 2 or not holdem:
            # its preflop table and strength readings are hold'em's
            raise UnsupportedGameError(f"{self.name} plays heads-up limit hold'em only")
        from agents.common.tables import class_top_share

        self.top_share = class_top_share()
        # Compile the equity kernels the styles' decisions reach, before the match.
        from agents.common.rehearsal import rehearse_once

        rehearse_once("the field's equity kernels", lambda: [TightAggressive(0)], game)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        from acpcbot.handeval.equity import hand_vs_range

        facing = betting.amount_to_call() > 0
        hole = state.own_cards
        if betting.round == 0:
            share = float(self.top_share[class_of(*hole)])
            triple = preflop_style_triple(
                self.STYLE, share, facing, betting.can_raise(), betting.pot
            )
        else:
            seed = self.rng.getrandbits(31)
            equity = hand_vs_range(
                hole,
                None,
                state.board_cards,
                trials=STRENGTH_TRIALS,
                seed=seed,
                max_exact=STRENGTH_TRIALS,
            )
            strength = equity.equity[0]
            triple = style_triple(self.STYLE, strength, facing, betting.can_raise(), betting.pot)
        return triple.sample(betting, self.rng)


class LoosePassive(KendallPlayer):
    """Plays most hands, rarely raises."""

    name = "loose-passive"
    STYLE = LOOSE_PASSIVE


class LooseAggressive(KendallPlayer):
    """Plays most hands, raises often."""

    name = "loose-aggressive"
    STYLE = LOOSE_AGGRESSIVE


class TightPassive(KendallPlayer):
    """Plays few hands, rarely raises."""

    name = "tight-passive"
    STYLE = TIGHT_PASSIVE


class TightAggressive(KendallPlayer):
    """Plays few hands, raises often."""

    name = "tight-aggressive"
    STYLE = TIGHT_AGGRESSIVE


START_VALUE = 10.0
"""Every starting hand's learning value at the start of a match: "every hand is assumed to be
good until we find out otherwise"."""
STEP = 0.1
FOLD_BELOW = 6.0
RAISE_FROM = 8.0
RAISE_ACTION = 10.0
"""``ac`` from which a hand of learning value 8 or more raises (else it calls)."""


def learner_triple(value: float, pot: float, players: int = 2) -> Triple:
    """Kendall & Willdig's rule for a hand of learning value ``value`` (``pot`` in chips,
    ``players`` still in the hand): fold below 6, call below 8, else ``ac = (lv /
    log10(pot)) / (np / lv)`` and raise when it reaches 10.

    >>> learner_triple(5.9, 30), learner_triple(7.0, 30)
    (Triple(fold=1.0, call=0.0, raise_=0.0), Triple(fold=0.0, call=1.0, raise_=0.0))
    >>> learner_triple(8.0, 50, players=5)  # the paper's figure 1: ac = 7.53, call
    Triple(fold=0.0, call=1.0, raise_=0.0)
    >>> learner_triple(8.0, 50, players=3)  # figure 2: ac = 12.57, raise
    Triple(fold=0.0, call=0.0, raise_=1.0)
    """
    if value < FOLD_BELOW:
        return Triple(1.0, 0.0, 0.0)
    if value < RAISE_FROM:
        return Triple(0.0, 1.0, 0.0)
    scale = math.log10(pot) if pot > 1 else 0.0
    if scale <= 0 or (value / scale) / (players / value) >= RAISE_ACTION:
        return Triple(0.0, 0.0, 1.0)
    return Triple(0.0, 1.0, 0.0)


class KendallLearner(Agent):
    """Kendall & Willdig's evolving player: a learning value per starting-hand class.

    Each of the 169 classes starts at :data:`START_VALUE` (so at first the player raises
    everything) and moves by :data:`STEP` after each hand it was dealt: up when it won at a
    showdown (the paper's "wins a game, with other players either calling or raising": the
    opponent stayed in), down when it lost a showdown or folded after calling (or checking)
    or raising, never above 10 or below 0. The value drives every
    decision of the hand through :func:`learner_triple`. The values live for one match
    (:meth:`begin_match` starts them over), so each duplicate half learns afresh.
    """

    name = "kendall-learner"
    decides_instantly = True

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.values = np.full(NUM_CLASSES, START_VALUE)
        self.last_triple: Triple | None = None
        """The legal triple of the last decision."""

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        game = info.game
        if game.num_hole_cards != 2 or game.num_players != 2 or not game.is_limit:
            raise UnsupportedGameError(f"{self.name} plays heads-up limit hold'em only")
        self.values = np.full(NUM_CLASSES, START_VALUE)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        value = float(self.values[class_of(*state.own_cards)])
        triple = learner_triple(value, betting.pot, players=2)
        self.last_triple = triple.legal(betting)
        return triple.sample(betting, self.rng)

    def end_hand(self, result: HandResult) -> None:
        state = result.state
        me = state.position
        hand = replay(self.game, state.betting, state.hand_number)
        # "wins a game, with other players either calling or raising": the opponent stayed
        # in to the showdown (a pot it folded was won by no merit of the hand).
        called = any(
            action.type is not ActionType.FOLD and actor == me
            for actions, actors in zip(hand.actions, hand.acting, strict=True)
            for action, actor in zip(actions, actors, strict=True)
        )
        k = class_of(*state.own_cards)
        if hand.is_showdown and result.value > 0:
            self.values[k] = min(START_VALUE, self.values[k] + STEP)
        elif (hand.folded[me] and called) or (hand.is_showdown and result.value < 0):
            self.values[k] = max(0.0, self.values[k] - STEP)
