"""The ``MATCHSTATE`` lines of one hand, kept up to date action by action.

The dealer sends every position its view after every action, so it needs many lines per
hand that differ only by the last action. :class:`StateLines` builds them incrementally
from the pieces of :mod:`acpcbot.matchstate` (the card fields come from
:func:`~acpcbot.matchstate.format_cards_field`, once per position and round) instead of
formatting a :class:`~acpcbot.matchstate.MatchState` from scratch every time; a test checks
every line against :func:`~acpcbot.matchstate.format_match_state`.

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
from acpcbot.cards import Card
from acpcbot.deal import Deal
from acpcbot.matchstate import PREFIX, format_cards_field, view_of
from acpcbot.rules import HandState


class StateLines:
    """Every position's current ``MATCHSTATE`` line (bytes, no line ending)."""

    __slots__ = ("_betting", "_board", "_board_round", "_deal", "_hand", "_heads", "_own", "_round")

    def __init__(self, hand: HandState, deal: Deal) -> None:
        self._hand = hand
        self._deal = deal
        players = range(hand.game.num_players)
        self._heads = [f"{PREFIX}{p}:{hand.hand_number}:" for p in players]
        self._betting = hand.betting_text()
        self._round = hand.round
        # What each position sees of the hole cards until the hand ends, and the board
        # cards shown so far (the core's codec formats both, once per hand or round).
        empty_board: tuple[tuple[Card, ...], ...] = ((),)
        self._own = [
            format_cards_field(view_of(hand, deal, p).hole_cards, empty_board) for p in players
        ]
        self._board_round = -1
        self._board = ""

    def record(self, action: Action) -> None:
        """Note ``action``, just applied to the hand."""
        self._betting += str(action)
        round_ = self._hand.round
        if round_ != self._round:
            self._betting += "/" * (round_ - self._round)
            self._round = round_

    def line(self, position: int) -> bytes:
        """What ``position`` is shown now (after the hand: the final view)."""
        hand = self._hand
        if hand.finished:
            view = view_of(hand, self._deal, position)
            cards = format_cards_field(view.hole_cards, view.board)
        else:
            if self._board_round != self._round:
                board = self._deal.board_by_round(hand.game, self._round)
                self._board = format_cards_field((), board)
                self._board_round = self._round
            cards = self._own[position] + self._board
        return f"{self._heads[position]}{self._betting}:{cards}".encode("ascii")
