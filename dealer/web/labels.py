"""Actions as people say them: fold, check, call 5, bet 10, raise 10 (the replay's steps and
the buttons of a person's turn read the same).

>>> from acpcbot.actions import CALL, RAISE
>>> from acpcbot.game import bundled_game
>>> from acpcbot.rules import HandState
>>> hand = HandState(bundled_game())
>>> action_label(hand, RAISE), action_label(hand, CALL)
('raise 10', 'call 5')
>>> hand.apply(CALL); hand.apply(CALL)
>>> action_label(hand, CALL), action_label(hand, RAISE)
('check', 'bet 10')
"""

from __future__ import annotations

from acpcbot.actions import Action, ActionType
from acpcbot.rules import HandState

__all__ = ["action_label"]


def action_label(state: HandState, action: Action) -> str:
    """``action`` as people say it, at ``state`` (before it is applied): in limit games a
    raise grows the bet by the round's raise size; in no-limit games it names the total."""
    owed = state.amount_to_call()
    if action.type is ActionType.FOLD:
        return "fold"
    if action.type is ActionType.CALL:
        return f"call {owed}" if owed else "check"
    opening = state.round > 0 and state.num_raises == 0
    word = "bet" if opening else "raise"
    if action.size:
        return f"{word} to {action.size}"
    return f"{word} {state.game.raise_size[state.round]}"
