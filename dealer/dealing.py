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

import numpy as np

from acpcbot.cards import NUM_RANKS, NUM_SUITS, Card, make_card
from acpcbot.deal import Deal
from acpcbot.game import Game
from dealer.rng import mt19937


def reference_deck(game: Game) -> tuple[Card, ...]:
    """The deck in the reference's order: suits outer, ranks inner, keeping only the
    highest ``numSuits`` suits and the highest ``numRanks`` ranks (``game.c:662-664``)."""
    return tuple(
        make_card(rank, suit)
        for suit in range(NUM_SUITS - game.num_suits, NUM_SUITS)
        for rank in range(NUM_RANKS - game.num_ranks, NUM_RANKS)
    )


CHUNK_HANDS = 2048
"""Hands dealt at a time (with numpy), then handed out one by one."""


class DealStream:
    """The deals of one match, one hand after another, from the match seed."""

    __slots__ = ("_deck", "_generator", "_ready", "_shape", "dealt")

    def __init__(self, game: Game, seed: int) -> None:
        self._generator = mt19937(seed)
        self._deck = np.array(reference_deck(game), dtype=np.int64)
        self._shape = (game.num_players, game.num_hole_cards, sum(game.num_board_cards))
        self._ready: list[Deal] = []
        self.dealt = 0
        """Hands dealt so far (the number of the next hand)."""

    def next_deal(self) -> Deal:
        """The cards of the next hand."""
        if not self._ready:
            self._deal_chunk()
        self.dealt += 1
        return self._ready.pop()

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
        hole_slices = [(p * per, (p + 1) * per) for p in range(players)]
        first_board = players * per
        self._ready = [
            Deal(tuple([tuple(row[a:b]) for a, b in hole_slices]), tuple(row[first_board:]))
            for row in reversed(cards.tolist())  # popped from the end, in hand order
        ]

    def skip(self, hands: int) -> None:
        """Deal ``hands`` hands and throw them away (the cards stay in sequence)."""
        for _ in range(hands):
            self.next_deal()

    def __iter__(self) -> Iterator[Deal]:
        while True:
            yield self.next_deal()
