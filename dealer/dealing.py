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

from acpcbot.cards import NUM_RANKS, NUM_SUITS, Card, make_card
from acpcbot.deal import Deal
from acpcbot.game import Game
from dealer.rng import mersenne_twister


def reference_deck(game: Game) -> tuple[Card, ...]:
    """The deck in the reference's order: suits outer, ranks inner, keeping only the
    highest ``numSuits`` suits and the highest ``numRanks`` ranks (``game.c:662-664``)."""
    return tuple(
        make_card(rank, suit)
        for suit in range(NUM_SUITS - game.num_suits, NUM_SUITS)
        for rank in range(NUM_RANKS - game.num_ranks, NUM_RANKS)
    )


class DealStream:
    """The deals of one match, one hand after another, from the match seed."""

    __slots__ = ("_board_cards", "_deck", "_draw", "_hole_cards", "_players", "dealt")

    def __init__(self, game: Game, seed: int) -> None:
        self._draw = mersenne_twister(seed).getrandbits
        self._deck = reference_deck(game)
        self._players = game.num_players
        self._hole_cards = game.num_hole_cards
        self._board_cards = sum(game.num_board_cards)
        self.dealt = 0
        """Hands dealt so far (the number of the next hand)."""

    def next_deal(self) -> Deal:
        """The cards of the next hand."""
        deck = list(self._deck)
        draw = self._draw
        n = len(deck)
        cards: list[Card] = []
        for _ in range(self._players * self._hole_cards + self._board_cards):
            i = draw(32) % n
            cards.append(deck[i])
            n -= 1
            deck[i] = deck[n]
        per = self._hole_cards
        holes = tuple(tuple(cards[p * per : (p + 1) * per]) for p in range(self._players))
        self.dealt += 1
        return Deal(hole_cards=holes, board=tuple(cards[self._players * per :]))

    def skip(self, hands: int) -> None:
        """Deal ``hands`` hands and throw them away (the cards stay in sequence)."""
        for _ in range(hands):
            self.next_deal()

    def __iter__(self) -> Iterator[Deal]:
        while True:
            yield self.next_deal()
