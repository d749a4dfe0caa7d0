"""Two-card combinations (1326) and the 169 starting-hand classes.

A *combo* is an unordered pair of distinct card codes, indexed ``0..1325`` by
``hi * (hi - 1) / 2 + lo`` (``hi > lo``). A *class* groups combos that play alike before the
flop: a pair ("QQ", 6 combos), suited cards ("AKs", 4) or offsuit cards ("72o", 12). Class
``k = 13 * row + col`` is the cell of the usual 13×13 grid with aces first: pairs on the
diagonal, suited hands above it (row = higher rank), offsuit hands below (row = lower rank).

>>> from acpcbot.cards import parse_cards
>>> class_name(class_of(*parse_cards("AhKh"))), class_name(class_of(*parse_cards("7c2d")))
('AKs', '72o')
>>> combo_cards(combo_index(51, 3))
(3, 51)
>>> [class_size(class_of(*parse_cards(h))) for h in ("QsQd", "AsKs", "AsKd")]
[6, 4, 12]
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from acpcbot.cards import NUM_CARDS, RANK_CHARS, Card, shown_cards

NUM_COMBOS = 1326
NUM_CLASSES = 169

__all__ = [
    "COMBOS_WITH_CARD",
    "COMBO_CARDS",
    "COMBO_CLASS",
    "NUM_CLASSES",
    "NUM_COMBOS",
    "PERMUTED_COMBOS",
    "SUIT_PERMUTATIONS",
    "canonical_board",
    "class_combos",
    "class_name",
    "class_of",
    "class_size",
    "combo_cards",
    "combo_index",
    "parse_class",
    "parse_range",
]


def combo_index(c1: Card, c2: Card) -> int:
    """Index of the combo of two distinct cards, in either order."""
    if c1 == c2 or not (0 <= c1 < NUM_CARDS and 0 <= c2 < NUM_CARDS):
        raise ValueError(f"a combo needs two distinct cards, not {shown_cards((c1, c2))}")
    hi, lo = (c1, c2) if c1 > c2 else (c2, c1)
    return hi * (hi - 1) // 2 + lo


def combo_cards(index: int) -> tuple[Card, Card]:
    """The two cards of a combo, lower code first."""
    return COMBO_PAIRS[index]


def class_of(c1: Card, c2: Card) -> int:
    """The starting-hand class of two distinct cards."""
    r1, r2 = c1 >> 2, c2 >> 2
    hi, lo = max(r1, r2), min(r1, r2)
    if r1 == r2 or (c1 & 3) == (c2 & 3):
        return 13 * (12 - hi) + (12 - lo)
    return 13 * (12 - lo) + (12 - hi)


def class_name(k: int) -> str:
    """Name of a class: ``"QQ"``, ``"AKs"`` or ``"72o"``."""
    row, col = divmod(k, 13)
    if row == col:
        return RANK_CHARS[12 - row] * 2
    if row < col:
        return RANK_CHARS[12 - row] + RANK_CHARS[12 - col] + "s"
    return RANK_CHARS[12 - col] + RANK_CHARS[12 - row] + "o"


def class_size(k: int) -> int:
    """Number of combos in a class: 6 for a pair, 4 suited, 12 offsuit."""
    row, col = divmod(k, 13)
    return 6 if row == col else 4 if row < col else 12


def class_combos(k: int) -> list[int]:
    """The combo indices of a class."""
    return [int(i) for i in np.flatnonzero(k == COMBO_CLASS)]


def parse_class(name: str) -> int:
    """The class named ``"QQ"``, ``"AKs"`` or ``"AKo"`` (ranks in either order).

    >>> class_name(parse_class("ka" + "o"))
    'AKo'
    """
    text = name.strip().upper()
    if len(text) not in (2, 3) or any(c not in RANK_CHARS for c in text[:2]):
        raise ValueError(f"not a starting-hand class: {name!r}")
    hi, lo = sorted((RANK_CHARS.index(text[0]), RANK_CHARS.index(text[1])), reverse=True)
    kind = text[2:]
    if hi == lo and kind == "":
        return 13 * (12 - hi) + (12 - hi)
    if hi != lo and kind == "S":
        return 13 * (12 - hi) + (12 - lo)
    if hi != lo and kind == "O":
        return 13 * (12 - lo) + (12 - hi)
    raise ValueError(f"not a starting-hand class: {name!r} (pairs take no s/o, others need one)")


_RANGE_ITEM = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([SO]?)(\+?)$")


def parse_range(text: str) -> frozenset[int]:
    """Classes of a range in the usual notation: ``"88+, A9s+, KQo, AJ"``.

    ``XX+`` means the pair and every higher pair; ``XYs+`` means XYs and the suited hands
    with the same high card and a better kicker (up to the rank below X); ``XY`` without
    s/o means both.

    >>> sorted(class_name(k) for k in parse_range("QQ+, AJs+"))
    ['AA', 'AJs', 'AKs', 'AQs', 'KK', 'QQ']
    """
    classes: set[int] = set()
    for item in filter(None, (part.strip().upper() for part in text.replace(",", " ").split())):
        match = _RANGE_ITEM.match(item)
        if not match:
            raise ValueError(f"not a range item: {item!r}")
        a, b, kind, plus = match.groups()
        hi, lo = sorted((RANK_CHARS.index(a), RANK_CHARS.index(b)), reverse=True)
        if hi == lo:
            if kind:
                raise ValueError(f"a pair takes no s/o: {item!r}")
            tops = range(hi, 13) if plus else [hi]
            classes.update(parse_class(RANK_CHARS[r] * 2) for r in tops)
            continue
        kickers = range(lo, hi) if plus else [lo]
        for kicker in kickers:
            for suffix in [kind] if kind else ["S", "O"]:
                classes.add(parse_class(RANK_CHARS[hi] + RANK_CHARS[kicker] + suffix))
    return frozenset(classes)


def _combo_tables() -> tuple[tuple[tuple[Card, Card], ...], npt.NDArray[np.int64]]:
    pairs = tuple((lo, hi) for hi in range(NUM_CARDS) for lo in range(hi))
    return pairs, np.array([class_of(lo, hi) for lo, hi in pairs], dtype=np.int64)


COMBO_PAIRS, COMBO_CLASS = _combo_tables()
"""The cards of every combo (lower code first) and the class of every combo."""
COMBO_CARDS = np.array(COMBO_PAIRS, dtype=np.int64)
"""``(1326, 2)`` array of the cards of every combo."""
CLASS_SIZES = np.bincount(COMBO_CLASS, minlength=NUM_CLASSES)
"""Number of combos in every class."""


def _combos_with_card() -> npt.NDArray[np.int64]:
    first, second = COMBO_CARDS.T
    table = np.array([np.flatnonzero((first == c) | (second == c)) for c in range(NUM_CARDS)])
    table.setflags(write=False)
    return table


COMBOS_WITH_CARD = _combos_with_card()
"""``[card]``: the 51 combos that hold that card."""


SUIT_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
"""The 24 renamings of suits: ``SUIT_PERMUTATIONS[p][suit]`` is the new suit."""


def _permuted_combos() -> npt.NDArray[np.int64]:
    cards = (COMBO_CARDS // 4) * 4 + SUIT_PERMUTATIONS[:, COMBO_CARDS % 4]
    hi, lo = cards.max(axis=2), cards.min(axis=2)
    table = np.asarray(hi * (hi - 1) // 2 + lo, dtype=np.int64)
    table.setflags(write=False)
    return table


PERMUTED_COMBOS = _permuted_combos()
"""``[p, combo]``: the combo with its suits renamed by ``SUIT_PERMUTATIONS[p]``."""


def canonical_board(board: Sequence[Card]) -> tuple[tuple[int, ...], int]:
    """The board's class under renaming suits — the least of its renamings, as sorted
    cards — and a renaming ``p`` that takes the board there: holding ``k`` on ``board``
    plays as holding ``PERMUTED_COMBOS[p, k]`` on the class's board.

    >>> from acpcbot.cards import parse_cards, cards_text
    >>> canonical, p = canonical_board(parse_cards("2h5h9s"))
    >>> cards_text(canonical)
    '2c5c9d'
    >>> combo_cards(int(PERMUTED_COMBOS[p, combo_index(*parse_cards("AhKs"))]))
    (45, 48)
    """
    cards = np.asarray(board, dtype=np.int64)
    renamed = np.sort((cards & ~3) | SUIT_PERMUTATIONS[:, cards & 3], axis=1)
    # sorted cards compare as tuples as their numbers in base 52 do; argmin: the first least
    chosen = int(np.argmin(renamed @ 52 ** np.arange(len(cards) - 1, -1, -1)))
    return tuple(renamed[chosen].tolist()), chosen
