"""Suit isomorphism of board card sets: boards that differ only by renaming suits.

Hand strength is unchanged when the same permutation of suits is applied to the hole and
the board cards, so tables need only one *canonical* board per class: the set whose cards,
sorted ascending and read as base-52 digits, give the smallest number over the 24 suit
permutations. There are 1755 canonical flops among the 22,100 flops.

>>> flops = CanonicalFlops.build()
>>> len(flops.boards), int(flops.weights.sum())
(1755, 22100)
>>> from acpcbot.cards import parse_cards, cards_text
>>> board_id, hole = flops.canonical(parse_cards("2h5h9s"), parse_cards("AhKd"))
>>> cards_text(flops.boards[board_id]), cards_text(hole)
('2c5c9d', 'AcKs')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

import numpy as np
import numpy.typing as npt

from acpcbot.cards import Card

IntArray = npt.NDArray[np.int64]
SUIT_PERMUTATIONS: IntArray = np.array(list(permutations(range(4))), dtype=np.int64)
"""The 24 renamings of suits: ``SUIT_PERMUTATIONS[p][suit]`` is the new suit."""


def board_key(cards: Sequence[int]) -> int:
    """Sorted cards read as base-52 digits."""
    key = 0
    for c in sorted(cards):
        key = key * 52 + int(c)
    return key


def key_cards(key: int, size: int) -> tuple[Card, ...]:
    """The sorted cards of a :func:`board_key`."""
    cards = []
    for _ in range(size):
        key, c = divmod(key, 52)
        cards.append(c)
    return tuple(reversed(cards))


_RENAMED: npt.NDArray[np.int16] = (
    np.arange(52) // 4 * 4 + SUIT_PERMUTATIONS[:, np.arange(52) % 4]
).astype(np.int16)
"""``_RENAMED[p, card]``: ``card`` with its suit renamed by ``SUIT_PERMUTATIONS[p]``."""


def canonical_keys(boards: IntArray) -> tuple[IntArray, IntArray]:
    """For ``(n, k)`` boards: each board's canonical key and the index of a suit permutation
    that maps the board onto its canonical form (the first of the permutations that do)."""
    renamed = _RENAMED[:, boards]  # (24, n, k)
    # Each renamed board's cards in order by an odd-even transposition sort, column against
    # column: numpy's sort of many rows of a few cards spends its time per row.
    cards = [renamed[..., i] for i in range(boards.shape[1])]
    for step in range(len(cards)):
        for i in range(step % 2, len(cards) - 1, 2):
            cards[i], cards[i + 1] = (
                np.minimum(cards[i], cards[i + 1]),
                np.maximum(cards[i], cards[i + 1]),
            )
    keys = np.zeros(renamed.shape[:2], dtype=np.int64)
    for column in cards:
        keys = keys * 52 + column
    best = keys.argmin(axis=0)
    return keys[best, np.arange(len(boards))], best


def permute_cards(cards: Sequence[Card], permutation: int) -> tuple[Card, ...]:
    """``cards`` with their suits renamed by ``SUIT_PERMUTATIONS[permutation]``."""
    perm = SUIT_PERMUTATIONS[permutation]
    return tuple((c // 4) * 4 + int(perm[c % 4]) for c in cards)


@dataclass(frozen=True, eq=False)
class CanonicalFlops:
    """The canonical flops, their weights, and the map from any flop to one of them."""

    boards: IntArray
    """``(1755, 3)`` canonical flops, sorted by key."""
    weights: IntArray
    """How many of the 22,100 flops are each canonical flop's renamings."""
    _id_of_key: IntArray
    """By :func:`board_key` of a flop: its canonical flop's index and the permutation (-1,
    -1 for a key of no flop)."""

    @classmethod
    def build(cls) -> CanonicalFlops:
        flops = np.array(list(combinations(range(52), 3)), dtype=np.int64)
        keys, best = canonical_keys(flops)
        unique, ids, weights = np.unique(keys, return_inverse=True, return_counts=True)
        boards = np.array([key_cards(int(k), 3) for k in unique], dtype=np.int64)
        own = flops @ np.array([52 * 52, 52, 1])
        id_of_key = np.full((52**3, 2), -1, dtype=np.int64)
        id_of_key[own, 0] = ids.ravel()
        id_of_key[own, 1] = best
        return cls(boards, weights.astype(np.int64), id_of_key)

    def canonical(self, flop: Sequence[Card], hole: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
        """The canonical flop's index and ``hole`` renamed the same way."""
        board_id, permutation = self.canonical_permutation(flop)
        return board_id, permute_cards(hole, permutation)

    def canonical_permutation(self, flop: Sequence[Card]) -> tuple[int, int]:
        """The canonical flop's index and the suit permutation (into
        :data:`SUIT_PERMUTATIONS`) that :meth:`canonical` renames hole cards with."""
        board_id, permutation = self._id_of_key[board_key(flop)].tolist()
        if board_id < 0:
            raise KeyError(f"not a flop: {list(flop)}")
        return board_id, permutation


def canonical_boards(size: int) -> tuple[IntArray, IntArray]:
    """All canonical boards of ``size`` cards and their weights (how many boards each
    stands for). Five-card boards: 134,459 classes of 2,598,960 boards."""
    chunks_keys = []
    for first in range(52):
        rest = np.array(list(combinations(range(first + 1, 52), size - 1)), dtype=np.int64)
        if rest.size == 0:
            continue
        boards = np.concatenate([np.full((len(rest), 1), first), rest], axis=1)
        keys, _ = canonical_keys(boards)
        chunks_keys.append(keys)
    unique, counts = np.unique(np.concatenate(chunks_keys), return_counts=True)
    boards = np.array([key_cards(int(k), size) for k in unique], dtype=np.int64)
    return boards, counts.astype(np.int64)
