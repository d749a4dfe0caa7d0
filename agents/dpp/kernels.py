"""Numba kernels of vector-form CFR+ and exact best response on an abstract game.

Kernels take the tree as ``(kind, player, round, children, base, payoff)`` and the chance
model as ``(sizes, initial, transitions, fold, fold_ones, showdown)`` (see
:class:`agents.dpp.chance.PaddedChance`). Every kernel walks the flattened betting tree
(:mod:`agents.common.bettingtree`) with one vector per node over the buckets of the node's round: a
forward pass in preorder gives both players' reach (strategy times chance), the leaves turn
the opponent's reach into values for one player, and a backward pass in reverse preorder
folds values up — averaging with the strategy (:data:`EVALUATE`), taking the best action per
bucket (:data:`BEST_RESPONSE`), or doing a CFR+ step (:data:`UPDATE`: regrets floored at
zero, linearly weighted average).

This module imports numba; import it only where kernels run.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from acpcbot.handeval.jitcache import cache_enabled

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

DECISION = 0
FOLD = 1
SHOWDOWN = 2
CHANCE = 3

EVALUATE = 0
BEST_RESPONSE = 1
UPDATE = 2


@njit(cache=CACHE)
def regret_matching(regrets, legal, probs):  # type: ignore[no-untyped-def]
    """Strategy proportional to positive regret, uniform over legal actions when none."""
    for row in range(regrets.shape[0]):
        total = 0.0
        count = 0
        for a in range(3):
            if legal[row, a]:
                count += 1
                if regrets[row, a] > 0.0:
                    total += regrets[row, a]
        for a in range(3):
            if not legal[row, a]:
                probs[row, a] = 0.0
            elif total > 0.0:
                probs[row, a] = max(regrets[row, a], 0.0) / total
            else:
                probs[row, a] = 1.0 / count


@njit(cache=CACHE)
def forward(tree, chance, probs, reach):  # type: ignore[no-untyped-def]
    """Both players' reach at every node (``reach[node, position, bucket]``)."""
    kind, player, round_, children, base, _ = tree
    sizes, initial, transitions, _, _, _ = chance
    m0 = sizes[0]
    for p in range(2):
        for i in range(m0):
            reach[0, p, i] = initial[i]
    for n in range(kind.shape[0]):
        k = kind[n]
        if k == DECISION:
            q = player[n]
            m = sizes[round_[n]]
            b = base[n]
            for a in range(3):
                c = children[n, a]
                if c < 0:
                    continue
                for i in range(m):
                    reach[c, q, i] = reach[n, q, i] * probs[b + i, a]
                    reach[c, 1 - q, i] = reach[n, 1 - q, i]
        elif k == CHANCE:
            c = children[n, 0]
            r = round_[n]
            m_from = sizes[r - 1]
            m_to = sizes[r]
            for p in range(2):
                for j in range(m_to):
                    reach[c, p, j] = 0.0
                for i in range(m_from):
                    weight = reach[n, p, i]
                    if weight == 0.0:
                        continue
                    for j in range(m_to):
                        reach[c, p, j] += weight * transitions[r, i, j]


@njit(cache=CACHE)
def leaf_value(n, position, tree, chance, reach, value):  # type: ignore[no-untyped-def]  # noqa: PLR0917
    """Values for ``position`` at leaf ``n``, given the opponent's reach there."""
    kind, _, round_, _, _, payoff = tree
    sizes, _, _, fold, fold_ones, showdown = chance
    opponent = 1 - position
    r = round_[n]
    m = sizes[r]
    if kind[n] == FOLD:
        u = payoff[n] if position == 0 else -payoff[n]
        if fold_ones[r]:
            total = 0.0
            for j in range(m):
                total += reach[n, opponent, j]
            for i in range(m):
                value[n, i] = u * total
        else:
            for i in range(m):
                acc = 0.0
                for j in range(m):
                    acc += fold[r, i, j] * reach[n, opponent, j]
                value[n, i] = u * acc
    else:
        # showdown[i, j] is antisymmetric, so the same row-times-reach serves both seats
        u = payoff[n]
        for i in range(m):
            acc = 0.0
            for j in range(m):
                acc += showdown[i, j] * reach[n, opponent, j]
            value[n, i] = u * acc


@njit(cache=CACHE, parallel=True)
def leaf_values(position, tree, chance, terminals, reach, value):  # type: ignore[no-untyped-def]  # noqa: PLR0917
    """:func:`leaf_value` at every leaf, on all cores (for large abstractions)."""
    for t in prange(terminals.shape[0]):
        leaf_value(terminals[t], position, tree, chance, reach, value)


@njit(cache=CACHE)
def leaf_values_serial(position, tree, chance, terminals, reach, value):  # type: ignore[no-untyped-def]  # noqa: PLR0917
    """:func:`leaf_value` at every leaf on one core: small games, where starting threads
    costs more than it saves."""
    for t in range(terminals.shape[0]):
        leaf_value(terminals[t], position, tree, chance, reach, value)


@njit(cache=CACHE)
def backward(mode, position, tree, chance, probs, work, learning, weight):  # type: ignore[no-untyped-def]  # noqa: PLR0917
    """Fold leaf values up the tree for ``position``; with :data:`UPDATE`, also do CFR+.

    ``work`` is ``(reach, value)``; ``learning`` is ``(regrets, average)``, updated in place.
    """
    kind, player, round_, children, base, _ = tree
    sizes, _, transitions, _, _, _ = chance
    reach, value = work
    regrets, average = learning
    for n in range(kind.shape[0] - 1, -1, -1):
        k = kind[n]
        if k == DECISION:
            m = sizes[round_[n]]
            b = base[n]
            if player[n] != position:
                for i in range(m):
                    acc = 0.0
                    for a in range(3):
                        c = children[n, a]
                        if c >= 0:
                            acc += value[c, i]
                    value[n, i] = acc
            elif mode == BEST_RESPONSE:
                for i in range(m):
                    best = -np.inf
                    for a in range(3):
                        c = children[n, a]
                        if c >= 0 and value[c, i] > best:
                            best = value[c, i]
                    value[n, i] = best
            else:
                for i in range(m):
                    row = b + i
                    acc = 0.0
                    for a in range(3):
                        c = children[n, a]
                        if c >= 0:
                            acc += probs[row, a] * value[c, i]
                    value[n, i] = acc
                    if mode == UPDATE:
                        own = reach[n, position, i]
                        for a in range(3):
                            c = children[n, a]
                            if c >= 0:
                                regrets[row, a] = max(regrets[row, a] + value[c, i] - acc, 0.0)
                                if weight > 0.0:
                                    average[row, a] += weight * own * probs[row, a]
        elif k == CHANCE:
            c = children[n, 0]
            r = round_[n]
            m_from = sizes[r - 1]
            m_to = sizes[r]
            for i in range(m_from):
                acc = 0.0
                for j in range(m_to):
                    acc += transitions[r, i, j] * value[c, j]
                value[n, i] = acc


@njit(cache=CACHE)
def root_value(chance, value):  # type: ignore[no-untyped-def]
    """Expected value at the root: bucket values weighted by round-0 chance."""
    sizes, initial, _, _, _, _ = chance
    total = 0.0
    for i in range(sizes[0]):
        total += initial[i] * value[0, i]
    return total
