"""Hand ranking: the value every showdown is decided by.

:func:`rank_hand` returns an ``int`` where higher wins and equal means a tie. For 5 to 7
cards (hold'em) it is the hand's equivalence class from 1 (7-5-4-3-2 of mixed suits) to 7462
(a royal flush), found by the table-driven engine (:mod:`acpcbot.engine.evaluator`, loaded
on the first call), and :func:`category_of` names its :class:`Category`. Hands of other
sizes (games such as Leduc hold'em) are ranked by :func:`rank_hand_reference`; those values
compare with hands of the same size only. :func:`rank_hand_reference` is the
straightforward, obviously-correct evaluator the engine is tested against; its values order
hands the same way but are packed differently (``value >> CATEGORY_SHIFT`` is the category).

>>> from acpcbot.cards import parse_cards
>>> category_of(rank_hand(parse_cards("AsKsQsJsTs2c3d"))).name
'STRAIGHT_FLUSH'
>>> rank_hand(parse_cards("AhAd2c3c4d9s8s")) > rank_hand(parse_cards("KhKd2c3c4d9s8s"))
True
>>> rank_hand(parse_cards("2c2d")) > rank_hand(parse_cards("AcKc"))  # two-card hands
True
>>> Category(rank_hand_reference(parse_cards("2c2d2h3c3d")) >> CATEGORY_SHIFT).name
'FULL_HOUSE'
"""

from __future__ import annotations

import bisect
import enum
from collections.abc import Callable, Sequence

from acpcbot.cards import NUM_CARDS, Card
from acpcbot.errors import CardError

CATEGORY_SHIFT = 20
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


_engine_rank: Callable[[Sequence[Card]], int] | None = None


def rank_hand(cards: Sequence[Card]) -> int:
    """Value of the best five-card hand among ``cards`` (distinct); higher wins.

    Raises :class:`CardError` for no cards, a repeated card or a code outside 0..51.
    """
    global _engine_rank  # noqa: PLW0603 - the engine is loaded on first use only
    if len(cards) == 0 or len(set(cards)) != len(cards):
        raise CardError(f"a hand needs distinct cards, not {list(cards)}")
    if min(cards) < 0 or max(cards) >= NUM_CARDS:
        raise CardError(f"card code out of range in {list(cards)}")
    if not 5 <= len(cards) <= 7:
        return rank_hand_reference(cards)
    if _engine_rank is None:
        from acpcbot.engine.evaluator import rank_hand as engine_rank

        _engine_rank = engine_rank
    return _engine_rank(cards)


def _pack(category: Category, ranks: Sequence[int]) -> int:
    value = 0
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return (int(category) << CATEGORY_SHIFT) | value


def _straight_top(rank_mask: int) -> int:
    """Top rank of the best straight in a 13-bit rank mask, or -1 (the wheel tops at 3)."""
    for top in range(12, 3, -1):
        window = 0x1F << (top - 4)
        if rank_mask & window == window:
            return top
    if rank_mask & 0b1000000001111 == 0b1000000001111:
        return 3
    return -1


def rank_hand_reference(cards: Sequence[Card]) -> int:
    """Packed rank of the best five-card hand among ``cards`` (any number); higher wins."""
    counts = [0] * 13
    suit_masks = [0, 0, 0, 0]
    for card in cards:
        r = card >> 2
        counts[r] += 1
        suit_masks[card & 3] |= 1 << r
    for mask in suit_masks:
        if bin(mask).count("1") >= 5:
            top = _straight_top(mask)
            if top >= 0:
                return _pack(Category.STRAIGHT_FLUSH, [top])
            flush = [r for r in range(12, -1, -1) if mask >> r & 1][:5]
            flush_rank = _pack(Category.FLUSH, flush)
            break
    else:
        flush_rank = -1
    by_count = sorted(((c, r) for r, c in enumerate(counts) if c), reverse=True)
    quads = [r for c, r in by_count if c == 4]
    trips = [r for c, r in by_count if c == 3]
    pairs = [r for c, r in by_count if c == 2]
    singles = [r for c, r in by_count if c == 1]
    if quads:
        kicker = max(r for c, r in by_count if r != quads[0])
        return _pack(Category.FOUR_OF_A_KIND, [quads[0], kicker])
    if trips and (len(trips) > 1 or pairs):
        pair = max(trips[1:] + pairs)
        return _pack(Category.FULL_HOUSE, [trips[0], pair])
    if flush_rank >= 0:
        return flush_rank
    rank_mask = sum(1 << r for r, c in enumerate(counts) if c)
    top = _straight_top(rank_mask)
    if top >= 0:
        return _pack(Category.STRAIGHT, [top])
    if trips:
        return _pack(Category.THREE_OF_A_KIND, [trips[0], *sorted(singles, reverse=True)[:2]])
    if len(pairs) >= 2:
        kickers = sorted(pairs[2:] + singles, reverse=True)[:1]
        return _pack(Category.TWO_PAIR, [pairs[0], pairs[1], *kickers])
    if pairs:
        return _pack(Category.ONE_PAIR, [pairs[0], *sorted(singles, reverse=True)[:3]])
    return _pack(Category.HIGH_CARD, sorted(singles, reverse=True)[:5])
