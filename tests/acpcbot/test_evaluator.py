from __future__ import annotations

import itertools
import random

import pytest

from acpcbot.cards import parse_cards
from acpcbot.errors import CardError
from acpcbot.evaluator import (
    CATEGORY_SHIFT,
    Category,
    category_of,
    rank_hand,
    rank_hand_reference,
)


def test_categories_of_known_hands() -> None:
    cases = {
        "AsKsQsJsTs2c": Category.STRAIGHT_FLUSH,
        "5c4c3c2cAc": Category.STRAIGHT_FLUSH,
        "9c9d9h9s2c": Category.FOUR_OF_A_KIND,
        "2c2d2h3c3d4h4d": Category.FULL_HOUSE,
        "2c2d2h3c3d3h": Category.FULL_HOUSE,
        "AcKcQc2c3c9h": Category.FLUSH,
        "5c4d3h2sAs": Category.STRAIGHT,
        "7c7d7h2s9sKd": Category.THREE_OF_A_KIND,
        "KcKdQhQsJcJd2c": Category.TWO_PAIR,
        "AcAd2h5s9sKd": Category.ONE_PAIR,
        "2c3d4h5s7c8d9s": Category.HIGH_CARD,
    }
    for text, category in cases.items():
        assert category_of(rank_hand(parse_cards(text))) is category, text


def test_order_within_and_across_categories() -> None:
    def r(text: str) -> int:
        return rank_hand(parse_cards(text))

    assert r("6c5d4h3s2s") > r("5c4d3h2sAs")  # the wheel is the lowest straight
    assert r("AcAdKhQsJs") > r("AcAdKhQs9s")  # kicker decides
    assert r("KcKdQhQsJc") == r("KhKsQcQdJd")  # suits never matter
    assert r("2c2d2h3c3d") > r("AcKcQcJc9c")  # full house beats flush
    assert r("KcKdQhQs2c3c4d") > r("KcKdQhQs2c")


def test_rank_of_seven_is_best_of_its_fives() -> None:
    rng = random.Random(7)
    for _ in range(300):
        cards = rng.sample(range(52), 7)
        best = max(rank_hand(list(five)) for five in itertools.combinations(cards, 5))
        assert rank_hand(cards) == best


def test_the_reference_evaluator_orders_like_the_engine() -> None:
    rng = random.Random(11)
    hands = [rng.sample(range(52), rng.choice((5, 6, 7))) for _ in range(3000)]
    pairs = sorted((rank_hand_reference(h), rank_hand(h)) for h in hands)
    for (ref_a, a), (ref_b, b) in itertools.pairwise(pairs):
        assert (ref_a < ref_b) == (a < b) and (ref_a == ref_b) == (a == b)
        assert Category(ref_a >> CATEGORY_SHIFT) is category_of(a)


def test_bad_hands_are_refused() -> None:
    for cards in ([], [1, 1, 2, 3, 4], [1, 2, 3, 4, 52], [-1, 2, 3, 4, 5]):
        with pytest.raises(CardError):
            rank_hand(cards)
    with pytest.raises(ValueError):
        category_of(0)


def test_hands_of_other_sizes_use_the_reference() -> None:
    def r(text: str) -> int:
        return rank_hand(parse_cards(text))

    assert r("Kc") > r("Qd") and r("Ks") == r("Kd")  # Kuhn-style single cards
    assert r("2c2d") > r("AhKh") > r("AhQh")  # Leduc-style hole card and board card
    assert r("AsKsQsJsTs9s8s7s") == rank_hand_reference(parse_cards("AsKsQsJsTs9s8s7s"))
