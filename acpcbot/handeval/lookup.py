"""The hand evaluator's lookup tables, built with numpy, and many hands ranked with them.

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
370 kB) are built here, deterministically: the small ones when the module is imported,
the others (:func:`lookup_tables`) when the numba kernels (:mod:`acpcbot.handeval.evaluator`)
are.

:func:`rank_rows` ranks many hands at once with numpy alone and the small tables, for a
process that needs no numba otherwise (the dealer ranks each chunk of deals this way).

numba freezes the tables into its cached kernels and re-validates a cache entry only
against the kernel's own source file: :data:`~acpcbot.handeval.evaluator.TABLES_SHA256`
names the tables the evaluator's kernels were built with (a test checks it), so that
changing them here changes that file too.

>>> from acpcbot.cards import parse_cards
>>> rank_rows([parse_cards("AsKsQsJsTs2c3d"), parse_cards("7h5d4c3s2h2c2d")]).tolist()
[7462, 5004]
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from acpcbot.handeval.categories import NUM_VALUES, Category

Uint16s = npt.NDArray[np.uint16]

__all__ = [
    "CARD_BIT",
    "CARD_KEY",
    "KEY_BASE",
    "card_rows",
    "lookup_tables",
    "rank_rows",
    "tables_sha256",
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


def _value_classes() -> npt.NDArray[np.int64]:
    """The packed value of every class of five-card hand, ascending: a class's value is its
    index here plus one. Built from the 6,175 multisets of five ranks and the flush masks."""
    fives = np.array(list(itertools.combinations_with_replacement(range(13), 5)))
    # the rank counts of every multiset at once (each row's ranks offset into its own 13)
    places = np.arange(len(fives))[:, None] * 13 + fives
    counts = np.bincount(places.ravel(), minlength=13 * len(fives)).reshape(-1, 13)
    counts = counts[counts.max(axis=1) <= 4].astype(np.int64)
    values = np.sort(np.concatenate([_best_packed(counts), _FLUSH_PACKED[_FLUSH_PACKED >= 0]]))
    # distinct without np.unique, which imports numpy.ma (tens of ms at every start)
    classes: npt.NDArray[np.int64] = values[np.concatenate([[True], values[1:] != values[:-1]])]
    assert len(classes) == NUM_VALUES
    return classes


def _lookup_tables() -> tuple[npt.NDArray[np.int64], ...]:
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
    size = counts.sum(axis=1)
    rank_value = np.where(size >= 5, np.searchsorted(VALUE_CLASSES, packed) + 1, 0)
    # Sized for seven copies of the largest key, so repeated cards cannot index out of bounds.
    low_start = np.zeros(MAX_CARDS * LOW_RANK_KEYS[-1] + 1, dtype=np.int64)
    low_start[low_sum] = start
    high_index = np.zeros(MAX_CARDS * HIGH_RANK_KEYS[-1] + 1, dtype=np.int64)
    high_index[high_sum] = np.arange(len(high))
    # Padding: repeated cards can pair a block start with an index past that block's end.
    rank_value = np.concatenate([rank_value, np.zeros(len(high), dtype=np.int64)])
    return low_start, high_index, rank_value


@functools.cache
def lookup_tables() -> tuple[
    npt.NDArray[np.uint32], npt.NDArray[np.uint16], npt.NDArray[np.uint16]
]:
    """``(LOW_START, HIGH_INDEX, RANK_VALUE)``, the tables of hands without a flush (see the
    module text), built on the first call: what the numba kernels read. The build's
    temporary arrays take tens of megabytes, which a process that ranks with
    :func:`rank_rows` alone never needs."""
    low_start, high_index, rank_value = _lookup_tables()
    return low_start.astype(np.uint32), high_index.astype(np.uint16), rank_value.astype(np.uint16)


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


_FLUSH_PACKED = _flush_packed()
VALUE_CLASSES = _value_classes()
"""The packed value of every class, ascending (class ``i + 1`` at index ``i``)."""
FLUSH_VALUE = np.where(
    _FLUSH_PACKED >= 0, np.searchsorted(VALUE_CLASSES, _FLUSH_PACKED) + 1, 0
).astype(np.uint16)
"""The value of the best flush (or straight flush) of every 13-bit rank mask; 0 below five
bits."""
CARD_KEY, CARD_BIT = _card_tables()
"""Per card code: its key (see the module text) and its bit ``1 << (16 * suit + rank)``."""


def tables_sha256() -> str:
    """The SHA-256 of every table, in a fixed order: what a numba kernel froze."""
    digest = hashlib.sha256()
    for table in (*lookup_tables(), FLUSH_VALUE, CARD_KEY, CARD_BIT):
        digest.update(table.tobytes())
    return digest.hexdigest()


def card_rows(cards: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """``cards`` as an ``(N, k)`` array of ``uint8`` card codes, k = 5, 6 or 7; a
    :class:`ValueError` for another shape, or a code outside 0..51 in a non-``uint8`` array
    (``uint8`` arrays are taken as they are: their codes 52..255 rank 0)."""
    array = np.asarray(cards)
    if array.ndim != 2 or not 5 <= array.shape[1] <= MAX_CARDS:
        raise ValueError(f"ranking needs an (N, 5..7) array of card codes, not {array.shape}")
    if array.dtype != np.uint8:
        if array.size and (array.min() < 0 or array.max() > 51):
            raise ValueError("card codes must be in 0..51")
        array = array.astype(np.uint8)
    return array


def _counts(codes: npt.NDArray[np.int64], kinds: int) -> npt.NDArray[np.int64]:
    """How many of each of ``kinds`` codes (0 to ``kinds - 1``) each row holds."""
    rows = len(codes)
    offsets = np.arange(rows)[:, None] * kinds
    return np.bincount((codes + offsets).ravel(), minlength=rows * kinds).reshape(rows, kinds)


def rank_rows(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Values of N hands given as an ``(N, k)`` array of card codes, k = 5, 6 or 7: the
    values of :func:`acpcbot.handeval.evaluator.rank_batch`, with numpy alone and without
    the large tables (a microsecond or two a hand, in chunks of thousands).

    Each hand's rank counts give its best five-card hand without a flush, packed the way
    the classes are (:data:`VALUE_CLASSES`), and a suit of five cards or more the best flush
    (:data:`FLUSH_VALUE`); no hand of seven cards holding a flush has a full house or quads.

    >>> rank_rows([[51, 47, 43, 39, 35], [0, 4, 8, 12, 21]]).tolist()
    [7462, 1]
    """
    rows = card_rows(cards)
    if rows.size and rows.max() > 51:
        raise ValueError("card codes must be in 0..51")
    ranks = (rows >> 2).astype(np.int64)
    suits = (rows & 3).astype(np.int64)
    values = np.searchsorted(VALUE_CLASSES, _best_packed(_counts(ranks, 13))) + 1
    by_suit = _counts(suits, 4)
    flushes = np.flatnonzero(by_suit.max(axis=1) >= 5)
    if len(flushes):
        suit = by_suit[flushes].argmax(axis=1)
        in_suit = suits[flushes] == suit[:, None]
        masks = np.where(in_suit, 1 << ranks[flushes], 0).sum(axis=1)  # distinct ranks
        values[flushes] = FLUSH_VALUE[masks]
    return values.astype(np.int32)
