"""Loki-2's selective-sampling simulation (Billings et al. 1999 §5; Peña's thesis, seed 002).

When it is Loki-2's turn, every *trial* draws an opponent holding from the weight table
(selective sampling: likelier holdings more often) and the rest of the board, then plays the
hand out twice from here: once with a call (check) as Loki-2's first action and once with a
raise (bet). Every later decision of both players samples an action from a probability
triple — Saund's factored policy over the player's strength on that street
(:mod:`agents.common.betpolicy`), mixed for the opponent with what Loki-2 has learned of it —
and the hand is played to a fold or the showdown. A trial's value is what Loki-2 wins from
the pot minus what it puts in from now on, so folding now is worth 0; the averages over the
trials are the EVs of calling and raising. Both plays of a trial share its cards and its
random numbers, so their difference shows the first action rather than the luck.

A player's strength on a street is the *effective strength* of
:func:`agents.common.weights.board_ranking`: its holding's share of random holdings beaten
now, raised by its chance to improve. On the street being decided it is read exactly (every
holding's, once per decision); on later streets of a trial it is estimated against
:data:`~agents.loki2.config.Loki2Config.strength_samples` random holdings, which keeps a
trial to a few microseconds.

**Obvious moves.** Every ``check_every`` trials from ``min_trials`` on, the simulation stops
early when the best action's EV leads the second best's by more than the sum of their
standard deviations (the standard errors of the two means; folding's is 0) — Peña's
criterion, :func:`obvious`.

The trials walk the game's betting tree as the rules built it
(:attr:`agents.common.bettingtree.BettingTree.table`, from
:meth:`acpcbot.rules.HandState.children`): who acts, what is legal, what each has put in and
where a round ends come from there, not from rules of the kernel's own.

This module imports numba; the agent imports it when a match begins.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, uint64

from acpcbot.handeval.evaluator import CARD_BIT, CARD_KEY, KEY_BASE, value_of_key
from acpcbot.handeval.jitcache import cache_enabled
from acpcbot.handeval.montecarlo import alias_table, high_index, low_index, splitmix64
from agents.common.betpolicy import fitted_triple, saund_triple
from agents.common.bettingtree import NodeKind, TableColumn
from agents.common.weights import potential

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

__all__ = [
    "CALL",
    "FOLD",
    "RAISE",
    "alias_table",
    "best_action",
    "obvious",
    "sampled_strength",
    "simulate",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

FOLD = 0
CALL = 1
RAISE = 2
_UNKNOWN = -1.0
_SHOWDOWN = int(NodeKind.SHOWDOWN)
_CHANCE = int(NodeKind.CHANCE)
_KIND, _PLAYER, _ROUND = int(TableColumn.KIND), int(TableColumn.PLAYER), int(TableColumn.ROUND)
_RAISES, _CHILD, _SPENT = int(TableColumn.RAISES), int(TableColumn.FOLD), int(TableColumn.SPENT)
"""The table's columns (``_CHILD + action``: the child after ``action``; ``_SPENT + p``:
position ``p``'s chips in)."""
_MIX = uint64(0xD1B54A32D192ED03)


@njit(cache=CACHE)
def best_action(evs: FloatArray, legal: npt.NDArray[np.bool_]) -> int:  # pragma: no cover
    """The legal action (``FOLD``, ``CALL``, ``RAISE``) of the highest EV; a tie goes to the
    more aggressive action (raise over call, call over fold)."""
    best = -1
    for action in range(3):
        if legal[action] and (best < 0 or evs[action] >= evs[best]):
            best = action
    return best


@njit(cache=CACHE)
def obvious(
    evs: FloatArray, sds: FloatArray, legal: npt.NDArray[np.bool_]
) -> bool:  # pragma: no cover - numba
    """Whether the best legal action's EV leads the second best's by more than the sum of
    their standard deviations (with one legal action, always)."""
    best = best_action(evs, legal)
    second = -1
    for action in range(3):
        if legal[action] and action != best and (second < 0 or evs[action] > evs[second]):
            second = action
    if second < 0:
        return True
    return bool(evs[best] - evs[second] > sds[best] + sds[second])


@njit(cache=CACHE, inline="always")
def _hand_value(c0: int, c1: int, board: IntArray, n: int) -> int:  # pragma: no cover
    """Value of two hole cards with the first ``n`` (3-5) cards of ``board``."""
    key = KEY_BASE + CARD_KEY[c0] + CARD_KEY[c1]
    bits = CARD_BIT[c0] | CARD_BIT[c1]
    for i in range(n):
        key += CARD_KEY[board[i]]
        bits |= CARD_BIT[board[i]]
    return value_of_key(key, bits)


@njit(cache=CACHE)
def sampled_strength(  # noqa: PLR0917  (numba kernels take positional arguments)
    c0: int, c1: int, board: IntArray, n: int, samples: int, state: np.uint64
) -> float:  # pragma: no cover - numba
    """Effective strength of ``c0 c1`` on the first ``n`` cards of ``board``: its share of
    ``samples`` random holdings beaten (ties half), raised by :func:`potential` before the
    river."""
    used = (1 << c0) | (1 << c1)
    key = KEY_BASE
    bits = 0
    for i in range(n):
        used |= 1 << board[i]
        key += CARD_KEY[board[i]]
        bits |= CARD_BIT[board[i]]
    own = value_of_key(key + CARD_KEY[c0] + CARD_KEY[c1], bits | CARD_BIT[c0] | CARD_BIT[c1])
    score = 0.0
    for _ in range(samples):
        a = b = -1
        while a < 0:
            state, z = splitmix64(state)
            a = int(low_index(z, 52))
            b = int(high_index(z, 52))
            if a == b or (used >> a) & 1 or (used >> b) & 1:
                a = -1
        other = value_of_key(key + CARD_KEY[a] + CARD_KEY[b], bits | CARD_BIT[a] | CARD_BIT[b])
        if own > other:
            score += 1.0
        elif own == other:
            score += 0.5
    hs = score / samples
    if n < 5:
        hs += (1.0 - hs) * potential(c0, c1, board[:n])
    return hs


@njit(cache=CACHE)
def simulate(  # noqa: PLR0917  (numba kernels take positional arguments)
    hole: IntArray,
    board: IntArray,
    threshold: IntArray,
    alias: IntArray,
    combo_cards: IntArray,
    own_now: float,
    opponent_now: FloatArray,
    nodes: npt.NDArray[np.integer[Any]],
    root: int,
    later: IntArray,
    params: FloatArray,
    opponent_frequencies: FloatArray,
    opponent_predictability: FloatArray,
    opponent_shapes: FloatArray,
    shape_prior: float,
    opponent_edges: FloatArray,
    edge_weights: FloatArray,
    limits: IntArray,
    seed: int,
    out: FloatArray,
) -> int:  # pragma: no cover - numba
    """Simulate Loki-2's decision; returns the trials played.

    ``hole``: our cards; ``board``: the cards shown; ``threshold``/``alias``: the Walker
    alias table of the opponent's weights over ``combo_cards`` (threshold as probability
    · 2^32); ``own_now``/``opponent_now``: our strength and every opponent holding's on this
    street. ``nodes``: the game's betting tree, built from the rules, as the table the trials
    walk (:attr:`agents.common.bettingtree.BettingTree.table`); ``root``: the decision's
    node; ``later[round]``: one bet of each later round
    (:func:`agents.common.decisions.later_bets`). ``params``: Saund's policy
    (:meth:`~agents.common.betpolicy.SaundPolicy.array`);
    ``opponent_frequencies[round, facing, level, action]`` and
    ``opponent_predictability[round]``, ``opponent_shapes[round, facing, level, bin, action]``
    and ``shape_prior`` (0: no shapes), ``opponent_edges[round, level]`` and
    ``edge_weights[round, level]``: the opponent's
    :class:`~agents.common.betpolicy.PolicyFit` (its folds never revealed).
    ``limits``: ``[trials, min_trials, check_every, strength samples, cut-off on]``.
    ``out`` gets ``[EV fold, call, raise, SD fold, call, raise]`` in chips.
    """
    me = nodes[root, _PLAYER]
    round_now = nodes[root, _ROUND]
    base = nodes[root, _SPENT + me]
    """What we have put in before the decision (a trial's value counts what we put in from
    it on)."""
    trials, min_trials, check_every, samples, cutoff = (
        limits[0],
        limits[1],
        limits[2],
        limits[3],
        limits[4],
    )
    legal = np.zeros(3, np.bool_)
    legal[FOLD] = nodes[root, _CHILD + FOLD] >= 0
    legal[CALL] = True
    legal[RAISE] = nodes[root, _CHILD + RAISE] >= 0
    known = (1 << hole[0]) | (1 << hole[1])
    for c in board:
        known |= 1 << c
    shown = len(board)
    full = np.empty(5, np.int64)
    full[:shown] = board
    strength = np.empty((2, 4))
    sums = np.zeros(3)
    squares = np.zeros(3)
    evs = np.zeros(3)
    sds = np.zeros(3)
    combos = threshold.shape[0]
    state = uint64(seed)
    done = 0
    while done < trials:
        # The opponent's holding (alias method) and the rest of the board.
        state, z = splitmix64(state)
        combo = low_index(z, combos)
        if int(uint64(z) >> uint64(32)) >= threshold[combo]:
            combo = alias[combo]
        o0, o1 = combo_cards[combo, 0], combo_cards[combo, 1]
        used = known | (1 << o0) | (1 << o1)
        for i in range(shown, 5):
            card = -1
            while card < 0:
                state, z = splitmix64(state)
                card = int(low_index(z, 52))
                if (used >> card) & 1:
                    card = -1
            used |= 1 << card
            full[i] = card
        ours = _hand_value(hole[0], hole[1], full, 5)
        theirs = _hand_value(o0, o1, full, 5)
        strength[:, :] = _UNKNOWN
        strength[0, round_now] = own_now
        strength[1, round_now] = opponent_now[combo]
        trial_state = state
        state, _ = splitmix64(state)
        for first_action in range(CALL, RAISE + 1):
            if not legal[first_action]:
                continue
            rng = trial_state  # both plays share the trial's random numbers
            node = root
            forced = first_action
            value = 0.0
            while True:
                # The children's rows are read first: those loads overlap the sampling below
                # (a walk of the table in memory would otherwise wait for each row in turn).
                to_fold = nodes[node, _CHILD + FOLD]
                to_call = nodes[node, _CHILD + CALL]
                to_raise = nodes[node, _CHILD + RAISE]
                after_call = nodes[to_call, _KIND]
                after_raise = nodes[to_raise, _KIND] if to_raise >= 0 else -1
                actor = 0 if nodes[node, _PLAYER] == me else 1  # 0: us, 1: the opponent
                if forced >= 0:
                    action = forced
                    forced = -1
                else:
                    facing = to_fold >= 0  # a fold is legal facing a bet only
                    round_ = nodes[node, _ROUND]
                    spent_me, spent_op = nodes[node, _SPENT + me], nodes[node, _SPENT + 1 - me]
                    s = strength[actor, round_]
                    if s == _UNKNOWN:
                        board_cards = 3 if round_ == 1 else round_ + 2
                        holder0 = hole[0] if actor == 0 else o0
                        holder1 = hole[1] if actor == 0 else o1
                        sub = trial_state ^ (_MIX * uint64(1 + 4 * actor + round_))
                        s = sampled_strength(holder0, holder1, full, board_cards, samples, sub)
                        strength[actor, round_] = s
                    pot = spent_me + spent_op
                    owed = spent_op - spent_me if actor == 0 else spent_me - spent_op
                    odds = (owed + later[round_]) / (pot + owed + 2 * later[round_])
                    f, c, r = saund_triple(s, facing, odds, params)
                    if actor == 1:
                        level = min(nodes[node, _RAISES], 2)
                        w = opponent_predictability[round_]
                        freq = opponent_frequencies[round_, int(facing), level]
                        f = w * f + (1.0 - w) * freq[0]
                        c = w * c + (1.0 - w) * freq[1]
                        r = w * r + (1.0 - w) * freq[2]
                        f, c, r = fitted_triple(
                            f,
                            c,
                            r,
                            s,
                            facing,
                            opponent_edges[round_, level],
                            edge_weights[round_, level],
                            opponent_shapes[round_, int(facing), level],
                            shape_prior,
                            False,
                        )
                    if not facing:
                        f = 0.0
                    if to_raise < 0:
                        r = 0.0
                    total = f + c + r
                    rng, z = splitmix64(rng)
                    u = (int(uint64(z) >> uint64(11)) / 9007199254740992.0) * total
                    if u < f:
                        action = FOLD
                    elif u < f + c or r == 0.0:
                        action = CALL
                    else:
                        action = RAISE
                if action == FOLD:  # heads-up, a fold ends the hand (a FOLD leaf)
                    # what the folding player had put in: ours is lost, the opponent's won
                    stake = nodes[node, _SPENT + me] if actor == 0 else nodes[node, _SPENT + 1 - me]
                    value = -float(stake - base) if actor == 0 else float(stake + base)
                    break
                node, after = (to_call, after_call) if action == CALL else (to_raise, after_raise)
                if after == _SHOWDOWN:
                    stake = nodes[node, _SPENT + me]  # both have put in the same
                    if ours > theirs:
                        value = float(stake + base)
                    elif ours < theirs:
                        value = -float(stake - base)
                    else:
                        value = 0.5 * (2 * stake) - (stake - base)
                    break
                if after == _CHANCE:  # the round is over: the next one's first decision
                    node = nodes[node, _CHILD]
            sums[first_action] += value
            squares[first_action] += value * value
        done += 1
        if cutoff and done >= min_trials and done % check_every == 0:
            _moments(sums, squares, done, evs, sds)
            if obvious(evs, sds, legal):
                break
    _moments(sums, squares, done, evs, sds)
    out[0:3] = evs
    out[3:6] = sds
    return done


@njit(cache=CACHE, inline="always")
def _moments(
    sums: FloatArray, squares: FloatArray, n: int, evs: FloatArray, sds: FloatArray
) -> None:  # pragma: no cover - numba
    """Means of the trials and their standard errors (fold: 0 and 0)."""
    for action in range(3):
        mean = sums[action] / n
        evs[action] = mean
        variance = max(0.0, squares[action] / n - mean * mean)
        sds[action] = math.sqrt(variance / max(1, n - 1))
