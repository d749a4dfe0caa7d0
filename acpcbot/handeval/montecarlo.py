"""Seeded Monte Carlo showdowns, and the random numbers every engine sampler uses.

The generator is SplitMix64 (Steele, Lea and Flood 2014): one 64-bit state, a counter step
and a mixing function, so a seed gives the same stream on every machine. A 64-bit output is
cut into two 32-bit halves and each half picks an index below ``n`` by ``(half * n) >> 32``;
for the small ``n`` here (at most 1326) that is uniform to within ``n / 2**32``.

Hole cards of a "random" player are drawn from a weight table over the 1326 combos with
Walker's alias method; when two random players' combos collide the whole draw is repeated, so
the joint distribution is the product of the weights restricted to disjoint hands. The board
is completed with a partial Fisher-Yates shuffle of a deck that is never reset (any
permutation of it is as good as a sorted one).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import int64, njit, uint64

from acpcbot.handeval.enumeration import _score, deck_without
from acpcbot.handeval.evaluator import CARD_BIT, CARD_KEY, cards_state, value_of_key
from acpcbot.handeval.jitcache import cache_enabled

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

_GOLDEN = uint64(0x9E3779B97F4A7C15)
_MIX1 = uint64(0xBF58476D1CE4E5B9)
_MIX2 = uint64(0x94D049BB133111EB)
_LOW32 = uint64(0xFFFFFFFF)


@njit(cache=CACHE)
def splitmix64(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The next (state, output) of SplitMix64."""
    state = uint64(state) + _GOLDEN
    z = state
    z = (z ^ (z >> uint64(30))) * _MIX1
    z = (z ^ (z >> uint64(27))) * _MIX2
    return state, z ^ (z >> uint64(31))


@njit(cache=CACHE)
def low_index(z: np.uint64, n: int) -> np.int64:
    """An index below ``n`` from the low 32 bits of ``z``."""
    return int64((uint64(z) & _LOW32) * uint64(n) >> uint64(32))


@njit(cache=CACHE)
def high_index(z: np.uint64, n: int) -> np.int64:
    """An index below ``n`` from the high 32 bits of ``z``."""
    return int64((uint64(z) >> uint64(32)) * uint64(n) >> uint64(32))


@njit(cache=CACHE)
def alias_table(weights: FloatArray) -> tuple[FloatArray, IntArray]:
    """Walker's alias table (Vose's construction) of non-negative weights, not all zero."""
    n = len(weights)
    factor = n / weights.sum()
    scaled = np.empty(n)
    for i in range(n):  # a loop, not an array expression: see sample_more
        scaled[i] = weights[i] * factor
    prob = np.ones(n)
    alias = np.arange(n)
    small = np.empty(n, np.int64)
    large = np.empty(n, np.int64)
    ns = nl = 0
    for i in range(n):
        if scaled[i] < 1.0:
            small[ns] = i
            ns += 1
        else:
            large[nl] = i
            nl += 1
    while ns > 0 and nl > 0:
        ns -= 1
        s = small[ns]
        nl -= 1
        g = large[nl]
        prob[s] = scaled[s]
        alias[s] = g
        scaled[g] = scaled[g] + scaled[s] - 1.0
        if scaled[g] < 1.0:
            small[ns] = g
            ns += 1
        else:
            large[nl] = g
            nl += 1
    result: tuple[FloatArray, IntArray] = (prob, alias)  # leftovers keep probability 1
    return result


@njit(cache=CACHE)
def _shuffle_one(deck: IntArray, i: int, index: np.int64) -> int:
    """Swap ``deck[i + index]`` to position ``i`` and return it (one Fisher-Yates step)."""
    card: int = deck[i + index]
    deck[i + index] = deck[i]
    deck[i] = card
    return card


@njit(cache=CACHE, inline="always")
def _shuffle_front(
    state: np.uint64, deck: IntArray, drawn: IntArray, b: int, draws: int
) -> np.uint64:
    """Shuffle ``draws`` cards to the deck's front, two per 64-bit number, into ``drawn[b]``."""
    size = len(deck)
    for j in range(0, draws - 1, 2):
        state, z = splitmix64(state)
        drawn[b, j] = _shuffle_one(deck, j, low_index(z, size - j))
        drawn[b, j + 1] = _shuffle_one(deck, j + 1, high_index(z, size - j - 1))
    if draws % 2:
        state, z = splitmix64(state)
        drawn[b, draws - 1] = _shuffle_one(deck, draws - 1, low_index(z, size - draws + 1))
    return state


@njit(cache=CACHE, inline="always")
def _add_cards(  # noqa: PLR0917  (numba kernels take positional arguments)
    key: int, bits: int, drawn: IntArray, b: int, start: int, stop: int
) -> tuple[int, int]:
    for j in range(start, stop):
        key += CARD_KEY[drawn[b, j]]
        bits |= CARD_BIT[drawn[b, j]]
    return key, bits


@njit(cache=CACHE, inline="always")
def _hole(key: int, bits: int, slot: int, drawn: IntArray, b: int) -> tuple[int, int]:
    """A player's hole key and bits: fixed, or drawn at ``drawn[b, slot:slot + 2]``."""
    if slot < 0:
        return key, bits
    c0, c1 = drawn[b, slot], drawn[b, slot + 1]
    return CARD_KEY[c0] + CARD_KEY[c1], CARD_BIT[c0] | CARD_BIT[c1]


@njit(cache=CACHE)
def _draw_weighted(  # noqa: PLR0917  (numba kernels take positional arguments)
    state: np.uint64,
    threshold: IntArray,
    alias: IntArray,
    combo_cards: IntArray,
    used: int,
    deck: IntArray,
    out: IntArray,
) -> np.uint64:
    """Draw every weighted player's two cards (redrawing all of them until they are disjoint:
    the product of the weights) and then the board, skipping their cards: a uniform sequence
    of distinct cards with some removed is a uniform sequence of the others. Writes the cards
    to ``out`` and returns the generator's state."""
    randoms, combos = threshold.shape
    dealt = used
    disjoint = False
    while not disjoint:
        disjoint = True
        dealt = used
        for r in range(randoms):
            state, z = splitmix64(state)
            combo = low_index(z, combos)
            if int64(uint64(z) >> uint64(32)) >= threshold[r, combo]:
                combo = alias[r, combo]
            c0, c1 = combo_cards[combo, 0], combo_cards[combo, 1]
            if (dealt >> c0) & 1 or (dealt >> c1) & 1:
                disjoint = False
                break
            dealt |= (1 << c0) | (1 << c1)
            out[2 * r] = c0
            out[2 * r + 1] = c1
    i = 0
    for j in range(2 * randoms, len(out)):
        card = -1
        while card < 0 or (dealt >> card) & 1:
            state, z = splitmix64(state)
            card = _shuffle_one(deck, i, low_index(z, len(deck) - i))
            i += 1
        out[j] = card
    return state


@njit(cache=CACHE)
def sample_counts(  # noqa: PLR0917  (numba kernels take positional arguments)
    holes: IntArray,
    board: IntArray,
    weights: FloatArray,
    combo_cards: IntArray,
    trials: int,
    seed: int,
    counts: FloatArray,
) -> None:
    """Add ``trials`` sampled showdowns to ``counts`` (see :mod:`.enumeration`).

    ``holes`` is ``(P, 2)`` with ``-1`` for a random player. With ``weights`` of shape
    ``(0, C)`` every random player is uniform over the unseen cards; otherwise random player
    ``r`` (in seat order) draws from ``weights[r]`` over ``combo_cards`` (weights of combos
    that meet a known card must be 0).
    """
    state, deck = sample_stream(holes, board, seed)
    sample_more(holes, board, weights, combo_cards, trials, state, deck, counts)


@njit(cache=CACHE)
def sample_stream(
    holes: IntArray, board: IntArray, seed: int
) -> tuple[npt.NDArray[np.uint64], IntArray]:
    """Where the showdowns of :func:`sample_counts` with ``seed`` are drawn from: the
    generator's state (one number, in an array) and the deck of the unseen cards, each
    changed by every :func:`sample_more` that draws from them."""
    used = cards_state(board)[0]
    for p in range(len(holes)):
        if holes[p, 0] >= 0:
            used |= (1 << holes[p, 0]) | (1 << holes[p, 1])
    state = np.empty(1, np.uint64)
    state[0] = uint64(seed)
    result: tuple[npt.NDArray[np.uint64], IntArray] = (state, deck_without(used))
    return result


@njit(cache=CACHE)
def sample_more(  # noqa: PLR0917  (numba kernels take positional arguments)
    holes: IntArray,
    board: IntArray,
    weights: FloatArray,
    combo_cards: IntArray,
    trials: int,
    stream: npt.NDArray[np.uint64],
    deck: IntArray,
    counts: FloatArray,
) -> None:
    """:func:`sample_counts`'s next ``trials`` showdowns, drawn from ``stream`` and
    ``deck`` (:func:`sample_stream`; both left where the draws end): trials sampled a few
    at a time add up to the counts of all of them at once, so a long run can stop between
    two calls (Ctrl-C) and say how far it is."""
    players = len(holes)
    used, board_key, board_bits = cards_state(board)
    slot = np.full(players, -1, np.int64)  # where a random player's cards are drawn
    hole_key = np.zeros(players, np.int64)
    hole_bits = np.zeros(players, np.int64)
    randoms = 0
    for p in range(players):
        if holes[p, 0] < 0:
            slot[p] = 2 * randoms
            randoms += 1
        else:
            used |= (1 << holes[p, 0]) | (1 << holes[p, 1])
            hole_key[p] = CARD_KEY[holes[p, 0]] + CARD_KEY[holes[p, 1]]
            hole_bits[p] = CARD_BIT[holes[p, 0]] | CARD_BIT[holes[p, 1]]
    weighted = len(weights) > 0
    combos = len(combo_cards)
    threshold = np.empty((len(weights), combos), np.int64)  # P(keep the index) * 2**32
    alias = np.empty((len(weights), combos), np.int64)
    for r in range(len(weights)):
        table_prob, table_alias = alias_table(weights[r])
        # A loop, not an array expression: numba's array expressions and slice assignments
        # take seconds to compile (their broadcasting, their errors' strings), a loop little.
        for c in range(combos):
            threshold[r, c] = int64(table_prob[c] * 2.0**32)
            alias[r, c] = table_alias[c]
    missing = 5 - len(board)
    draws = 2 * randoms + missing
    values = np.empty(players, np.int64)
    # A batch of trials is drawn (random players' cards, then the board's) and then
    # evaluated, so that the shuffling and the table lookups of different trials overlap.
    batch = 64
    drawn = np.empty((batch, draws), np.int64)
    state = stream[0]
    done = first = second = tied = 0
    while done < trials:
        n = min(batch, trials - done)
        for b in range(n):
            if weighted:
                state = _draw_weighted(state, threshold, alias, combo_cards, used, deck, drawn[b])
            elif draws == 7:  # heads-up preflop: constant bounds, so the loop unrolls
                state = _shuffle_front(state, deck, drawn, b, 7)
            else:
                state = _shuffle_front(state, deck, drawn, b, draws)
        for b in range(n):
            key = board_key
            bits = board_bits
            if draws == 7 and randoms == 1:  # constant bounds again
                key, bits = _add_cards(key, bits, drawn, b, 2, 7)
            else:
                key, bits = _add_cards(key, bits, drawn, b, 2 * randoms, draws)
            if players == 2:  # scalar, branch-free counting for the common case
                k0, b0 = _hole(hole_key[0], hole_bits[0], slot[0], drawn, b)
                k1, b1 = _hole(hole_key[1], hole_bits[1], slot[1], drawn, b)
                v0 = value_of_key(key + k0, bits | b0)
                v1 = value_of_key(key + k1, bits | b1)
                first += v0 > v1
                second += v0 < v1
                tied += v0 == v1
            else:
                for p in range(players):
                    kp, bp = _hole(hole_key[p], hole_bits[p], slot[p], drawn, b)
                    values[p] = value_of_key(key + kp, bits | bp)
                _score(values, counts, 1.0)
        done += n
    stream[0] = state
    if players == 2:
        counts[0, 1] += first
        counts[1, 1] += second
        counts[0, 2] += tied
        counts[1, 2] += tied
