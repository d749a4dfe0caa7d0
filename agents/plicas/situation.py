"""What a PLICAS unit sees of the current decision: a frozen :class:`Situation`.

Built once per decision from the match state and the betting (through the rules module,
never by re-deriving legality), then handed to every unit.

>>> from acpcbot.game import bundled_game
>>> from acpcbot.protocol.matchstate import decode_match_state
>>> state, betting = decode_match_state("MATCHSTATE:0:7:rc/:AsKd|/Ah7c2d", bundled_game())
>>> s = Situation.of(state, betting)
>>> s.round, s.pot, s.to_call, s.bet, s.first_action, s.opponent_invested
(1, 40, 0, 10, True, False)
>>> s.lines
(('c', ''), ('r', ''))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from acpcbot.actions import Action, ActionType
from acpcbot.cards import Card
from acpcbot.game import Game
from acpcbot.player import BettingView
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import HandState

RIVER = 3
"""The last betting round of hold'em."""

Line = tuple[str, ...]
"""One player's actions per round, e.g. ``("r", "kc", "")``: ``k`` check, ``b`` bet,
``c`` call, ``r`` raise, ``f`` fold (check and bet when no bet is to be called)."""


@dataclass(frozen=True, slots=True)
class Situation:
    """One decision of the agent in a heads-up limit hand."""

    hand_number: int
    position: int
    round: int
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    pot: int
    """Chips in the pot, both players."""
    to_call: int
    bet: int
    """The fixed bet size of this round."""
    num_raises: int
    """Bets and raises so far this round (the blinds are not raises)."""
    can_fold: bool
    can_raise: bool
    first_action: bool
    """The agent has not acted yet this round."""
    opponent_invested: bool
    """The opponent bet or raised this round."""
    lines: tuple[Line, Line]
    """Each position's line (``lines[p][r]``)."""

    @property
    def opponent(self) -> int:
        return 1 - self.position

    @property
    def facing_bet(self) -> bool:
        return self.to_call > 0

    @property
    def pot_odds(self) -> float:
        """Share of the pot after calling that the call costs; 0 when checking is free."""
        return self.to_call / (self.pot + self.to_call) if self.to_call else 0.0

    @property
    def opponent_line(self) -> Line:
        return self.lines[self.opponent]

    @property
    def own_line(self) -> Line:
        return self.lines[self.position]

    @classmethod
    def of(cls, state: MatchState, betting: BettingView) -> Situation:
        """The situation of ``state`` (the agent's turn) under ``betting``."""
        return cls.at(betting, state.own_cards, state.board_cards, state.hand_number)

    @classmethod
    def at(
        cls,
        betting: BettingView,
        hole: tuple[Card, ...],
        board: tuple[Card, ...],
        hand_number: int = 0,
    ) -> Situation:
        """The situation of the player to act at ``betting`` holding ``hole`` with ``board``
        visible (``hole`` empty: what every holding of that player has in common)."""
        position = betting.current_player
        round_ = betting.round
        lines = action_lines(betting.game, betting.actions)
        this_round = list(zip(betting.acting[round_], betting.actions[round_], strict=True))
        return cls(
            hand_number=hand_number,
            position=position,
            round=round_,
            hole=hole,
            board=board,
            pot=betting.pot,
            to_call=betting.amount_to_call(position),
            bet=betting.game.raise_size[round_],
            num_raises=betting.num_raises,
            can_fold=betting.can_fold(),
            can_raise=betting.can_raise(),
            first_action=all(p != position for p, _ in this_round),
            opponent_invested=any(
                p != position and a.type is ActionType.RAISE for p, a in this_round
            ),
            lines=(lines[0], lines[1]),
        )


def action_lines(game: Game, betting: Sequence[Sequence[Action]]) -> tuple[Line, ...]:
    """Each position's line through ``betting`` (actions grouped by round).

    >>> from acpcbot.game import bundled_game
    >>> from acpcbot.protocol.matchstate import parse_betting
    >>> action_lines(bundled_game(), parse_betting("rc/crc/r"))
    (('c', 'kc', 'b'), ('r', 'b', ''))
    """
    hand = HandState(game)
    letters = [[""] * len(betting) for _ in range(game.num_players)]
    for round_, actions in enumerate(betting):
        for action in actions:
            p = hand.current_player
            facing = hand.amount_to_call() > 0
            letters[p][round_] += _LETTER[action.type, facing]
            hand.apply(action)
    return tuple(tuple(row) for row in letters)


_LETTER = {
    (ActionType.FOLD, True): "f",
    (ActionType.FOLD, False): "f",
    (ActionType.CALL, True): "c",
    (ActionType.CALL, False): "k",
    (ActionType.RAISE, True): "r",
    (ActionType.RAISE, False): "b",
}
