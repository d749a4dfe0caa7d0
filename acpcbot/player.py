"""What the client and the dealer drive: the :class:`Player` protocol.

The core knows no agent. The client (over TCP) and the dealer's in-process referee both
talk to any object with this shape; ``agents.Agent`` is the base class every agent uses.

Call order within a match: ``begin_match`` once; then for every hand, ``observe`` for each
state the player receives (including the states where it acts, and the final state), ``act``
right after ``observe`` when it is the player's turn, and ``end_hand`` after the final state.

What the dealer is handed to play a match is an :class:`Entrant` per agent: its name, fresh
players of it, and its strategy when that is fixed; the command line makes them from agent
specs (``agents.registry.entrant``), so the dealer never looks an agent up by name.

A player that draws its action from known probabilities may say so
(:func:`decision_probabilities` reads it): after each such decision it keeps the
probabilities of fold, call and raise it drew from (renormalised over the legal actions) in
``last_triple``, and the decision they belong to (:func:`decision_key` of the betting it
acted at) in ``last_triple_at``. The dealer reads them, changing nothing, to record every
decision's probabilities beside the log (AIVAT's action corrections need them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from acpcbot.actions import Action, ActionType
from acpcbot.cards import Card
from acpcbot.game import Game
from acpcbot.protocol.matchstate import MatchState


class BettingView(Protocol):
    """Read-only view of a hand's betting (implemented by :class:`acpcbot.rules.HandState`).

    Players must not mutate it; a search explores with ``HandState.child`` and ``children``.
    """

    @property
    def game(self) -> Game: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def finished(self) -> bool: ...
    @property
    def spent(self) -> Sequence[int]: ...
    @property
    def max_spent(self) -> int: ...
    @property
    def num_raises(self) -> int: ...
    @property
    def folded(self) -> Sequence[bool]: ...
    @property
    def actions(self) -> Sequence[Sequence[Action]]: ...
    @property
    def acting(self) -> Sequence[Sequence[int]]: ...
    @property
    def current_player(self) -> int: ...
    @property
    def pot(self) -> int: ...
    def amount_to_call(self, position: int | None = None) -> int: ...
    def can_fold(self) -> bool: ...
    def can_call(self) -> bool: ...
    def can_raise(self) -> bool: ...
    def raise_bounds(self) -> tuple[int, int] | None: ...
    def legal_action_types(self) -> tuple[ActionType, ...]: ...
    def is_legal(self, action: Action) -> bool: ...


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """What a player is told when a match starts."""

    game: Game
    seat: int | None = None
    """0-based seat (the reference's "seat 1" is 0); ``None`` when the dealer does not say,
    as over the ACPC protocol."""
    hands: int | None = None
    """Hands in the match, when known."""
    name: str | None = None
    """The player's name in the match, when known."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand as one player saw it."""

    state: MatchState
    """The final state sent to this player (opponent cards shown after a showdown)."""
    values: tuple[float, ...]
    """Chips won by each position."""

    @property
    def value(self) -> float:
        """Chips won by this player."""
        return self.values[self.state.position]


class ActionProbabilities(Protocol):
    """Probabilities of fold, call and raise (``agents.triple.Triple`` is one)."""

    @property
    def fold(self) -> float: ...
    @property
    def call(self) -> float: ...
    @property
    def raise_(self) -> float: ...


def decision_key(betting: BettingView) -> tuple[int, int]:
    """Which decision of a match ``betting`` is: the hand number and the actions so far.

    >>> from acpcbot.game import bundled_game
    >>> from acpcbot.rules import HandState, CALL
    >>> hand = HandState(bundled_game(), 7); hand.apply(CALL)
    >>> decision_key(hand)
    (7, 1)
    """
    return (betting.hand_number, sum(len(actions) for actions in betting.actions))


def decision_probabilities(
    player: object, betting: BettingView
) -> tuple[float, float, float] | None:
    """The (fold, call, raise) probabilities ``player`` drew its action at ``betting`` from,
    when it kept them for this very decision (see the module's docstring); else ``None``.
    Reads two attributes and changes nothing.

    >>> from acpcbot.game import bundled_game
    >>> from acpcbot.rules import HandState
    >>> from types import SimpleNamespace
    >>> hand = HandState(bundled_game(), 3)
    >>> said = SimpleNamespace(fold=0.0, call=0.25, raise_=0.75)
    >>> decision_probabilities(SimpleNamespace(last_triple=said, last_triple_at=(3, 0)), hand)
    (0.0, 0.25, 0.75)
    >>> decision_probabilities(SimpleNamespace(last_triple=said, last_triple_at=(2, 0)), hand)
    """
    if getattr(player, "last_triple_at", None) != decision_key(betting):
        return None
    triple: ActionProbabilities | None = getattr(player, "last_triple", None)
    if triple is None:
        return None
    return (float(triple.fold), float(triple.call), float(triple.raise_))


class Player(Protocol):
    """Anything that can play a match."""

    @property
    def decides_instantly(self) -> bool:
        """True when ``act`` is O(1) and never blocks: the client may call it inline instead
        of on a worker thread under the time budget."""

    def begin_match(self, info: MatchInfo) -> None: ...

    def observe(self, state: MatchState, betting: BettingView) -> None: ...

    def act(self, state: MatchState, betting: BettingView) -> Action: ...

    def end_hand(self, result: HandResult) -> None: ...


_Hook = TypeVar("_Hook", bound=Callable[..., Any])
_DEFAULT_HOOK = "__acpcbot_default_hook__"


def default_hook(method: _Hook) -> _Hook:
    """Mark a :class:`Player` method whose body does nothing (``observe``, ``end_hand`` of a
    base class), so that a driver may skip calling it when a subclass does not override it.

    >>> class Quiet:
    ...     @default_hook
    ...     def observe(self, state, betting): pass
    >>> class Curious(Quiet):
    ...     def observe(self, state, betting): print(state)
    >>> overrides_hook(Quiet(), "observe"), overrides_hook(Curious(), "observe")
    (False, True)
    """
    setattr(method, _DEFAULT_HOOK, True)
    return method


def overrides_hook(player: object, name: str) -> bool:
    """Whether calling ``player.<name>`` can do anything (see :func:`default_hook`)."""
    method = getattr(type(player), name, None)
    return method is not None and not getattr(method, _DEFAULT_HOOK, False)


Strategy = Callable[[BettingView, Sequence[Card], Sequence[Card]], tuple[float, float, float]]
"""A fixed strategy, asked anywhere: ``(betting, hole, board) -> (fold, call, raise)``, the
legal probabilities with which the player to act at ``betting``, holding ``hole`` with
``board`` visible, plays (AIVAT's lookahead asks it at histories that did not happen)."""


class Entrant(Protocol):
    """An agent entered in a match, as the dealer's runners are handed it: they create a fresh
    player for every half (with the seed the match gives it), in whatever process plays the
    half, so an entrant must pickle."""

    @property
    def spec(self) -> str:
        """How it was asked for (an agent spec: ``NAME[:KEY=VALUE,...]``), for the records."""

    @property
    def name(self) -> str:
        """Its name in the logs (no ``:``, ``|`` or spaces)."""

    def create(self, seed: int) -> Player:
        """A fresh player, seeded (every random choice it makes flows from ``seed``)."""

    def check(self, game: Game) -> None:
        """Raise :class:`~acpcbot.errors.AcpcError` when this entrant cannot play a match of
        ``game`` (:class:`~acpcbot.errors.UnsupportedGameError` for the game itself), before
        the match: no match is begun, and a built-in agent is not even made."""

    def strategy(self, game: Game) -> Strategy | None:
        """Its strategy in ``game`` when that is fixed and known for every holding (for
        AIVAT), else ``None``."""
