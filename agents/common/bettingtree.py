"""The betting tree of a two-player limit game, flattened into numpy arrays.

The tree is enumerated from :class:`acpcbot.rules.HandState` — the children the rules module
offers (:meth:`~acpcbot.rules.HandState.children`), nothing re-encoded — once, in preorder
(a parent always precedes its children), and stored as arrays that numba kernels walk:

* ``kind[n]``: a :class:`NodeKind`;
* ``player[n]``: the acting position at a decision node, else ``-1``;
* ``round[n]``: the betting round the node belongs to (a chance node starts its round);
* ``children[n, a]``: the child after action ``a`` (0 fold, 1 call, 2 raise; ``-1`` when
  illegal); a chance node's only child is ``children[n, 0]``;
* ``payoff[n]``: chips won by position 0 at a fold; at a showdown, what position 0 wins
  when its hand is better (it loses as much when worse and nothing on a tie);
* ``spent[n, p]``: the chips position ``p`` has put in; ``raises[n]``: the raises made in
  the node's round so far.

Each node's betting is kept as the protocol text (``"crc/r"``), which is also the node part
of an information-set key (see :mod:`agents.dpp.infoset`), and finds a decision node
(:meth:`BettingTree.decision_node`). The tree of a game is built once a process
(:func:`betting_tree`): dpp's solver walks its arrays, loki2's simulation kernel its
:attr:`~BettingTree.table`. The rounds that start in the same situation
(:meth:`~acpcbot.rules.HandState.situation`: the same chips in, whatever the betting before)
are the same below it, so the walk asks the rules for what follows each situation once and
copies those nodes for the other starts in it, their betting text aside: most of the tree is
copied, not walked (a match's first decision waits for the tree).

>>> from acpcbot.game import bundled_game
>>> tree = BettingTree.build(bundled_game())
>>> tree.num_decisions, tree.decisions_per_round
(6378, (8, 70, 630, 5670))
>>> tree.betting[tree.children[0, 2]]  # position 1 raises first
'r'
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from acpcbot.actions import CALL, FOLD, RAISE, ActionType
from acpcbot.errors import UnsupportedGameError
from acpcbot.game import Game
from acpcbot.rules import HandState

ACTION_ORDER: tuple[ActionType, ...] = (ActionType.FOLD, ActionType.CALL, ActionType.RAISE)
"""Column order of every per-action array: fold, call, raise."""
_STEPS = (FOLD, CALL, RAISE)


class TableColumn(enum.IntEnum):
    """The columns of :attr:`BettingTree.table`."""

    KIND = 0
    PLAYER = 1
    ROUND = 2
    RAISES = 3
    FOLD = 4
    """The child after a fold; the call's and the raise's follow."""
    CALL = 5
    RAISE = 6
    SPENT = 7
    """Position 0's chips in; position 1's follow."""
    SPENT_1 = 8


class NodeKind(enum.IntEnum):
    """What happens at a node."""

    DECISION = 0
    FOLD = 1
    """Terminal: someone folded."""
    SHOWDOWN = 2
    """Terminal: the last round's betting ended with a call."""
    CHANCE = 3
    """A round ended; the next round's cards are dealt before its first decision."""


@dataclass(frozen=True, eq=False)
class BettingTree:
    """Every betting sequence of a two-player limit game (see the module docstring)."""

    game: Game
    kind: npt.NDArray[np.int8]
    player: npt.NDArray[np.int8]
    round: npt.NDArray[np.int8]
    children: npt.NDArray[np.int32]
    payoff: npt.NDArray[np.float64]
    spent: npt.NDArray[np.int64]
    raises: npt.NDArray[np.int8]
    betting: tuple[str, ...]
    _index: dict[str, int] = field(repr=False)

    @classmethod
    def build(cls, game: Game) -> BettingTree:
        """Enumerate the tree of ``game`` with the rules module."""
        if game.num_players != 2 or not game.is_limit:
            raise UnsupportedGameError("the betting tree needs a two-player limit game")
        nodes = _Nodes()
        nodes.visit(HandState(game))
        kinds, betting = nodes.kinds, nodes.betting
        decisions = {b: i for i, b in enumerate(betting) if kinds[i] == NodeKind.DECISION}
        return cls(
            game=game,
            kind=np.array(kinds, dtype=np.int8),
            player=np.array(nodes.players, dtype=np.int8),
            round=np.array(nodes.rounds, dtype=np.int8),
            children=np.array(nodes.children, dtype=np.int32),
            payoff=np.array(nodes.payoffs, dtype=np.float64),
            spent=np.array(nodes.spent, dtype=np.int64),
            raises=np.array(nodes.raises, dtype=np.int8),
            betting=tuple(betting),
            _index=decisions,
        )

    @functools.cached_property
    def table(self) -> npt.NDArray[np.integer[Any]]:
        """The tree as one row a node (:class:`TableColumn`: kind, player, round, raises,
        the three children, what each position has put in), of the smallest integer type
        that holds them: the form a numba kernel walks fastest, a row a step in few cache
        lines."""
        columns: list[npt.NDArray[np.integer[Any]]] = [
            self.kind,
            self.player,
            self.round,
            self.raises,
            self.children,
            self.spent,
        ]
        table = np.column_stack(columns)
        fits = np.int16 if max(self.num_nodes, int(self.spent.max())) <= 2**15 - 1 else np.int32
        return np.ascontiguousarray(table.astype(fits))

    @functools.cached_property
    def parent(self) -> npt.NDArray[np.int32]:
        """Each node's parent (``-1`` at the root)."""
        parent = np.full(self.num_nodes, -1, dtype=np.int32)
        nodes, _ = np.nonzero(self.children >= 0)
        parent[self.children[self.children >= 0]] = nodes
        return parent

    @functools.cached_property
    def _states(self) -> dict[int, HandState]:
        return {}

    def state(self, node: int) -> HandState:
        """The rules' state at ``node`` (at a chance node, the next round's before its first
        action), stepped to from the root through :meth:`HandState.child` the first time it
        is asked for and kept: for a walk of the arrays that asks what depends on the betting
        (an opponent model keyed by it). Shared: never change it."""
        known = self._states.get(node)
        if known is not None:
            return known
        parent = int(self.parent[node])
        if parent < 0:
            state = HandState(self.game)
        elif self.kind[parent] == NodeKind.CHANCE:
            state = self.state(parent)
        else:
            column = int(np.flatnonzero(self.children[parent] == node)[0])
            state = self.state(parent).child(_STEPS[column])
        self._states[node] = state
        return state

    @property
    def num_nodes(self) -> int:
        return len(self.kind)

    @property
    def num_decisions(self) -> int:
        return len(self._index)

    @property
    def decisions_per_round(self) -> tuple[int, ...]:
        """Decision nodes in each round."""
        decision = self.kind == NodeKind.DECISION
        return tuple(int(np.sum(decision & (self.round == r))) for r in range(self.game.num_rounds))

    def decision_node(self, betting: str) -> int:
        """The decision node reached by ``betting`` (protocol text, e.g. ``"cc/r"``)."""
        try:
            return self._index[betting]
        except KeyError:
            raise KeyError(f"no decision node with betting {betting!r}") from None

    def legal_actions(self, node: int) -> tuple[ActionType, ...]:
        """The actions with a child at ``node``, in the order fold, call, raise."""
        return tuple(a for a, c in zip(ACTION_ORDER, self.children[node], strict=True) if c >= 0)


class _Nodes:
    """The tree's columns as the walk fills them, a node at a time in preorder. (A class,
    not functions nested in :meth:`BettingTree.build`: a recursive closure is a reference
    cycle, which would keep every list of the walk alive until the next full collection.)"""

    def __init__(self) -> None:
        self.kinds: list[int] = []
        self.players: list[int] = []
        self.rounds: list[int] = []
        self.children: list[list[int]] = []
        self.payoffs: list[float] = []
        self.spent: list[list[int]] = []
        self.raises: list[int] = []
        self.betting: list[str] = []
        self.starts: dict[tuple[object, ...], tuple[int, int]] = {}
        """The nodes below each round's start walked so far (first, end), by situation."""

    def add(self, kind: NodeKind, hand: HandState, player: int) -> int:
        self.kinds.append(kind)
        self.players.append(player)
        self.rounds.append(hand.round)
        self.children.append([-1, -1, -1])
        self.payoffs.append(_payoff(kind, hand))
        self.spent.append(list(hand.spent))
        self.raises.append(hand.num_raises)
        self.betting.append(hand.betting_text())
        return len(self.kinds) - 1

    def visit(self, hand: HandState) -> int:
        """Add the node of ``hand`` and everything below it; its index."""
        if hand.finished:
            kind = NodeKind.SHOWDOWN if hand.is_showdown else NodeKind.FOLD
            return self.add(kind, hand, -1)
        node = self.add(NodeKind.DECISION, hand, hand.current_player)
        for action, child in hand.children():
            column = ACTION_ORDER.index(action.type)
            if not child.finished and child.round != hand.round:
                chance = self.add(NodeKind.CHANCE, child, -1)
                self.children[chance][0] = self.start_round(child)
                self.children[node][column] = chance
            else:
                self.children[node][column] = self.visit(child)
        return node

    def start_round(self, hand: HandState) -> int:
        """:meth:`visit` for ``hand`` at a round's start: a copy of the nodes below the
        first start in its situation, if there was one (the rules' states the same below
        it, the betting texts begin with this start's instead)."""
        situation = hand.situation()
        walked = self.starts.get(situation)
        if walked is None:
            first = len(self.kinds)
            self.visit(hand)
            self.starts[situation] = (first, len(self.kinds))
            return first
        first, end = walked
        node = len(self.kinds)
        offset = node - first
        before, after = len(self.betting[first]), hand.betting_text()
        self.kinds.extend(self.kinds[first:end])
        self.players.extend(self.players[first:end])
        self.rounds.extend(self.rounds[first:end])
        self.children.extend(
            [[c + offset if c >= 0 else -1 for c in row] for row in self.children[first:end]]
        )
        self.payoffs.extend(self.payoffs[first:end])
        self.spent.extend(self.spent[first:end])  # (read only: made into one array)
        self.raises.extend(self.raises[first:end])
        self.betting.extend([after + text[before:] for text in self.betting[first:end]])
        return node


@functools.cache
def betting_tree(game: Game) -> BettingTree:
    """The betting tree of ``game``, built the first time it is asked for and kept (building
    it walks every node through the rules)."""
    return BettingTree.build(game)


def _payoff(kind: NodeKind, hand: HandState) -> float:
    if kind is NodeKind.FOLD:
        return hand.value(0)
    if kind is NodeKind.SHOWDOWN:
        win = hand.value(0, (1, 0))
        if hand.value(0, (0, 1)) != -win or hand.value(0, (0, 0)) != 0.0:
            raise UnsupportedGameError("a showdown must be zero-sum and symmetric")
        return win
    return 0.0
