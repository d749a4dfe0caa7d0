"""Hand categories: the nine kinds of five-card hand and the value ranges they hold.

>>> category_of(1).name, category_of(7462).name
('HIGH_CARD', 'STRAIGHT_FLUSH')
"""

from __future__ import annotations

import bisect
import enum

NUM_VALUES = 7462
"""Distinct values of five-card hands; the best hand is worth exactly this."""


class Category(enum.IntEnum):
    """Hand categories, weakest first."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


CATEGORY_SIZES = (1277, 2860, 858, 858, 10, 1277, 156, 156, 10)
"""How many values each category holds, weakest first (they sum to :data:`NUM_VALUES`)."""

CATEGORY_FIRST_VALUE = (1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453)
"""The lowest value of each category."""


def category_of(value: int) -> Category:
    """The category of a value returned by :func:`rank_hand`.

    >>> category_of(1).name, category_of(7462).name
    ('HIGH_CARD', 'STRAIGHT_FLUSH')
    """
    if not 1 <= value <= NUM_VALUES:
        raise ValueError(f"not a hand value: {value}")
    return Category(bisect.bisect_right(CATEGORY_FIRST_VALUE, value) - 1)
