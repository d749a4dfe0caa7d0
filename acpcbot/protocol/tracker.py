"""Incremental decoding of the states a dealer sends (pure: no I/O).

Within a hand every ``MATCHSTATE`` extends the previous one: the same position and hand
number, the betting with one or more actions appended, the cards with a new board group or
the opponent's hand revealed. :class:`HandTracker` exploits that: it applies only the new
actions to the hand's :class:`~acpcbot.rules.HandState` and re-parses the cards only when
they change, instead of parsing and replaying every line from scratch. It accepts exactly
the lines :func:`~acpcbot.protocol.matchstate.decode_match_state` accepts, and more strictly also
requires that each state follows the previous one. Whenever the quick path does not apply,
the full decoder runs, so error messages are the decoder's.

>>> from acpcbot.game import bundled_game
>>> tracker = HandTracker(bundled_game())
>>> state, hand = tracker.advance("MATCHSTATE:0:0::7d3d|")
>>> hand.current_player
1
>>> state, hand = tracker.advance("MATCHSTATE:0:0:rc/:7d3d|/5sKs7s")
>>> state.round, hand.spent, tracker.in_hand
(1, [20, 20], True)
>>> state, hand = tracker.advance("MATCHSTATE:0:0:rc/rf:7d3d|/5sKs7s")
>>> final_values(state, hand), tracker.in_hand
((20.0, -20.0), False)
"""

from __future__ import annotations

from typing import NamedTuple, NoReturn

from acpcbot.actions import CALL, FOLD, RAISE, Action
from acpcbot.cards import Card
from acpcbot.errors import IllegalActionError, MatchStateError
from acpcbot.game import Game
from acpcbot.handeval import rank_hand_reference
from acpcbot.protocol.matchstate import (
    PREFIX,
    MatchState,
    check_hole_cards_view,
    clip_line,
    decode_match_state,
    parse_betting,
    parse_card_group,
    parse_cards_field,
    parse_hole_cards,
)
from acpcbot.rules import HandState

_LIMIT_ACTIONS = {"f": FOLD, "c": CALL, "r": RAISE}


class HandTracker:
    """Follows the states of one connection, hand after hand.

    After it raises :class:`~acpcbot.errors.MatchStateError` the tracker is in an undefined
    state and must not be used again (the connection is over anyway).
    """

    __slots__ = ("_cards_text", "_game", "_hand", "_head", "_limit", "_prefix", "_seen", "_state")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._limit = game.is_limit
        self._state: MatchState | None = None
        self._hand: HandState | None = None
        self._head = ""
        """``MATCHSTATE:<position>:<hand>:`` of the current hand."""
        self._prefix = ""
        """The head and the betting of the last state: a line that extends it starts so."""
        self._cards_text = ""
        self._seen: set[Card] = set()
        """The viewer's hole cards and the board cards shown so far."""

    @property
    def in_hand(self) -> bool:
        """A hand has started and its final state has not arrived yet."""
        return self._hand is not None and not self._hand.finished

    @property
    def state(self) -> MatchState | None:
        """The last state accepted."""
        return self._state

    def advance(self, text: str) -> tuple[MatchState, HandState]:
        """Decode the next line from the dealer (without its line end).

        The returned :class:`HandState` is the tracker's own and changes with the next
        line: copy it to keep it.
        """
        hand = self._hand
        if hand is not None and not hand.finished and text.startswith(self._head):
            extended = self._extend(text, hand)
            if extended is not None:
                return extended
            self._reject(text)
        return self._start(text)

    def _start(self, text: str) -> tuple[MatchState, HandState]:
        state, hand = decode_match_state(text, self._game)
        previous = self._state
        if previous is not None:
            if self.in_hand:
                self._reject(text)
            if state.hand_number <= previous.hand_number:
                raise MatchStateError(
                    f"hand {state.hand_number} comes after hand {previous.hand_number}: {text!r}"
                )
        self._state, self._hand = state, hand
        self._head = f"{PREFIX}{state.position}:{state.hand_number}:"
        _, _, _, betting_text, self._cards_text = text.split(":")
        self._prefix = self._head + betting_text
        self._seen = {*state.own_cards, *state.board_cards}
        return state, hand

    def _reject(self, text: str) -> NoReturn:
        """Raise the decoder's error for ``text``, or say that it does not follow."""
        decode_match_state(text, self._game)
        previous = self._state
        assert previous is not None
        raise MatchStateError(
            f"{clip_line(text)!r} does not follow the previous state {str(previous)!r}"
        )

    def _extend(self, text: str, hand: HandState) -> tuple[MatchState, HandState] | None:
        """Apply the actions ``text`` adds to the current hand; ``None`` if it is not an
        extension that the full decoder would accept."""
        # Hot path (most lines of a match): the line must start with the previous one's
        # head and betting, so only the new actions and the cards need reading.
        prefix = self._prefix
        if not text.startswith(prefix):
            return None
        suffix, sep, cards_text = text[len(prefix) :].partition(":")
        if not sep:
            return None
        new = _limit_suffix(suffix) if self._limit else _nolimit_suffix(suffix)
        if new is None:
            return None
        previous = self._state
        assert previous is not None
        round_before = len(previous.betting) - 1
        try:
            for offset, action in new.steps:
                if hand.round != round_before + offset:
                    return None
                hand.apply(action)  # the rules decide every new action
        except IllegalActionError:
            return None
        text_round = round_before + len(new.groups) - 1
        if hand.round != text_round:
            return None
        if cards_text == self._cards_text and text_round == round_before:
            hole_cards, board = previous.hole_cards, previous.board
        else:
            cards = self._cards(cards_text, text_round, hand.finished, text)
            if cards is None:
                return None
            hole_cards, board = cards
        old = previous.betting
        groups = new.groups
        if len(groups) == 1:
            betting = (*old[:-1], old[-1] + groups[0])
        else:
            betting = (*old[:-1], old[-1] + groups[0], *groups[1:])
        state = MatchState(previous.position, previous.hand_number, betting, hole_cards, board)
        self._state = state
        self._prefix = prefix + suffix
        return state, hand

    def _cards(
        self, cards_text: str, text_round: int, finished: bool, text: str
    ) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]] | None:
        """Hole cards and board of an extension, or ``None`` if they are not valid or do not
        extend the previous ones. Usually the text is unchanged or adds board cards."""
        previous = self._state
        assert previous is not None
        known = self._cards_text
        previous_round = len(previous.betting) - 1
        if cards_text == known:
            # A new round always shows a new board group, if only an empty one.
            return (previous.hole_cards, previous.board) if text_round == previous_round else None
        if cards_text.startswith(known) and cards_text[len(known) : len(known) + 1] == "/":
            groups = cards_text[len(known) + 1 :].split("/")
            if len(groups) != text_round - previous_round:
                return None
            board = list(previous.board)
            seen = self._seen
            for round_, group in enumerate(groups, start=previous_round + 1):
                try:
                    cards = parse_card_group(group, "board cards")
                except MatchStateError:
                    return None
                if (
                    len(cards) != self._game.num_board_cards[round_]
                    or not seen.isdisjoint(cards)
                    or len(set(cards)) != len(cards)  # a card repeated within the group
                ):
                    return None
                seen.update(cards)
                board.append(cards)
            self._cards_text = cards_text
            return previous.hole_cards, tuple(board)
        board_text = known[known.find("/") :] if "/" in known else ""
        if text_round == previous_round and cards_text.endswith(board_text):
            # The same board: a showdown shows the other hands.
            holes_text = cards_text[: len(cards_text) - len(board_text)]
            hole_cards = self._revealed(holes_text, finished, text)
            if hole_cards is None:
                return None
            self._cards_text = cards_text
            return hole_cards, previous.board
        try:
            hole_cards, board_groups = parse_cards_field(cards_text, self._game, text_round + 1)
            check_hole_cards_view(hole_cards, previous.position, finished, text)
        except MatchStateError:
            return None
        if (
            hole_cards[previous.position] != previous.own_cards
            or board_groups[: len(previous.board)] != previous.board
        ):
            return None
        self._cards_text = cards_text
        return hole_cards, board_groups

    def _revealed(
        self, holes_text: str, finished: bool, text: str
    ) -> tuple[tuple[Card, ...], ...] | None:
        """The hole cards when only they changed (the board did not), or ``None``."""
        previous = self._state
        assert previous is not None
        position = previous.position
        try:
            hole_cards = parse_hole_cards(holes_text, self._game, text)
            check_hole_cards_view(hole_cards, position, finished, text)
        except MatchStateError:
            return None
        others = [c for p, cards in enumerate(hole_cards) if p != position for c in cards]
        if (
            hole_cards[position] != previous.own_cards
            or not self._seen.isdisjoint(others)
            or len(set(others)) != len(others)
        ):
            return None
        return hole_cards


class _Suffix(NamedTuple):
    """The actions a line adds to the betting."""

    groups: tuple[tuple[Action, ...], ...]
    """By round; the first group continues the previous round."""
    steps: tuple[tuple[int, Action], ...]
    """Each action with the index of its group (its round, counted from the previous)."""


def _suffix(groups: tuple[tuple[Action, ...], ...]) -> _Suffix:
    return _Suffix(groups, tuple((i, a) for i, actions in enumerate(groups) for a in actions))


_LIMIT_SUFFIXES: dict[str, _Suffix] = {}
"""Limit betting suffixes already read (a match repeats a handful: ``c``, ``r``, ``c/`` ...)."""


def _limit_suffix(text: str) -> _Suffix | None:
    """The actions of a limit betting suffix, or ``None`` if it does not parse."""
    known = _LIMIT_SUFFIXES.get(text)
    if known is not None:
        return known
    if not text:
        return None
    rounds: list[tuple[Action, ...]] = []
    current: list[Action] = []
    for char in text:
        if char == "/":
            rounds.append(tuple(current))
            current = []
            continue
        action = _LIMIT_ACTIONS.get(char)
        if action is None:
            return None
        current.append(action)
    rounds.append(tuple(current))
    suffix = _suffix(tuple(rounds))
    if len(_LIMIT_SUFFIXES) < 4096:  # bounded, whatever a dealer sends
        _LIMIT_SUFFIXES[text] = suffix
    return suffix


def _nolimit_suffix(text: str) -> _Suffix | None:
    """The actions of a no-limit betting suffix, or ``None`` if it does not parse."""
    if not text or text[0].isdigit():  # it would change the size of the previous raise
        return None
    try:
        return _suffix(parse_betting(text))
    except MatchStateError:
        return None


def final_values(state: MatchState, hand: HandState) -> tuple[float, ...]:
    """Chips won by each position in a finished hand; a showdown ranks the shown hands.

    Raises :class:`MatchStateError` for a showdown that does not show the hands needed.
    """
    if not hand.is_showdown:
        return hand.values()
    board = state.board_cards
    ranks = []
    for position, cards in enumerate(state.hole_cards):
        if hand.folded[position]:
            ranks.append(-1)
        elif not cards:
            raise MatchStateError(
                f"showdown without the hole cards of position {position}: {str(state)!r}"
            )
        else:
            # The plain-Python evaluator orders hands as the engine does, and the order is
            # all a showdown needs: a client process then loads no numba, whose import and
            # kernel cost more CPU than ranking tens of thousands of showdowns in Python.
            ranks.append(rank_hand_reference(cards + board))
    return hand.values(ranks)
