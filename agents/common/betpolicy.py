"""Saund's factored betting policy, the triple generator every holding is read with.

Saund (§IV, eq. 5) factors a player's policy into the probability that its cards win and a
betting policy over that probability and the effective odds:

    p(action | holding) ≈ p(action | win probability, effective odds) · p(win | holding)

A player folds most hands that win less often than the odds it is offered, raises most hands
that win more often than 1/N (N players in the hand) and calls in between, except that it
slow-plays some strong hands (checks or calls them) and bluffs some weak ones (bets or raises
them). The regions are piecewise constant in the coordinate ``p' = -log_N(p)`` and blended
linearly at their edges; :class:`SaundPolicy` holds the parameters of Saund's Table I, read
as follows (the extraction lost the figure, so the blends are this project's reading):

* not facing a bet: bet with probability ``1 - a`` (the rest is a slow-played check) where
  ``p' <= 1 - c``, with probability ``b`` (a bluff) where ``p' >= 1 + c``, linear between;
* facing a bet: raise with probability ``1 - d`` (``d`` slow-played calls) where
  ``p' <= 1 - f``, not at all where ``p' >= 1 + g``, linear between; fold where
  ``p' >= p'_e + h`` (``p'_e = -log_N(e)`` for the effective odds ``e``), except a share
  ``e_bluff`` that raises instead, not at all where ``p' <= p'_e - h``, linear between; call
  with what is left.

Effective odds are Saund's simple model: the player puts in what it must call now and one
bet on each street still to come, the other players one bet a street too
(:func:`agents.common.decisions.effective_odds`). The win probability a caller passes in is
a holding's strength; this project uses the *effective strength* of
:func:`agents.common.weights.board_ranking` after the flop and the class's equity against a
random hand before it.

:class:`PolicyFit` adapts the policy to one player: its observed action frequencies per
betting context, and how far its actions follow its cards (a mixture weight fitted by
maximum likelihood on the decisions whose cards were revealed). A player who always calls
ends up with a likelihood that is the same for every holding, so its calls say nothing.

>>> policy = SaundPolicy()
>>> strong, weak = np.array([0.9]), np.array([0.1])
>>> policy.triples(strong, facing=False, odds=0.0).round(3).tolist()
[[0.0, 0.2, 0.8]]
>>> policy.triples(weak, facing=True, odds=0.25).round(3).tolist()
[[0.95, 0.0, 0.05]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import astuple, dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from acpcbot.actions import ActionType
from acpcbot.cards import Card
from acpcbot.handeval.jitcache import cache_enabled
from agents.common.decisions import Decision
from agents.common.weights import WeightTable, holding_strengths

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

__all__ = [
    "ACTION_INDEX",
    "LEVELS",
    "PREDICTABILITY_GRID",
    "ROUNDS",
    "STRENGTH_BINS",
    "PolicyFit",
    "SaundPolicy",
    "fitted_triple",
    "fitted_triples",
    "saund_triple",
    "saund_triples",
    "shaped_triple",
]

FloatArray = npt.NDArray[np.float64]

ROUNDS = 4
LEVELS = 3
"""Betting contexts tell apart no raise, one raise and two or more this round."""
ACTION_INDEX = {ActionType.FOLD: 0, ActionType.CALL: 1, ActionType.RAISE: 2}
PREDICTABILITY_GRID = np.linspace(0.0, 1.0, 21)
"""The mixture weights :class:`PolicyFit` weighs against each other."""
_LEAST_WIN = 1e-9
STRENGTH_BINS = 20
"""Bins of strength (0..1) of :class:`PolicyFit`'s shape histograms."""
EDGE_GRID = np.linspace(0.0, 1.0, 41)
"""The fold edges (strengths) :class:`PolicyFit` weighs against each other."""
_EDGE_SOFTNESS = 0.05
"""Width of the blend around a fold edge."""
_EDGE_NOISE = 0.02
"""A player folds a holding above its edge, or keeps one below, this often."""


@dataclass(frozen=True, slots=True)
class SaundPolicy:
    """The parameters of Saund's default deceptive betting policy (Table I)."""

    slowplay_check: float = 0.2
    """a: a strong hand checks instead of betting."""
    bluff_bet: float = 0.05
    """b: a weak hand bets when nobody has."""
    check_bet_offset: float = 0.1
    """c: half-width of the blend around the check/bet edge ``p' = 1``."""
    slowplay_call: float = 0.2
    """d: a strong hand calls instead of raising."""
    bluff_raise: float = 0.05
    """e: a hand below the odds raises instead of folding."""
    raise_offset_strong: float = 0.3
    """f: the call/raise blend starts this far on the strong side of ``p' = 1``..."""
    raise_offset_weak: float = 0.2
    """g: ... and ends this far on the weak side."""
    fold_offset: float = 0.1
    """h: half-width of the blend around the fold/call edge ``p' = -log_N(e)``."""
    players: int = 2
    """N, the players in the hand (heads-up: 2)."""

    def array(self) -> FloatArray:
        """The parameters in field order, as the kernels take them."""
        return np.array(astuple(self), dtype=np.float64)

    def triples(self, wins: FloatArray, facing: bool, odds: float) -> FloatArray:
        """``(n, 3)`` fold/call/raise probabilities for win probabilities ``wins``."""
        return saund_triples(np.asarray(wins, dtype=np.float64), facing, odds, self.array())


DEFAULT = SaundPolicy()


@njit(cache=CACHE, inline="always")
def _ramp(x: float, low: float, high: float) -> float:  # pragma: no cover - numba
    """0 at or below ``low``, 1 at or above ``high``, linear between."""
    if x <= low:
        return 0.0
    if x >= high:
        return 1.0
    return (x - low) / (high - low)


@njit(cache=CACHE, inline="always")
def saund_triple(
    win: float, facing: bool, odds: float, params: FloatArray
) -> tuple[float, float, float]:  # pragma: no cover - numba
    """Fold, call and raise probabilities of one holding that wins with probability ``win``
    (``odds``: the effective odds when ``facing`` a bet; ``params``:
    :meth:`SaundPolicy.array`)."""
    log_n = math.log(params[8])
    x = -math.log(max(win, _LEAST_WIN)) / log_n  # p' = -log_N(p)
    if not facing:
        c = params[2]
        weak = _ramp(x, 1.0 - c, 1.0 + c)
        bet = (1.0 - params[0]) * (1.0 - weak) + params[1] * weak
        return 0.0, 1.0 - bet, bet
    strong = 1.0 - _ramp(x, 1.0 - params[5], 1.0 + params[6])
    edge = -math.log(max(odds, _LEAST_WIN)) / log_n
    h = params[7]
    losing = _ramp(x, edge - h, edge + h)
    raise_ = (1.0 - params[3]) * strong + params[4] * losing
    fold = (1.0 - params[4]) * losing
    if fold + raise_ > 1.0:  # the regions overlap where the odds are near 1/N
        fold = max(0.0, 1.0 - raise_)
    return fold, 1.0 - fold - raise_, raise_


@njit(cache=CACHE)
def saund_triples(
    wins: FloatArray, facing: bool, odds: float, params: FloatArray
) -> FloatArray:  # pragma: no cover - numba
    """:func:`saund_triple` of every win probability in ``wins``, as rows."""
    out = np.empty((len(wins), 3))
    for i in range(len(wins)):
        f, c, r = saund_triple(wins[i], facing, odds, params)
        out[i, 0] = f
        out[i, 1] = c
        out[i, 2] = r
    return out


class PolicyFit:
    """Saund's policy fitted to one player as it plays.

    The likelihood of an action for a holding is ``w · saund(action | strength) + (1 - w) ·
    frequency(action)``: ``frequency`` is the player's observed frequency of that action in
    the betting context (round, facing a bet or not, raises so far) with a few
    pseudo-observations of :data:`PRIOR_FREQUENCIES`, and ``w`` (per round) its
    *predictability*, the posterior mean over :data:`PREDICTABILITY_GRID` (uniform prior)
    given the decisions whose holdings were revealed. A player whose actions follow Saund's
    policy gets ``w`` near 1, one whose actions ignore its cards (``always-call``, the ACPC
    example player) ``w`` near 0.

    With ``shapes`` the revealed decisions also fill a histogram per context over
    :data:`STRENGTH_BINS` bins of strength, and the likelihood becomes its smoothed
    estimate with the mixture as the prior (:data:`SHAPE_PRIOR` pseudo-observations,
    :func:`shaped_triple`): whatever shape the player's policy has, it is learned. An
    observer who sees every holding (the ``infogain`` report) learns all three actions so;
    an agent, which sees the opponent's cards at showdowns only, never sees a hand folded,
    so with ``folds_revealed`` off the histograms learn only how the player splits the
    hands it keeps between calling and raising. Its folds are then learned another way
    (``fold_edges``): facing a bet, a player is taken to fold the holdings weaker than an
    edge, per round and raise level, found by maximum likelihood from every time it folded
    or did not, each weighed under the weight table at that moment (the chance that the
    holding was below the edge); the edge's fold takes over from the mixture's as such
    decisions accumulate (:data:`EDGE_EVIDENCE`).

    >>> fit = PolicyFit()
    >>> for _ in range(40):
    ...     fit.count(1, False, 0, ActionType.CALL)
    ...     fit.reveal(1, False, 0, 0.95, 0.0, ActionType.CALL)
    >>> round(fit.predictability(1), 2) < 0.1  # strong hands that check: calls say nothing
    True
    """

    PRIOR_WEIGHT = 4.0
    """Pseudo-observations of :data:`PRIOR_FREQUENCIES` in every context."""

    SHAPE_PRIOR = 5.0
    """Pseudo-observations of the mixture in every bin of a shape histogram."""

    EDGE_EVIDENCE = 20.0
    """Decisions facing a bet after which the fold edge weighs as much as the mixture."""

    def __init__(
        self,
        policy: SaundPolicy = DEFAULT,
        *,
        shapes: bool = False,
        folds_revealed: bool = True,
        fold_edges: bool = False,
    ) -> None:
        self.policy = policy
        self.params = policy.array()
        self.counts = np.zeros((ROUNDS, 2, LEVELS, 3))
        self.log_likelihood = np.zeros((ROUNDS, len(PREDICTABILITY_GRID)))
        self._predictability = np.full(ROUNDS, float(PREDICTABILITY_GRID.mean()))
        self.shapes = np.zeros((ROUNDS, 2, LEVELS, STRENGTH_BINS, 3)) if shapes else None
        self.folds_revealed = folds_revealed
        self.edge_log_likelihood = np.zeros((ROUNDS, LEVELS, len(EDGE_GRID)))
        self.edge_decisions = np.zeros((ROUNDS, LEVELS))
        self._edges = np.full((ROUNDS, LEVELS), float(EDGE_GRID.mean()))
        self.fold_edges = fold_edges

    def edge_table(self) -> tuple[FloatArray, FloatArray]:
        """``[round, level]``: the fold edge (a strength) and its weight against the
        mixture's fold (0 without ``fold_edges``)."""
        if not self.fold_edges:
            return self._edges.copy(), np.zeros((ROUNDS, LEVELS))
        decisions = self.edge_decisions
        return self._edges.copy(), decisions / (decisions + self.EDGE_EVIDENCE)

    def _observe_edge(
        self, round_: int, level: int, strengths: FloatArray, weights: FloatArray, fold: bool
    ) -> None:
        """A decision facing a bet, folded or not, with the holdings' strengths and weights
        then: each candidate edge's chance of it."""
        total = float(weights.sum())
        if total <= 0.0:
            return
        below = np.bincount(
            np.searchsorted(EDGE_GRID, strengths, side="right"),
            weights=weights,
            minlength=len(EDGE_GRID) + 1,
        )
        folds = np.cumsum(below)[: len(EDGE_GRID)] / total  # P(strength < edge)
        folds = _EDGE_NOISE + (1.0 - 2.0 * _EDGE_NOISE) * folds
        level = min(level, LEVELS - 1)
        ll = self.edge_log_likelihood[round_, level]
        ll += np.log(folds if fold else 1.0 - folds)
        posterior = np.exp(ll - ll.max())
        self._edges[round_, level] = posterior @ EDGE_GRID / posterior.sum()
        self.edge_decisions[round_, level] += 1

    def frequencies(self, round_: int, facing: bool, level: int) -> FloatArray:
        """Smoothed fold/call/raise frequencies of the player in a context."""
        counts = self.counts[round_, int(facing), min(level, LEVELS - 1)]
        prior = PRIOR_FREQUENCIES[int(facing)]
        result: FloatArray = (counts + self.PRIOR_WEIGHT * prior) / (
            counts.sum() + self.PRIOR_WEIGHT
        )
        return result

    def frequency_table(self) -> FloatArray:
        """``[round, facing, level, action]``: every context's :meth:`frequencies`."""
        prior = PRIOR_FREQUENCIES[None, :, None, :]
        totals = self.counts.sum(axis=-1, keepdims=True)
        result: FloatArray = (self.counts + self.PRIOR_WEIGHT * prior) / (
            totals + self.PRIOR_WEIGHT
        )
        return result

    def predictability(self, round_: int) -> float:
        """``w`` of a round: how far the player's actions follow its cards."""
        return float(self._predictability[round_])

    def predictabilities(self) -> FloatArray:
        """``w`` of every round."""
        return self._predictability.copy()

    def count(self, round_: int, facing: bool, level: int, action: ActionType) -> None:
        """The player took ``action`` in a context (its cards need not be known)."""
        self.counts[round_, int(facing), min(level, LEVELS - 1), ACTION_INDEX[action]] += 1

    def reveal(  # noqa: PLR0917
        self,
        round_: int,
        facing: bool,
        level: int,
        strength: float,
        odds: float,
        action: ActionType,
    ) -> None:
        """A decision whose holding became known: its ``strength`` then, the effective
        ``odds`` it faced and the ``action`` taken (count it with :meth:`count` too)."""
        k = ACTION_INDEX[action]
        saund = saund_triple(strength, facing, odds, self.params)[k]
        frequency = self.frequencies(round_, facing, level)[k]
        mixed = PREDICTABILITY_GRID * saund + (1.0 - PREDICTABILITY_GRID) * frequency
        self.log_likelihood[round_] += np.log(np.maximum(mixed, 1e-12))
        ll = self.log_likelihood[round_]
        posterior = np.exp(ll - ll.max())
        self._predictability[round_] = posterior @ PREDICTABILITY_GRID / posterior.sum()
        if self.shapes is not None:
            level = min(level, LEVELS - 1)
            self.shapes[round_, int(facing), level, _bin(strength), k] += 1

    def reweight(self, table: WeightTable, turn: Decision, board: Sequence[Card]) -> None:
        """Bayes' rule for the player's ``turn`` (``board``: the cards shown then):
        ``table``, the player's weights, loses the holdings that meet the board and is
        multiplied by the action's likelihood for every holding, then normalised."""
        assert turn.action is not None
        table.remove(board)
        strengths = holding_strengths(board)
        if self.fold_edges and turn.facing:
            fold = turn.action is ActionType.FOLD
            self._observe_edge(turn.round, turn.level, strengths, table.weights, fold)
        odds = turn.odds
        table.multiply(
            self.likelihood(turn.round, turn.facing, turn.level, strengths, odds, turn.action)
        )
        table.normalise()

    def learn(self, turn: Decision, strength: float | None = None) -> None:
        """The player took ``turn``: count it, and when its holding is known (``strength``
        then), weigh how far the action followed it (:meth:`count`, :meth:`reveal`)."""
        assert turn.action is not None
        self.count(turn.round, turn.facing, turn.level, turn.action)
        if strength is not None:
            self.reveal(turn.round, turn.facing, turn.level, strength, turn.odds, turn.action)

    def likelihood(  # noqa: PLR0917
        self,
        round_: int,
        facing: bool,
        level: int,
        strengths: FloatArray,
        odds: float,
        action: ActionType,
    ) -> FloatArray:
        """The probability of ``action`` for every holding of the given ``strengths``."""
        k = ACTION_INDEX[action]
        triples = saund_triples(strengths, facing, odds, self.params)
        saund = triples[:, k]
        w = self.predictability(round_)
        frequency = float(self.frequencies(round_, facing, level)[k])
        result: FloatArray = w * saund + (1.0 - w) * frequency
        if self.shapes is None and not self.fold_edges:
            return result
        mixed = w * triples + (1.0 - w) * self.frequencies(round_, facing, level)
        level = min(level, LEVELS - 1)
        histogram = (
            self.shapes[round_, int(facing), level]
            if self.shapes is not None
            else np.zeros((STRENGTH_BINS, 3))
        )
        edges, edge_weights = self.edge_table()
        shaped = fitted_triples(
            mixed,
            strengths,
            facing,
            edges[round_, level],
            edge_weights[round_, level],
            histogram,
            self.SHAPE_PRIOR if self.shapes is not None else 0.0,
            self.folds_revealed,
        )
        return shaped[:, k]


@njit(cache=CACHE, inline="always")
def shaped_triple(  # noqa: PLR0917  (numba kernels take positional arguments)
    f: float, c: float, r: float, seen: FloatArray, prior: float, folds_revealed: bool
) -> tuple[float, float, float]:  # pragma: no cover - numba
    """A triple ``(f, c, r)`` learned towards the actions ``seen`` (counts of fold, call,
    raise) with ``prior`` pseudo-observations of it; with ``folds_revealed`` off only the
    split between calls and raises is learned, the fold probability stays ``f``."""
    if folds_revealed:
        n = seen[0] + seen[1] + seen[2] + prior
        return (seen[0] + prior * f) / n, (seen[1] + prior * c) / n, (seen[2] + prior * r) / n
    kept = c + r
    if kept <= 0.0:
        return f, c, r
    call = (seen[1] + prior * c / kept) / (seen[1] + seen[2] + prior)
    return f, kept * call, kept * (1.0 - call)


@njit(cache=CACHE, inline="always")
def fitted_triple(  # noqa: PLR0917  (numba kernels take positional arguments)
    f: float,
    c: float,
    r: float,
    strength: float,
    facing: bool,
    edge: float,
    edge_weight: float,
    histogram: FloatArray,
    prior: float,
    folds_revealed: bool,
) -> tuple[float, float, float]:  # pragma: no cover - numba
    """The mixture's triple ``(f, c, r)`` for a holding of ``strength``, refined by what
    was learned of the player: facing a bet, the fold edge's fold (``edge_weight`` of it)
    with calls and raises scaled to what is left; then the shape histogram's counts for
    the holding's bin (``prior``: pseudo-observations of the triple; 0: none)."""
    if facing and edge_weight > 0.0:
        below = min(1.0, max(0.0, (edge - strength) / _EDGE_SOFTNESS + 0.5))
        fold = _EDGE_NOISE + (1.0 - 2.0 * _EDGE_NOISE) * below
        fold = edge_weight * fold + (1.0 - edge_weight) * f
        kept = c + r
        if kept > 0.0:
            c, r = c * (1.0 - fold) / kept, r * (1.0 - fold) / kept
        else:
            c = 1.0 - fold
        f = fold
    if prior <= 0.0:
        return f, c, r
    bins = len(histogram)
    return shaped_triple(
        f, c, r, histogram[min(bins - 1, int(strength * bins))], prior, folds_revealed
    )


@njit(cache=CACHE)
def fitted_triples(  # noqa: PLR0917  (numba kernels take positional arguments)
    mixed: FloatArray,
    strengths: FloatArray,
    facing: bool,
    edge: float,
    edge_weight: float,
    histogram: FloatArray,
    prior: float,
    folds_revealed: bool,
) -> FloatArray:  # pragma: no cover - numba
    """:func:`fitted_triple` of every row of ``mixed`` (the holdings' mixture triples)."""
    out = np.empty_like(mixed)
    for i in range(len(mixed)):
        f, c, r = fitted_triple(
            mixed[i, 0],
            mixed[i, 1],
            mixed[i, 2],
            strengths[i],
            facing,
            edge,
            edge_weight,
            histogram,
            prior,
            folds_revealed,
        )
        out[i, 0] = f
        out[i, 1] = c
        out[i, 2] = r
    return out


def _bin(strength: float) -> int:
    return min(STRENGTH_BINS - 1, max(0, int(strength * STRENGTH_BINS)))


PRIOR_FREQUENCIES = np.array([(0.0, 0.6, 0.4), (0.25, 0.5, 0.25)])
"""Where the frequencies start, not facing a bet and facing one."""
