"""Kernels for hand strength and potential against a weighted range (Billings et al.).

Every kernel takes the hero's two cards, the board, a weight per combo (0 for combos that
cannot be held) and the combos' cards, and walks the opponent's combos with running keys.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit, uint64

from acpcbot.handeval.enumeration import deck_without
from acpcbot.handeval.evaluator import CARD_BIT, CARD_KEY, cards_state, value_with
from acpcbot.handeval.jitcache import cache_enabled
from acpcbot.handeval.montecarlo import low_index, splitmix64

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

AHEAD, TIED, BEHIND = 0, 1, 2


@njit(cache=CACHE)
def _standing(
    hero: IntArray, board: IntArray, weights: FloatArray, combo_cards: IntArray
) -> tuple[IntArray, FloatArray]:
    """For every combo: where the hero stands against it on ``board`` (AHEAD, TIED, BEHIND;
    -1 for combos that meet a known card or weigh nothing) and the weighted totals."""
    known, key, bits = cards_state(board)
    known |= (1 << hero[0]) | (1 << hero[1])
    mine = value_with(key, bits, hero[0], hero[1])
    standing = np.full(len(combo_cards), -1, np.int64)
    totals = np.zeros(3)
    for i in range(len(combo_cards)):
        c0, c1 = combo_cards[i, 0], combo_cards[i, 1]
        if weights[i] <= 0.0 or (known >> c0) & 1 or (known >> c1) & 1:
            continue
        theirs = value_with(key, bits, c0, c1)
        standing[i] = AHEAD if mine > theirs else TIED if mine == theirs else BEHIND
        totals[standing[i]] += weights[i]
    return standing, totals


@njit(cache=CACHE)
def _river_tally(  # noqa: PLR0917  (numba kernels take positional arguments)
    hero: IntArray,
    key: int,
    bits: int,
    used: int,
    standing: IntArray,
    weights: FloatArray,
    combo_cards: IntArray,
    transitions: FloatArray,
) -> tuple[float, float]:
    """Against every live combo on one complete board (``key``/``bits`` of its five cards,
    ``used`` the mask of hero and board): add ``weights`` to ``transitions[now, final]``
    and return the weighted (wins + ties / 2, total)."""
    mine = value_with(key, bits, hero[0], hero[1])
    score = 0.0
    total = 0.0
    for i in range(len(combo_cards)):
        now = standing[i]
        if now < 0:
            continue
        c0, c1 = combo_cards[i, 0], combo_cards[i, 1]
        if (used >> c0) & 1 or (used >> c1) & 1:
            continue
        theirs = value_with(key, bits, c0, c1)
        w = weights[i]
        total += w
        if mine > theirs:
            score += w
            transitions[now, AHEAD] += w
        elif mine == theirs:
            score += 0.5 * w
            transitions[now, TIED] += w
        else:
            transitions[now, BEHIND] += w
    return score, total


@njit(cache=CACHE)
def runout_statistics(  # noqa: PLR0917  (numba kernels take positional arguments)
    hero: IntArray,
    board: IntArray,
    weights: FloatArray,
    combo_cards: IntArray,
    samples: int,
    seed: int,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Walk the boards that complete ``board`` (all of them when at most two cards are
    missing, else ``samples`` drawn with ``seed``) against the live combos.

    Returns ``(now, transitions, moments)``: the weighted totals of AHEAD/TIED/BEHIND on the
    current board (with at least three board cards, else zeros); ``transitions[now, final]``
    summed over runouts; and ``moments = (runouts, sum HS, sum HS²)`` of the
    river hand strength per runout.
    """
    if len(board) >= 3:
        standing, now = _standing(hero, board, weights, combo_cards)
    else:
        standing = np.where(weights > 0.0, AHEAD, -1)
        now = np.zeros(3)
    known, key, bits = cards_state(board)
    known |= (1 << hero[0]) | (1 << hero[1])
    deck = deck_without(known)
    transitions = np.zeros((3, 3))
    moments = np.zeros(3)
    missing = 5 - len(board)
    if missing == 0:
        score, total = _river_tally(
            hero, key, bits, known, standing, weights, combo_cards, transitions
        )
        _add_moments(moments, score, total)
    elif missing == 1:
        for a in deck:
            score, total = _river_tally(
                hero, key + CARD_KEY[a], bits | CARD_BIT[a], known | (1 << a),
                standing, weights, combo_cards, transitions,
            )  # fmt: skip
            _add_moments(moments, score, total)
    elif missing == 2:
        for i in range(len(deck)):
            a = deck[i]
            for j in range(i + 1, len(deck)):
                b = deck[j]
                score, total = _river_tally(
                    hero, key + CARD_KEY[a] + CARD_KEY[b], bits | CARD_BIT[a] | CARD_BIT[b],
                    known | (1 << a) | (1 << b), standing, weights, combo_cards, transitions,
                )  # fmt: skip
                _add_moments(moments, score, total)
    else:
        state = uint64(seed)
        for _ in range(samples):
            k = key
            b = bits
            used = known
            for j in range(missing):
                state, z = splitmix64(state)
                pick = j + low_index(z, len(deck) - j)
                card = deck[pick]
                deck[pick] = deck[j]
                deck[j] = card
                k += CARD_KEY[card]
                b |= CARD_BIT[card]
                used |= 1 << card
            score, total = _river_tally(
                hero, k, b, used, standing, weights, combo_cards, transitions
            )
            _add_moments(moments, score, total)
    return now, transitions, moments


@njit(cache=CACHE)
def _add_moments(moments: FloatArray, score: float, total: float) -> None:
    if total > 0.0:
        hs = score / total
        moments[0] += 1.0
        moments[1] += hs
        moments[2] += hs * hs
