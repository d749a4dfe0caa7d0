"""The cards field of many deals at once, as the dealer prints it in states and logs.

Every cards field the dealer prints for a hand is built from the same pieces: hole cards by
position joined by ``|``, then ``/`` and each later round's board cards
(:func:`~acpcbot.protocol.matchstate.format_cards_field`). Cards are two characters each, so for a
given game every piece sits at a fixed offset in the *full* field of a deal (all hole cards,
the board up to the last round): the log's field for a hand that ended in round ``r`` is a
prefix of it, and one position's own hole cards or the board so far are slices of it.
:class:`CardsLayout` knows those offsets; :meth:`CardsLayout.full_fields` prints the full
fields of a whole chunk of deals with numpy, so the dealer slices strings instead of
formatting cards in every hand. A test checks every slice against the core codec.

>>> from acpcbot.cards import parse_cards
>>> from acpcbot.game import bundled_game
>>> import numpy as np
>>> layout = CardsLayout(bundled_game())
>>> row = [*parse_cards("7d3d2hAc"), *parse_cards("5sKs7s9s6h")]
>>> full = layout.full_fields(np.array([row]))[0]
>>> full, full[: layout.round_ends[1]], layout.own_field(full, 1)
('7d3d|2hAc/5sKs7s/9s/6h', '7d3d|2hAc/5sKs7s', '|2hAc')
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from acpcbot.cards import NUM_CARDS, card_text
from acpcbot.game import Game

_CARD_CHARS = np.array([[ord(c) for c in card_text(code)] for code in range(NUM_CARDS)], np.uint8)
"""The two ASCII characters of every card code."""


class CardsLayout:
    """Where each piece of a deal's cards field sits, for one game."""

    __slots__ = ("_columns", "_separators", "hole_spans", "holes_end", "round_ends", "width")

    def __init__(self, game: Game) -> None:
        # The full field as a list of columns: a deal's card index and which of its two
        # characters, or a separator character. Deals are rows of draws in the dealing
        # order: hole cards by position, then the board.
        per = game.num_hole_cards
        columns: list[tuple[int, int] | str] = []
        spans = []
        for position in range(game.num_players):
            if position:
                columns.append("|")
            start = len(columns)
            for card in range(position * per, (position + 1) * per):
                columns += [(card, 0), (card, 1)]
            spans.append((start, len(columns)))
        self.hole_spans = tuple(spans)
        """Each position's hole cards: ``full[start:end]``."""
        self.holes_end = len(columns)
        ends = [len(columns)]
        card = game.num_players * per + game.num_board_cards[0]  # round 0's board is not shown
        for count in game.num_board_cards[1:]:
            columns.append("/")
            for _ in range(count):
                columns += [(card, 0), (card, 1)]
                card += 1
            ends.append(len(columns))
        self.round_ends = tuple(ends)
        """The field as shown in round ``r`` (every hole card) is ``full[: round_ends[r]]``."""
        self.width = len(columns)
        self._columns = columns
        self._separators = "|" * (game.num_players - 1)

    def full_fields(self, deals: npt.NDArray[np.int64]) -> list[str]:
        """The full field of every deal (an ``(N, draws)`` array of card codes)."""
        chars = np.empty((len(deals), self.width), dtype=np.uint8)
        for column, source in enumerate(self._columns):
            if isinstance(source, str):
                chars[:, column] = ord(source)
            else:
                card, which = source
                chars[:, column] = _CARD_CHARS[deals[:, card], which]
        texts: list[bytes] = chars.view(f"S{self.width}").ravel().tolist()
        return [text.decode("ascii") for text in texts]

    def own_field(self, full: str, position: int) -> str:
        """The hole-cards part that ``position`` is shown during the hand: its own cards,
        empty groups for the others (``|2hAc``)."""
        start, end = self.hole_spans[position]
        return self._separators[:position] + full[start:end] + self._separators[position:]

    def board_field(self, full: str, round_: int) -> str:
        """The board part of the field in ``round_`` (``/5sKs7s/9s``)."""
        return full[self.holes_end : self.round_ends[round_]]
