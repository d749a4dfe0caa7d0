"""The computations behind the shipped preflop tables (see :mod:`agents.common.tables`).

``scripts/build_tables.py`` runs them all; the tests rerun a sample and compare.

* Class against class: every combo of a class is a suit permutation of every other, so the
  equity of class ``i`` against class ``j`` (averaged over all pairs of combos that do not
  share a card) is the average over the combos of ``j`` against one fixed combo of ``i``;
  those combos fall into a few orbits under the suit permutations that fix it, and each
  orbit is enumerated exactly once (1,712,304 boards).
* Flop connection: over all 19,600 flops, how often a combo of the class makes a pair or
  better, holds two overcards, a flush draw or a straight draw (defined in
  :func:`flop_connect_counts`).
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
from numba import njit

from acpcbot.handeval.combos import COMBO_CARDS, class_combos
from acpcbot.handeval.enumeration import board_counts, deck_without
from acpcbot.handeval.jitcache import cache_enabled

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

_PERMUTATIONS = tuple(itertools.permutations(range(4)))
CONNECT_FEATURES = ("pair_or_better", "two_overcards", "flush_draw", "straight_draw", "any")


def _permuted(permutation: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted((c & ~3) | permutation[c & 3] for c in cards))


def matchup_orbits(i: int, j: int) -> tuple[tuple[int, int], list[tuple[tuple[int, int], int]]]:
    """A fixed combo of class ``i`` and the orbits of class ``j``'s combos that can face it:
    ``(hand, [(representative, orbit size), ...])``."""
    hand = tuple(int(c) for c in COMBO_CARDS[class_combos(i)[0]])
    fixing = [p for p in _PERMUTATIONS if _permuted(p, hand) == tuple(sorted(hand))]
    orbits: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for combo in class_combos(j):
        other = (int(COMBO_CARDS[combo, 0]), int(COMBO_CARDS[combo, 1]))
        if set(other) & set(hand):
            continue
        canonical = min(_permuted(p, other) for p in fixing)
        orbits.setdefault(canonical, []).append(other)
    return (hand[0], hand[1]), [(members[0], len(members)) for members in orbits.values()]


def class_matchup(i: int, j: int) -> float:
    """Exact showdown equity of class ``i`` against class ``j`` (ties count half)."""
    hand, orbits = matchup_orbits(i, j)
    share = 0.0
    combos = 0
    for other, size in orbits:
        counts = np.zeros((2, 3))
        boards = board_counts(np.array([hand, other], dtype=np.int64), _NO_BOARD, counts, 1.0)
        share += size * (counts[0, 1] + 0.5 * counts[0, 2]) / boards
        combos += size
    return share / combos


_NO_BOARD = np.zeros(0, dtype=np.int64)


@njit(cache=CACHE)
def _straight_window(ranks: int) -> bool:
    """Whether a 13-bit rank mask holds five consecutive ranks (the wheel included)."""
    wheel = ranks << 1 | (ranks >> 12) & 1  # bit 0 is the ace below the deuce
    return (wheel & (wheel >> 1) & (wheel >> 2) & (wheel >> 3) & (wheel >> 4)) != 0


@njit(cache=CACHE)
def flop_connect_counts(c0: int, c1: int) -> npt.NDArray[np.int64]:
    """Over every flop that misses the two hole cards, how many give each feature of
    :data:`CONNECT_FEATURES` (and the number of flops last).

    * pair or better: a pocket pair, a hole card pairing the flop, or a straight or flush
      made with the flop (a pair on the flop alone does not count);
    * two overcards: both hole cards rank above every flop card (an overpair counts);
    * flush draw: exactly four cards of one suit among the five;
    * straight draw: no straight yet, but some rank would complete one (open-ended or
      inside);
    * any: at least one of the four.
    """
    r0, r1 = c0 >> 2, c1 >> 2
    hole_ranks = (1 << r0) | (1 << r1)
    deck = deck_without((1 << c0) | (1 << c1))
    counts = np.zeros(len(CONNECT_FEATURES) + 1, np.int64)
    for a in range(len(deck)):
        for b in range(a + 1, len(deck)):
            for c in range(b + 1, len(deck)):
                flop = (deck[a], deck[b], deck[c])
                flop_ranks = 0
                suits = np.zeros(4, np.int64)
                suits[c0 & 3] += 1
                suits[c1 & 3] += 1
                top = 0
                for card in flop:
                    flop_ranks |= 1 << (card >> 2)
                    suits[card & 3] += 1
                    top = max(top, card >> 2)
                ranks = hole_ranks | flop_ranks
                straight = _straight_window(ranks)
                flush = suits.max() >= 5
                pair = r0 == r1 or (flop_ranks & hole_ranks) != 0 or straight or flush
                over = min(r0, r1) > top
                flush_draw = suits.max() == 4
                straight_draw = False
                if not straight:
                    for extra in range(13):
                        if _straight_window(ranks | (1 << extra)):
                            straight_draw = True
                features = (pair, over, flush_draw, straight_draw)
                for f in range(4):
                    counts[f] += features[f]
                counts[4] += pair or over or flush_draw or straight_draw
                counts[5] += 1
    return counts


def flop_connect_class(k: int) -> npt.NDArray[np.float64]:
    """The probabilities of :data:`CONNECT_FEATURES` for a combo of class ``k``."""
    c0, c1 = (int(c) for c in COMBO_CARDS[class_combos(k)[0]])
    counts = flop_connect_counts(c0, c1)
    result: npt.NDArray[np.float64] = counts[:-1] / counts[-1]
    return result
