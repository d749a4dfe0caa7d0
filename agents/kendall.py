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

**Known strategy.** The styles learn nothing, so their strategy for every holding is known
(:meth:`KendallPlayer.strategy_table`): exact before the flop and on the river. On the flop
and the turn a style plays on a Monte-Carlo estimate of its strength (:data:`STRENGTH_TRIALS`
showdowns drawn from its own random stream), so what it plays with a holding is a mixture
over that estimate's noise; the table gives that mixture, the chance of the estimate passing
each threshold taken from the normal approximation of the estimate's exact distribution (its
mean and variance from every holding's exact win and tie probabilities against a random hand,
:func:`acpcbot.handeval.holdings.holdings_against_random`). Holdings far from a threshold are
exact; near one the approximation is within about a percent. Asking draws nothing from the
agent's random stream.

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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from acpcbot.actions import Action, ActionType
from acpcbot.cards import Card
from acpcbot.game import Game
from acpcbot.handeval.combos import COMBO_CLASS, NUM_CLASSES, class_of
from acpcbot.player import BettingView, HandResult, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import replay
from agents.base import Agent
from agents.common.tables import class_top_share
from agents.known import StrategyTable, dead_holdings, legal_rows
from agents.triple import Triple

FloatArray = npt.NDArray[np.float64]


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


def _row(triple: Triple) -> FloatArray:
    return np.array([triple.fold, triple.call, triple.raise_])


def chance_at_least(threshold: float, win: FloatArray, tie: FloatArray, trials: int) -> FloatArray:
    """The chance that a strength estimated from ``trials`` showdowns (each won with
    probability ``win``, tied with ``tie``; a tie counts half) is at least ``threshold``:
    the normal approximation, with a continuity correction, of the exact distribution of
    ``2 × wins + ties``.

    >>> p = chance_at_least(0.5, np.array([0.5, 0.9, 0.1]), np.zeros(3), 2000)
    >>> [round(float(x), 3) for x in p]
    [0.504, 1.0, 0.0]
    """
    steps = np.arange(2 * trials + 1)
    # The least 2W + T whose strength, computed as the agent computes it, passes.
    passing = np.flatnonzero((steps / 2) / trials >= threshold)
    least = float(passing[0]) if len(passing) else math.inf
    mean = trials * (2 * win + tie)
    variance = np.maximum(trials * (4 * win + tie - (2 * win + tie) ** 2), 0.0)
    out = np.where(mean >= least, 1.0, 0.0)
    spread = variance > 0
    z = (least - 0.5 - mean[spread]) / np.sqrt(variance[spread])
    out[spread] = [0.5 * math.erfc(value / math.sqrt(2.0)) for value in z.tolist()]
    return out


class KendallPlayer(Agent):
    """A fixed-style player; subclasses name the style."""

    STYLE: ClassVar[Style]
    fixed_strategy = True

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._passing_cache: tuple[tuple[Card, ...], tuple[FloatArray, FloatArray]] | None = None

    @classmethod
    def unsupported(cls, game: Game) -> str | None:
        holdem = game.num_hole_cards == 2 and game.num_rounds == 4
        if not game.is_limit or game.num_players != 2 or not holdem:
            # its preflop table and strength readings are hold'em's
            return f"{cls.name} plays heads-up limit hold'em only"
        return None

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        game = info.game

        self.top_share = class_top_share()
        # Compile the equity kernels the styles' decisions reach, before the match.
        from agents.common.rehearsal import rehearse_once

        rehearse_once("the field's equity kernels", lambda: [TightAggressive(0)], game)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        # numba: compiled and loaded when first used
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
        return self.sample(triple, betting)

    def strategy_table(self, betting: BettingView, board: Sequence[Card]) -> StrategyTable:
        style = self.STYLE
        facing = betting.amount_to_call() > 0
        can_raise = betting.can_raise()
        pot = betting.pot
        if betting.round == 0:
            by_class = np.array(
                [
                    _row(preflop_style_triple(style, float(share), facing, can_raise, pot))
                    for share in self.top_share[:NUM_CLASSES]
                ]
            )
            table = by_class[COMBO_CLASS]
        else:
            low, high = self._passing(tuple(board))
            may_raise = can_raise and pot <= style.pot_limit
            strong = _row(style_triple(style, 1.0, facing, can_raise, pot))
            middle = _row(style_triple(style, style.fold_below, facing, can_raise, pot))
            weak = _row(style_triple(style, 0.0, facing, can_raise, pot))
            high = high if may_raise else np.zeros_like(high)
            table = (
                high[:, None] * strong
                + (low - high)[:, None] * middle
                + (1.0 - low)[:, None] * weak
            )
        table = legal_rows(table, betting)
        table[dead_holdings(self.game, board)] = 0.0
        return table

    def _passing(self, board: tuple[Card, ...]) -> tuple[FloatArray, FloatArray]:
        """Per holding, the chance its strength on ``board`` passes ``fold_below`` and
        ``raise_above`` (kept for the last board asked about)."""
        cached = self._passing_cache
        if cached is not None and cached[0] == board:
            return cached[1]
        # numba: compiled and loaded when first used
        from acpcbot.handeval.holdings import holdings_against_random

        wins, ties, played = holdings_against_random(board)
        live = played > 0
        safe = np.where(live, played, 1.0)
        win, tie = wins / safe, ties / safe
        low, high = self.STYLE.fold_below, self.STYLE.raise_above
        if len(board) == 5:  # enumerated exactly by the agent too
            strength = (wins + ties / 2) / safe
            passing = (np.where(strength >= low, 1.0, 0.0), np.where(strength >= high, 1.0, 0.0))
        else:
            passing = (
                chance_at_least(low, win, tie, STRENGTH_TRIALS),
                chance_at_least(high, win, tie, STRENGTH_TRIALS),
            )
        self._passing_cache = (board, passing)
        return passing


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

    @classmethod
    def unsupported(cls, game: Game) -> str | None:
        if game.num_hole_cards != 2 or game.num_players != 2 or not game.is_limit:
            return f"{cls.name} plays heads-up limit hold'em only"
        return None

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        self.values = np.full(NUM_CLASSES, START_VALUE)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        value = float(self.values[class_of(*state.own_cards)])
        return self.sample(learner_triple(value, betting.pot, players=2), betting)

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
