"""The action model: what one opponent does with each kind of hand at each betting history.

The exploitation unit needs the opponent's probabilities of fold, call and raise *per
holding* at any public state (the local best response of :mod:`agents.lbr` needs nothing
else). The action model learns them from the match: ``P(action | history, bucket)``, the
bucket being the holding's hand strength in the current round
(:mod:`agents.plicas.holdingbuckets`). The estimates are smoothed along a hierarchy, each
level shrunk towards the next coarser one by a few pseudo-observations:

1. the full betting history and the fine bucket (169 starting-hand classes; 20 E[HS²] bins);
2. the full history and the coarse bucket (10 per round);
3. the round, the pot, who acts and the betting so far in this round (the *local* history);
4. the round, who acts, whether it faces a bet and the raises so far (the *coarse* context);
5. a vague, sound prior (:data:`PRIOR`): strong hands raise, weak ones fold to bets.

**What the cards say, and the showdown bias.** The opponent's cards are seen only at a
showdown, and a showdown is a biased sample: the hands it folded never show, so counting
showdowns alone would say that it never holds a weak hand. Every finished hand is counted
instead, by expectation maximisation: the posterior over the opponent's 1326 holdings given
all its actions in the hand (Bayes' rule with the current model, on the cards that were
live) spreads each of its actions over the buckets; a shown hand puts all of it on the
shown holding. Folded hands thus count where the model says they were. Done hand by hand,
this is online EM: an early hand is spread by an early model and stays so, which the
forgetting below also washes out.

**Forgetting.** The counts are stored through PLICAS's one
:class:`~agents.plicas.memory.Memory`: they fade as everything it learns fades, and are
discounted with everything else when the opponent is seen to change (a model without a
memory of its own never forgets).

>>> from acpcbot.game import bundled_game
>>> from acpcbot.rules import HandState, RAISE
>>> from agents.plicas.holdingbuckets import parse_class_index
>>> model = ActionModel()
>>> hand = HandState(bundled_game())            # the small blind, position 1, acts first
>>> model.evidence(hand)
0.0
>>> probs = model.probabilities(hand)           # 169 classes × (fold, call, raise)
>>> probs.shape, bool(probs[parse_class_index("AA"), 2] > probs[parse_class_index("72o"), 2])
((169, 3), True)
>>> raised = hand.child(RAISE)
>>> bool(model.probabilities(raised)[:, 0].max() > 0)  # facing a raise: folds are legal
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from acpcbot.actions import ActionType
from acpcbot.handeval.combos import COMBO_CLASS, NUM_CLASSES, NUM_COMBOS
from acpcbot.rules import HandState
from agents.plicas.actionprior import ActionPrior, coarse_key, local_key
from agents.plicas.holdingbuckets import COARSE, coarse_map, fine_count
from agents.plicas.memory import Memory

__all__ = ["PRIOR", "ActionModel", "Decision", "column_of"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

_COLUMN = {ActionType.FOLD: 0, ActionType.CALL: 1, ActionType.RAISE: 2}
STRENGTHS = (1.0, 3.0, 3.0, 6.0)
"""Pseudo-observations of the coarser level at each level: fine buckets (towards the coarse
ones of the same history), the full history (towards the local one), the local history
(towards the coarse context) and the coarse context (towards :data:`PRIOR`)."""
SPREAD_EVERY = 16
"""Hands folded before the flop between two spreadings of them all."""


def column_of(kind: ActionType) -> int:
    """The column of an action kind in a probability row: fold 0, call 1, raise 2."""
    return _COLUMN[kind]


def _prior() -> FloatArray:
    """``[facing, coarse bucket]``: (fold, call, raise) of a vague, sound opponent: the
    stronger its hand, the more it raises and the less it folds to a bet."""
    x = (np.arange(COARSE) + 0.5) / COARSE
    prior = np.zeros((2, COARSE, 3))
    bet = 0.05 + 0.6 * x**2
    prior[0, :, 1] = 1 - bet
    prior[0, :, 2] = bet
    fold = np.clip(0.7 - 1.2 * x, 0.02, 1.0)
    raise_ = 0.03 + 0.5 * x**3
    prior[1, :, 0] = fold
    prior[1, :, 2] = raise_
    prior[1, :, 1] = np.maximum(0.0, 1 - fold - raise_)
    prior /= prior.sum(axis=-1, keepdims=True)
    prior.setflags(write=False)
    return prior


PRIOR = _prior()
_NO_DEPARTURE = np.zeros((0, 3))
_NO_DEPARTURE.setflags(write=False)  # typed as the fitted rows are: one compiled kernel


@dataclass(frozen=True, slots=True)
class Decision:
    """One of the opponent's actions, as the model read it when it was taken."""

    contexts: tuple[int, int, int]
    """Its rows at the full, local and coarse levels."""
    round: int
    column: int
    """The action taken (:func:`column_of`)."""
    buckets: IntArray
    """Every holding's fine bucket then (-1: dead)."""
    probabilities: FloatArray
    """The model's (fine buckets, 3) probabilities then."""
    state: HandState
    """The betting when it was taken (a copy)."""

    def likelihood(self) -> FloatArray:
        """Every holding's probability of the action taken (0 for dead holdings)."""
        live = self.buckets >= 0
        return np.where(live, self.probabilities[np.maximum(self.buckets, 0), self.column], 0.0)


class _Level:
    """Counts of one level: a row per context, (buckets, 3) per row, and the prior's row
    for each context where the level has one."""

    def __init__(
        self, width: int | None, prior: Callable[[Any], FloatArray | None] | None = None
    ) -> None:
        self.width = width
        """Buckets per row (``None``: the fine buckets of each row's round)."""
        self.rows: dict[object, int] = {}
        self.counts: list[FloatArray] = []
        self.prior = prior
        self.priors: list[FloatArray | None] = []

    def row(self, key: object, round_: int) -> int:
        index = self.rows.get(key)
        if index is None:
            index = self.rows[key] = len(self.counts)
            width = fine_count(round_) if self.width is None else self.width
            self.counts.append(np.zeros((width, 3)))
            self.priors.append(self.prior(key) if self.prior is not None else None)
        return index


@dataclass(slots=True)
class _Folded:
    """The hands the opponent folded before the flop after the same decisions, kept
    together so that they can be spread over the starting-hand classes again by each newer
    model (their posterior depends on the cards only through the classes)."""

    decisions: tuple[tuple[HandState, tuple[int, int, int], int], ...]
    """The state, the rows and the column of each decision."""
    hands: float = 0.0
    """How many (scaled, as the counts)."""
    live: FloatArray = field(default_factory=lambda: np.zeros(NUM_CLASSES))
    """The live combos of each class over those hands (scaled)."""
    given: FloatArray = field(default_factory=lambda: np.zeros(NUM_CLASSES))
    """The mass per class they last added to each decision's counts."""


class ActionModel:
    """One opponent's ``P(action | betting history, bucket)``, learned over a match (see the
    module's docstring)."""

    def __init__(
        self,
        memory: Memory | None = None,
        strengths: Sequence[float] = STRENGTHS,
        prior: ActionPrior | None = None,
    ) -> None:
        self.memory = Memory() if memory is None else memory
        """Counts are stored through it (times its scale)."""
        self.memory.register(self)
        self.strengths = tuple(strengths)
        self._strengths = np.array(self.strengths, dtype=np.float64)
        local = prior.local_row if prior is not None else None
        coarse = prior.coarse_row if prior is not None else None
        self.levels = (_Level(None), _Level(COARSE), _Level(COARSE, local), _Level(COARSE, coarse))
        """Fine buckets by full history; coarse buckets by full history, local history and
        coarse context."""
        self.hands = 0
        self.folded: dict[tuple[tuple[int, int], ...], _Folded] = {}
        """The hands folded before the flop, by their decisions' rows and columns."""
        self.hands_since_spread = 0
        self._known: dict[int, FloatArray] = {}
        """The probabilities at each full history since the counts last changed."""
        self._contexts: dict[str, tuple[int, int, int]] = {}
        """The rows of each betting history asked for (of the one game it models; a row,
        once made, stays)."""
        self._known_scale = 1.0

    @property
    def scale(self) -> float:
        """Counts are stored multiplied by this (the memory's)."""
        return self.memory.scale

    # -- reading ------------------------------------------------------------------------

    def contexts(self, hand: HandState) -> tuple[int, int, int]:
        """The rows of the opponent's decision at ``hand`` (its turn)."""
        betting = hand.betting_text()
        rows = self._contexts.get(betting)
        if rows is None:
            rows = self._contexts[betting] = self._rows_of(hand, betting)
        return rows

    def _rows_of(self, hand: HandState, betting: str) -> tuple[int, int, int]:
        round_ = hand.round
        actor = hand.current_player
        here = betting.rsplit("/", 1)[-1]
        full = self.levels[1].row(betting, round_)
        local = self.levels[2].row(local_key(round_, actor, hand.pot, here), round_)
        facing = hand.amount_to_call() > 0
        coarse = self.levels[3].row(coarse_key(round_, actor, facing, hand.num_raises), round_)
        self.levels[0].row(betting, round_)  # the fine row shares the full history's index
        return full, local, coarse

    def probabilities(self, hand: HandState) -> FloatArray:
        """``[fine bucket]``: (fold, call, raise) of the opponent to act at ``hand``,
        renormalised over the legal actions."""
        return self._probabilities(hand, self.contexts(hand))

    def _probabilities(self, hand: HandState, rows: tuple[int, int, int]) -> FloatArray:
        full, local, coarse = rows
        if self._known_scale != self.scale:  # the memory moved on: every count weighs less
            self._known.clear()
            self._known_scale = self.scale
        known = self._known.get(full)
        if known is not None:
            return known
        # numba: compiled before the match (PLICAS's rehearsal), loaded when first used
        from agents.plicas.kernels import smoothed_probabilities

        facing = int(hand.amount_to_call() > 0)
        usual = self.levels[3].priors[coarse]
        # the field's play at the local history, relative to its play in the coarse
        # context, is applied to what is known of this opponent there (none: no rows)
        departure = self.levels[2].priors[local]
        if departure is None or usual is None:
            departure = _NO_DEPARTURE
        normalised: FloatArray = np.empty((fine_count(hand.round), 3))
        smoothed_probabilities(
            PRIOR[facing] if usual is None else usual,
            departure,
            self.levels[3].counts[coarse],
            self.levels[2].counts[local],
            self.levels[1].counts[full],
            self.levels[0].counts[full],
            coarse_map(hand.round),
            1.0 / self.scale,
            self._strengths,
            np.array((hand.can_fold(), True, hand.can_raise())),
            normalised,
        )
        normalised.setflags(write=False)
        self._known[full] = normalised
        return normalised

    def evidence(self, hand: HandState) -> float:
        """Observations (decayed) of the opponent's decisions at the local history of
        ``hand`` (the round, the pot, who acts and this round's betting)."""
        return self.observations(self.contexts(hand)[1])

    def observations(self, local: int) -> float:
        """Observations (decayed) at the local history of row ``local``."""
        return float(self.levels[2].counts[local].sum()) / self.scale

    def decision(self, hand: HandState, kind: ActionType, buckets: IntArray) -> Decision:
        """The opponent's action ``kind`` at ``hand`` as the model reads it now."""
        rows = self.contexts(hand)
        probabilities = self._probabilities(hand, rows)
        return Decision(rows, hand.round, _COLUMN[kind], buckets, probabilities, hand.copy())

    # -- learning -----------------------------------------------------------------------

    def learn(self, decisions: Sequence[Decision], live: FloatArray, shown: int | None) -> None:
        """Count a finished hand: the opponent's ``decisions`` in it, the holdings it could
        have had (``live``: 1 for each holding that meets no card we saw elsewhere) and the
        holding it showed, if it did."""
        self.hands += 1
        self._known.clear()
        if not decisions:
            return
        if shown is None and all(d.round == 0 for d in decisions):
            self._fold_before_flop(decisions, live)
            return
        if shown is not None:
            posterior = np.zeros(NUM_COMBOS)
            posterior[shown] = 1.0
        else:
            posterior = live.astype(np.float64, copy=True)
            for decision in decisions:
                posterior *= decision.likelihood()
            total = posterior.sum()
            if total <= 0:
                return
            posterior /= total
        weight = self.scale
        for decision in decisions:
            live_holdings = decision.buckets >= 0
            fine = np.bincount(
                decision.buckets[live_holdings],
                weights=posterior[live_holdings],
                minlength=fine_count(decision.round),
            ).astype(np.float64)
            fine *= weight
            self._add(decision.contexts, decision.round, decision.column, fine)

    def _add(self, rows: tuple[int, int, int], round_: int, column: int, fine: FloatArray) -> None:
        """Add (scaled) mass per fine bucket to one action's counts at every level."""
        self._known.clear()
        full, local, coarse = rows
        self.levels[0].counts[full][:, column] += fine
        mass = np.bincount(coarse_map(round_), weights=fine, minlength=COARSE)
        for index, row in ((1, full), (2, local), (3, coarse)):
            self.levels[index].counts[row][:, column] += mass

    def _fold_before_flop(self, decisions: Sequence[Decision], live: FloatArray) -> None:
        """A hand folded before the flop joins the others folded after the same decisions;
        they are all spread again with the model as it is now."""
        key = tuple((d.contexts[0], d.column) for d in decisions)
        group = self.folded.get(key)
        if group is None:
            group = self.folded[key] = _Folded(
                tuple((d.state, d.contexts, d.column) for d in decisions)
            )
        classes = self.scale * np.bincount(COMBO_CLASS, weights=live, minlength=NUM_CLASSES)
        group.hands += self.scale
        group.live += classes
        # counted now with the model as it is, like any hand; spread again with the others
        # by each later model
        likelihood = np.ones(NUM_CLASSES)
        for decision in decisions:
            likelihood *= decision.probabilities[:, decision.column]
        posterior = classes * likelihood
        total = posterior.sum()
        if total > 0:
            mass = posterior * (self.scale / total)
            for decision in decisions:
                self._add(decision.contexts, 0, decision.column, mass)
            group.given += mass
        self.hands_since_spread += 1
        if self.hands_since_spread >= SPREAD_EVERY:
            self.spread_folds()

    def spread_folds(self) -> None:
        """Spread the hands folded before the flop over the classes with the current model
        (one expectation step over all of them): each group's mass replaces what it added
        before."""
        self.hands_since_spread = 0
        for group in self.folded.values():
            likelihood = np.ones(NUM_CLASSES)
            for state, rows, column in group.decisions:
                likelihood *= self._probabilities(state, rows)[:, column]
            posterior = group.live * likelihood
            total = posterior.sum()
            if total <= 0:
                continue
            mass = posterior * (group.hands / total)
            change = mass - group.given
            for state, rows, column in group.decisions:
                self._add(rows, state.round, column, change)
            group.given = mass

    def rescale(self, factor: float) -> None:
        """Multiply every stored count by ``factor`` (the memory folds its scale in)."""
        for level in self.levels:
            level.counts = [counts * factor for counts in level.counts]
        for group in self.folded.values():
            group.hands *= factor
            group.live *= factor
            group.given *= factor
        self._known.clear()
