"""Chance as explicit data: the cards of one hand.

>>> from acpcbot.cards import parse_cards
>>> deal = Deal(hole_cards=(parse_cards("7d3d"), parse_cards("2hAc")),
...             board=parse_cards("5sKs7s9s6h"))
>>> from acpcbot.game import bundled_game
>>> deal.board_by_round(bundled_game(), 2)
((), (15, 47, 23), (31,))
"""

from __future__ import annotations

from dataclasses import dataclass

from acpcbot.cards import Card
from acpcbot.game import Game


@dataclass(frozen=True, slots=True)
class Deal:
    """Every card of one hand: hole cards by position, then all board cards in order."""

    hole_cards: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]

    def board_by_round(self, game: Game, last_round: int) -> tuple[tuple[Card, ...], ...]:
        """Board cards grouped by round, for rounds ``0..last_round``."""
        board = self.board
        groups = []
        start = 0
        for count in game.num_board_cards[: last_round + 1]:
            groups.append(board[start : start + count])
            start += count
        return tuple(groups)

    def visible_board(self, game: Game, round_: int) -> tuple[Card, ...]:
        """All board cards visible in ``round_``, flattened."""
        return self.board[: game.board_total(round_)]
