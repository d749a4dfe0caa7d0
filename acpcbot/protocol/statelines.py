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


class StateLines:
    """Every position's current ``MATCHSTATE`` line (bytes, no line ending).

    ``layout`` and ``full_field`` are the deal's cards field and where its pieces are (the
    dealer has both from :class:`~dealer.referee.dealing.DealStream`); without them they are
    worked out here.
    """

    __slots__ = ("_betting", "_board", "_full", "_hand", "_heads", "_layout", "_own", "_round")

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
        players = range(game.num_players)
        self._heads = [f"{PREFIX}{p}:{hand.hand_number}:" for p in players]
        self._betting = hand.betting_text()
        self._round = hand.round
        # What each position sees of the hole cards until the hand ends, and of the board.
        self._own = [layout.own_field(full_field, p) for p in players]
        self._board = layout.board_field(full_field, self._round)

    def record(self, action: Action) -> None:
        """Note ``action``, just applied to the hand."""
        self._betting += str(action)
        round_ = self._hand.round
        if round_ != self._round:
            self._betting += "/" * (round_ - self._round)
            self._round = round_
            self._board = self._layout.board_field(self._full, round_)

    def line(self, position: int) -> bytes:
        """What ``position`` is shown now (after the hand: the final view)."""
        hand = self._hand
        if hand.finished and hand.is_showdown:
            holes = self._shown_holes(position)
        else:
            holes = self._own[position]
        return f"{self._heads[position]}{self._betting}:{holes}{self._board}".encode("ascii")

    def _shown_holes(self, position: int) -> str:
        """The hole cards after a showdown (the reference's ``printPlayerHoleCards``): the
        viewer's own and those of every player who did not fold."""
        hand = self._hand
        full = self._full
        return "|".join(
            full[start:end] if p == position or not hand.folded[p] else ""
            for p, (start, end) in enumerate(self._layout.hole_spans)
        )
