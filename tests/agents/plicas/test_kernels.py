"""PLICAS's compiled walk of a betting round gives the Python walk's values to the last bit,
and its sums are numpy's."""

from __future__ import annotations

import numpy as np

from acpcbot.game import bundled_game
from acpcbot.handeval.combos import NUM_COMBOS
from agents.common.bettingtree import NodeKind
from agents.plicas.actionmodel import ActionModel
from agents.plicas.actionprior import action_prior
from agents.plicas.exploitation import (
    _Likelihoods,
    _round_values,
    _RoundWalk,
    _tree,
    _WalkSpace,
)
from agents.plicas.holdingbuckets import fine_count
from agents.plicas.kernels import pairwise_sum

GAME = bundled_game()


def test_its_sums_are_numpys_to_the_bit() -> None:
    rng = np.random.default_rng(37)
    lengths = [*range(1, 300), *rng.integers(300, 5000, 700).tolist(), *[NUM_COMBOS] * 1000]
    for case, length in enumerate(lengths):
        values = rng.random(length) * rng.random(length) ** 8
        if case % 3 == 0:
            values[rng.random(length) < 0.5] = 0.0
        assert pairwise_sum(values) == values.sum(), (case, length)


def test_the_compiled_walk_values_each_action_as_the_python_walk_does_to_the_bit() -> None:
    """Thousands of decisions: a node of every round, a range with holdings weighing
    nothing (and sometimes none at all), buckets with dead holdings, the opponent's
    probabilities by the fitted prior and what a model learned, any equity."""
    rng = np.random.default_rng(3)
    tree = _tree(GAME)
    arrays = tree.arrays
    decisions = np.flatnonzero(arrays.kind == NodeKind.DECISION)
    model = ActionModel(prior=action_prior())
    space = _WalkSpace()
    compared = 0
    for case in range(3000):
        if case % 500 == 499:  # counts at the rows made so far: away from the prior
            for counts in model.levels[0].counts:
                counts[:] = rng.random(counts.shape) * 5
            model.rescale(1.0)  # (which forgets the probabilities it knew)
        node = int(rng.choice(decisions))
        round_ = int(arrays.round[node])
        buckets = rng.integers(-1, fine_count(round_), NUM_COMBOS)
        weights = rng.random(NUM_COMBOS) * (rng.random(NUM_COMBOS) < 0.6) * (buckets >= 0)
        if case % 50 == 0:
            weights[:] = 0.0
        equity = rng.random(NUM_COMBOS) * (buckets >= 0)
        me = int(arrays.player[node])
        likelihoods = _Likelihoods(case, model, tree, buckets)
        compiled = _round_values(likelihoods, tree, equity, node, me, weights, space)
        walk = _RoundWalk(likelihoods, tree, equity, me)
        call, raise_ = tree.children[node][1], tree.children[node][2]
        python = (walk.value(call, weights), walk.value(raise_, weights) if raise_ >= 0 else 0.0)
        assert compiled == python, (case, node, compiled, python)
        compared += raise_ >= 0
    assert compared > 1000  # raises walked too
