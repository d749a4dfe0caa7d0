from __future__ import annotations

import itertools

import pytest

from acpcbot.cards import parse_cards
from acpcbot.handeval.combos import (
    CLASS_SIZES,
    COMBO_CARDS,
    COMBO_CLASS,
    NUM_CLASSES,
    NUM_COMBOS,
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
