"""The ``MATCHSTATE`` lines of one hand, kept up to date action by action.

The dealer sends every position its view after every action, so it needs many lines per
hand that differ only by the last action. :class:`StateLines` builds them incrementally:
the betting text grows by one action at a time, and the cards are slices of the deal's
full cards field (:class:`~acpcbot.protocol.cardsfield.CardsLayout`), taken once per position and
round, instead of formatting a :class:`~acpcbot.protocol.matchstate.MatchState` from scratch every
time; a test checks every line against :func:`~acpcbot.protocol.matchstate.format_match_state`.

>>> from acpcbot.cards import parse_cards
>>> from acpcbot.deal import Deal
>>> from acpcbot.game import bundled_game
>>> from acpcbot.rules import CALL, RAISE, HandState
>>> deal = Deal((parse_cards("7d3d"), parse_cards("2hAc")), parse_cards("5sKs7s9s6h"))
>>> hand = HandState(bundled_game())
>>> lines = StateLines(hand, deal)
>>> for action in (CALL, RAISE, RAISE, CALL):
...     hand.apply(action)
...     lines.record(action)
>>> lines.line(0)
b'MATCHSTATE:0:0:crrc/:7d3d|/5sKs7s'
"""

from __future__ import annotations

from acpcbot.actions import Action
from acpcbot.deal import Deal
from acpcbot.protocol.cardsfield import CardsLayout
from acpcbot.protocol.matchstate import PREFIX, format_cards_field
from acpcbot.rules import HandState

LINE_END = b"\r\n"
"""What ends every line the reference dealer sends."""
_PREFIX = PREFIX.encode()


class StateLines:
    """Every position's current ``MATCHSTATE`` line (bytes).

    ``layout`` and ``full_field`` are the deal's cards field and where its pieces are (the
    dealer has both from :class:`~dealer.referee.dealing.DealStream`); without them they are
    worked out here. The lines are kept as bytes in three pieces (the position's head, the
    betting, the cards field), so a state costs two concatenations a position: the
    betting grows by one action, the cards change with the round.
    """

    __slots__ = (
        "_betting",
        "_cards",
        "_full",
        "_hand",
        "_heads",
        "_layout",
        "_own",
        "_round",
        "_tails",
    )

    def __init__(
        self,
        hand: HandState,
        deal: Deal,
        layout: CardsLayout | None = None,
        full_field: str | None = None,
    ) -> None:
        game = hand.game
        if layout is None or full_field is None:
            layout = CardsLayout(game)
            full_field = format_cards_field(
                deal.hole_cards, deal.board_by_round(game, game.num_rounds - 1)
            )
        self._hand = hand
        self._layout = layout
        self._full = full_field
        number = hand.hand_number
        heads: list[bytes] = []
        own: list[bytes] = []
        for p in range(game.num_players):
            heads.append(_PREFIX + b"%d:%d:" % (p, number))
            own.append((":" + layout.own_field(full_field, p)).encode())
        self._heads = heads
        self._own = own
        self._betting = hand.betting_text().encode() if hand.actions != [[]] else b""
        self._round = hand.round
        self._cards = full_field.encode()
        self._tails: list[bytes] = []
        self._new_cards()

    def _new_cards(self) -> None:
        """Each position's ``:<cards>`` and line ending, for the hand as it is now (a new
        round, the end)."""
        hand = self._hand
        layout = self._layout
        board = self._cards[layout.holes_end : layout.round_ends[hand.round]] + LINE_END
        if hand.finished and hand.is_showdown:
            players = range(hand.game.num_players)
            self._tails = [f":{self._shown_holes(p)}".encode() + board for p in players]
        else:
            self._tails = [own + board for own in self._own]

    def record(self, action: Action) -> None:
        """Note ``action``, just applied to the hand."""
        hand = self._hand
        self._betting += (action.type._value_ if not action.size else str(action)).encode()
        round_ = hand.round
        if round_ != self._round:
            self._betting += b"/" * (round_ - self._round)
            self._round = round_
            self._new_cards()
        elif hand.finished:
            self._new_cards()

    def line(self, position: int) -> bytes:
        """What ``position`` is shown now (after the hand: the final view), without a line
        ending."""
        return (self._heads[position] + self._betting + self._tails[position])[:-2]

    def messages(self) -> list[bytes]:
        """Every position's line with the reference's line ending, as sent, by position."""
        betting = self._betting
        tails = self._tails
        return [head + betting + tails[p] for p, head in enumerate(self._heads)]

    def _shown_holes(self, position: int) -> str:
        """The hole cards after a showdown (the reference's ``printPlayerHoleCards``): the
        viewer's own and those of every player who did not fold."""
        hand = self._hand
        full = self._full
        return "|".join(
            full[start:end] if p == position or not hand.folded[p] else ""
            for p, (start, end) in enumerate(self._layout.hole_spans)
        )
