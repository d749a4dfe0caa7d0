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
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from acpcbot.cards import Card
from acpcbot.handeval.combos import COMBO_CARDS, COMBO_CLASS, class_of
from agents.common.tables import class_equity_matrix

__all__ = ["showdown_equities"]

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
    dead = np.isin(COMBO_CARDS, np.array(own)).any(axis=1)
    equity: FloatArray = np.where(dead, 0.0, np.asarray(row[COMBO_CLASS], dtype=np.float64))
    equity.setflags(write=False)
    return equity


@lru_cache(maxsize=8)
def _board(own: tuple[Card, ...], board: tuple[Card, ...], stride: int) -> FloatArray:
    # numba: compiled and loaded when first used
    from acpcbot.handeval.holdings import hand_against_holdings

    wins, ties, played = hand_against_holdings(own, board, stride)
    equity: FloatArray = np.where(
        played > 0, (wins + ties / 2) / np.where(played > 0, played, 1.0), 0.0
    )
    equity.setflags(write=False)
    return equity
