"""Betting actions: fold, call (check) and raise (bet), as values.

In limit games a raise has no size (``size == 0``). In no-limit games ``size`` is the total
the raiser has put in after the raise ("raise to"), exactly as the ACPC protocol writes it.

>>> str(RAISE), str(Action(ActionType.RAISE, 300)), str(CALL)
('r', 'r300', 'c')
>>> action_type_from_char("k")
<ActionType.CALL: 'c'>
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass


class ActionType(enum.Enum):
    """The three kinds of betting action; the value is the canonical protocol letter."""

    FOLD = "f"
    CALL = "c"
    RAISE = "r"


@dataclass(frozen=True, slots=True)
class Action:
    """One betting action. ``size`` is the raise-to amount in no-limit games, else 0."""

    type: ActionType
    size: int = 0

    def __str__(self) -> str:
        # _value_ is the member's value without the descriptor behind .value (hot path).
        if self.size:
            return f"{self.type._value_}{self.size}"
        return self.type._value_


FOLD = Action(ActionType.FOLD)
CALL = Action(ActionType.CALL)
RAISE = Action(ActionType.RAISE)

_CANONICAL = {"f": FOLD, "c": CALL, "r": RAISE}

# The reference dealer's charToAction (game.c): accepted from clients, never printed.
_ALIASES = {
    "f": ActionType.FOLD,
    "F": ActionType.FOLD,
    "c": ActionType.CALL,
    "C": ActionType.CALL,
    "k": ActionType.CALL,
    "K": ActionType.CALL,
    "r": ActionType.RAISE,
    "R": ActionType.RAISE,
    "b": ActionType.RAISE,
    "B": ActionType.RAISE,
}


def action_type_from_char(char: str) -> ActionType | None:
    """The action type of a protocol character, aliases included; ``None`` if unknown."""
    return _ALIASES.get(char)


def canonical_action(char: str) -> Action | None:
    """The size-less action of a canonical letter ``f``/``c``/``r``, else ``None``."""
    return _CANONICAL.get(char)


def format_betting(rounds: Sequence[Sequence[Action]]) -> str:
    """Actions grouped by round, as the protocol prints them: rounds joined by ``/``.

    >>> format_betting([[CALL, RAISE, Action(ActionType.RAISE, 300)], []])
    'crr300/'
    """
    # Hot path (every state and every logged hand): size-less actions print as their letter.
    return "/".join(
        ["".join([str(a) if a.size else a.type._value_ for a in actions]) for actions in rounds]
    )
