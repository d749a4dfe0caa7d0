"""Hand values for 5, 6 and 7 cards in numba: rank-key sums, flush detection, small tables.

A hand's value is its equivalence class, ``1`` (7-5-4-3-2 offsuit) to ``7462`` (a royal
flush): higher wins, equal ties (see :mod:`acpcbot.handeval.categories` for the categories).

How a value is found. Every card has a 64-bit *key*; the key of a hand is the sum of its
cards' keys plus :data:`KEY_BASE`. Three fields never carry into each other for up to seven
cards: bits 0-15 sum a rank key over the ranks 2..7, bits 16-31 one over 8..A (keys chosen
so that every multiset of at most seven ranks, four of each at most, has its own sum), and
bits 32-47 count cards per suit in four 4-bit counters that start at 3, so bit 3 of a
counter is set exactly when that suit holds five cards or more. Without a flush the value is
``RANK_VALUE[LOW_START[low] + HIGH_INDEX[high]]`` — a block per low-rank multiset, an index
per high-rank multiset — and with one it is ``FLUSH_VALUE[mask]`` of that suit's 13-bit rank
mask (no hand of seven cards holding a flush has a full house or quads). Byte values 52..255
carry :data:`INVALID_CARD`, which makes the hand worth 0 instead of reading out of bounds;
repeated cards give an unspecified value but stay in bounds too. The tables (about
370 kB) are built here, deterministically, when the module is imported: numba freezes global
arrays into its cache, so the code that builds them must live in the file whose change
invalidates that cache.

>>> from acpcbot.cards import parse_cards
>>> rank_hand(parse_cards("AsKsQsJsTs2c3d"))
7462
>>> rank_hand(parse_cards("7h5d4c3s2h"))
1
>>> category_of(rank_hand(parse_cards("KcKdQhQs2c3c4d"))).name
'TWO_PAIR'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import int64, njit

from acpcbot.handeval.categories import Category, category_of
from acpcbot.handeval.jitcache import cache_enabled

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

__all__ = [
    "CARD_BIT",
    "CARD_KEY",
    "KEY_BASE",
    "Category",
    "cards_state",
    "category_of",
    "rank5",
    "rank6",
    "rank7",
    "rank_batch",
    "rank_hand",
    "value_of_key",
    "value_with",
]

LOW_RANK_KEYS = (1, 5, 24, 112, 521, 2247)  # ranks 2..7
HIGH_RANK_KEYS = (1, 5, 24, 112, 521, 2247, 9244)  # ranks 8..A
KEY_BASE = 0x3333 << 32
FLUSH_BITS = 0x8888 << 32
INVALID_CARD = 1 << 56
INVALID_BITS = 0xFF << 56
SPECIAL_BITS = FLUSH_BITS | INVALID_BITS
MAX_CARDS = 7


def _multiset_counts(num_ranks: int) -> npt.NDArray[np.int64]:
    """Every multiset of ``num_ranks`` ranks with at most four of each and seven in all,
    as rows of counts, ordered by size."""
    grids = np.indices((5,) * num_ranks).reshape(num_ranks, -1).T
    grids = grids[grids.sum(axis=1) <= MAX_CARDS]
    result: npt.NDArray[np.int64] = grids[np.argsort(grids.sum(axis=1), kind="stable")]
    return result.astype(np.int64)


def _straight_tops() -> npt.NDArray[np.int64]:
    """For every 13-bit rank mask, the top rank of its best straight (3 for the wheel), or -1."""
    masks = np.arange(8192)
    tops = np.full(8192, -1, dtype=np.int64)
    wheel = 0b1000000001111
    tops[masks & wheel == wheel] = 3
    for top in range(4, 13):
        window = 0x1F << (top - 4)
        tops[masks & window == window] = top
    return tops


def _packed(
    category: npt.NDArray[np.int64], ranks: Sequence[npt.NDArray[np.int64]]
) -> npt.NDArray[np.int64]:
    """Category and up to five ranks packed like
    :func:`~acpcbot.handeval.reference.rank_hand_reference`."""
    value = category << 20
    for i, rank in enumerate(ranks):
        value |= np.maximum(rank, 0) << (16 - 4 * i)
    return value


def _best_packed(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Packed value of the best five-card non-flush hand for each row of rank counts."""
    rank = np.arange(13)
    key = np.where(counts > 0, counts * 16 + rank, -1)
    key = -np.sort(-key, axis=1)[:, :5]  # ranks grouped by count, then by rank, descending
    r = np.where(key >= 0, key & 15, -1)
    c = np.where(key >= 0, key >> 4, 0)
    mask = ((counts > 0) << rank).sum(axis=1)
    straight = _straight_tops()[mask]
    best_rest = np.maximum.reduce([r[:, 1], r[:, 2], r[:, 3]])
    best_after_pairs = np.maximum(r[:, 2], r[:, 3])
    zero = np.zeros(len(counts), dtype=np.int64)
    cases = [
        (c[:, 0] == 4, _packed(zero + Category.FOUR_OF_A_KIND, [r[:, 0], best_rest])),
        ((c[:, 0] == 3) & (c[:, 1] >= 2), _packed(zero + Category.FULL_HOUSE, [r[:, 0], r[:, 1]])),
        (straight >= 0, _packed(zero + Category.STRAIGHT, [straight])),
        (c[:, 0] == 3, _packed(zero + Category.THREE_OF_A_KIND, [r[:, 0], r[:, 1], r[:, 2]])),
        (
            (c[:, 0] == 2) & (c[:, 1] == 2),
            _packed(zero + Category.TWO_PAIR, [r[:, 0], r[:, 1], best_after_pairs]),
        ),
        (c[:, 0] == 2, _packed(zero + Category.ONE_PAIR, [r[:, i] for i in range(4)])),
    ]
    return np.select(
        [cond for cond, _ in cases],
        [value for _, value in cases],
        _packed(zero + Category.HIGH_CARD, [r[:, i] for i in range(5)]),
    )


def _flush_packed() -> npt.NDArray[np.int64]:
    """Packed value of the best flush or straight flush in every 13-bit mask (-1 if < 5 bits)."""
    masks = np.arange(8192)
    bits = (masks[:, None] >> np.arange(12, -1, -1)) & 1
    order = np.argsort(-bits, axis=1, kind="stable")[:, :5]  # the five highest set bits
    top5 = [12 - order[:, i] for i in range(5)]
    zero = np.zeros(8192, dtype=np.int64)
    straight = _straight_tops()
    value = np.where(
        straight >= 0,
        _packed(zero + Category.STRAIGHT_FLUSH, [straight]),
        _packed(zero + Category.FLUSH, top5),
    )
    return np.where(bits.sum(axis=1) >= 5, value, -1)


def _distinct(values: npt.NDArray[np.int64]) -> bool:
    ordered = np.sort(values)
    return bool((ordered[1:] != ordered[:-1]).all())


def _build_tables() -> tuple[npt.NDArray[np.int64], ...]:
    low = _multiset_counts(len(LOW_RANK_KEYS))
    high = _multiset_counts(len(HIGH_RANK_KEYS))
    low_sum = low @ np.array(LOW_RANK_KEYS)
    high_sum = high @ np.array(HIGH_RANK_KEYS)
    assert _distinct(low_sum) and _distinct(high_sum)
    # Every low multiset owns a block holding the high multisets that fit beside it (sizes
    # ascending, so they are a prefix of ``high``).
    high_up_to = np.searchsorted(high.sum(axis=1), np.arange(MAX_CARDS + 1), side="right")
    block = high_up_to[MAX_CARDS - low.sum(axis=1)]
    start = np.concatenate([[0], np.cumsum(block)[:-1]])
    owner = np.repeat(np.arange(len(low)), block)
    position = np.arange(block.sum()) - start[owner]
    counts = np.hstack([low[owner], high[position]])
    packed = _best_packed(counts)
    flush = _flush_packed()
    five = counts.sum(axis=1) == 5
    classes = np.sort(np.concatenate([packed[five], flush[flush >= 0]]))
    classes = classes[np.concatenate([[True], classes[1:] != classes[:-1]])]
    assert len(classes) == 7462
    size = counts.sum(axis=1)
    rank_value = np.where(size >= 5, np.searchsorted(classes, packed) + 1, 0)
    flush_value = np.where(flush >= 0, np.searchsorted(classes, flush) + 1, 0)
    # Sized for seven copies of the largest key, so repeated cards cannot index out of bounds.
    low_start = np.zeros(MAX_CARDS * LOW_RANK_KEYS[-1] + 1, dtype=np.int64)
    low_start[low_sum] = start
    high_index = np.zeros(MAX_CARDS * HIGH_RANK_KEYS[-1] + 1, dtype=np.int64)
    high_index[high_sum] = np.arange(len(high))
    # Padding: repeated cards can pair a block start with an index past that block's end.
    rank_value = np.concatenate([rank_value, np.zeros(len(high), dtype=np.int64)])
    return low_start, high_index, rank_value, flush_value


def _card_tables() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Key and bit of every byte value; codes 52..255 carry :data:`INVALID_CARD`."""
    key = np.full(256, INVALID_CARD, dtype=np.int64)
    bit = np.zeros(256, dtype=np.int64)
    for card in range(52):
        rank, suit = divmod(card, 4)
        if rank < len(LOW_RANK_KEYS):
            key[card] = LOW_RANK_KEYS[rank]
        else:
            key[card] = HIGH_RANK_KEYS[rank - len(LOW_RANK_KEYS)] << 16
        key[card] += 1 << (32 + 4 * suit)
        bit[card] = 1 << (16 * suit + rank)
    return key, bit


_low_start, _high_index, _rank_value, _flush_value = _build_tables()
LOW_START = _low_start.astype(np.uint32)
HIGH_INDEX = _high_index.astype(np.uint16)
RANK_VALUE = _rank_value.astype(np.uint16)
FLUSH_VALUE = _flush_value.astype(np.uint16)
CARD_KEY, CARD_BIT = _card_tables()
"""Per card code: its key (see the module text) and its bit ``1 << (16 * suit + rank)``."""

TABLE_BYTES = sum(
    t.nbytes for t in (LOW_START, HIGH_INDEX, RANK_VALUE, FLUSH_VALUE, CARD_KEY, CARD_BIT)
)
"""Memory held by the lookup tables."""


@njit(cache=CACHE, inline="always")
def _slow_value(key: int, bits: int) -> int:
    """Value of a key with a flush or an invalid card (0)."""
    if key & INVALID_BITS:
        return 0
    flags = key >> 35
    if flags & 0x1:
        shift = 0
    elif flags & 0x10:
        shift = 16
    elif flags & 0x100:
        shift = 32
    else:
        shift = 48
    value: int = int64(FLUSH_VALUE[(bits >> shift) & 0x1FFF])
    return value


@njit(cache=CACHE, inline="always")
def _plain_value(key: int) -> int:
    value: int = int64(RANK_VALUE[LOW_START[key & 0xFFFF] + HIGH_INDEX[(key >> 16) & 0xFFFF]])
    return value


@njit(cache=CACHE, inline="always")
def value_of_key(key: int, bits: int) -> int:
    """Value of a hand from its key (:data:`KEY_BASE` plus the sum of :data:`CARD_KEY` of its
    cards) and the OR of :data:`CARD_BIT` of its cards. For loops that add cards one by one."""
    if key & SPECIAL_BITS:
        return _slow_value(key, bits)
    return _plain_value(key)


@njit(cache=CACHE, inline="always")
def value_with(key: int, bits: int, c0: int, c1: int) -> int:
    """:func:`value_of_key` of a partial hand's key and bits plus two more cards."""
    return value_of_key(key + CARD_KEY[c0] + CARD_KEY[c1], bits | CARD_BIT[c0] | CARD_BIT[c1])


@njit(cache=CACHE)
def cards_state(cards: npt.NDArray[np.int64]) -> tuple[int, int, int]:
    """``(mask, key, bits)`` of some cards: the OR of ``1 << card``, :data:`KEY_BASE` plus
    their keys, and the OR of their bits — the start of a running evaluation."""
    mask = 0
    key = KEY_BASE
    bits = 0
    for card in cards:
        mask |= 1 << card
        key += CARD_KEY[card]
        bits |= CARD_BIT[card]
    return mask, key, bits


@njit(cache=CACHE, inline="always")
def _rank5(c0: int, c1: int, c2: int, c3: int, c4: int) -> int:
    key = KEY_BASE + CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3] + CARD_KEY[c4]
    if key & SPECIAL_BITS:
        bits = CARD_BIT[c0] | CARD_BIT[c1] | CARD_BIT[c2] | CARD_BIT[c3] | CARD_BIT[c4]
        return _slow_value(key, bits)
    return _plain_value(key)


@njit(cache=CACHE, inline="always")
def _rank6(c0: int, c1: int, c2: int, c3: int, c4: int, c5: int) -> int:  # noqa: PLR0917
    key = KEY_BASE + CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3]
    key += CARD_KEY[c4] + CARD_KEY[c5]
    if key & SPECIAL_BITS:
        bits = CARD_BIT[c0] | CARD_BIT[c1] | CARD_BIT[c2] | CARD_BIT[c3] | CARD_BIT[c4]
        return _slow_value(key, bits | CARD_BIT[c5])
    return _plain_value(key)


@njit(cache=CACHE, inline="always")
def _rank7(c0: int, c1: int, c2: int, c3: int, c4: int, c5: int, c6: int) -> int:  # noqa: PLR0917
    key = KEY_BASE + CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3]
    key += CARD_KEY[c4] + CARD_KEY[c5] + CARD_KEY[c6]
    if key & SPECIAL_BITS:
        bits = CARD_BIT[c0] | CARD_BIT[c1] | CARD_BIT[c2] | CARD_BIT[c3] | CARD_BIT[c4]
        return _slow_value(key, bits | CARD_BIT[c5] | CARD_BIT[c6])
    return _plain_value(key)


@njit(cache=CACHE)
def rank5(c0: int, c1: int, c2: int, c3: int, c4: int) -> int:
    """Value of five distinct cards (0 if a code is 52..255)."""
    return _rank5(c0, c1, c2, c3, c4)


@njit(cache=CACHE)
def rank6(c0: int, c1: int, c2: int, c3: int, c4: int, c5: int) -> int:  # noqa: PLR0917
    """Value of the best five of six distinct cards (0 if a code is 52..255)."""
    return _rank6(c0, c1, c2, c3, c4, c5)


@njit(cache=CACHE)
def rank7(c0: int, c1: int, c2: int, c3: int, c4: int, c5: int, c6: int) -> int:  # noqa: PLR0917
    """Value of the best five of seven distinct cards (0 if a code is 52..255)."""
    return _rank7(c0, c1, c2, c3, c4, c5, c6)


@njit(cache=CACHE)
def _rank_flat(flat: npt.NDArray[np.uint8], k: int, out: npt.NDArray[np.int32]) -> int:
    """Values of ``len(out)`` hands of ``k`` cards stored row after row; returns how many
    hands held a code above 51. One loop per k keeps the row offsets constant."""
    invalid = 0
    if k == 7:
        for i in range(len(out)):
            j = 7 * i
            value = _rank7(flat[j], flat[j + 1], flat[j + 2], flat[j + 3], flat[j + 4],
                           flat[j + 5], flat[j + 6])  # fmt: skip
            out[i] = value
            invalid += value == 0
    elif k == 6:
        for i in range(len(out)):
            j = 6 * i
            value = _rank6(flat[j], flat[j + 1], flat[j + 2], flat[j + 3], flat[j + 4],
                           flat[j + 5])  # fmt: skip
            out[i] = value
            invalid += value == 0
    else:
        for i in range(len(out)):
            j = 5 * i
            value = _rank5(flat[j], flat[j + 1], flat[j + 2], flat[j + 3], flat[j + 4])
            out[i] = value
            invalid += value == 0
    return invalid


def rank_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Values of N hands given as an ``(N, k)`` array of card codes, k = 5, 6 or 7.

    Cards within a row must be distinct (repeated cards give an unspecified value).
    ``uint8`` arrays are read in place; other integer arrays are converted first.

    >>> rank_batch([[51, 47, 43, 39, 35], [0, 4, 8, 12, 21]]).tolist()
    [7462, 1]
    """
    array = np.asarray(cards)
    if array.ndim != 2 or not 5 <= array.shape[1] <= MAX_CARDS:
        raise ValueError(f"rank_batch needs an (N, 5..7) array of card codes, not {array.shape}")
    if array.dtype != np.uint8:
        if array.size and (array.min() < 0 or array.max() > 51):
            raise ValueError("card codes must be in 0..51")
        array = array.astype(np.uint8)
    out = np.empty(len(array), dtype=np.int32)
    if _rank_flat(np.ascontiguousarray(array).reshape(-1), array.shape[1], out):
        raise ValueError("card codes must be in 0..51")
    return out


def _entry_point(size: int) -> Callable[..., int]:
    """The compiled function for ``size`` int64 cards, called without numba's type dispatch."""
    dispatcher: Any = {5: rank5, 6: rank6, 7: rank7}[size]
    signature = (int64,) * size
    dispatcher.compile(signature)
    try:
        entry: Callable[..., int] = dispatcher.overloads[signature].entry_point
    except (AttributeError, KeyError):  # pragma: no cover - numba internals moved
        entry = dispatcher
    _RANKERS[size] = entry
    return entry


def _loader(size: int) -> Callable[..., int]:
    def load_then_rank(*cards: int) -> int:
        return _entry_point(size)(*cards)

    return load_then_rank


_RANKERS: list[Callable[..., int]] = [_loader(min(max(n, 5), 7)) for n in range(8)]


def rank_hand(cards: Sequence[int]) -> int:
    """Value of 5 to 7 distinct card codes, one Python call at a time (no checks).

    The first call for each size loads (or compiles) that kernel; keep loops over many
    hands in numba (:func:`rank_batch`, or :func:`rank7` inside a kernel).
    """
    return _RANKERS[len(cards)](*cards)
