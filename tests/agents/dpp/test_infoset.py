"""Information-set keys round-trip through text and table rows."""

from __future__ import annotations

import numpy as np
import pytest

from acpcbot.game import Game
from agents.common.bettingtree import BettingTree, NodeKind
from agents.dpp.infoset import InfoSetKey, InfoSetLayout


def test_every_key_round_trips(limit_game: Game) -> None:
    tree = BettingTree.build(limit_game)
    decisions = np.flatnonzero(tree.kind == NodeKind.DECISION)
    layout = InfoSetLayout(tuple(tree.betting[n] for n in decisions), (169, 8, 4, 2))
    assert layout.num_rows == 8 * 169 + 70 * 8 + 630 * 4 + 5670 * 2
    seen = set()
    for row in range(layout.num_rows):
        key = layout.key_of(row)
        assert layout.row_of(key) == row
        assert InfoSetKey.parse(str(key)) == key
        seen.add(str(key))
    assert len(seen) == layout.num_rows


def test_bad_keys() -> None:
    layout = InfoSetLayout(("", "c/"), (3, 2))
    with pytest.raises(KeyError):
        layout.row_of(InfoSetKey("c/", 2))  # round 1 has two buckets
    with pytest.raises(KeyError):
        layout.row_of(InfoSetKey("r", 0))
    with pytest.raises(IndexError):
        layout.key_of(5)
    for text in ("", "c", "x:1", "c:-1", "c:01"):
        with pytest.raises(ValueError):
            InfoSetKey.parse(text)
