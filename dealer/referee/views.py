"""Match states for in-process players, built only when a player looks at them.

An in-process match hands a :class:`~acpcbot.protocol.matchstate.MatchState` to a player on every
turn, and most trivial players never read it. :func:`state_view` returns a ``MatchState``
that records only *when* it was taken (the hand, the viewer, how many actions had been
made); its fields are filled in by :func:`~acpcbot.protocol.matchstate.view_of` the first time
anything reads them. A state kept for later still shows the moment it was taken.

>>> from acpcbot.cards import parse_cards
>>> from acpcbot.deal import Deal
>>> from acpcbot.game import bundled_game
>>> from acpcbot.rules import CALL, RAISE, HandState
>>> deal = Deal((parse_cards("7d3d"), parse_cards("2hAc")), parse_cards("5sKs7s9s6h"))
>>> hand = HandState(bundled_game())
>>> hand.apply(CALL); hand.apply(RAISE)
>>> early = state_view(hand, deal, 1)
>>> hand.apply(CALL)
>>> str(early), str(state_view(hand, deal, 0))
('MATCHSTATE:1:0:cr:|2hAc', 'MATCHSTATE:0:0:crc/:7d3d|/5sKs7s')
>>> from acpcbot.protocol.matchstate import view_of
>>> view_of(hand, deal, 0) == state_view(hand, deal, 0) == view_of(hand, deal, 0)
True
"""

from __future__ import annotations

import dataclasses
from typing import Any

from acpcbot.deal import Deal
from acpcbot.protocol.matchstate import MatchState, view_of
from acpcbot.rules import HandState, replay

_FIELDS = tuple(f.name for f in dataclasses.fields(MatchState))


class _LazyState(MatchState):
    """A :class:`MatchState` whose fields are computed on first access."""

    __slots__ = ("_taken",)

    def __getattr__(self, name: str) -> Any:
        # Only called for attributes not set yet: the MatchState fields before first use.
        if name not in _FIELDS:
            raise AttributeError(name)
        hand, deal, position, round_, count = object.__getattribute__(self, "_taken")
        if hand.round == round_ and len(hand.actions[round_]) == count:
            source = hand
        else:  # the hand has moved on since: rebuild the betting as it was then
            betting = [*hand.actions[:round_], hand.actions[round_][:count]]
            source = replay(hand.game, betting, hand.hand_number)
        full = view_of(source, deal, position)
        for field in _FIELDS:
            object.__setattr__(self, field, getattr(full, field))
        return getattr(full, name)

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


def state_view(hand: HandState, deal: Deal, position: int) -> MatchState:
    """What ``position`` is shown now (an unfinished hand), computed when first read."""
    state = _new_view(_LazyState)
    round_ = hand.round
    _set_taken(state, (hand, deal, position, round_, len(hand.actions[round_])))
    return state
