"""Showdowns against every holding at once: all 1326 two-card holdings on one board (numba).

Both functions enumerate every runout of a flop, turn or river board exactly and count, for
each holding (indexed like :data:`acpcbot.handeval.combos.COMBO_CARDS`), the showdowns won
and tied and how many were played; holdings that meet a known card get zeros.

* :func:`hand_against_holdings` — one known hand against each holding: a win probability
  against any weighted range is then a dot product (local best response uses it).
* :func:`holdings_against_random` — each holding against a uniformly random opponent
  holding, over every runout: the hand strength of every holding at once (the equity
  against a random hand, as :func:`acpcbot.handeval.equity.hand_vs_range` with ``None``
  computes it for one). Per full board the holdings are counted by rank pair (every
  holding of a pair is worth the same unless it makes a flush), with per-rank counts for
  card removal and the flushes counted one by one; with four cards of a suit on the board,
  the live holdings are ordered by value (a counting sort over the 7462 values) and swept
  once, with per-card counts for card removal. A flop's counts (tens of milliseconds) are
  kept for its class under renaming suits (1755 classes, 19 MB when all are kept): a long
  match meets every flop class many times.
* :func:`holdings_squared_strength` — the same sweep keeping each runout's hand strength
  squared: every holding's E[HS²], the usual hand-strength feature of card abstractions
  (a draw's strength varies over the runouts, so it weighs more than its mean);
  :func:`holding_squared_strength` the same value for one holding on a turn or river.

>>> from acpcbot.cards import parse_cards as c
>>> from acpcbot.handeval.combos import combo_index
>>> wins, ties, played = hand_against_holdings(c("AhAd"), c("2c7d9s"))
>>> kk = combo_index(*c("KhKs"))
>>> int(played[kk]), round(float((wins[kk] + ties[kk] / 2) / played[kk]), 4)
(990, 0.9162)
>>> wins, ties, played = holdings_against_random(c("2c7d9s4h5h"))
>>> int(played[combo_index(*c("AsAc"))]), int(played[combo_index(*c("2c3c"))])
(990, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from numba import njit

from acpcbot.cards import Card
from acpcbot.handeval.combos import COMBO_CARDS, NUM_COMBOS, PERMUTED_COMBOS, canonical_board
from acpcbot.handeval.enumeration import deck_without
from acpcbot.handeval.evaluator import (
    CARD_BIT,
    CARD_KEY,
    cards_state,
    value_of_key,
    value_without_flush,
)
from acpcbot.handeval.jitcache import cache_enabled

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

__all__ = [
    "SweepSpace",
    "hand_against_holdings",
    "holding_squared_strength",
    "holdings_against_random",
    "holdings_against_ranges",
    "holdings_squared_strength",
    "showdown_sweep",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Counts = tuple[FloatArray, FloatArray, FloatArray]
"""Wins, ties and showdowns played, per holding."""

_VALUES = 7463
"""Hand values are 1..7462."""
_VALUES = 7462
"""Hand values are 1..7462."""
_OPPONENTS = 45 * 44 // 2
"""Opponent holdings that can face a holding on a full board: C(45, 2)."""


@njit(cache=CACHE)
def _live(used: int, combo_cards: IntArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """The holdings that meet no card of the mask ``used``: index, key, bits and mask."""
    n = len(combo_cards)
    index = np.empty(n, np.int64)
    key = np.empty(n, np.int64)
    bits = np.empty(n, np.int64)
    mask = np.empty(n, np.int64)
    live = 0
    for k in range(n):
        c, d = combo_cards[k, 0], combo_cards[k, 1]
        m = (1 << c) | (1 << d)
        if m & used:
            continue
        index[live] = k
        key[live] = CARD_KEY[c] + CARD_KEY[d]
        bits[live] = CARD_BIT[c] | CARD_BIT[d]
        mask[live] = m
        live += 1
    return index[:live], key[:live], bits[:live], mask[:live]


@njit(cache=CACHE)
def _runouts(deck: IntArray, missing: int) -> IntArray:
    """Every set of ``missing`` (0, 1 or 2) cards of ``deck``, one per row."""
    n = len(deck)
    if missing == 0:
        return np.zeros((1, 0), np.int64)
    if missing == 1:
        return deck.reshape(n, 1).copy()
    out = np.empty((n * (n - 1) // 2, 2), np.int64)
    r = 0
    for i in range(n):
        for j in range(i + 1, n):
            out[r, 0] = deck[i]
            out[r, 1] = deck[j]
            r += 1
    return out


@njit(cache=CACHE)
def _full_board(board_key: int, board_bits: int, runout: IntArray) -> tuple[int, int, int]:
    """The key, the suit bits and the card mask of the board completed by ``runout``."""
    k = board_key
    b = board_bits
    m = 0
    for card in runout:
        k += CARD_KEY[card]
        b |= CARD_BIT[card]
        m |= 1 << card
    return k, b, m


@njit(cache=CACHE)
def _on_full_board(  # noqa: PLR0917  (numba kernels take positional arguments)
    board_key: int,
    board_bits: int,
    runout: IntArray,
    live_cards: tuple[IntArray, IntArray, IntArray, IntArray],
    on_board: IntArray,
    value: IntArray,
    cards: IntArray,
) -> int:
    """The live holdings (``live_cards``: the key, bits, mask and cards of each, as
    :func:`_live` finds them) that meet no card of ``runout``, on the board it completes:
    their places among the live ones in ``on_board``, their hand values in ``value`` and
    their cards in ``cards``; how many."""
    key, bits, mask, holding_cards = live_cards
    k, b, m = _full_board(board_key, board_bits, runout)
    count = 0
    for n in range(len(key)):
        if mask[n] & m:
            continue
        on_board[count] = n
        value[count] = value_of_key(k + key[n], b | bits[n])
        cards[count, 0] = holding_cards[n, 0]
        cards[count, 1] = holding_cards[n, 1]
        count += 1
    return count


_PAIRS = 13 * 13
"""Rank pairs of a holding, ``13 * low card's rank + high card's rank`` (its cards in
:data:`~acpcbot.handeval.combos.COMBO_CARDS`' order)."""


@njit(cache=CACHE)
def _pair_keys() -> IntArray:
    """Per rank pair, the key of two cards of those ranks: its rank fields are those of any
    holding of that pair (the suit counters, which these kernels never read from it, are
    not)."""
    keys = np.empty(_PAIRS, np.int64)
    for low in range(13):
        for high in range(13):
            keys[low * 13 + high] = CARD_KEY[4 * low] + CARD_KEY[4 * high + 1]
    return keys


@njit(cache=CACHE)
def _by_suit(holding_cards: IntArray, board: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """The holdings (places in ``holding_cards``) that hold two cards of a suit, a row per
    suit, then those that hold one (-1 pads the rows), and the board's cards per suit."""
    live = len(holding_cards)
    suited = np.full((4, live), -1, np.int64)
    single = np.full((4, live), -1, np.int64)
    n_suited = np.zeros(4, np.int64)
    n_single = np.zeros(4, np.int64)
    for n in range(live):
        c, d = holding_cards[n, 0] % 4, holding_cards[n, 1] % 4
        if c == d:
            suited[c, n_suited[c]] = n
            n_suited[c] += 1
        else:
            for suit in (c, d):
                single[suit, n_single[suit]] = n
                n_single[suit] += 1
    board_suits = np.zeros(4, np.int64)
    for card in board:
        board_suits[card % 4] += 1
    return suited, single, board_suits


@njit(cache=CACHE)
def _own_values(  # noqa: PLR0917  (numba kernels take positional arguments)
    holdings: IntArray,
    runout: tuple[int, int, int, int],
    live_cards: tuple[IntArray, IntArray, IntArray],
    pair: IntArray,
    pair_won: IntArray,
    pair_tied: IntArray,
    won: IntArray,
    tied: IntArray,
) -> None:
    """The ``holdings`` (up to the first -1) that share no card with the runout (``runout``:
    the full board's key, bits and mask and our value there) valued one by one: each one's
    outcome replaces its pair's in ``won`` and ``tied``."""
    k, b, m, value = runout
    key, bits, mask = live_cards
    for n in holdings:
        if n < 0:
            break
        if mask[n] & m:
            continue
        other = value_of_key(k + key[n], b | bits[n])
        won[n] += (value > other) - pair_won[pair[n]]
        tied[n] += (value == other) - pair_tied[pair[n]]


@njit(cache=CACHE)
def _hand_against_holdings(  # noqa: PLR0917  (numba kernels take positional arguments)
    h0: int,
    h1: int,
    board: IntArray,
    combo_cards: IntArray,
    wins: FloatArray,
    ties: FloatArray,
    played: FloatArray,
    stride: int,
) -> None:
    """Counts every runout of ``board`` (every ``stride``-th) against each live holding, as
    a loop over runouts and holdings would, with one evaluation per runout and *rank pair*
    instead of per holding.

    Without a flush a hand's value is read from the rank fields of its key alone, so every
    holding of a rank pair has the same value on a runout: the 169 pairs are valued and the
    outcomes (won, tied) summed per pair over all runouts, and a holding's counts are its
    pair's sums less those of the runouts that hold one of its cards (and plus the runout
    that holds both, counted out twice). The holdings that make a flush on a runout — those
    with enough cards of a suit that the full board holds three or more of — are valued
    one by one there, their pair's outcome replaced by their own. The counts are integers:
    the same as the loop's, a fifth of its time on a flop without a flush draw."""
    used, board_key, board_bits = cards_state(board)
    mine = (1 << h0) | (1 << h1)
    index, key, bits, mask = _live(used | mine, combo_cards)
    live = len(index)
    holding_cards = combo_cards[index]
    my_key = CARD_KEY[h0] + CARD_KEY[h1]
    my_bits = CARD_BIT[h0] | CARD_BIT[h1]
    runouts = _runouts(deck_without(used | mine), 5 - len(board))
    pair_keys = _pair_keys()
    pair = np.empty(live, np.int64)
    place = np.full(52 * 52, -1, np.int64)  # a holding's place among the live, by its cards
    for n in range(live):
        c, d = holding_cards[n, 0], holding_cards[n, 1]
        pair[n] = (c // 4) * 13 + d // 4
        place[c * 52 + d] = n
    suited, single, board_suits = _by_suit(holding_cards, board)
    every = np.arange(live)
    live_cards = (key, bits, mask)
    pair_won = np.empty(_PAIRS, np.int64)  # on one runout
    pair_tied = np.empty(_PAIRS, np.int64)
    won_all = np.zeros(_PAIRS, np.int64)  # over all runouts ...
    tied_all = np.zeros(_PAIRS, np.int64)
    won_with = np.zeros((52, _PAIRS), np.int64)  # ... and over those that hold a card
    tied_with = np.zeros((52, _PAIRS), np.int64)
    runs_with = np.zeros(52, np.int64)
    won = np.zeros(live, np.int64)  # the corrections, per holding
    tied = np.zeros(live, np.int64)
    seen = np.zeros(live, np.int64)
    runs = 0
    for r in range(0, len(runouts), stride):
        runout = runouts[r]
        k, b, m = _full_board(board_key, board_bits, runout)
        value = value_of_key(k + my_key, b | my_bits)
        for p in range(_PAIRS):
            other = value_without_flush(k + pair_keys[p])
            pair_won[p] = value > other
            pair_tied[p] = value == other
            won_all[p] += pair_won[p]
            tied_all[p] += pair_tied[p]
        runs += 1
        for card in runout:
            runs_with[card] += 1
            for p in range(_PAIRS):
                won_with[card, p] += pair_won[p]
                tied_with[card, p] += pair_tied[p]
        if len(runout) == 2:  # the holding of its two cards, counted out twice above
            n = place[runout[0] * 52 + runout[1]]
            if n >= 0:
                won[n] += pair_won[pair[n]]
                tied[n] += pair_tied[pair[n]]
                seen[n] += 1
        for suit in range(4):  # a flush for the holdings with 5 - count cards of the suit
            count = board_suits[suit]
            for card in runout:
                count += card % 4 == suit
            if count < 3:
                continue
            flushes = (k, b, m, value)
            if count >= 5:
                _own_values(every, flushes, live_cards, pair, pair_won, pair_tied, won, tied)
                continue
            _own_values(suited[suit], flushes, live_cards, pair, pair_won, pair_tied, won, tied)
            if count == 4:
                _own_values(single[suit], flushes, live_cards, pair, pair_won, pair_tied, won, tied)
    for n in range(live):
        c, d = holding_cards[n, 0], holding_cards[n, 1]
        p = pair[n]
        wins[index[n]] = won[n] + won_all[p] - won_with[c, p] - won_with[d, p]
        ties[index[n]] = tied[n] + tied_all[p] - tied_with[c, p] - tied_with[d, p]
        played[index[n]] = seen[n] + runs - runs_with[c] - runs_with[d]


class SweepSpace:
    """Work arrays for :func:`showdown_sweep` of up to ``size`` holdings (kept between
    calls: a sweep allocates nothing)."""

    def __init__(self, size: int = NUM_COMBOS) -> None:
        self.order = np.empty(size, np.int64)
        self.start = np.zeros(_VALUES + 2, np.int64)  # a count per value 0..7462, shifted
        self.card_below = np.zeros(52, np.int64)
        self.card_equal = np.zeros(52, np.int64)


@njit(cache=CACHE)
def _order_by_value(value: IntArray, count: int, order: IntArray, start: IntArray) -> None:
    """``order[:count]``: the holdings ``0..count-1`` by value, lowest first (a counting sort
    over the 7462 values; ``start`` is work space)."""
    start[:] = 0
    for i in range(count):
        start[value[i] + 1] += 1
    for v in range(1, len(start)):
        start[v] += start[v - 1]
    for i in range(count):
        v = value[i]
        order[start[v]] = i
        start[v] += 1


@njit(cache=CACHE)
def showdown_sweep(  # noqa: PLR0917  (numba kernels take positional arguments)
    value: IntArray,
    cards: IntArray,
    count: int,
    wins: IntArray,
    ties: IntArray,
    order: IntArray,
    start: IntArray,
    card_below: IntArray,
    card_equal: IntArray,
) -> None:
    """For ``count`` holdings on one full board, holding ``i`` with hand value
    ``value[i]`` and cards ``cards[i]``: ``wins[i]`` and ``ties[i]`` against the others that
    share no card with it. The holdings are ordered by value (a counting sort over the 7462
    values) and swept once, lowest first, counting per card the holdings below and equal so
    far (the holdings that share a card with one are those that hold either of its cards:
    inclusion-exclusion, no pair of holdings shares both)."""
    _order_by_value(value, count, order, start)
    below = 0
    card_below[:] = 0
    first = 0
    while first < count:
        last = first
        v = value[order[first]]
        while last < count and value[order[last]] == v:
            i = order[last]
            card_equal[cards[i, 0]] += 1
            card_equal[cards[i, 1]] += 1
            last += 1
        size = last - first
        for j in range(first, last):
            i = order[j]
            c, d = cards[i, 0], cards[i, 1]
            wins[i] = below - card_below[c] - card_below[d]
            ties[i] = size - card_equal[c] - card_equal[d] + 1
        for j in range(first, last):
            i = order[j]
            c, d = cards[i, 0], cards[i, 1]
            card_below[c] += 1
            card_below[d] += 1
            card_equal[c] = 0
            card_equal[d] = 0
        below += size
        first = last


@njit(cache=CACHE)
def _weighted_sweep(  # noqa: PLR0917  (numba kernels take positional arguments)
    value: IntArray,
    cards: IntArray,
    weight: FloatArray,
    count: int,
    order: IntArray,
    won: FloatArray,
    faced: FloatArray,
    card_weight: FloatArray,
) -> None:
    """:func:`showdown_sweep` with a weight per holding, ``order`` already known: ``won[i]``
    the weight of the holdings sharing no card with ``i`` that it beats, plus half of those
    it ties, and ``faced[i]`` their whole weight. ``card_weight`` is work space (3 × 52:
    per card the weight holding it below, equal, and in all)."""
    card_weight[:] = 0.0
    whole = 0.0
    for i in range(count):
        whole += weight[i]
        card_weight[2, cards[i, 0]] += weight[i]
        card_weight[2, cards[i, 1]] += weight[i]
    below = 0.0
    first = 0
    while first < count:
        last = first
        v = value[order[first]]
        size = 0.0
        while last < count and value[order[last]] == v:
            i = order[last]
            size += weight[i]
            card_weight[1, cards[i, 0]] += weight[i]
            card_weight[1, cards[i, 1]] += weight[i]
            last += 1
        for j in range(first, last):
            i = order[j]
            c, d = cards[i, 0], cards[i, 1]
            beaten = below - card_weight[0, c] - card_weight[0, d]
            tied = size - card_weight[1, c] - card_weight[1, d] + weight[i]
            won[i] = beaten + tied / 2
            faced[i] = whole - card_weight[2, c] - card_weight[2, d] + weight[i]
        for j in range(first, last):
            i = order[j]
            c, d = cards[i, 0], cards[i, 1]
            card_weight[0, c] += weight[i]
            card_weight[0, d] += weight[i]
            card_weight[1, c] = 0.0
            card_weight[1, d] = 0.0
        below += size
        first = last


@njit(cache=CACHE)
def _holdings_against_ranges(  # noqa: PLR0917  (numba kernels take positional arguments)
    board: IntArray,
    combo_cards: IntArray,
    weights: FloatArray,
    stride: int,
    won: FloatArray,
    faced: FloatArray,
) -> None:
    used, board_key, board_bits = cards_state(board)
    index, key, bits, mask = _live(used, combo_cards)
    live_cards = (key, bits, mask, combo_cards[index])
    runouts = _runouts(deck_without(used), 5 - len(board))
    live = len(index)
    ranges = weights.shape[0]
    on_board = np.empty(live, np.int64)
    value = np.empty(live, np.int64)
    cards = np.empty((live, 2), np.int64)
    weight = np.empty(live)
    board_won = np.empty(live)
    board_faced = np.empty(live)
    order = np.empty(live, np.int64)
    start = np.zeros(_VALUES + 2, np.int64)
    card_weight = np.zeros((3, 52))
    for r in range(0, len(runouts), stride):
        count = _on_full_board(
            board_key, board_bits, runouts[r], live_cards, on_board, value, cards
        )
        _order_by_value(value, count, order, start)
        for g in range(ranges):
            for i in range(count):
                weight[i] = weights[g, index[on_board[i]]]
            _weighted_sweep(value, cards, weight, count, order, board_won, board_faced, card_weight)
            for i in range(count):
                won[g, index[on_board[i]]] += board_won[i]
                faced[g, index[on_board[i]]] += board_faced[i]


@njit(cache=CACHE)
def _showdowns_by_pair(  # noqa: PLR0917  (numba kernels take positional arguments)
    k: int,
    b: int,
    m: int,
    live_cards: tuple[IntArray, IntArray, IntArray, IntArray],
    on_board: IntArray,
    wins: IntArray,
    ties: IntArray,
) -> int:
    """:func:`_on_full_board` then :func:`showdown_sweep`, by rank pair: the live
    holdings that meet no card of the full board (key ``k``, bits ``b``, mask ``m``) in
    ``on_board``, their wins and ties in ``wins`` and ``ties``; how many. -1 (nothing
    done) when a suit holds four of its cards.

    Without a flush every holding of a rank pair is worth the same, and the holdings it
    beats are counted by rank: all those worth less, less those that share a card with it
    (for each of its cards, the cards of each rank left). With three cards of a suit on the
    board the holdings of two more make a flush: they are valued one by one, and the counts
    of the holdings that share a card with them corrected."""
    key, _, mask, holding_cards = live_cards
    suits = np.zeros(4, np.int64)
    left = np.full(13, 4, np.int64)  # the cards of each rank off the board
    for card in range(52):
        if (m >> card) & 1:
            suits[card % 4] += 1
            left[card // 4] -= 1
    flush_suit = -1
    for suit in range(4):
        if suits[suit] >= 4:
            return -1
        if suits[suit] == 3:
            flush_suit = suit
    # the value of each pair of ranks without a flush, and its holdings on the board
    plain = np.empty((13, 13), np.int64)
    items = _PAIRS + 78
    item_value = np.empty(items, np.int64)
    item_count = np.empty(items, np.int64)
    for x in range(13):
        for y in range(x, 13):
            v = value_without_flush(k + CARD_KEY[4 * x] + CARD_KEY[4 * y + 1])
            plain[x, y] = v
            plain[y, x] = v
            item_value[x * 13 + y] = v
            item_count[x * 13 + y] = left[x] * left[y] if x != y else left[x] * (left[x] - 1) // 2
            if x != y:  # an empty item: the pair's other order
                item_value[y * 13 + x] = v
                item_count[y * 13 + x] = 0
    # the flushes: holdings of two cards of the suit the board holds three of
    suited = np.empty(13, np.int64)  # the ranks of that suit off the board
    n_suited = 0
    flush = np.zeros((13, 13), np.int64)  # a flush's value and item, by its ranks
    flush_item = np.zeros((13, 13), np.int64)
    items = _PAIRS
    if flush_suit >= 0:
        for x in range(13):
            if not (m >> (4 * x + flush_suit)) & 1:
                suited[n_suited] = x
                n_suited += 1
        for i in range(n_suited):
            x = suited[i]
            c = 4 * x + flush_suit
            for j in range(i + 1, n_suited):
                y = suited[j]
                d = 4 * y + flush_suit
                v = value_of_key(k + CARD_KEY[c] + CARD_KEY[d], b | CARD_BIT[c] | CARD_BIT[d])
                flush[x, y] = v
                flush[y, x] = v
                item_count[x * 13 + y] -= 1
                flush_item[x, y] = items
                item_value[items] = v
                item_count[items] = 1
                items += 1
    # every item's holdings worth less and as much (the items in value order: a shell sort,
    # as fast here as numba's argsort, which takes seconds to compile on a cold cache; ties
    # in any order, as a group's items all get the same counts)
    order = np.arange(items)
    gap = items // 2
    while gap > 0:
        for i in range(gap, items):
            item = order[i]
            v = item_value[item]
            j = i
            while j >= gap and item_value[order[j - gap]] > v:
                order[j] = order[j - gap]
                j -= gap
            order[j] = item
        gap //= 2
    item_below = np.empty(items, np.int64)
    item_equal = np.empty(items, np.int64)
    below = 0
    first = 0
    while first < items:
        last = first
        v = item_value[order[first]]
        size = 0
        while last < items and item_value[order[last]] == v:
            size += item_count[order[last]]
            last += 1
        for j in range(first, last):
            item_below[order[j]] = below
            item_equal[order[j]] = size
        below += size
        first = last
    # per card of rank x, with another of rank y: the holdings with that card worth less
    # than, and as much as, the pair x y (by the other card's rank; flushes corrected)
    card_below = np.zeros((13, 13), np.int64)
    card_equal = np.zeros((13, 13), np.int64)
    for x in range(13):
        for y in range(13):
            v = plain[x, y]
            for z in range(13):
                count = left[z] - (z == x)
                card_below[x, y] += count * (plain[x, z] < v)
                card_equal[x, y] += count * (plain[x, z] == v)
    suited_below = np.zeros((13, 13), np.int64)  # the suit's card of rank x: what its
    suited_equal = np.zeros((13, 13), np.int64)  # flushes change in card_below, equal
    for i in range(n_suited):
        x = suited[i]
        for y in range(13):
            v = plain[x, y]
            for j in range(n_suited):
                z = suited[j]
                if z != x:
                    suited_below[x, y] += (flush[x, z] < v) - (plain[x, z] < v)
                    suited_equal[x, y] += (flush[x, z] == v) - (plain[x, z] == v)
    count = 0
    for n in range(len(key)):
        if mask[n] & m:
            continue
        c, d = holding_cards[n, 0], holding_cards[n, 1]
        x, y = c // 4, d // 4
        c_suited = c % 4 == flush_suit
        d_suited = d % 4 == flush_suit
        if c_suited and d_suited:  # a flush: counted on its own
            v = flush[x, y]
            item = flush_item[x, y]
            below = 0
            equal = 0
            for card_rank in (x, y):
                for z in range(13):
                    count_z = left[z] - (z == card_rank)
                    below += count_z * (plain[card_rank, z] < v)
                    equal += count_z * (plain[card_rank, z] == v)
                for j in range(n_suited):
                    z = suited[j]
                    if z != card_rank:
                        below += (flush[card_rank, z] < v) - (plain[card_rank, z] < v)
                        equal += (flush[card_rank, z] == v) - (plain[card_rank, z] == v)
        else:
            item = x * 13 + y
            below = card_below[x, y] + card_below[y, x]
            equal = card_equal[x, y] + card_equal[y, x]
            if c_suited:
                below += suited_below[x, y]
                equal += suited_equal[x, y]
            elif d_suited:
                below += suited_below[y, x]
                equal += suited_equal[y, x]
        on_board[count] = n
        wins[count] = item_below[item] - below
        ties[count] = item_equal[item] - equal + 1
        count += 1
    return count


@njit(cache=CACHE)
def _holdings_against_random(  # noqa: PLR0917  (numba kernels take positional arguments)
    board: IntArray,
    combo_cards: IntArray,
    wins: FloatArray,
    ties: FloatArray,
    played: FloatArray,
    order: IntArray,
    start: IntArray,
    card_below: IntArray,
    card_equal: IntArray,
    squares: FloatArray,
) -> None:
    used, board_key, board_bits = cards_state(board)
    index, key, bits, mask = _live(used, combo_cards)
    live_cards = (key, bits, mask, combo_cards[index])
    keep_squares = len(squares) > 0
    square = np.zeros(len(index) if keep_squares else 0)
    runouts = _runouts(deck_without(used), 5 - len(board))
    live = len(index)
    won = np.zeros(live, np.int64)
    tied = np.zeros(live, np.int64)
    seen = np.zeros(live, np.int64)
    on_board = np.empty(live, np.int64)  # the live holdings of one full board ...
    value = np.empty(live, np.int64)  # ... their values and cards ...
    cards = np.empty((live, 2), np.int64)
    board_wins = np.empty(live, np.int64)  # ... and their showdowns there
    board_ties = np.empty(live, np.int64)
    for r in range(len(runouts)):
        k, b, m = _full_board(board_key, board_bits, runouts[r])
        count = _showdowns_by_pair(k, b, used | m, live_cards, on_board, board_wins, board_ties)
        if count < 0:
            count = _on_full_board(
                board_key, board_bits, runouts[r], live_cards, on_board, value, cards
            )
            showdown_sweep(
                value, cards, count, board_wins, board_ties, order, start, card_below, card_equal
            )
        for i in range(count):
            n = on_board[i]
            won[n] += board_wins[i]
            tied[n] += board_ties[i]
            seen[n] += 1
            if keep_squares:
                strength = (board_wins[i] + board_ties[i] / 2) / _OPPONENTS
                square[n] += strength * strength
    for n in range(live):
        wins[index[n]] = won[n]
        ties[index[n]] = tied[n]
        played[index[n]] = seen[n] * _OPPONENTS
        if keep_squares:
            squares[index[n]] = square[n] / seen[n]


@njit(cache=CACHE)
def _holding_squared_strength(h0: int, h1: int, board: IntArray) -> float:
    """:func:`_holdings_against_random`'s E[HS²] for the one holding ``h0 h1``: the runouts
    in the same order, on each its wins and ties against every opponent holding counted
    one by one (the same integers), the squares summed as it sums them."""
    used, board_key, board_bits = cards_state(board)
    mine = (1 << h0) | (1 << h1)
    my_key = CARD_KEY[h0] + CARD_KEY[h1]
    my_bits = CARD_BIT[h0] | CARD_BIT[h1]
    runouts = _runouts(deck_without(used), 5 - len(board))
    square = 0.0
    seen = 0
    for r in range(len(runouts)):
        k, b, m = _full_board(board_key, board_bits, runouts[r])
        if m & mine:
            continue
        value = value_of_key(k + my_key, b | my_bits)
        rest = deck_without(used | mine | m)
        wins = 0
        ties = 0
        for i in range(len(rest)):
            c = rest[i]
            key = k + CARD_KEY[c]
            bits = b | CARD_BIT[c]
            for j in range(i + 1, len(rest)):
                d = rest[j]
                other = value_of_key(key + CARD_KEY[d], bits | CARD_BIT[d])
                wins += value > other
                ties += value == other
        strength = (wins + ties / 2) / _OPPONENTS
        square += strength * strength
        seen += 1
    return square / seen


def _check(cards: Sequence[Card], sizes: Sequence[int], what: str) -> IntArray:
    array = np.array(list(cards), dtype=np.int64)
    if len(array) not in sizes:
        raise ValueError(f"{what} needs {' or '.join(map(str, sizes))} cards, not {len(array)}")
    if len(array) and (array.min() < 0 or array.max() >= 52):
        raise ValueError(f"{what} holds a code that is no card")
    return array


def hand_against_holdings(hole: Sequence[Card], board: Sequence[Card], stride: int = 1) -> Counts:
    """Wins, ties and runouts of ``hole`` against each holding, over every runout of
    ``board`` (3, 4 or 5 cards), or over every ``stride``-th of them in their order (an
    even spread of the runouts: each card comes about as often as the others)."""
    if stride < 1:
        raise ValueError(f"the stride must be at least 1, not {stride}")
    mine = _check(hole, [2], "the hand")
    cards = _check(board, [3, 4, 5], "the board")
    if len(set(cards.tolist()) | set(mine.tolist())) != len(cards) + 2:
        raise ValueError("the hand and the board share a card")
    wins, ties, played = (np.zeros(NUM_COMBOS) for _ in range(3))
    _hand_against_holdings(
        int(mine[0]), int(mine[1]), cards, COMBO_CARDS, wins, ties, played, stride
    )
    return wins, ties, played


def holdings_against_ranges(
    board: Sequence[Card], weights: FloatArray, stride: int = 1
) -> FloatArray:
    """Every holding's chance to win a showdown (ties half) against each of the weighted
    ranges ``weights`` (one row of 1326 weights each), over every runout of ``board`` (3, 4
    or 5 cards) or every ``stride``-th of them, the opponent's holdings that share a card
    with the holding (or the runout) left out: ``(ranges, 1326)``, 0 for holdings that meet
    the board or face no weight. Per full board the holdings are ordered once and swept once
    per range, with per-card sums for card removal; against one range it gives
    :func:`hand_against_holdings`' win probability against that range for every holding at
    once.

    >>> from acpcbot.cards import parse_cards as c
    >>> from acpcbot.handeval.combos import combo_index
    >>> board = c("2c7d9s")
    >>> kings = np.zeros((1, NUM_COMBOS)); kings[0, combo_index(*c("KhKs"))] = 1.0
    >>> round(float(holdings_against_ranges(board, kings)[0, combo_index(*c("AhAd"))]), 4)
    0.9162
    """
    cards = _check(board, [3, 4, 5], "the board")
    if len(set(cards.tolist())) != len(cards):
        raise ValueError("the board repeats a card")
    if stride < 1:
        raise ValueError(f"the stride must be at least 1, not {stride}")
    table = np.ascontiguousarray(np.atleast_2d(weights), dtype=np.float64)
    won, faced = np.zeros(table.shape), np.zeros(table.shape)
    _holdings_against_ranges(cards, COMBO_CARDS, table, stride, won, faced)
    equity: FloatArray = np.divide(won, faced, out=np.zeros_like(won), where=faced > 0)
    return equity


def holdings_against_random(board: Sequence[Card]) -> Counts:
    """Wins, ties and showdowns of each holding against a uniformly random opponent
    holding, over every runout of ``board`` (3, 4 or 5 cards) and every opponent holding
    that shares no card with it."""
    cards = _check(board, [3, 4, 5], "the board")
    if len(set(cards.tolist())) != len(cards):
        raise ValueError("the board repeats a card")
    if len(cards) == 3:
        canonical, permutation = canonical_board(cards.tolist())
        counts = _FLOPS.get(canonical)
        if counts is None:
            counts = _against_random(np.array(canonical, dtype=np.int64))
            _FLOPS[canonical] = tuple(c.astype(np.int32) for c in counts)  # type: ignore[assignment]
        mapped = PERMUTED_COMBOS[permutation]
        return tuple(np.asarray(c[mapped], dtype=np.float64) for c in counts)  # type: ignore[return-value]
    return _against_random(cards)


def _against_random(cards: IntArray) -> Counts:
    wins, ties, played, _ = _sweep(cards, squares=False)
    return wins, ties, played


def _sweep(cards: IntArray, *, squares: bool) -> tuple[FloatArray, ...]:
    """Every holding's wins, ties and showdowns against a random holding over the runouts
    of ``cards``, and with ``squares`` the sum of its squared strength per runout."""
    wins, ties, played = (np.zeros(NUM_COMBOS) for _ in range(3))
    squared = np.zeros(NUM_COMBOS if squares else 0)
    space = SweepSpace()
    _holdings_against_random(
        cards,
        COMBO_CARDS,
        wins,
        ties,
        played,
        space.order,
        space.start,
        space.card_below,
        space.card_equal,
        squared,
    )
    return wins, ties, played, squared


def holdings_squared_strength(board: Sequence[Card]) -> FloatArray:
    """E[HS²] of every holding on a flop or turn board (HS² on the river): the expected
    square of its river hand strength against a uniformly random opponent holding, over
    every runout; 0 for holdings that meet a board card. Flops are kept per class under
    renaming suits, as :func:`holdings_against_random` keeps them.

    >>> from acpcbot.cards import parse_cards as c
    >>> from acpcbot.handeval.combos import combo_index
    >>> squares = holdings_squared_strength(c("2c7d9s4h5h"))  # the river: HS²
    >>> wins, ties, played = holdings_against_random(c("2c7d9s4h5h"))
    >>> aces = combo_index(*c("AsAc"))
    >>> bool(np.isclose(squares[aces], ((wins[aces] + ties[aces] / 2) / played[aces]) ** 2))
    True
    """
    cards = _check(board, [3, 4, 5], "the board")
    if len(set(cards.tolist())) != len(cards):
        raise ValueError("the board repeats a card")
    if len(cards) == 3:
        canonical, permutation = canonical_board(cards.tolist())
        squares = _FLOP_SQUARES.get(canonical)
        if squares is None:
            squares = _squares_of(np.array(canonical, dtype=np.int64)).astype(np.float32)
            _FLOP_SQUARES[canonical] = squares
        return np.asarray(squares[PERMUTED_COMBOS[permutation]], dtype=np.float64)
    return _squares_of(cards)


def holding_squared_strength(hole: Sequence[Card], board: Sequence[Card]) -> float:
    """E[HS²] of the one holding ``hole`` on a turn or river board: what
    :func:`holdings_squared_strength` gives it, to the bit, without valuing the other
    holdings against each other (a caller that wants one holding's, as the change detector
    of :mod:`agents.plicas.change` wants the shown hand's, pays for one).

    >>> from acpcbot.cards import parse_cards as c
    >>> from acpcbot.handeval.combos import combo_index
    >>> board = c("2c7d9s4h")
    >>> every = float(holdings_squared_strength(board)[combo_index(*c("AsAc"))])
    >>> holding_squared_strength(c("AsAc"), board) == every
    True
    """
    mine = _check(hole, [2], "the hand")
    cards = _check(board, [4, 5], "the board")
    if len(set(cards.tolist()) | set(mine.tolist())) != len(cards) + 2:
        raise ValueError("the hand and the board share a card")
    return float(_holding_squared_strength(int(mine[0]), int(mine[1]), cards))


def _squares_of(cards: IntArray) -> FloatArray:
    return _sweep(cards, squares=True)[3]


_FLOP_SQUARES: dict[tuple[int, ...], FloatArray] = {}


_FLOPS: dict[tuple[int, ...], Counts] = {}
