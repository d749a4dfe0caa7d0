"""Known strategies: what an agent with a fixed strategy plays with every holding at once.

A *holding* is one set of hole cards the game can deal a player. :func:`holdings` lists them
in a fixed order — in hold'em the 1326 two-card combos in the order of
:data:`acpcbot.handeval.combos.COMBO_CARDS`, in Leduc the six single cards — and a *strategy
table* (:meth:`agents.base.Agent.strategy_table`) has one (fold, call, raise) row per
holding: the probabilities, renormalised over the legal actions exactly as
:meth:`agents.triple.Triple.legal` does, with which the agent plays that holding at a public
state. Rows of *dead* holdings (meeting a board card) are zero.

>>> from acpcbot.game import bundled_game
>>> from acpcbot.rules import HandState, CALL
>>> game = bundled_game()
>>> holdings(game).shape
(1326, 2)
>>> hand = HandState(game); hand.apply(CALL)  # the big blind may check: no fold
>>> legal_rows(np.array([[0.5, 0.25, 0.25]]), hand)
array([[0. , 0.5, 0.5]])
>>> dead_holdings(game, (0, 1, 2))[:4]  # 2c2d, 2c2h, 2d2h, 2c2s
array([ True,  True,  True,  True])
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from acpcbot.cards import NUM_RANKS, NUM_SUITS, Card, make_card
from acpcbot.game import Game
from acpcbot.handeval.combos import COMBO_CARDS, combo_index
from acpcbot.player import BettingView
from agents.triple import Triple

__all__ = [
    "StrategyTable",
    "constant_table",
    "dead_holdings",
    "holding_index",
    "holdings",
    "legal_rows",
]

StrategyTable = npt.NDArray[np.float64]
"""``(holdings, 3)``: (fold, call, raise) per holding."""
IntArray = npt.NDArray[np.int64]


def holdings(game: Game) -> IntArray:
    """Every holding of ``game``, one row of cards (ascending) per holding: the subsets of
    its deck (:meth:`~acpcbot.game.Game.deck`) ordered by their highest card, then the next
    (so that two-card holdings of the 52-card deck are
    :data:`~acpcbot.handeval.combos.COMBO_CARDS`)."""
    return _holdings(game.num_ranks, game.num_suits, game.num_hole_cards)


@cache
def _holdings(ranks: int, suits: int, size: int) -> IntArray:
    if (ranks, suits, size) == (13, 4, 2):
        return COMBO_CARDS
    deck = sorted(
        make_card(rank, suit)
        for rank in range(NUM_RANKS - ranks, NUM_RANKS)
        for suit in range(NUM_SUITS - suits, NUM_SUITS)
    )
    rows = sorted(combinations(deck, size), key=lambda cards: tuple(reversed(cards)))
    table = np.array(rows, dtype=np.int64).reshape(len(rows), size)
    table.setflags(write=False)
    return table


def holding_index(game: Game, cards: Sequence[Card]) -> int:
    """The row of the holding ``cards`` (in any order) in :func:`holdings`."""
    if (game.num_ranks, game.num_suits, game.num_hole_cards) == (13, 4, 2):
        return combo_index(cards[0], cards[1])
    wanted = sorted(cards)
    table = holdings(game)
    found = np.flatnonzero((table == np.array(wanted)).all(axis=1))
    if len(found) != 1:
        raise ValueError(f"{cards} is not a holding of this game")
    return int(found[0])


def dead_holdings(game: Game, cards: Sequence[Card]) -> npt.NDArray[np.bool_]:
    """Which holdings meet one of ``cards``."""
    meets = _meets(game.num_ranks, game.num_suits, game.num_hole_cards)
    dead = np.zeros(meets.shape[1], dtype=np.bool_)
    for card in cards:
        dead |= meets[card]
    return dead


@cache
def _meets(ranks: int, suits: int, size: int) -> npt.NDArray[np.bool_]:
    """``[card, holding]``: the holding holds the card (cards are codes 0..51)."""
    table = _holdings(ranks, suits, size)
    meets = np.zeros((52, len(table)), dtype=np.bool_)
    for column in range(table.shape[1]):
        meets[table[:, column], np.arange(len(table))] = True
    meets.setflags(write=False)
    return meets


def legal_rows(table: npt.NDArray[np.floating], betting: BettingView) -> StrategyTable:
    """Every row renormalised over the legal actions of ``betting``, float for float as
    :meth:`Triple.legal` does it (a row without weight becomes a call)."""
    rows = np.asarray(table, dtype=np.float64)
    fold = rows[:, 0] if betting.can_fold() else np.zeros(len(rows))
    call = rows[:, 1]
    raise_ = rows[:, 2] if betting.can_raise() else np.zeros(len(rows))
    total = fold + call + raise_
    positive = total > 0
    safe = np.where(positive, total, 1.0)
    out = np.empty((len(rows), 3))
    out[:, 0] = np.where(positive, fold / safe, 0.0)
    out[:, 1] = np.where(positive, call / safe, 1.0)
    out[:, 2] = np.where(positive, raise_ / safe, 0.0)
    return out


def constant_table(
    game: Game, triple: Triple, betting: BettingView, board: Sequence[Card]
) -> StrategyTable:
    """The table of an agent that plays ``triple`` (made legal) whatever it holds."""
    legal = triple.legal(betting)
    table = np.tile(np.array([legal.fold, legal.call, legal.raise_]), (len(holdings(game)), 1))
    table[dead_holdings(game, board)] = 0.0
    return table
