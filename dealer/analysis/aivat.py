"""AIVAT: a player's winnings with the luck of the cards and of known strategies taken out.

AIVAT (Burch, Schmid, Moravčík, Morrill and Bowling, AAAI 2018) corrects every hand of a log
by events whose probabilities are known. Our dealer's logs show both players' hole cards,
so after the fact every history ``h`` of a hand is known. With a value function ``v(h)``
for the player (chips), fixed in advance, each event adds a correction:

* a **chance** event (the deal, each round's board cards) with outcome ``o``:
  ``v(h·o) − Σ_o' P(o' | h) v(h·o')``;
* an **action** ``a`` of a player whose probabilities ``σ`` at that decision are known
  (recorded in the decisions file beside the log, :mod:`dealer.referee.decisionlog`):
  ``v(h·a) − Σ_a' σ(a') v(h·a')``; other actions get none.

The estimate of a hand is its result minus the corrections. Every correction has mean zero
given what came before it, whatever ``v`` is, so the estimate is unbiased; a ``v`` close to
the truth makes its variance small.

**The value function** (fixed before any match it is used on, never fitted to the results
it corrects): the *check-down value* — what the player would win if nobody bet again,
``eq × pot − spent``: its showdown equity ``eq`` with both players' hole cards known and the
board visible so far, times the chips in the pot, minus its own chips in it; at a fold, the
hand's result — plus, in heads-up limit hold'em, a *bets-to-come* term
(:class:`BetValue`): a stronger hand wins more of the bets still to come, by an amount that
depends on the edge, the pot and the betting so far, with coefficients fitted once by least
squares on matches at seeds apart (``scripts/fit_aivat_value.py``; the table is
:mod:`dealer.analysis.aivatvalue`). Both parts are zero-sum: the estimate of one player is minus
the other's. After the last round's board ``eq`` is the showdown itself, so the value of
a finished hand is its result. Because the equity averaged over the next board cards is
the equity now, a round's chance correction of every part linear in ``eq`` is exact:
``pot × (eq after the cards − eq before)`` for the check-down value, and the deal's is
``pot × (eq − ½)`` (the deal is symmetric); the term's parts not linear in ``eq`` are left
out of the chance corrections (each correction may use its own fixed function). The
equities are exact by enumeration after the flop; before it, in hold'em (1,712,304
boards), an unbiased Monte-Carlo estimate of :data:`PREFLOP_SAMPLES` boards drawn from a
stream seeded by the hand number and the hole cards alone (never the board), which keeps
every correction's mean zero; in a small game such as Leduc it is exact too.

**Lookahead.** When a player's strategy is known not only at its actual decisions but
anywhere (an agent with a fixed strategy, asked through an *oracle*), the value of a history
at which it acts — once the round has begun — is the value after its next action,
averaged over its strategy with its own cards: what it folds to a bet is then part of the
bet's value. Still a fixed function of the history, so still unbiased; on ``plicas`` against
``dpp`` it narrows the CI by a few more percent.

**Decision by decision.** Because the value of a finished hand is its result, the result
is the value after the deal plus the change of the value at each later event, and the
estimate (the result minus the corrections) telescopes into one term per event: at an
action with known probabilities ``σ``, ``Σ_a σ(a) v(h·a) − v(h)`` — the *advantage* of that
decision's policy under ``v`` (its correction removes the luck of the action drawn); at an
action without, the change ``v(h·a) − v(h)`` itself; at a round's cards, the change of the
value less its correction (zero for the check-down value, whose equity is a martingale;
the bets-to-come term's parts not linear in the equity are what is left); at the deal, the
value after it less its correction (``½·pot − spent`` and the term's non-linear parts:
opposite in the two seats of a duplicate pair). :func:`correction_parts` hands each term to
``steps`` as it walks the hand (:class:`Step`); where the value after a decision looks ahead
at a known strategy, the decision's term is handed on as its own (without the looking
ahead) and, at each history after it, what the looking ahead adds: the advantage of the
next player's known strategy there, weighted by the chance of getting there
(:attr:`Step.REPLY`), so that both players' decisions are measured alike.
:mod:`dealer.analysis.aivatsplit` groups the terms by betting context.

A duplicate pair's two halves are corrected hand by hand and paired as usual; the
confidence interval is over the pairs. The private-card ("imaginary observation") part of
the paper's AIVAT is not done: duplicate seating already cancels most hole-card luck.
"""

from __future__ import annotations

import contextlib
import enum
import math
import time
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from acpcbot.actions import CALL, FOLD, RAISE, Action, ActionType
from acpcbot.cards import Card
from acpcbot.errors import AcpcError
from acpcbot.game import Game
from acpcbot.logreader import open_log
from acpcbot.player import BettingView
from acpcbot.protocol.logfile import StateRecord
from acpcbot.rules import HandState
from dealer.analysis.aivatvalue import COEFFICIENTS
from dealer.analysis.playedlog import PlayedLog
from dealer.analysis.stats import Estimate, estimate, pair_sorted
from dealer.referee.decisionlog import (
    DecisionFileError,
    Probabilities,
    decisions_path,
    read_decisions,
)

__all__ = [
    "BET_FEATURES",
    "PREFLOP_SAMPLES",
    "AivatError",
    "AivatHalf",
    "AivatPair",
    "BetValue",
    "CheckDownValue",
    "LogCorrector",
    "Oracle",
    "Step",
    "StepSink",
    "aivat_half",
    "aivat_pair",
    "correction_parts",
    "hands_in_step",
    "pair_of",
    "parts_of_log",
]

PREFLOP_SAMPLES = 2000
"""Boards drawn for a hold'em preflop equity (its noise, SD ≤ 0.011, adds at most 0.45 chips
of SD to a hand whose pot grows by 40 chips before the flop: nothing beside a hand's own
spread of tens of chips)."""
MAX_ENUMERATED_BOARDS = 20_000
"""Largest number of boards a game other than hold'em may have left to enumerate."""

_ACTIONS = (FOLD, CALL, RAISE)
_COLUMN = {ActionType.FOLD: 0, ActionType.CALL: 1, ActionType.RAISE: 2}

FloatArray = npt.NDArray[np.float64]

BET_FEATURES = 6
"""Bets-to-come features of a history (see :meth:`BetValue.features`)."""
RAISES_SEEN = 4
"""Raises in a round told apart by the betting context (more count as this many)."""


@dataclass(frozen=True, eq=False)
class BetValue:
    """The value function's term for the bets still to come: the check-down value knows
    the pot as it is, but a stronger hand wins more bets than there are now. The term is
    written for the player to act, with its edge ``e`` (its equity − ½): in each betting
    context (round, raises so far in it) it is ``Σ c_i·f_i`` over the six features
    ``e·P, e·|e|·P, (|e|−¼)·P`` of the pot ``P`` and of the round's bet ``B`` in its place,
    with the context's own coefficients ``c``; for the other player it is the same with
    the sign changed, so the value function stays zero-sum and does not depend on whose
    winnings are estimated. ``coefficients`` has shape (rounds, :data:`RAISES_SEEN` + 1,
    :data:`BET_FEATURES`); it is fitted once, before any match it is used on (on matches
    at seeds apart, by ``scripts/fit_aivat_value.py``), and then fixed.

    >>> BetValue.features(0.25, 40, 10).tolist()
    [10.0, 2.5, 0.0, 2.5, 0.625, 0.0]
    """

    coefficients: FloatArray

    LINEAR = (0, 3)
    """The features linear in the edge (``e·P`` and ``e·B``): the ones whose expectation
    over the next cards a chance correction has exactly."""

    @property
    def size(self) -> int:
        return int(self.coefficients.size)

    @staticmethod
    def features(edge: float, pot: int, bet: int) -> FloatArray:
        """The features of a history whose player to act has equity ``½ + edge``."""
        shape = np.array([edge, edge * abs(edge), abs(edge) - 0.25])
        return np.concatenate((shape * pot, shape * bet))

    def slot(self, hand: HandState) -> int:
        """Where ``hand``'s context's coefficients start in the flat table."""
        _, raises, features = self.coefficients.shape
        seen = min(hand.num_raises, int(raises) - 1)
        return int((hand.round * raises + seen) * features)

    def weights(self) -> FloatArray:
        return np.asarray(self.coefficients, dtype=np.float64).reshape(-1)

    @classmethod
    def shipped(cls) -> BetValue:
        """The table fitted for heads-up limit hold'em (:mod:`dealer.analysis.aivatvalue`)."""

        table = np.array(COEFFICIENTS, dtype=np.float64)
        table.setflags(write=False)
        return cls(table)


class AivatError(AcpcError):
    """AIVAT cannot be computed for these logs (the message says why)."""


class CheckDownValue:
    """The player's showdown equity at every round of a hand (see the module's docstring):
    the one ingredient of the check-down value."""

    def __init__(
        self,
        game: Game,
        preflop_samples: int = PREFLOP_SAMPLES,
        bets: BetValue | bool | None = True,
    ) -> None:
        if not game.is_limit or game.num_players != 2:
            raise AivatError("AIVAT here needs a heads-up limit game")
        self.game = game
        self.samples = preflop_samples
        self.holdem = (game.num_ranks, game.num_suits, game.num_hole_cards) == (
            13,
            4,
            2,
        ) and game.board_total(game.num_rounds - 1) == 5
        if bets is True:  # the shipped table, made for heads-up limit hold'em
            bets = BetValue.shipped() if self.holdem and game.num_rounds == 4 else None
        elif bets is False:
            bets = None
        if bets is not None:
            shape = bets.coefficients.shape
            wanted = (game.num_rounds, RAISES_SEEN + 1, BET_FEATURES)
            if shape != wanted:
                raise AivatError(f"a bets-to-come table of shape {shape}, not {wanted}")
        self.bets: BetValue | None = bets
        """The bets-to-come term (``None``: the check-down value alone)."""
        self.weights = np.concatenate(([1.0], bets.weights() if bets is not None else []))
        """Each part's weight in the value function (see :func:`correction_parts`)."""
        deck = game.deck()
        self._deck = deck
        self._key: tuple[int, tuple[Card, ...], tuple[Card, ...]] | None = None
        self._known: dict[tuple[Card, ...], float] = {}
        if not self.holdem:
            rest = len(deck) - 2 * game.num_hole_cards
            boards = math.comb(rest, game.board_total(game.num_rounds - 1))
            if boards > MAX_ENUMERATED_BOARDS:
                raise AivatError(
                    "AIVAT here needs heads-up limit hold'em or a small game (at most "
                    f"{MAX_ENUMERATED_BOARDS:,} boards to enumerate, not {boards:,})"
                )

    def equities(self, record: StateRecord, position: int) -> list[float]:
        """``position``'s equity in each round the hand reached (its visible board). The
        last hand's equities are kept: a duplicate pair's halves ask for the same hand one
        after the other, with the seats reversed."""
        holes = record.hole_cards
        first, second = sorted((tuple(sorted(holes[0])), tuple(sorted(holes[1]))))
        flipped = tuple(sorted(holes[position])) != first
        key = (record.hand_number, first, second)
        if key != self._key:
            self._key = key
            self._known.clear()
        board = record.board_cards
        game = self.game
        out = []
        for round_ in range(len(record.betting)):
            visible = tuple(board[: game.board_total(round_)])
            equity = self._known.get(visible)
            if equity is None:
                if self.holdem:
                    equity = self._holdem(first, second, visible, record.hand_number)
                else:
                    equity = self._enumerated(first, second, visible)
                self._known[visible] = equity
            out.append(1.0 - equity if flipped else equity)
        return out

    def _holdem(
        self, mine: Sequence[Card], theirs: Sequence[Card], board: Sequence[Card], number: int
    ) -> float:
        # numba: only when AIVAT runs (a dealer with network seats never loads it)
        from acpcbot.handeval.combos import COMBO_CARDS, combo_index
        from acpcbot.handeval.enumeration import board_counts
        from acpcbot.handeval.montecarlo import sample_counts

        holes = np.array([mine, theirs], dtype=np.int64)
        counts = np.zeros((2, 3))
        cards = np.array(board, dtype=np.int64)
        if len(board) == 0:
            # Seeded by the hand and the two hands (in either order, so that both halves of
            # a duplicate pair draw the same boards): never by the board to come.
            a, b = sorted((combo_index(*mine), combo_index(*theirs)))
            seed = (number * 1326 + a) * 1326 + b
            no_weights = np.zeros((0, len(COMBO_CARDS)))
            sample_counts(holes, cards, no_weights, COMBO_CARDS, self.samples, seed, counts)
            total = float(self.samples)
        else:
            total = float(board_counts(holes, cards, counts, 1.0))
        return float((counts[0, 1] + counts[0, 2] / 2) / total)

    def _enumerated(
        self, mine: tuple[Card, ...], theirs: tuple[Card, ...], board: tuple[Card, ...]
    ) -> float:
        board_size = self.game.board_total(self.game.num_rounds - 1)
        return _enumerated_equity(self._deck, board_size, mine, theirs, board)


@lru_cache(maxsize=4096)
def _enumerated_equity(
    deck: tuple[Card, ...],
    board_size: int,
    mine: tuple[Card, ...],
    theirs: tuple[Card, ...],
    board: tuple[Card, ...],
) -> float:
    """:func:`~acpcbot.handeval.equity.enumerated_equity`, kept: a small game has few
    pairs of hands and boards (Leduc's 75), met again hand after hand."""
    from acpcbot.handeval.equity import enumerated_equity  # numba: only when AIVAT runs

    return enumerated_equity(deck, board_size, mine, theirs, board)


Oracle = Callable[[BettingView, Sequence[Card], Sequence[Card]], Probabilities]
"""A fixed strategy, asked anywhere: ``(betting, hole, board) -> (fold, call, raise)``, the
legal probabilities with which the player to act at ``betting``, holding ``hole`` with
``board`` visible, plays (an agent's :meth:`~agents.base.Agent.strategy_at`, given by the
command line)."""


class Step(enum.Enum):
    """What a term of a hand's estimate is for (see the module's *Decision by decision*)."""

    DEAL = "deal"
    """The value after the deal less the deal's correction."""
    CARDS = "cards"
    """A round's board cards: the change of the value less the round's correction."""
    ACTION = "action"
    """An action: its advantage (probabilities known) or the change of the value (not),
    without looking ahead."""
    REPLY = "reply"
    """A history where the value looks ahead, after an action: the advantage of its
    player's known strategy there, times the chance the action led there."""
    END = "end"
    """The result less the value of the finished hand: zero (kept to show it is)."""


StepSink = Callable[[Step, HandState, Action | None, Probabilities | None, float, float], None]
"""Called with each term of a hand's estimate as :func:`correction_parts` walks it:
``(step, hand, action, probabilities, equity, term)`` — the hand before the event (it
changes after the call: read it at once), the action taken and its known probabilities
(``None`` for other steps, or unknown), the player's equity in the round (after a round's
cards, the new one) and the term in chips. The terms of a hand add up to its estimate."""


def correct_hand(  # noqa: PLR0917
    game: Game,
    record: StateRecord,
    position: int,
    decisions: Sequence[Probabilities | None],
    value: CheckDownValue,
    oracles: Sequence[Oracle | None] = (None, None),
) -> tuple[float, int]:
    """The AIVAT estimate of ``position``'s result in the hand ``record`` (chips) and how
    many of its actions had known probabilities (``decisions``, one per action, may be
    empty: no action corrections). ``oracles`` (by position) are the fixed strategies
    known anywhere: the value function looks one action ahead at their decisions (see
    the module's docstring). The betting is replayed under the rules (an illegal action is
    an :class:`~acpcbot.errors.IllegalActionError`)."""
    result, parts, known = correction_parts(game, record, position, decisions, value, oracles)
    return result - float(parts @ value.weights), known


def correction_parts(  # noqa: PLR0917
    game: Game,
    record: StateRecord,
    position: int,
    decisions: Sequence[Probabilities | None],
    value: CheckDownValue,
    oracles: Sequence[Oracle | None] = (None, None),
    steps: StepSink | None = None,
) -> tuple[float, FloatArray, int]:
    """The hand's result, its corrections split by the value function's parts (the
    check-down value's, then each bets-to-come coefficient's: the correction is this
    vector times :attr:`CheckDownValue.weights`, linear in the coefficients, which is how
    ``scripts/fit_aivat_value.py`` fits them) and the actions with known probabilities.
    ``steps``, if given, is handed each term of the estimate as the hand is walked."""
    equity = value.equities(record, position)
    hand = HandState(game, record.hand_number)
    values = _Values(record, position, oracles, value.bets)
    parts = np.zeros(values.size)
    values.add_board_change(parts, hand, equity[0] - 0.5)  # the deal: symmetric
    terms = None if steps is None else _Terms(values, value.weights, steps, hand, equity[0])
    known = 0
    index = 0
    for round_, actions in enumerate(record.betting):
        if round_ > 0:
            # The round's cards: E[equity after] = equity before, so a term linear in the
            # equity has its expectation exactly; the other terms are left out here (each
            # correction may use its own fixed function).
            change = equity[round_] - equity[round_ - 1]
            values.add_board_change(parts, hand, change)
            if terms is not None:
                terms.cards(hand, equity[round_], change)
        eq = equity[round_]
        for action in actions:
            said = decisions[index] if index < len(decisions) else None
            index += 1
            if terms is not None:
                parts += terms.action(hand, action, said, eq)
                known += said is not None
            elif said is not None:
                after = values.after_each_action(hand, eq)
                expected = sum(p * v for p, v in zip(said, after, strict=True) if p > 0)
                parts += after[_COLUMN[action.type]] - expected
                known += 1
            hand.apply(action)
    result = record.values[position]
    if terms is not None:
        terms.end(hand, equity[-1], result)
    return result, parts, known


class _Terms:
    """The estimate of a hand as one term per event (see the module's *Decision by
    decision*), handed to a :data:`StepSink`: the value of the history so far is kept,
    each term is the value's change at an event less that event's correction."""

    def __init__(
        self,
        values: _Values,
        weights: FloatArray,
        steps: StepSink,
        hand: HandState,
        equity: float,
    ) -> None:
        self.values = values
        self.weights = weights
        self.steps = steps
        self.now = values.value(hand, equity)
        correction = np.zeros(values.size)
        values.add_board_change(correction, hand, equity - 0.5)
        steps(Step.DEAL, hand, None, None, equity, self._chips(self.now - correction))

    def _chips(self, parts: FloatArray) -> float:
        return float(parts @ self.weights)

    def cards(self, hand: HandState, equity: float, change: float) -> None:
        before = self.now
        self.now = self.values.value(hand, equity)
        correction = np.zeros(self.values.size)
        self.values.add_board_change(correction, hand, change)
        term = self._chips(self.now - before - correction)
        self.steps(Step.CARDS, hand, None, None, equity, term)

    def action(
        self, hand: HandState, action: Action, said: Probabilities | None, equity: float
    ) -> FloatArray:
        """Hand the terms of ``action`` at ``hand`` to the sink; its correction (zeros
        without probabilities ``said``). The term is the value's expected change under
        ``said`` (the correction took the luck of the draw away), or without them the
        change itself; it is handed on in two parts: the decision's own, without looking
        ahead, and at each history after it whose value looks ahead (:attr:`Step.REPLY`),
        what that looking ahead adds — the advantage of the next player's known strategy,
        weighted by the chance of getting there."""
        column = _COLUMN[action.type]
        if said is not None:
            after = self.values.each_action(hand, equity)
            taken = [(p, a) for p, a in zip(said, after, strict=True) if p > 0 and a is not None]
            expected = sum(p * a.value for p, a in taken)
            own = sum(p * a.here for p, a in taken)
            chosen = after[column]
            assert chosen is not None  # the rules replayed the action: it is legal
            correction = chosen.value - expected
            replies = [(a.hand, p * (a.value - a.here)) for p, a in taken if a.ahead]
        else:
            child = hand.child(action)
            here = self.values._here(child, equity)
            ahead = self.values.looks_ahead(child) is not None
            chosen = _After(child, here, self.values.value(child, equity) if ahead else here, ahead)
            correction = np.zeros(self.values.size)
            own = here
            replies = [(child, chosen.value - here)] if ahead else []
        self.steps(Step.ACTION, hand, action, said, equity, self._chips(own - self.now))
        for after_hand, reply in replies:
            self.steps(Step.REPLY, after_hand, None, None, equity, self._chips(reply))
        self.now = chosen.value
        return correction

    def end(self, hand: HandState, equity: float, result: float) -> None:
        self.steps(Step.END, hand, None, None, equity, result - self._chips(self.now))


class _Values:
    """The value function, as a vector of its parts (see :func:`correction_parts`): the
    check-down value, then the bets-to-come features (:class:`BetValue`) in the slot of
    the history's betting context. With one action of lookahead at the decisions of
    players whose strategy is known anywhere (oracles): within a round, once it has
    begun, the value of a history where such a player acts is the value after its action,
    averaged over its strategy."""

    def __init__(
        self,
        record: StateRecord,
        position: int,
        oracles: Sequence[Oracle | None],
        bets: BetValue | None,
    ) -> None:
        self.record = record
        self.position = position
        self.oracles = oracles
        self.bets = bets
        self.size = 1 + (bets.size if bets is not None else 0)

    def add_board_change(self, parts: FloatArray, hand: HandState, change: float) -> None:
        """Add a round's chance correction for the equity's change ``change``: the
        check-down value's, and the bets-to-come features linear in the equity (whoever
        acts first, ``±e`` times the sign of the term is the player's own edge)."""
        parts[0] += hand.pot * change
        if self.bets is not None and not hand.finished:
            slot = 1 + self.bets.slot(hand)
            pot_part, bet_part = BetValue.LINEAR
            parts[slot + pot_part] += hand.pot * change
            parts[slot + bet_part] += hand.game.raise_size[hand.round] * change

    def _here(self, hand: HandState, equity: float) -> FloatArray:
        out = np.zeros(self.size)
        if hand.finished and hand.num_folded:
            out[0] = hand.value(self.position)
            return out
        pot = hand.pot
        out[0] = equity * pot - hand.spent[self.position]
        if self.bets is not None and not hand.finished:
            slot = 1 + self.bets.slot(hand)
            sign = 1.0 if hand.current_player == self.position else -1.0
            edge = sign * (equity - 0.5)  # the edge of the player to act
            bet = hand.game.raise_size[hand.round]
            out[slot : slot + BET_FEATURES] = sign * BetValue.features(edge, pot, bet)
        return out

    def looks_ahead(self, hand: HandState) -> Oracle | None:
        """The strategy the value of ``hand`` averages over: its player's, if known anywhere
        and the round has begun."""
        if hand.finished or hand.num_actions == 0:
            return None
        return self.oracles[hand.current_player]

    def value(self, hand: HandState, equity: float) -> FloatArray:
        oracle = self.looks_ahead(hand)
        if oracle is None:
            return self._here(hand, equity)
        acting = hand.current_player
        board = self.record.board_cards[: hand.game.board_total(hand.round)]
        said = oracle(hand, self.record.hole_cards[acting], board)
        total = np.zeros(self.size)
        for p, action in zip(said, _ACTIONS, strict=True):
            if p > 0:
                total += p * self._here(hand.child(action), equity)
        return total

    def after_each_action(self, hand: HandState, equity: float) -> list[FloatArray]:
        """The value after each action, fold, call and raise (zeros for an illegal one)."""
        values = [np.zeros(self.size) for _ in _ACTIONS]
        for action, child in hand.children():
            values[_COLUMN[action.type]] = self.value(child, equity)
        return values

    def each_action(self, hand: HandState, equity: float) -> list[_After | None]:
        """After each action, fold, call and raise (``None`` for an illegal one): the
        history, its value without looking ahead, and its value."""
        out: list[_After | None] = [None] * len(_ACTIONS)
        for action, child in hand.children():
            here = self._here(child, equity)
            ahead = self.looks_ahead(child) is not None
            out[_COLUMN[action.type]] = _After(
                child, here, self.value(child, equity) if ahead else here, ahead
            )
        return out


@dataclass(frozen=True, slots=True)
class _After:
    """A history just after an action (:meth:`_Values.each_action`)."""

    hand: HandState
    here: FloatArray
    """Its value without looking ahead."""
    value: FloatArray
    ahead: bool
    """Whether :attr:`value` looks ahead (it is :attr:`here` otherwise)."""


@dataclass(frozen=True)
class AivatHalf:
    """One log's AIVAT estimates for one player."""

    log: str
    player: str
    decisions_file: str | None
    """The decisions file used, or ``None`` (chance corrections only)."""
    hand_numbers: array[int]
    values: array[float]
    """The corrected result of each hand (chips), in the order of :attr:`hand_numbers`."""
    actions: int
    known: int
    """Actions whose probabilities were known (each got an action correction)."""
    estimate: Estimate
    seconds: float = 0.0
    """How long the corrections took (the pair's: both halves, computed together)."""
    value_function: str = "check-down"
    """The value function: ``check-down``, or ``check-down + bets-to-come`` with the
    :class:`BetValue` term."""

    @property
    def hands(self) -> int:
        return len(self.hand_numbers)


@dataclass(frozen=True)
class AivatPair:
    """A duplicate pair's AIVAT estimate over its pairs."""

    halves: tuple[AivatHalf, AivatHalf]
    estimate: Estimate
    unpaired: int


class LogCorrector:
    """One log's hands for one player, read and corrected one at a time (in hand order):
    :meth:`next_record`, then :meth:`correct`; :meth:`half` sums them up."""

    def __init__(  # noqa: PLR0917
        self,
        log: PlayedLog,
        game: Game,
        player: str,
        decisions: Path | bool | None,
        value: CheckDownValue,
        oracles: Mapping[str, Oracle],
    ) -> None:
        """``decisions``: the decisions file, ``True`` for the one beside the log if there
        is one, ``None``/``False`` for chance corrections only."""
        if player not in log.chips:
            raise AivatError(f"{log.where}: no player {player!r}")
        self.log = log
        self.game = game
        self.player = player
        self.side = side = _side_file(log, decisions)
        self.value = value
        self.oracles = oracles
        self.started = time.perf_counter()
        self.numbers: array[int] = array("q")
        self.values: array[float] = array("d")
        self.actions = 0
        self.known = 0
        self._said: Iterator[tuple[int, tuple[Probabilities | None, ...]]] = (
            read_decisions(side) if side is not None else iter(())
        )
        self._pending = next(self._said, None)
        # The log again, as far as it was read for its results (and the same bytes).
        self._log = open_log(log.path, read_before=log.read_before)
        self._hands = iter(self._log)

    def close(self) -> None:
        self._log.close()

    def next_record(self) -> StateRecord | None:
        hand = next(self._hands, None)
        if hand is None:
            return None
        try:
            record = hand.record()
        except AcpcError as exc:
            raise AivatError(f"{self._log.where}:{hand.number}: {exc}") from None
        game = self.game
        shown = len(record.betting) - 1
        if (
            len(record.names) != 2
            or any(len(h) != game.num_hole_cards for h in record.hole_cards)
            or len(record.board_cards) != game.board_total(shown)
        ):
            raise AivatError(f"{self.log.where}: hand {record.hand_number} does not fit the game")
        return record

    def _decisions(self, record: StateRecord) -> tuple[Probabilities | None, ...]:
        """The recorded probabilities of ``record``'s actions (none without a file)."""
        said = self._said
        pending = self._pending
        while pending is not None and pending[0] < record.hand_number:
            pending = next(said, None)
        decisions: tuple[Probabilities | None, ...] = ()
        count = sum(len(r) for r in record.betting)
        if pending is not None and pending[0] == record.hand_number:
            decisions = pending[1]
            if len(decisions) != count:
                raise DecisionFileError(
                    f"{self.side}: hand {record.hand_number} has {len(decisions)} decisions, "
                    f"the log {count} actions: not this log's decisions file"
                )
            pending = next(said, None)
        self._pending = pending
        return decisions

    def parts(
        self, record: StateRecord, steps: StepSink | None = None
    ) -> tuple[float, FloatArray, int]:
        """:func:`correction_parts` of ``record``, with its recorded probabilities."""
        decisions = self._decisions(record)
        position = record.names.index(self.player)
        oracles = [self.oracles.get(name) for name in record.names]
        try:
            return correction_parts(
                self.game, record, position, decisions, self.value, oracles, steps
            )
        except AcpcError as exc:
            raise AivatError(f"{self.log.where}: hand {record.hand_number}: {exc}") from None

    def correct(self, record: StateRecord, steps: StepSink | None = None) -> None:
        """Correct the hand ``record`` (the next one :meth:`next_record` gave), handing its
        terms to ``steps`` if given."""
        result, parts, known = self.parts(record, steps)
        self.numbers.append(record.hand_number)
        self.values.append(result - float(parts @ self.value.weights))
        self.actions += sum(len(r) for r in record.betting)
        self.known += known

    def half(self) -> AivatHalf:
        return AivatHalf(
            str(self.log.path),
            self.player,
            str(self.side) if self.side is not None else None,
            self.numbers,
            self.values,
            self.actions,
            self.known,
            estimate(self.values, self.game.big_blind),
            time.perf_counter() - self.started,
            "check-down" if self.value.bets is None else "check-down + bets-to-come",
        )


def _side_file(log: PlayedLog, decisions: Path | bool | None) -> Path | None:
    if decisions is True:
        candidate = decisions_path(log.path)
        return candidate if candidate.exists() else None
    if decisions is False or decisions is None:
        return None
    return decisions


def aivat_half(
    log: PlayedLog,
    game: Game,
    player: str | None = None,
    *,
    decisions: Path | bool | None = True,
    value: CheckDownValue | None = None,
    oracles: Mapping[str, Oracle] | None = None,
) -> AivatHalf:
    """AIVAT over one log for ``player`` (default: seat 1). ``decisions``: the decisions
    file, ``True`` for the one beside the log if there is one, ``None``/``False`` for
    chance corrections only. ``oracles``: the strategies known anywhere, by player name."""
    name = log.seat_names[0] if player is None else player
    value = value or CheckDownValue(game)
    corrector = LogCorrector(log, game, name, decisions, value, oracles or {})
    try:
        while (record := corrector.next_record()) is not None:
            corrector.correct(record)
    finally:
        corrector.close()
    return corrector.half()


def aivat_pair(
    first: PlayedLog,
    second: PlayedLog,
    game: Game,
    player: str | None = None,
    *,
    decisions: bool = True,
    value: CheckDownValue | None = None,
    oracles: Mapping[str, Oracle] | None = None,
) -> AivatPair:
    """AIVAT over a duplicate pair of logs for ``player`` (default: seat 1 of ``first``),
    each log corrected hand by hand (the two in step, so that each hand's equities are
    computed once) and the corrected results paired by hand number."""
    name = first.seat_names[0] if player is None else player
    value = value or CheckDownValue(game)
    with contextlib.ExitStack() as stack:
        correctors = []
        for log in (first, second):
            corrector = LogCorrector(log, game, name, decisions, value, oracles or {})
            stack.callback(corrector.close)
            correctors.append(corrector)
        for records in hands_in_step(correctors):
            for corrector, record in zip(correctors, records, strict=True):
                if record is not None:
                    corrector.correct(record)
    return pair_of(correctors[0].half(), correctors[1].half(), game.big_blind)


def hands_in_step(
    correctors: Sequence[LogCorrector],
) -> Iterator[list[StateRecord | None]]:
    """The hands of several logs in step, by increasing hand number: each log's record of
    the hand, ``None`` where it has none. Each is to be corrected before the next is read
    (a duplicate pair's two halves so ask for each hand's equities one after the other)."""
    records = [c.next_record() for c in correctors]
    while any(r is not None for r in records):
        lowest = min(r.hand_number for r in records if r is not None)
        now = [r if r is not None and r.hand_number == lowest else None for r in records]
        yield now
        records = [
            c.next_record() if taken is not None else kept
            for c, taken, kept in zip(correctors, now, records, strict=True)
        ]


def parts_of_log(
    log: PlayedLog,
    game: Game,
    player: str,
    value: CheckDownValue,
    oracles: Mapping[str, Oracle] | None = None,
) -> Iterator[tuple[int, float, FloatArray]]:
    """Each hand of ``log`` (with the decisions file beside it, if any): its number,
    ``player``'s result and its corrections split by the value function's parts
    (:func:`correction_parts`), for fitting the bets-to-come term."""
    corrector = LogCorrector(log, game, player, True, value, oracles or {})
    try:
        while (record := corrector.next_record()) is not None:
            result, parts, _ = corrector.parts(record)
            yield record.hand_number, result, parts
    finally:
        corrector.close()


def pair_of(first: AivatHalf, second: AivatHalf, big_blind: int) -> AivatPair:
    """Two halves' corrected results paired by hand number."""
    samples, unpaired = pair_sorted(
        first.hand_numbers, first.values, second.hand_numbers, second.values
    )
    return AivatPair((first, second), estimate(samples, big_blind), unpaired)
