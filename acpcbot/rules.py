"""The betting rules: the one place that knows who acts, what is legal and who won.

:class:`HandState` is the mutable state of one hand's betting under an immutable
:class:`~acpcbot.game.Game`. It follows the reference dealer's ``game.c`` (``currentPlayer``,
``raiseIsValid``, ``isValidAction``, ``doAction``, ``valueOfState``) for any number of
players, limit and no-limit. The dealer, the client and the agents all use it; nothing else
in the project decides whether an action is legal, and every search walks the betting tree
through :meth:`HandState.children` and :meth:`HandState.child` (a numba kernel, through a
table of the tree built with them: ``agents.common.bettingtree``).

>>> from acpcbot.game import bundled_game
>>> hand = HandState(bundled_game())
>>> hand.current_player, hand.can_fold(), hand.can_raise()
(1, True, True)
>>> for action in (RAISE, RAISE, RAISE):
...     hand.apply(action)
>>> hand.num_raises, hand.can_raise()  # 3 raises after the blinds cap preflop
(3, False)
>>> hand.apply(CALL); hand.round, hand.spent
(1, [40, 40])
"""

from __future__ import annotations

from collections.abc import Sequence

from acpcbot.actions import CALL, FOLD, RAISE, Action, ActionType, format_betting
from acpcbot.errors import IllegalActionError, UnsupportedGameError
from acpcbot.game import BettingType, Game

MAX_ACTIONS_PER_ROUND = 64
"""The reference's ``MAX_NUM_ACTIONS``: a round may not grow beyond this."""

BAD_FORMAT_WARNING = "bad action format in response, changed to call"
"""What the reference dealer prints when a reply's action does not parse."""
INVALID_ACTION_WARNING = "invalid action, changed to call"
"""What the reference dealer prints for an unknown or illegal action (it plays a call)."""

_CALL_TYPE = ActionType.CALL
_RAISE_TYPE = ActionType.RAISE
_LIMIT = BettingType.LIMIT
_CALL_PLAYED: tuple[Action, str | None] = (CALL, None)
_RAISE_PLAYED: tuple[Action, str | None] = (RAISE, None)


class HandState:
    """Betting state of one hand: mutable, cheap to copy, knows no cards.

    Per-player lists are indexed by **position** (0 is the big blind in the reverse-blinds
    heads-up games).
    """

    __slots__ = (
        "_num_acting",
        "_num_called",
        "_to_act",
        "acting",
        "actions",
        "finished",
        "folded",
        "game",
        "hand_number",
        "max_spent",
        "min_raise_to",
        "num_folded",
        "num_raises",
        "round",
        "spent",
    )

    def __init__(self, game: Game, hand_number: int = 0) -> None:
        self.game = game
        self.hand_number = hand_number
        blind = game.blind
        self.spent = list(blind)
        self.max_spent = max_spent = max(blind)
        if game.betting_type is _LIMIT:
            self.min_raise_to = 0
        else:
            self.min_raise_to = 2 * max_spent if max_spent else 1
        num_players = game.num_players
        self.folded = [False] * num_players
        self.num_folded = 0
        self.actions: list[list[Action]] = [[]]
        self.acting: list[list[int]] = [[]]
        self.round = 0
        self.num_raises = 0
        """Raises made so far in the current round."""
        self.finished = False
        # Caches for the hot path, kept up to date by _do: the number of players who have
        # neither folded nor gone all-in, and the position to act (-1: not known yet; _do
        # sets it whenever the hand goes on, so the lazy look-up runs about once a hand).
        if max_spent < min(game.stack):  # the usual case, without a loop
            self._num_acting = num_players
        else:
            self._num_acting = sum([b < s for b, s in zip(blind, game.stack, strict=True)])
        self._num_called = 0
        """The reference's ``numCalled``: the last raiser and the callers since, who are not
        all-in (kept up to date instead of scanning the round's actions)."""
        self._to_act = -1

    def copy(self) -> HandState:
        """An independent copy (for search and simulation)."""
        other = HandState.__new__(HandState)
        other.game = self.game
        other.hand_number = self.hand_number
        other.spent = self.spent.copy()
        other.max_spent = self.max_spent
        other.min_raise_to = self.min_raise_to
        other.folded = self.folded.copy()
        other.num_folded = self.num_folded
        other.actions = [r.copy() for r in self.actions]
        other.acting = [r.copy() for r in self.acting]
        other.round = self.round
        other.num_raises = self.num_raises
        other.finished = self.finished
        other._to_act = self._to_act
        other._num_acting = self._num_acting
        other._num_called = self._num_called
        return other

    # -- who acts ---------------------------------------------------------------------

    def _can_still_bet(self, position: int) -> bool:
        return not self.folded[position] and self.spent[position] < self.game.stack[position]

    def _next_player(self, after: int) -> int:
        # Hot path (every action of every hand): locals instead of _can_still_bet calls.
        folded = self.folded
        spent = self.spent
        stack = self.game.stack
        n = len(folded)
        position = after
        for _ in range(n):
            position += 1
            if position == n:
                position = 0
            if not folded[position] and spent[position] < stack[position]:
                return position
        raise IllegalActionError("no player can act")  # pragma: no cover - unreachable

    @property
    def current_player(self) -> int:
        """Position of the player to act. Only meaningful while the hand is not finished."""
        position = self._to_act
        if position < 0:
            acting = self.acting[self.round]
            after = acting[-1] if acting else self.game.first_player[self.round] - 1
            position = self._to_act = self._next_player(after)
        return position

    @property
    def num_actions(self) -> int:
        """Actions made so far in the current round."""
        return len(self.actions[self.round])

    @property
    def pot(self) -> int:
        return sum(self.spent)

    def amount_to_call(self, position: int | None = None) -> int:
        """Chips ``position`` (default: the player to act) must add to call."""
        p = self.current_player if position is None else position
        return min(self.max_spent, self.game.stack[p]) - self.spent[p]

    def num_acting_players(self) -> int:
        """Players who have neither folded nor gone all-in."""
        return self._num_acting

    # -- legality ---------------------------------------------------------------------

    def can_call(self) -> bool:
        """Calling (checking) is legal whenever the hand is not over."""
        return not self.finished

    def can_fold(self) -> bool:
        """Folding is legal only when facing a bet (and not all-in)."""
        if self.finished:
            return False
        p = self.current_player
        return self.spent[p] != self.max_spent and self.spent[p] != self.game.stack[p]

    def raise_bounds(self) -> tuple[int, int] | None:
        """Smallest and largest raise-to, or ``None`` if raising is not legal.

        Limit games return ``(0, 0)`` when a raise is legal (sizes are fixed).
        """
        if self.finished:
            return None
        game = self.game
        round_ = self.round
        if self.num_raises >= game.max_raises[round_]:
            return None
        # num_actions and num_acting_players(), read directly (a raise of every hand asks).
        if len(self.actions[round_]) + game.num_players > MAX_ACTIONS_PER_ROUND:
            return None
        if self._num_acting <= 1:
            return None
        if game.betting_type is _LIMIT:
            return (0, 0)
        stack = game.stack[self.current_player]
        if self.min_raise_to > stack:
            if self.max_spent >= stack:
                return None
            return (stack, stack)
        return (self.min_raise_to, stack)

    def can_raise(self) -> bool:
        """Raising is legal below the round's cap while someone is left to call it."""
        return self.raise_bounds() is not None

    def legal_action_types(self) -> tuple[ActionType, ...]:
        """The legal kinds of action, in the order fold, call, raise."""
        if self.finished:
            return ()
        kinds = [ActionType.FOLD] if self.can_fold() else []
        kinds.append(ActionType.CALL)
        if self.can_raise():
            kinds.append(ActionType.RAISE)
        return tuple(kinds)

    def illegality(self, action: Action) -> str | None:
        """Why ``action`` is illegal here, or ``None`` if it is legal."""
        if self.finished:
            return "the hand is over"
        if action.type is ActionType.CALL:
            return None if action.size == 0 else "a call has no size"
        if action.type is ActionType.FOLD:
            if action.size:
                return "a fold has no size"
            return None if self.can_fold() else "fold when not facing a bet"
        bounds = self.raise_bounds()
        if bounds is None:
            return "raise not allowed (cap reached or nobody left to call)"
        if self.game.is_limit:
            return None if action.size == 0 else "a limit raise has no size"
        low, high = bounds
        if not low <= action.size <= high:
            return f"raise to {action.size} outside [{low}, {high}]"
        return None

    def is_legal(self, action: Action) -> bool:
        return self.illegality(action) is None

    def coerce(self, action: Action | None) -> tuple[Action, str | None]:
        """The reference dealer's repair of a client action (``isValidAction`` with fixing).

        Returns the action to apply and the warning the reference prints, if any: an
        unparseable or illegal action becomes a call; a no-limit raise outside the legal
        range is clamped to it.
        """
        if action is None:
            return CALL, BAD_FORMAT_WARNING
        if action.type is ActionType.RAISE and not self.game.is_limit:
            bounds = self.raise_bounds()
            if bounds is not None:
                low, high = bounds
                if action.size < low:
                    return Action(
                        ActionType.RAISE, low
                    ), f"raise of {action.size} increased to {low}"
                if action.size > high:
                    return Action(ActionType.RAISE, high), (
                        f"raise of {action.size} decreased to {high}"
                    )
        if action.type is ActionType.RAISE and self.game.is_limit and action.size:
            action = RAISE
        if self.is_legal(action):
            return action, None
        return CALL, INVALID_ACTION_WARNING

    # -- the tree ---------------------------------------------------------------------

    def child(self, action: Action) -> HandState:
        """The state after a legal ``action``, this one left as it was: one step of a search.

        >>> from acpcbot.game import bundled_game
        >>> hand = HandState(bundled_game())
        >>> hand.child(RAISE).betting_text(), hand.betting_text()
        ('r', '')
        """
        child = self.copy()
        child.apply(action)
        return child

    def children(self) -> list[tuple[Action, HandState]]:
        """Each legal action of a limit game with the state after it, in the order fold,
        call, raise (none once the hand is over): the one way the betting tree is walked.

        >>> from acpcbot.game import bundled_game
        >>> hand = HandState(bundled_game()).child(RAISE)
        >>> [(str(action), child.betting_text()) for action, child in hand.children()]
        [('f', 'rf'), ('c', 'rc/'), ('r', 'rr')]
        """
        if self.game.betting_type is not _LIMIT:
            # A no-limit raise needs a size, which is a choice of the search, not a rule.
            raise UnsupportedGameError("the children of a state are defined in limit games")
        if self.finished:
            return []
        legal = [FOLD, CALL] if self.can_fold() else [CALL]
        if self.raise_bounds() is not None:
            legal.append(RAISE)
        found = []
        for action in legal:
            child = self.copy()
            child._do(action)  # checked above, once, rather than again by apply
            found.append((action, child))
        return found

    def situation(self) -> tuple[object, ...]:
        """Everything the rest of the hand depends on, the actions before aside: two states
        of one game in the same situation have the same children at every depth and end with
        the same values (only their betting texts differ, by what came before). Every
        betting that ends a round with the same chips in reaches one situation: a walk of
        the tree may walk what follows it once (``agents.common.bettingtree``).

        >>> from acpcbot.game import bundled_game
        >>> hand = HandState(bundled_game())
        >>> hand.child(RAISE).child(CALL).situation() == hand.child(CALL).child(RAISE).child(
        ...     CALL
        ... ).situation()
        True
        """
        return (
            self.round,
            tuple(self.spent),
            tuple(self.folded),
            self.max_spent,
            self.min_raise_to,
            self.num_raises,
            len(self.actions[self.round]),
            self._num_acting,
            self._num_called,
            -1 if self.finished else self.current_player,
            self.finished,
        )

    # -- doing ------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply a legal action; raise :class:`IllegalActionError` otherwise."""
        why = self.illegality(action)
        if why is not None:
            raise IllegalActionError(f"hand {self.hand_number}: {why}: {action}")
        self._do(action)

    def apply_coerced(self, action: Action | None) -> tuple[Action, str | None]:
        """:meth:`coerce` then apply, in one step: what the reference dealer does with a
        client's action. Returns the action applied and the warning, if any.

        >>> from acpcbot.game import bundled_game
        >>> hand = HandState(bundled_game())
        >>> hand.apply_coerced(CALL), hand.apply_coerced(FOLD)
        ((Action(type=<ActionType.CALL: 'c'>, size=0), None), \
(Action(type=<ActionType.CALL: 'c'>, size=0), 'invalid action, changed to call'))
        """
        if self.finished:
            raise IllegalActionError(f"hand {self.hand_number}: the hand is over")
        if action is CALL:  # always legal while the hand goes on: skip the checks
            self._do(action)
            return _CALL_PLAYED
        if (
            action is RAISE and self.game.betting_type is _LIMIT and self.raise_bounds() is not None
        ):  # a legal limit raise needs no repair (raise_bounds is the legality check)
            self._do(action)
            return _RAISE_PLAYED
        played, warning = self.coerce(action)
        self._do(played)
        return played, warning

    def _do(self, action: Action) -> None:
        # The hot path of every match (each action of each hand): locals, one branch per
        # kind of action, and the next player found right here.
        p = self._to_act
        if p < 0:
            p = self.current_player
        round_ = self.round
        self.actions[round_].append(action)
        self.acting[round_].append(p)
        game = self.game
        stack = game.stack[p]
        kind = action.type
        if kind is _CALL_TYPE:
            max_spent = self.max_spent
            if max_spent < stack:
                self.spent[p] = max_spent
                self._num_called += 1
            else:
                self.spent[p] = stack
                self._num_acting -= 1
        elif kind is _RAISE_TYPE:
            self.num_raises += 1
            if game.betting_type is _LIMIT:
                self.max_spent = min(self.max_spent + game.raise_size[round_], stack)
            else:
                increment_to = 2 * action.size - self.max_spent
                self.min_raise_to = max(self.min_raise_to, increment_to)
                self.max_spent = action.size
            self.spent[p] = self.max_spent
            if self.max_spent < stack:
                self._num_called = 1
            else:
                self._num_called = 0
                self._num_acting -= 1
        else:
            self.folded[p] = True
            self.num_folded += 1
            self._num_acting -= 1
            if self.num_folded + 1 >= game.num_players:
                self._to_act = -1
                self.finished = True
                return
        acting_players = self._num_acting
        if self._num_called < acting_players:  # the round goes on
            # Usually the next position can still bet; _next_player looks further.
            q = p + 1
            if q == len(self.folded):
                q = 0
            if self.folded[q] or self.spent[q] >= game.stack[q]:
                q = self._next_player(q)
            self._to_act = q
            return
        self._to_act = -1
        if acting_players > 1:
            if round_ + 1 < game.num_rounds:
                self._next_round()
                self._to_act = self._next_player(game.first_player[round_ + 1] - 1)
            else:
                self.finished = True
        else:
            self.finished = True
            while self.round + 1 < game.num_rounds:
                self._next_round()

    def _next_round(self) -> None:
        self.round += 1
        self.actions.append([])
        self.acting.append([])
        self.num_raises = 0
        self._num_called = 0
        game = self.game
        if game.betting_type is not _LIMIT:
            self.min_raise_to = max(1, *game.blind) + self.max_spent

    # -- outcome ----------------------------------------------------------------------

    @property
    def is_showdown(self) -> bool:
        """The hand is over and more than one player is left to show cards."""
        return self.finished and self.num_folded + 1 < self.game.num_players

    def value(self, position: int, ranks: Sequence[int] | None = None) -> float:
        """Chips won (positive) or lost by ``position`` in a finished hand.

        ``ranks`` gives each position's hand rank (higher wins); it is needed only for a
        showdown, and folded positions' entries are ignored.
        """
        if not self.finished:
            raise IllegalActionError("the value of an unfinished hand is undefined")
        spent_all = self.spent
        if self.folded[position]:
            return float(-spent_all[position])
        if self.num_folded + 1 == self.game.num_players:
            return float(sum(spent_all) - spent_all[position])
        if ranks is None:
            raise IllegalActionError("a showdown needs the players' hand ranks")
        if len(spent_all) == 2 and spent_all[0] == spent_all[1]:
            # Heads-up showdown with equal stakes (every limit hand): one pot, no side pots.
            other = ranks[1 - position]
            mine = ranks[position]
            return float(spent_all[position] if mine > other else 0 if mine == other else
                         -spent_all[position])  # fmt: skip
        spent: list[int] = []
        rank: list[int] = []
        me = -1
        for p in range(self.game.num_players):
            if spent_all[p] == 0:
                continue
            if p == position:
                me = len(spent)
            rank.append(-1 if self.folded[p] else ranks[p])
            spent.append(spent_all[p])
        value = 0.0
        while True:
            size = min(spent)
            win_rank = max(rank)
            winners = rank.count(win_rank)
            if rank[me] == win_rank:
                value += size * (len(spent) - winners) / winners
            else:
                value -= size
            kept_spent: list[int] = []
            kept_rank: list[int] = []
            new_me = -1
            for i, s in enumerate(spent):
                if s - size == 0:
                    if i == me:
                        return value
                    continue
                if i == me:
                    new_me = len(kept_spent)
                kept_spent.append(s - size)
                kept_rank.append(rank[i])
            spent, rank, me = kept_spent, kept_rank, new_me

    def values(self, ranks: Sequence[int] | None = None) -> tuple[float, ...]:
        """:meth:`value` for every position."""
        spent = self.spent
        if self.finished and len(spent) == 2:
            # Heads-up fast paths (every hand of a heads-up match), as value() computes them.
            if self.num_folded:
                loser = 0 if self.folded[0] else 1
                stake = spent[loser]
                return (
                    (float(-stake), float(stake)) if loser == 0 else (float(stake), float(-stake))
                )
            if ranks is not None and spent[0] == spent[1]:
                stake = spent[0]
                if ranks[0] == ranks[1]:
                    return (0.0, 0.0)
                return (
                    (float(stake), float(-stake))
                    if ranks[0] > ranks[1]
                    else (float(-stake), float(stake))
                )
        return tuple([self.value(p, ranks) for p in range(len(spent))])

    # -- text -------------------------------------------------------------------------

    def betting_text(self) -> str:
        """The betting as the protocol prints it: rounds joined by ``/``."""
        return format_betting(self.actions)

    def __repr__(self) -> str:
        return (
            f"HandState(hand={self.hand_number}, betting={self.betting_text()!r}, "
            f"spent={self.spent}, finished={self.finished})"
        )


def replay(game: Game, betting: Sequence[Sequence[Action]], hand_number: int = 0) -> HandState:
    """Rebuild the state after ``betting`` (actions grouped by round), checking every action
    and that the grouping into rounds is the one the rules produce.

    >>> from acpcbot.game import bundled_game
    >>> replay(bundled_game(), [[RAISE, CALL], []]).round
    1
    """
    hand = HandState(game, hand_number)
    for round_, actions in enumerate(betting):
        for action in actions:
            if hand.round != round_:
                raise IllegalActionError(
                    f"hand {hand_number}: an action is shown in round {round_ + 1} but the "
                    f"rules are in round {hand.round + 1}"
                )
            hand.apply(action)
    if hand.round != len(betting) - 1:
        raise IllegalActionError(
            f"hand {hand_number}: betting shows {len(betting)} round(s) but the rules are in "
            f"round {hand.round + 1}"
        )
    return hand


__all__ = [
    "BAD_FORMAT_WARNING",
    "CALL",
    "FOLD",
    "INVALID_ACTION_WARNING",
    "RAISE",
    "HandState",
    "replay",
]
