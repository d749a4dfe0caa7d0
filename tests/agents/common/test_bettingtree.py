"""The betting tree: enumerated from the rules, flattened consistently."""

from __future__ import annotations

import gc
from pathlib import Path

import numpy as np
import pytest

from acpcbot.actions import ActionType
from acpcbot.errors import UnsupportedGameError
from acpcbot.game import NOLIMIT_HOLDEM, Game, bundled_game, load_game
from acpcbot.protocol.matchstate import parse_betting
from acpcbot.rules import replay
from agents.common.bettingtree import (
    ACTION_ORDER,
    BettingTree,
    NodeKind,
    TableColumn,
    betting_tree,
)


@pytest.fixture(scope="module")
def tree(limit_game: Game) -> BettingTree:
    return BettingTree.build(limit_game)


def test_hulhe_sizes(tree: BettingTree) -> None:
    # 8 preflop decisions; 7 ways into the flop, 9 into each later round; 10 decisions a round
    assert tree.decisions_per_round == (8, 70, 630, 5670)
    counts = np.bincount(tree.kind, minlength=4)
    assert counts[NodeKind.CHANCE] == 7 + 7 * 9 + 7 * 81
    assert counts[NodeKind.SHOWDOWN] == 7 * 9 * 9 * 9


def test_every_node_agrees_with_the_rules(tree: BettingTree) -> None:
    for n in range(tree.num_nodes):
        hand = replay(tree.game, parse_betting(tree.betting[n]))
        assert list(tree.spent[n]) == hand.spent and tree.raises[n] == hand.num_raises
        kind = NodeKind(tree.kind[n])
        if kind is NodeKind.DECISION:
            assert not hand.finished
            assert tree.player[n] == hand.current_player
            assert tree.legal_actions(n) == hand.legal_action_types()
            assert all(c > n for c in tree.children[n] if c >= 0)  # preorder
        elif kind is NodeKind.CHANCE:
            assert not hand.finished and hand.num_actions == 0 and hand.round == tree.round[n]
            assert tree.kind[tree.children[n, 0]] == NodeKind.DECISION
        else:
            assert hand.finished and hand.is_showdown == (kind is NodeKind.SHOWDOWN)
            expected = hand.value(0, (1, 0)) if hand.is_showdown else hand.value(0)
            assert tree.payoff[n] == expected


def test_caps_and_folds(tree: BettingTree) -> None:
    raise_ = ACTION_ORDER.index(ActionType.RAISE)
    fold = ACTION_ORDER.index(ActionType.FOLD)
    capped = tree.decision_node("rrr")
    assert tree.children[capped, raise_] < 0 and tree.children[capped, fold] >= 0
    assert tree.children[tree.decision_node("cc/"), fold] < 0  # no fold when checking is free
    assert tree.payoff[tree.children[tree.decision_node(""), fold]] == 5.0  # the SB folds


def test_leduc_tree(vectors: Path) -> None:
    tree = BettingTree.build(load_game(vectors / "games" / "leduc.limit.2p.game"))
    assert tree.decisions_per_round == (6, 30)
    with pytest.raises(KeyError):
        tree.decision_node("rrr")


def test_only_two_player_limit_games() -> None:
    with pytest.raises(UnsupportedGameError):
        BettingTree.build(bundled_game(NOLIMIT_HOLDEM))


def test_the_tree_of_a_game_is_built_once(limit_game: Game) -> None:
    assert betting_tree(limit_game) is betting_tree(bundled_game())


def test_the_table_is_the_tree_a_row_a_node(tree: BettingTree) -> None:
    table = tree.table
    assert table.dtype == np.int16 and table.flags.c_contiguous  # HULHE's 17,221 nodes fit
    assert (table[:, TableColumn.KIND] == tree.kind).all()
    assert (table[:, TableColumn.PLAYER] == tree.player).all()
    assert (table[:, TableColumn.ROUND] == tree.round).all()
    assert (table[:, TableColumn.RAISES] == tree.raises).all()
    assert (table[:, TableColumn.FOLD : TableColumn.RAISE + 1] == tree.children).all()
    assert (table[:, TableColumn.SPENT : TableColumn.SPENT_1 + 1] == tree.spent).all()


def test_building_the_tree_leaves_no_garbage_for_the_collector(limit_game: Game) -> None:
    """What the walk kept is freed when the tree is built, not at the next full collection
    (which a loki2 decision would then pay for)."""
    gc.collect()
    BettingTree.build(limit_game)
    assert gc.collect() < 100


def test_the_state_at_a_node_is_the_rules_state_there(tree: BettingTree) -> None:
    for node in range(0, tree.num_nodes, 7):  # a spread over every kind and round
        state = tree.state(node)
        assert state is tree.state(node)  # kept
        if tree.kind[node] == NodeKind.CHANCE:  # the next round's, before its first action
            assert state.betting_text() == tree.betting[tree.children[node, 0]]
            assert state.round == tree.round[node]
        else:
            assert state.betting_text() == tree.betting[node]
        assert list(state.spent) == tree.spent[node].tolist()
        if tree.kind[node] == NodeKind.DECISION:
            assert state.current_player == tree.player[node]
    assert tree.parent[0] == -1
    assert all(
        tree.parent[tree.children[n, 1]] == n
        for n in range(0, tree.num_nodes, 97)
        if tree.children[n, 1] >= 0
    )
