"""Dealing cards exactly as the reference dealer does (``game.c`` ``dealCards``).

For every hand, in hand order: each position's hole cards (position 0 first), then all
board cards, whatever the betting later shows. Each card is ``deck[genrand_int32() % n]``
with the drawn slot refilled from the end of the deck (swap-remove), so hand ``h`` of a
heads-up hold'em match always uses draws ``9h .. 9h+8``. The modulo bias is part of the
reference behaviour and is kept.

>>> from acpcbot.cards import cards_text
>>> from acpcbot.game import bundled_game
>>> deals = DealStream(bundled_game(), seed=42)
>>> first = deals.next_deal()
>>> [cards_text(h) for h in first.hole_cards], cards_text(first.board)
(['7d3d', '2hAc'], '5sKs7s9s6h')
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import repeat
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from acpcbot.cards import Card
from acpcbot.deal import Deal
from acpcbot.game import Game
from acpcbot.handeval.lookup import rank_rows
from acpcbot.protocol.cardsfield import CardsLayout
from dealer.referee.rng import mt19937


def reference_deck(game: Game) -> tuple[Card, ...]:
    """The deck in the reference's order: suits outer, ranks inner, keeping only the
    highest ``numSuits`` suits and the highest ``numRanks`` ranks (``game.c:662-664``)."""
    return game.deck()


CHUNK_HANDS = 512
"""Hands dealt at a time (with numpy), then handed out one by one: as fast per hand as more
(a few microseconds), and a smaller peak of the dealer's memory."""


class DealtHand(NamedTuple):
    """One hand's cards, with what the dealer derives from them once per chunk."""

    deal: Deal
    full_field: str
    """The cards field with every card shown (see
    :class:`~acpcbot.protocol.cardsfield.CardsLayout`)."""
    showdown_ranks: tuple[int, ...] | None
    """Each position's hand rank with the whole board, or ``None`` where the game's hands
    are not ranked in batches (see :func:`batch_ranked`)."""


def batch_ranked(game: Game) -> bool:
    """Whether showdown ranks are computed in batches, ahead of play.

    A showdown always sees the whole board (a hand ends before the last round only when all
    but one player folded; when players are all-in the rules run to the last round), so a
    position's showdown rank is that of its hole cards and the whole board. The evaluator's
    tables rank 5 to 7 cards (here with numpy alone, :func:`~acpcbot.handeval.lookup.rank_rows`:
    a dealer process needs no numba), the sizes :func:`~acpcbot.handeval.rank_hand` hands to
    the same tables; other games (Leduc hold'em, say) are ranked when a showdown happens.
    """
    return 5 <= game.num_hole_cards + sum(game.num_board_cards) <= 7


class DealStream:
    """The deals of one match, one hand after another, from the match seed."""

    __slots__ = ("_deck", "_generator", "_layout", "_ranked", "_ready", "_shape", "dealt")

    def __init__(self, game: Game, seed: int) -> None:
        self._generator = mt19937(seed)
        self._deck = np.array(reference_deck(game), dtype=np.int64)
        self._shape = (game.num_players, game.num_hole_cards, sum(game.num_board_cards))
        self._layout = CardsLayout(game)
        self._ranked = batch_ranked(game)
        self._ready: list[DealtHand] = []
        self.dealt = 0
        """Hands dealt so far (the number of the next hand)."""

    @property
    def layout(self) -> CardsLayout:
        """Where the pieces of :attr:`DealtHand.full_field` are."""
        return self._layout

    def next_hand(self) -> DealtHand:
        """The cards of the next hand, with their text and showdown ranks."""
        if not self._ready:
            self._deal_chunk()
        self.dealt += 1
        return self._ready.pop()

    def next_deal(self) -> Deal:
        """The cards of the next hand."""
        return self.next_hand().deal

    def _deal_chunk(self) -> None:
        """Deal the next :data:`CHUNK_HANDS` hands at once, the reference's way: for every
        card ``i = genrand_int32() % n``, take ``deck[i]``, move the last card into slot
        ``i`` and shrink the deck."""
        players, per, board = self._shape
        draws = players * per + board
        raw = self._generator.random_raw(CHUNK_HANDS * draws).reshape(CHUNK_HANDS, draws)
        decks = np.tile(self._deck, (CHUNK_HANDS, 1))
        rows = np.arange(CHUNK_HANDS)
        cards = np.empty((CHUNK_HANDS, draws), dtype=np.int64)
        n = len(self._deck)
        for k in range(draws):
            slots = (raw[:, k] % np.uint64(n)).astype(np.int64)
            cards[:, k] = decks[rows, slots]
            n -= 1
            decks[rows, slots] = decks[:, n]
        # Python objects for a whole chunk, built by C loops (zip, map): per hand this is
        # on the hot path of every match.
        columns = cards.T.tolist()
        holes = list(
            zip(*[_rows(columns[p * per : (p + 1) * per]) for p in range(players)], strict=True)
        )
        deals = map(Deal, holes, _rows(columns[players * per :]))
        fields = self._layout.full_fields(cards)
        ranks = _showdown_ranks(cards, players, per) if self._ranked else repeat(None, CHUNK_HANDS)
        self._ready = list(
            map(_new_dealt_hand, repeat(DealtHand), zip(deals, fields, ranks, strict=True))
        )
        self._ready.reverse()  # popped from the end, in hand order

    def skip(self, hands: int) -> None:
        """Deal ``hands`` hands and throw them away (the cards stay in sequence)."""
        for _ in range(hands):
            self.next_hand()

    def __iter__(self) -> Iterator[Deal]:
        while True:
            yield self.next_deal()


_new_dealt_hand = tuple.__new__
"""``DealtHand`` from a tuple without the named tuple's Python-level constructor."""


def _rows(columns: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """Tuples across ``columns`` (one per deal); empty tuples when there is no column."""
    return zip(*columns, strict=True) if columns else repeat((), CHUNK_HANDS)


def _showdown_ranks(
    cards: npt.NDArray[np.int64], players: int, per: int
) -> Iterator[tuple[int, ...]]:
    """Each position's rank with the whole board, for every deal."""
    board = cards[:, players * per :]
    hands = [np.concatenate([cards[:, p * per : (p + 1) * per], board], axis=1)
             for p in range(players)]  # fmt: skip
    ranks = rank_rows(np.concatenate(hands).astype(np.uint8)).reshape(players, -1).tolist()
    return zip(*ranks, strict=True)
