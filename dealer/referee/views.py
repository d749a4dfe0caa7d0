"""What an in-process player is handed: what the wire would show it, and nothing more.

Over TCP a player sees a ``MATCHSTATE`` line, from which the acpcbot client builds a
:class:`~acpcbot.protocol.matchstate.MatchState` and a :class:`~acpcbot.rules.HandState` of
its own (:mod:`acpcbot.protocol.tracker`). In-process the dealer hands each player the same,
built without the text:

* as its betting, a copy of the referee's :class:`HandState` (:meth:`HandState.copy`, as the
  client gives a player on its worker thread), so that a player that changes it only
  changes its own copy;
* a lazy ``MatchState`` (:func:`state_view`) that records only *when* it was taken (that
  copy, how many actions it held) and the cards its position sees then: its own hole
  cards and the board dealt so far. Its fields are built
  the first time anything reads them (most trivial players never do), and a state kept for
  later still shows the moment it was taken. The other positions' hole cards are shown only
  by the final state after a showdown (:func:`~acpcbot.protocol.matchstate.view_of`).

Nothing a player is handed refers to the deal, the other positions' cards or the referee's
own state, through an attribute, a slot or any object reachable from them
(``tests/dealer/referee/test_inprocess.py`` walks them with a snooping player). In-process
code is still trusted Python: a determined plug-in can reach the interpreter (its caller's
frame, :func:`gc.get_objects`); an untrusted one plays in its own process
(:mod:`dealer.running.isolation`). What this costs the in-process dealer is measured in
``docs/dealer/speed.md``.

>>> from acpcbot.cards import parse_cards
>>> from acpcbot.deal import Deal
>>> from acpcbot.game import bundled_game
>>> from acpcbot.rules import CALL, RAISE, HandState
>>> game = bundled_game()
>>> deal = Deal((parse_cards("7d3d"), parse_cards("2hAc")), parse_cards("5sKs7s9s6h"))
>>> hand = HandState(game)
>>> hand.apply(CALL); hand.apply(RAISE)
>>> mine = hand.copy()
>>> early = state_view(mine, deal.hole_cards[1], (), 1)
>>> mine.apply(CALL)  # the player plays on in its copy: its state keeps its moment
>>> hand.apply(CALL)
>>> flop = deal.visible_board(game, hand.round)
>>> str(early), str(state_view(hand.copy(), deal.hole_cards[0], flop, 0))
('MATCHSTATE:1:0:cr:|2hAc', 'MATCHSTATE:0:0:crc/:7d3d|/5sKs7s')
>>> from acpcbot.protocol.matchstate import view_of
>>> view_of(hand, deal, 0) == state_view(hand.copy(), deal.hole_cards[0], flop, 0)
True
"""

from __future__ import annotations

import dataclasses
from typing import Any

from acpcbot.cards import Card
from acpcbot.deal import Deal
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import HandState

__all__ = ["state_view"]

_FIELDS = tuple(f.name for f in dataclasses.fields(MatchState))


class _LazyState(MatchState):
    """A :class:`MatchState` whose fields are computed on first access."""

    __slots__ = ("_taken",)

    def __getattr__(self, name: str) -> Any:
        # Only called for attributes not set yet: the MatchState fields before first use.
        if name not in _FIELDS:
            raise AttributeError(name)
        hand, own, board, position, round_, count = object.__getattribute__(self, "_taken")
        actions = hand.actions
        if len(actions) == round_ + 1 and len(actions[round_]) == count:
            betting = tuple(map(tuple, actions))
        else:  # its player has played on in its copy since: the betting as it was then
            betting = (*map(tuple, actions[:round_]), tuple(actions[round_][:count]))
        game = hand.game
        holes = tuple(own if p == position else () for p in range(game.num_players))
        # (a deal of the cards it sees: nothing else)
        groups = Deal(holes, board).board_by_round(game, round_)
        values = (position, hand.hand_number, betting, holes, groups)
        for field, value in zip(_FIELDS, values, strict=True):
            object.__setattr__(self, field, value)
        return object.__getattribute__(self, name)

    def __eq__(self, other: object) -> bool:
        # The dataclass's __eq__ wants the very same class; a view equals any MatchState
        # with the same fields.
        if not isinstance(other, MatchState):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _FIELDS)

    __hash__ = MatchState.__hash__


_new_view = _LazyState.__new__
_set_taken = _LazyState._taken.__set__  # type: ignore[attr-defined]  # the slot's setter
"""Creating a view is on the hot path (every action): the slot is set directly, which the
frozen dataclass's ``__setattr__`` would refuse and ``object.__setattr__`` does slower."""


def state_view(
    betting: HandState, own: tuple[Card, ...], board: tuple[Card, ...], position: int
) -> MatchState:
    """What ``position`` is shown now, in an unfinished hand whose betting is ``betting``
    (the player's own copy), holding ``own`` with ``board`` dealt so far (the cards of the
    rounds up to the current one), computed when first read."""
    state = _new_view(_LazyState)
    round_ = betting.round
    _set_taken(state, (betting, own, board, position, round_, len(betting.actions[round_])))
    return state
