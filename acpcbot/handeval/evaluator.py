"""Hand values for 5, 6 and 7 cards in numba: rank-key sums, flush detection, small tables.

A hand's value is its equivalence class, ``1`` (7-5-4-3-2 offsuit) to ``7462`` (a royal
flush): higher wins, equal ties (see :mod:`acpcbot.handeval.categories` for the categories).

How a value is found: :mod:`acpcbot.handeval.lookup` (the tables, built with numpy, and
:func:`~acpcbot.handeval.lookup.rank_rows`, which gives the same values for many hands with
numpy alone). numba freezes global arrays into its cache and re-validates a cache entry
only against its own source file, so :data:`TABLES_SHA256` names the tables these kernels
were built with: changing the tables changes this file too (a test compares them).

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
from acpcbot.handeval.lookup import (
    CARD_BIT,
    CARD_KEY,
    FLUSH_VALUE,
    INVALID_BITS,
    KEY_BASE,
    SPECIAL_BITS,
    card_rows,
    lookup_tables,
)

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

__all__ = [
    "CARD_BIT",
    "CARD_KEY",
    "KEY_BASE",
    "TABLES_SHA256",
    "TABLE_BYTES",
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
    "value_without_flush",
]

TABLES_SHA256 = "f4590e36acbb0de5274f7ff02da8317f31299b89b7916727707ca5ef456415c2"
""":func:`~acpcbot.handeval.lookup.tables_sha256` of the tables the kernels below freeze."""

LOW_START, HIGH_INDEX, RANK_VALUE = lookup_tables()
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
def value_without_flush(key: int) -> int:
    """:func:`value_of_key` of a key whose suits hold no flush, read from its two rank fields
    alone: the same for every hand of the same ranks, whatever its suits (kernels that value
    many holdings on one board value each pair of ranks once)."""
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
    array = card_rows(cards)
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
