"""CFR+ on an abstract game, and its exact best response.

:class:`AbstractGame` joins a betting tree, its chance model and the information-set layout;
:class:`CfrPlus` runs vector-form CFR+ (regret matching+, alternating updates, linearly
weighted average after a short delay) on it with the numba kernels of
:mod:`agents.dpp.kernels`. CFR+ is deterministic: the same game and iteration count give the
same strategy bit for bit.

Exploitability is measured exactly in the abstract game: each player's best response to the
other's average strategy (one backward pass taking the best action per bucket), summed and
halved. It is zero exactly at an equilibrium. A best response bucket by bucket is a true
best response because in both games solved here a player's past buckets say nothing about
the future once the current bucket is known (Leduc's buckets are the cards themselves; the
HULHE abstraction's bucket chains are independent Markov chains).

>>> from acpcbot.game import parse_game
>>> from agents.dpp.chance import LEDUC_TEXT, leduc_chance
>>> game = parse_game(LEDUC_TEXT)
>>> solver = CfrPlus(AbstractGame.build(game, leduc_chance(game)))
>>> solver.run(200)
>>> round(solver.exploitability() * 1000 / game.big_blind, 1) < 10  # mbb/g
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from acpcbot.game import Game
from agents.common.bettingtree import BettingTree, NodeKind
from agents.dpp.chance import AbstractChance, PaddedChance
from agents.dpp.infoset import InfoSetLayout

FloatArray = npt.NDArray[np.float64]

DEFAULT_DELAY = 25
"""CFR+ iterations left out of the average strategy (their strategies are poor)."""
PARALLEL_WORK = 10_000_000
"""Leaf work (leaves × buckets²) above which the leaves are valued on all cores."""


@dataclass(frozen=True, eq=False)
class AbstractGame:
    """A betting tree played with buckets: everything the kernels need."""

    tree: BettingTree
    chance: AbstractChance
    layout: InfoSetLayout
    base: npt.NDArray[np.int64]
    """Row of bucket 0 for every node (``-1`` for non-decisions)."""
    legal: npt.NDArray[np.bool_]
    """``legal[row, action]``: the action has a child at the row's node."""
    terminals: npt.NDArray[np.int64]
    padded: PaddedChance

    @classmethod
    def build(
        cls, game: Game, chance: AbstractChance, tree: BettingTree | None = None
    ) -> AbstractGame:
        tree = tree or BettingTree.build(game)
        if chance.num_rounds != game.num_rounds:
            raise ValueError("the chance model has a different number of rounds")
        decisions = np.flatnonzero(tree.kind == NodeKind.DECISION)
        layout = InfoSetLayout(tuple(tree.betting[n] for n in decisions), chance.sizes)
        base = np.full(tree.num_nodes, -1, dtype=np.int64)
        base[decisions] = layout.base
        sizes = np.array(chance.sizes)[tree.round[decisions]]
        legal = np.repeat(tree.children[decisions] >= 0, sizes, axis=0)
        terminals = np.flatnonzero((tree.kind == NodeKind.FOLD) | (tree.kind == NodeKind.SHOWDOWN))
        return cls(tree, chance, layout, base, legal, terminals, chance.padded())

    @property
    def num_rows(self) -> int:
        return self.layout.num_rows

    @property
    def kernel_tree(self) -> tuple[npt.NDArray[Any], ...]:
        """The tree as the kernels take it."""
        t = self.tree
        return (t.kind, t.player, t.round, t.children, self.base, t.payoff)

    def uniform_strategy(self) -> FloatArray:
        """Every legal action equally likely."""
        return np.asarray(self.legal / self.legal.sum(axis=1, keepdims=True), dtype=np.float64)


class CfrPlus:
    """Vector-form CFR+ on an :class:`AbstractGame`."""

    def __init__(self, game: AbstractGame, delay: int = DEFAULT_DELAY) -> None:
        # numba: compiled and loaded when first used
        from agents.dpp import kernels

        self.game = game
        self.delay = delay
        self.iterations = 0
        self.regrets = np.zeros((game.num_rows, 3))
        self.average = np.zeros((game.num_rows, 3))
        self._k = kernels
        nodes = game.tree.num_nodes
        width = int(max(game.chance.sizes))
        self._reach = np.zeros((nodes, 2, width))
        self._value = np.zeros((nodes, width))
        self._probs = np.zeros((game.num_rows, 3))
        work = len(game.terminals) * width * width
        self._leaves = kernels.leaf_values if work > PARALLEL_WORK else kernels.leaf_values_serial

    def run(self, iterations: int) -> None:
        """Do ``iterations`` more CFR+ iterations (each updates both players in turn)."""
        for _ in range(iterations):
            self.iterations += 1
            weight = float(max(self.iterations - self.delay, 0))
            for position in (0, 1):
                self._k.regret_matching(self.regrets, self.game.legal, self._probs)
                self._pass(self._k.UPDATE, position, self._probs, weight)

    def average_strategy(self) -> FloatArray:
        """The average strategy, normalised over legal actions (uniform where never reached)."""
        return normalize(self.average, self.game.legal)

    def current_strategy(self) -> FloatArray:
        probs = np.zeros_like(self.regrets)
        self._k.regret_matching(self.regrets, self.game.legal, probs)
        return probs

    def best_response_value(self, position: int, strategy: FloatArray) -> float:
        """What ``position`` wins per game (chips) best-responding to ``strategy``."""
        return self._pass(self._k.BEST_RESPONSE, position, strategy, 0.0)

    def value(self, strategy: FloatArray) -> float:
        """What position 0 wins per game (chips) when both play ``strategy``."""
        return self._pass(self._k.EVALUATE, 0, strategy, 0.0)

    def exploitability(self, strategy: FloatArray | None = None) -> float:
        """Mean of the two best-response values (chips per game) against ``strategy``
        (default: the average strategy); zero exactly at an equilibrium."""
        s = self.average_strategy() if strategy is None else strategy
        return (self.best_response_value(0, s) + self.best_response_value(1, s)) / 2

    def _pass(self, mode: int, position: int, probs: FloatArray, weight: float) -> float:
        g = self.game
        tree, chance = g.kernel_tree, g.padded.as_tuple()
        self._k.forward(tree, chance, probs, self._reach)
        self._leaves(position, tree, chance, g.terminals, self._reach, self._value)
        work = (self._reach, self._value)
        learning = (self.regrets, self.average)
        self._k.backward(mode, position, tree, chance, probs, work, learning, weight)
        return float(self._k.root_value(chance, self._value))


def normalize(weights: FloatArray, legal: npt.NDArray[np.bool_]) -> FloatArray:
    """Rows of non-negative weights scaled to sum to 1 over legal actions (uniform if 0)."""
    masked = np.where(legal, weights, 0.0)
    totals = masked.sum(axis=1, keepdims=True)
    uniform = legal / legal.sum(axis=1, keepdims=True)
    safe = np.where(totals > 0, totals, 1.0)
    return np.asarray(np.where(totals > 0, masked / safe, uniform), dtype=np.float64)
