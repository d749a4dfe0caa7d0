"""Chance in an abstract game: private buckets per round, their transitions and payoffs.

An abstract game is the betting tree (:mod:`agents.common.bettingtree`) played with
*buckets* in place of cards. In round ``r`` each player holds one of ``sizes[r]`` buckets
and sees only its own. Both players' buckets follow the same rules, given as data:

* ``initial[i]``: weight of round-0 bucket ``i`` (a probability, or 1 when the pair
  matrices below carry the whole chance weight);
* ``transitions[r][i, k]``: weight of moving from bucket ``i`` in round ``r - 1`` to bucket
  ``k`` in round ``r`` (a conditional probability, or a 0/1 mask);
* ``fold[r][i, j]``: weight of position 0 holding ``i`` and position 1 holding ``j`` when
  the hand ends by a fold in round ``r``; ``None`` means 1 for every pair (the players'
  buckets are independent and their weights are already in ``initial``/``transitions``);
* ``showdown[i, j]``: the expected showdown result for position 0 (+1 win, -1 loss) times
  the pair weight, in the last round.

The value of a strategy pair is then
``sum over leaves of payoff * reach0 @ M @ reach1`` with reaches that multiply ``initial``,
``transitions`` and the strategies' probabilities. This one form holds both games solved
here: limit Leduc with its real cards (bucket = card, board card public; the pair matrices
carry card removal, so the abstract game *is* Leduc), and the HULHE card abstraction
(independent bucket chains; see :mod:`agents.dpp.abstraction`).

>>> from acpcbot.game import parse_game
>>> chance = leduc_chance(parse_game(LEDUC_TEXT))
>>> chance.sizes, round(float(chance.fold_matrix(1).sum()), 12)
((6, 36), 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

import numpy as np
import numpy.typing as npt

from acpcbot.cards import Card, rank_of, suit_of
from acpcbot.errors import UnsupportedGameError
from acpcbot.game import Game
from acpcbot.handeval import rank_hand

FloatArray = npt.NDArray[np.float64]

LEDUC_TEXT = """GAMEDEF
limit
numPlayers = 2
numRounds = 2
blind = 1 1
raiseSize = 2 4
firstPlayer = 1 1
maxRaises = 2 2
numSuits = 2
numRanks = 3
numHoleCards = 1
numBoardCards = 0 1
END GAMEDEF
"""
"""Limit Leduc hold'em (the project's ``leduc.limit.2p.game``), for examples and tools."""


@dataclass(frozen=True, eq=False)
class AbstractChance:
    """The chance model of an abstract game (see the module docstring)."""

    sizes: tuple[int, ...]
    initial: FloatArray
    transitions: tuple[FloatArray, ...]
    """``transitions[r - 1]`` moves from round ``r - 1`` to round ``r``."""
    fold: tuple[FloatArray | None, ...]
    showdown: FloatArray

    def __post_init__(self) -> None:
        rounds = len(self.sizes)
        if self.initial.shape != (self.sizes[0],):
            raise ValueError("initial weights do not match round 0's buckets")
        if len(self.transitions) != rounds - 1 or len(self.fold) != rounds:
            raise ValueError("one transition per round after the first, one fold per round")
        for r, t in enumerate(self.transitions, start=1):
            if t.shape != (self.sizes[r - 1], self.sizes[r]):
                raise ValueError(f"transition into round {r} has shape {t.shape}")
        for r, f in enumerate(self.fold):
            if f is not None and (f.shape != (self.sizes[r],) * 2 or not np.allclose(f, f.T)):
                raise ValueError(f"fold weights of round {r} must be square and symmetric")
        if self.showdown.shape != (self.sizes[-1],) * 2:
            raise ValueError("showdown table does not match the last round's buckets")
        if not np.allclose(self.showdown, -self.showdown.T):
            raise ValueError("showdown table must be antisymmetric (a zero-sum game)")

    @property
    def num_rounds(self) -> int:
        return len(self.sizes)

    def fold_matrix(self, round_: int) -> FloatArray:
        """The fold weights of ``round_`` as a full matrix."""
        f = self.fold[round_]
        n = self.sizes[round_]
        return np.ones((n, n)) if f is None else f

    def padded(self) -> PaddedChance:
        """The same data in fixed-shape arrays for the numba kernels."""
        rounds = self.num_rounds
        n = max(self.sizes)
        transitions = np.zeros((rounds, n, n))
        for r, t in enumerate(self.transitions, start=1):
            transitions[r, : t.shape[0], : t.shape[1]] = t
        fold = np.zeros((rounds, n, n))
        fold_ones = np.zeros(rounds, dtype=np.bool_)
        for r, f in enumerate(self.fold):
            if f is None:
                fold_ones[r] = True
            else:
                fold[r, : f.shape[0], : f.shape[1]] = f
        showdown = np.zeros((n, n))
        m = self.sizes[-1]
        showdown[:m, :m] = self.showdown
        return PaddedChance(
            sizes=np.array(self.sizes, dtype=np.int64),
            initial=np.ascontiguousarray(self.initial, dtype=np.float64),
            transitions=transitions,
            fold=fold,
            fold_ones=fold_ones,
            showdown=showdown,
        )


@dataclass(frozen=True, eq=False)
class PaddedChance:
    """:class:`AbstractChance` padded to ``max(sizes)`` in every dimension."""

    sizes: npt.NDArray[np.int64]
    initial: FloatArray
    transitions: FloatArray
    fold: FloatArray
    fold_ones: npt.NDArray[np.bool_]
    showdown: FloatArray

    def as_tuple(self) -> tuple[npt.NDArray[Any], ...]:
        """The arrays in the order the kernels take them."""
        return (
            self.sizes,
            self.initial,
            self.transitions,
            self.fold,
            self.fold_ones,
            self.showdown,
        )


class LeducBuckets:
    """The buckets of :func:`leduc_chance`: the hole card, then board and hole card.

    >>> from acpcbot.cards import parse_cards
    >>> from acpcbot.game import parse_game
    >>> buckets = LeducBuckets(parse_game(LEDUC_TEXT))
    >>> king, ace = parse_cards("KsAh")
    >>> buckets.bucket(0, (king,), ()), buckets.bucket(1, (king,), (ace,))
    (3, 27)
    """

    def __init__(self, game: Game) -> None:
        _check_leduc(game)
        self.num_suits = game.num_suits
        self.num_cards = game.num_ranks * game.num_suits
        self.low_rank = min(rank_of(c) for c in game.deck())
        self.low_suit = min(suit_of(c) for c in game.deck())

    def card_index(self, card: Card) -> int:
        """The card's index among the game's cards (:meth:`Game.deck`: the highest ranks
        and suits), rank first."""
        return (rank_of(card) - self.low_rank) * self.num_suits + suit_of(card) - self.low_suit

    def bucket(self, round_: int, hole: Sequence[Card], board: Sequence[Card]) -> int:
        own = self.card_index(hole[0])
        return own if round_ == 0 else self.card_index(board[0]) * self.num_cards + own


def _check_leduc(game: Game) -> None:
    shape = (game.num_players, game.num_rounds, game.num_hole_cards, game.num_board_cards)
    if shape != (2, 2, 1, (0, 1)):
        raise UnsupportedGameError("Leduc chance needs 2 players, 1 hole card, 0 then 1 board")


def leduc_chance(game: Game) -> AbstractChance:
    """Leduc-style chance with real cards: one hole card each, one board card in round 1.

    Round-0 bucket = the hole card (:meth:`LeducBuckets.card_index`: rank first, among the
    game's cards); round-1 bucket = ``board * num_cards + hole``. Every deal of three
    distinct cards is equally likely; showdowns are ranked by
    :func:`acpcbot.handeval.rank_hand` (a pair with the board wins, then the higher card).
    """
    _check_leduc(game)
    num_suits = game.num_suits
    cards = game.num_ranks * num_suits
    deck = sorted(game.deck(), key=lambda card: (rank_of(card), suit_of(card)))
    deals = list(permutations(range(cards), 3))
    weight = 1.0 / len(deals)
    n1 = cards * cards
    transition = np.zeros((cards, n1))
    fold0 = np.zeros((cards, cards))
    fold1 = np.zeros((n1, n1))
    showdown = np.zeros((n1, n1))
    for h0, h1, board in deals:
        i, j = board * cards + h0, board * cards + h1
        transition[h0, i] = 1.0
        fold0[h0, h1] += weight
        fold1[i, j] += weight
        r0 = rank_hand((deck[h0], deck[board]))
        r1 = rank_hand((deck[h1], deck[board]))
        showdown[i, j] += weight * float(np.sign(r0 - r1))
    return AbstractChance(
        sizes=(cards, n1),
        initial=np.ones(cards),
        transitions=(transition,),
        fold=(fold0, fold1),
        showdown=showdown,
    )
