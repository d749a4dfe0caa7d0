from __future__ import annotations

import itertools
import random

import pytest

from acpcbot.cards import parse_cards
from acpcbot.handeval.combos import (
    CLASS_SIZES,
    COMBO_CARDS,
    COMBO_CLASS,
    NUM_CLASSES,
    NUM_COMBOS,
    SUIT_PERMUTATIONS,
    canonical_board,
    class_combos,
    class_name,
    class_of,
    class_size,
    combo_cards,
    combo_index,
    parse_class,
    parse_range,
)


def test_every_pair_of_cards_has_its_own_combo_index() -> None:
    seen = set()
    for a, b in itertools.combinations(range(52), 2):
        index = combo_index(a, b)
        assert index == combo_index(b, a) and combo_cards(index) == (a, b)
        assert tuple(COMBO_CARDS[index]) == (a, b)
        seen.add(index)
    assert seen == set(range(NUM_COMBOS))
    with pytest.raises(ValueError):
        combo_index(3, 3)


def test_classes_partition_the_combos() -> None:
    assert CLASS_SIZES.sum() == NUM_COMBOS and len(CLASS_SIZES) == NUM_CLASSES
    assert sorted(set(CLASS_SIZES.tolist())) == [4, 6, 12]
    for k in range(NUM_CLASSES):
        assert class_size(k) == CLASS_SIZES[k] == len(class_combos(k))
        assert parse_class(class_name(k)) == k
        assert all(COMBO_CLASS[i] == k for i in class_combos(k))
    assert len({class_name(k) for k in range(NUM_CLASSES)}) == NUM_CLASSES


def test_class_of_known_hands() -> None:
    cases = {"AhAd": "AA", "KsAs": "AKs", "AsKd": "AKo", "2c7d": "72o", "3h2h": "32s"}
    for cards, name in cases.items():
        assert class_name(class_of(*parse_cards(cards))) == name


def test_range_notation() -> None:
    paper = parse_range("88+, A9s+, KTs+, QTs+, AJo+, KQo")
    names = sorted(class_name(k) for k in paper)
    assert len(names) == 7 + 5 + 3 + 2 + 3 + 1
    assert {"88", "AA", "A9s", "AKs", "KTs", "KQs", "QTs", "QJs", "AJo", "AKo", "KQo"} <= set(names)
    assert "QTo" not in names and "K9s" not in names
    assert {class_name(k) for k in parse_range("KQ")} == {"KQs", "KQo"}
    for bad in ("AAs", "A1s", "AK+o"):
        with pytest.raises(ValueError):
            parse_range(bad)


def test_a_boards_class_is_its_least_renaming_and_the_first_renaming_that_gives_it() -> None:
    """Every flop in two orders and random turns and rivers, against the definition."""
    deal = random.Random(37)
    boards = [
        *(list(flop) for flop in itertools.combinations(range(52), 3)),
        *(list(reversed(flop)) for flop in itertools.combinations(range(52), 3)),
        *(deal.sample(range(52), deal.choice((4, 5))) for _ in range(5000)),
    ]
    renamings = SUIT_PERMUTATIONS.tolist()
    for board in boards:
        named = [tuple(sorted((c & ~3) | p[c & 3] for c in board)) for p in renamings]
        least = min(named)
        assert canonical_board(board) == (least, named.index(least))
