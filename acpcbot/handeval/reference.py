"""The straightforward, obviously-correct hand evaluator the engine is tested against.

Its values order hands like :func:`acpcbot.handeval.rank_hand` but are packed differently:
``value >> CATEGORY_SHIFT`` is the :class:`~acpcbot.handeval.categories.Category`. It ranks
any number of cards, so it also decides games with fewer than five (Leduc hold'em).

>>> from acpcbot.cards import parse_cards
>>> Category(rank_hand_reference(parse_cards("2c2d2h3c3d")) >> CATEGORY_SHIFT).name
'FULL_HOUSE'
"""

from __future__ import annotations

from collections.abc import Sequence

from acpcbot.cards import Card
from acpcbot.handeval.categories import Category

CATEGORY_SHIFT = 20


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
