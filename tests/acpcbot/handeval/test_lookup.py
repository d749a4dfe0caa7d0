"""The numpy ranking of :mod:`acpcbot.handeval.lookup` against the numba evaluator: the same
values (not just the same order), hand by hand."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from acpcbot.cards import parse_cards
from acpcbot.handeval.categories import NUM_VALUES
from acpcbot.handeval.evaluator import TABLES_SHA256, rank_batch
from acpcbot.handeval.lookup import VALUE_CLASSES, rank_rows, tables_sha256
from tests.acpcbot.handeval.test_evaluator import _random_hands


def _one_hand_of_every_class() -> np.ndarray:
    """Five cards for each of the 7,462 classes: every multiset of ranks in mixed suits
    (no flush), and every set of five ranks in one suit (the flushes)."""
    hands = []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        seen: dict[int, int] = {}
        cards = []
        for r in ranks:
            suit = seen[r] = seen.get(r, -1) + 1
            cards.append(4 * r + suit)
        if len({c & 3 for c in cards}) == 1:  # five single ranks all in suit 0
            cards[-1] += 1
        hands.append(cards)
    hands.extend([4 * r + 3 for r in ranks] for ranks in itertools.combinations(range(13), 5))
    return np.array(hands, dtype=np.uint8)


def test_every_class_has_its_value() -> None:
    hands = _one_hand_of_every_class()
    ours = rank_rows(hands)
    assert (ours == rank_batch(hands)).all()
    assert sorted(ours.tolist()) == list(range(1, NUM_VALUES + 1))
    assert len(VALUE_CLASSES) == NUM_VALUES


@pytest.mark.parametrize("k", [5, 6, 7])
def test_random_hands_have_the_numba_values(k: int) -> None:
    hands = _random_hands(200_000 if k == 7 else 50_000, k, seed=700 + k)
    assert (rank_rows(hands) == rank_batch(hands)).all()


def test_ties_are_ties() -> None:
    # The same ranks in other suits, and boards that play for both players.
    pairs = [
        ("AsKd7c5h3s2d9h", "AhKc7d5s3h2c9s"),
        ("2c3d4h5s6c9dTd", "2d3h4s5c6d9hTh"),  # the board's straight
        ("AsKsQsJsTs2c3c", "AsKsQsJsTs4d5d"),  # the board's royal flush
        ("KcKdQhQs2c3c4d", "KhKsQcQd2d3d4c"),
    ]
    for a, b in pairs:
        ranks = rank_rows([parse_cards(a), parse_cards(b)]).tolist()
        assert ranks[0] == ranks[1] == rank_batch([parse_cards(a)])[0]


def test_the_reference_deals_have_the_numba_values(vectors: Path) -> None:
    """Every hand of the recorded deals, both players with the whole board."""
    rows = []
    for path in sorted((vectors / "deals").glob("limit2p.*.deals.txt")):
        for line in path.read_text().splitlines():
            if line.startswith("#"):
                continue
            _, first, second, board = line.split()
            rows += [parse_cards(first + board), parse_cards(second + board)]
    hands = np.array(rows, dtype=np.uint8)
    assert len(hands) == 6_400
    assert (rank_rows(hands) == rank_batch(hands)).all()


def test_the_reference_showdowns_go_the_same_way(vectors: Path) -> None:
    """Every showdown the reference dealer logged: who won (or that it was a split)."""
    lines, rows = [], []
    for path in sorted((vectors / "logs").glob("*/*2p.*.log")):
        for line in path.read_text().splitlines():
            if not line.startswith("STATE:"):
                continue
            _, _, betting, cards, _, _ = line.split(":")
            if "f" in betting:
                continue
            holes, _, board = cards.partition("/")
            first, second = holes.split("|")
            board = board.replace("/", "")
            lines.append(line)
            rows += [parse_cards(first + board), parse_cards(second + board)]
    assert len(lines) > 3_000
    ours = rank_rows(rows).astype(np.int64)  # all at once: a call a line cost seconds
    for line, first, second in zip(lines, ours[0::2], ours[1::2], strict=True):
        won = float(line.split(":")[4].split("|")[0])
        assert np.sign(first - second) == np.sign(won), line


def test_the_kernels_name_the_tables_they_were_built_with() -> None:
    # numba re-validates a cached kernel against evaluator.py only: a change to the tables
    # must change TABLES_SHA256 there (and with it the cache).
    assert tables_sha256() == TABLES_SHA256
