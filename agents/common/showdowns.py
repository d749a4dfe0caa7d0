"""A hold'em hand's chance to win a showdown against every holding at once.

Local best response (:mod:`agents.lbr`) and PLICAS (its hand readings and its exploitation
unit) value their actions against a range: a weight per holding, so a win probability is a
dot product with this vector. Before the flop it comes from the starting-hand classes'
equity matrix (exact per class pair, card removal between the classes averaged); after it,
from every runout (:func:`acpcbot.handeval.holdings.hand_against_holdings`), or on the flop
from an even ``stride``-th of them when time is short. Holdings that meet our cards or the
board get 0.

>>> from acpcbot.cards import parse_cards as c
>>> from acpcbot.handeval.combos import combo_index
>>> equity = showdown_equities(c("AhAd"), c("2c7d9s"))
>>> round(float(equity[combo_index(*c("KhKs"))]), 4), float(equity[combo_index(*c("Ah2d"))])
(0.9162, 0.0)
>>> sampled = showdown_equities(c("AhAd"), c("2c7d9s"), flop_stride=4)
>>> abs(float(sampled[combo_index(*c("KhKs"))]) - 0.9162) < 0.03
True
>>> round(float(showdown_equities(c("AhAd"), ())[combo_index(*c("KhKs"))]), 2)
0.82

:func:`showdown_equities_all` turns it round: every holding's chance against a few weighted
ranges at once, what a strategy for every holding needs (a frozen PLICAS's). Against a range
it gives each holding what a dot product with :func:`showdown_equities` gives that holding:

>>> kings = np.zeros(NUM_COMBOS); kings[combo_index(*c("KhKs"))] = 1.0
>>> every = showdown_equities_all(c("2c7d9s"), kings.reshape(1, -1))
>>> round(float(every[0, combo_index(*c("AhAd"))]), 4)
0.9162
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from acpcbot.cards import Card
from acpcbot.handeval.combos import COMBO_CARDS, COMBO_CLASS, NUM_CLASSES, NUM_COMBOS, class_of
from agents.common.tables import class_equity_matrix

__all__ = ["disjoint_sums", "showdown_equities", "showdown_equities_all"]

FloatArray = npt.NDArray[np.float64]


def showdown_equities(
    own: Sequence[Card], board: Sequence[Card], flop_stride: int = 1
) -> FloatArray:
    """Our chance to win a showdown against each holding (ties half; 0 for holdings that
    meet a known card), read-only; the last few boards' answers are kept."""
    if not board:
        return _preflop(tuple(own))
    return _board(tuple(own), tuple(board), flop_stride if len(board) == 3 else 1)


@lru_cache(maxsize=8)
def _preflop(own: tuple[Card, ...]) -> FloatArray:
    row = class_equity_matrix()[class_of(own[0], own[1])]
    cards = COMBO_CARDS
    dead = ((cards == own[0]) | (cards == own[1])).any(axis=1)  # (np.isin takes twice as long)
    equity: FloatArray = np.where(dead, 0.0, np.asarray(row[COMBO_CLASS], dtype=np.float64))
    equity.setflags(write=False)
    return equity


@lru_cache(maxsize=32)
def _board(own: tuple[Card, ...], board: tuple[Card, ...], stride: int) -> FloatArray:
    # numba: compiled and loaded when first used
    from acpcbot.handeval.holdings import hand_against_holdings

    wins, ties, played = hand_against_holdings(own, board, stride)
    equity: FloatArray = np.where(
        played > 0, (wins + ties / 2) / np.where(played > 0, played, 1.0), 0.0
    )
    equity.setflags(write=False)
    return equity


def showdown_equities_all(
    board: Sequence[Card], weights: FloatArray, flop_stride: int = 1
) -> FloatArray:
    """``(ranges, 1326)``: every holding's chance to win a showdown against each weighted
    range (a row of ``weights``), the opponent's holdings that share a card with it left out;
    0 for holdings that meet the board. Before the flop from the class equity matrix (as
    :func:`showdown_equities`), after it over every runout, or every ``flop_stride``-th on
    the flop (:func:`acpcbot.handeval.holdings.holdings_against_ranges`)."""
    table = np.atleast_2d(np.asarray(weights, dtype=np.float64))
    if board:
        from acpcbot.handeval.holdings import holdings_against_ranges  # numba: when first used

        stride = flop_stride if len(board) == 3 else 1
        return holdings_against_ranges(board, table, stride)
    matrix = class_equity_matrix()
    overlap, against_overlap = _overlaps()
    by_class = np.stack([np.bincount(COMBO_CLASS, weights=w, minlength=NUM_CLASSES) for w in table])
    won = (by_class @ matrix.T)[:, COMBO_CLASS] - (against_overlap * table[:, overlap]).sum(axis=-1)
    faced = disjoint_sums(table)
    equity: FloatArray = np.divide(won, faced, out=np.zeros_like(won), where=faced > 0)
    return equity


def disjoint_sums(weights: FloatArray) -> FloatArray:
    """Per row of ``weights`` (1326 each) and holding, the weight of the holdings that share
    no card with it (inclusion-exclusion over its two cards).

    >>> float(disjoint_sums(np.ones((1, NUM_COMBOS)))[0, 0])  # C(50, 2)
    1225.0
    """
    table = np.atleast_2d(weights)
    per_card = np.stack(
        [
            np.bincount(COMBO_CARDS[:, 0], weights=w, minlength=52)
            + np.bincount(COMBO_CARDS[:, 1], weights=w, minlength=52)
            for w in table
        ]
    )
    sums: FloatArray = (
        table.sum(axis=-1, keepdims=True)
        - per_card[:, COMBO_CARDS[:, 0]]
        - per_card[:, COMBO_CARDS[:, 1]]
        + table
    )
    return sums


@lru_cache(maxsize=1)
def _overlaps() -> tuple[npt.NDArray[np.int64], FloatArray]:
    """Each holding's 101 holdings that share a card with it (itself included), and its
    class equity against each."""
    cards = COMBO_CARDS
    overlap = np.stack(
        [np.flatnonzero(np.isin(cards, cards[h]).any(axis=1)) for h in range(NUM_COMBOS)]
    )
    against = class_equity_matrix()[COMBO_CLASS[:, None], COMBO_CLASS[overlap]]
    return overlap, np.asarray(against, dtype=np.float64)
