"""Every decision of a hand's betting, with the context a betting policy reads.

The betting is replayed through the rules module (:class:`acpcbot.rules.HandState`), so who
acted, whether a bet was to be called and how many raises the round had come from the one
place that knows. A :class:`Decision` carries what Saund's policy needs (the effective odds,
:func:`effective_odds`) and what a weight table needs (the round,
hence the board).

>>> from acpcbot.game import bundled_game
>>> from acpcbot.protocol.matchstate import parse_betting
>>> game = bundled_game()
>>> [(d.round, d.actor, d.facing, d.level, d.action.value) for d in
...  decisions(game, parse_betting("rc/cr"))]
[(0, 1, True, 0, 'r'), (0, 0, True, 1, 'c'), (1, 0, False, 0, 'c'), (1, 1, False, 0, 'r')]
>>> round(next(decisions(game, parse_betting("r"))).odds, 4)
0.4583
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from acpcbot.actions import Action, ActionType
from acpcbot.game import Game
from acpcbot.player import BettingView
from acpcbot.protocol.logfile import StateRecord
from acpcbot.rules import HandState

__all__ = [
    "Decision",
    "DecisionTracker",
    "PlayStyle",
    "decision_of",
    "decisions",
    "effective_odds",
    "later_bets",
    "play_style",
]


@dataclass(frozen=True, slots=True)
class Decision:
    """One player's turn and what it did (``action`` is ``None`` for a turn not yet
    taken)."""

    round: int
    actor: int
    """The position that acted."""
    facing: bool
    """A bet was to be called."""
    level: int
    """Raises so far this round (the blinds are none)."""
    pot: int
    """Chips in the pot before the action."""
    to_call: int
    odds: float
    """Saund's effective odds of calling (:func:`effective_odds`)."""
    action: ActionType | None


def effective_odds(to_call: int, pot: int, later_bets: Sequence[int] | int) -> float:
    """Saund's effective odds: what a player will have put in from now on over the final
    pot, when it calls ``to_call`` now and both players put one bet into the ``pot`` on each
    street still to come (``later_bets``: their sizes, or their sum).

    >>> effective_odds(5, 15, (10, 20, 20))  # the small blind's first decision
    0.4583333333333333
    """
    future = later_bets if isinstance(later_bets, int) else sum(later_bets)
    return (to_call + future) / (pot + to_call + 2 * future)


def later_bets(game: Game, round_: int) -> int:
    """One bet on each street after ``round_``: the sum of their bet sizes."""
    return sum(game.raise_size[round_ + 1 :])


def decision_of(betting: BettingView, action: ActionType | None = None) -> Decision:
    """The turn of the player to act in ``betting``."""
    to_call = betting.amount_to_call()
    round_ = betting.round
    return Decision(
        round=round_,
        actor=betting.current_player,
        facing=to_call > 0,
        level=betting.num_raises,
        pot=betting.pot,
        to_call=to_call,
        odds=effective_odds(to_call, betting.pot, later_bets(betting.game, round_)),
        action=action,
    )


def decisions(
    game: Game, betting: Sequence[Sequence[Action]], hand_number: int = 0
) -> Iterator[Decision]:
    """The decisions of ``betting`` (actions grouped by round, as a match state or a log
    line holds them), in order; it must be legal."""
    hand = HandState(game, hand_number)
    for actions in betting:
        for action in actions:
            yield decision_of(hand, action.type)
            hand.apply(action)


class DecisionTracker:
    """The decisions of one hand as its states arrive: :meth:`new` gives those not given
    before, replaying only the actions that are new (an agent's ``observe`` sees every
    state of a hand; replaying the whole betting each time would cost a hand's length
    squared).

    >>> from acpcbot.game import bundled_game
    >>> from acpcbot.protocol.matchstate import parse_betting
    >>> tracker = DecisionTracker(bundled_game())
    >>> [d.action.value for d in tracker.new(0, parse_betting("r"))]
    ['r']
    >>> [d.action.value for d in tracker.new(0, parse_betting("rc/c"))]
    ['c', 'c']
    >>> [d.action.value for d in tracker.new(1, parse_betting("c"))]  # a new hand
    ['c']
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self._hand = HandState(game)
        self._hand_number = -1
        self._done = 0

    def new(self, hand_number: int, betting: Sequence[Sequence[Action]]) -> list[Decision]:
        """The decisions of ``betting`` (this hand's, so far) not given before."""
        if hand_number != self._hand_number:
            self._hand = HandState(self.game, hand_number)
            self._hand_number = hand_number
            self._done = 0
        flat = [action for actions in betting for action in actions]
        found = []
        for action in flat[self._done :]:
            found.append(decision_of(self._hand, action.type))
            self._hand.apply(action)
        self._done = len(flat)
        return found


@dataclass(frozen=True, slots=True)
class PlayStyle:
    """How a player played a set of hands: what tells loose from tight and aggressive
    from passive."""

    hands: int
    participation: float
    """Share of its hands it did not fold before the flop."""
    aggression: float
    """Share of raises among its calls and raises (every street)."""


def play_style(game: Game, hands: Iterable[StateRecord], name: str) -> PlayStyle:
    """The :class:`PlayStyle` of the player called ``name`` in ``hands`` (log records).

    >>> from acpcbot.game import bundled_game
    >>> from acpcbot.protocol.logfile import parse_state_line
    >>> hands = [parse_state_line("STATE:0:rc/crc/rf:AsKs|7c2d/AhKh9s/2d:40|-40:a|b"),
    ...          parse_state_line("STATE:1:f:7c2d|AsKs:10|-10:b|a")]
    >>> play_style(bundled_game(), hands, "a")  # folded hand 1; raised once, called 3 times
    PlayStyle(hands=2, participation=0.5, aggression=0.25)
    """
    count = played = raises = calls = 0
    for record in hands:
        me = record.names.index(name)
        count += 1
        folded_early = False
        for turn in decisions(game, record.betting, record.hand_number):
            if turn.actor != me:
                continue
            folded_early |= turn.action is ActionType.FOLD and turn.round == 0
            raises += turn.action is ActionType.RAISE
            calls += turn.action is ActionType.CALL
        played += not folded_early
    return PlayStyle(count, played / max(1, count), raises / max(1, raises + calls))
