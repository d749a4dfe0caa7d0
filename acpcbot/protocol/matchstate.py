"""Match states and their ACPC text codec (pure: no I/O).

``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` is what the dealer sends. Parsing checks
the state against the game's rules; printing a parsed state gives back the same bytes.

>>> from acpcbot.game import bundled_game
>>> game = bundled_game()
>>> state = parse_match_state("MATCHSTATE:0:0:crrc/:7d3d|/5sKs7s", game)
>>> state.position, state.hand_number, state.round, str(state)
(0, 0, 1, 'MATCHSTATE:0:0:crrc/:7d3d|/5sKs7s')
>>> state, hand = decode_match_state("MATCHSTATE:1:0:c:|2hAc", game)
>>> hand.current_player, hand.legal_action_types()
(0, (<ActionType.CALL: 'c'>, <ActionType.RAISE: 'r'>))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from acpcbot.actions import Action, ActionType, canonical_action, format_betting
from acpcbot.cards import NUM_CARDS, Card, card_text, cards_text
from acpcbot.deal import Deal
from acpcbot.errors import AcpcError, MatchStateError
from acpcbot.game import Game
from acpcbot.protocol.constants import MATCHSTATE_PREFIX
from acpcbot.rules import HandState, replay

__all__ = [
    "PREFIX",
    "Betting",
    "MatchState",
    "check_hole_cards_view",
    "clip_line",
    "decode_match_state",
    "format_betting",
    "format_cards_field",
    "format_match_state",
    "parse_betting",
    "parse_card_group",
    "parse_cards_field",
    "parse_hole_cards",
    "parse_match_state",
    "view_of",
]

Betting = tuple[tuple[Action, ...], ...]
"""Actions grouped by round; the last group is the current round (possibly empty)."""

PREFIX = MATCHSTATE_PREFIX
_ACTION_RE = re.compile(r"([fc])|r(0|[1-9][0-9]*)?")
_CANONICAL_CARDS = {card_text(code): code for code in range(NUM_CARDS)}
"""Cards as printed (rank ``2-9TJQKA``, suit ``cdhs``): the only spelling a dealer sends."""
_PAIRS = tuple(slice(i, i + 2) for i in range(0, 2 * NUM_CARDS, 2))
"""Where the cards of a group are (a group holds distinct cards, so at most 52)."""


@dataclass(frozen=True, slots=True)
class MatchState:
    """One player's view of one hand, as the dealer sends it."""

    position: int
    hand_number: int
    betting: Betting
    hole_cards: tuple[tuple[Card, ...], ...]
    """Hole cards by position; an empty tuple where the cards are hidden."""
    board: tuple[tuple[Card, ...], ...]
    """Board cards by round, one group per round shown (round 0 is usually empty)."""

    @property
    def round(self) -> int:
        """The current round, 0-based."""
        return len(self.betting) - 1

    @property
    def own_cards(self) -> tuple[Card, ...]:
        return self.hole_cards[self.position]

    @property
    def board_cards(self) -> tuple[Card, ...]:
        """All visible board cards, flattened."""
        return tuple(c for group in self.board for c in group)

    def betting_text(self) -> str:
        return format_betting(self.betting)

    def __str__(self) -> str:
        return format_match_state(self)


def parse_betting(text: str) -> Betting:
    """Syntactic parse of a betting string: canonical letters, optional raise-to sizes.

    >>> format_betting(parse_betting("cr300c/r900"))
    'cr300c/r900'
    """
    if not text:  # the first state of every hand
        return ((),)
    rounds: list[tuple[Action, ...]] = []
    for part in text.split("/"):
        actions: list[Action] = []
        pos = 0
        while pos < len(part):
            m = _ACTION_RE.match(part, pos)
            if m is None:
                raise MatchStateError(f"bad action {part[pos]!r} in betting {clip_line(text)!r}")
            if m.group(1) is not None:
                action = canonical_action(m.group(1))
                assert action is not None
            elif m.group(2) is not None:
                if len(m.group(2)) > _MOST_DIGITS:  # (int() refuses past 4,300 digits)
                    raise MatchStateError(f"a raise size too large in {clip_line(text)!r}")
                action = Action(ActionType.RAISE, int(m.group(2)))
                if action.size == 0:
                    raise MatchStateError(f"raise to 0 in betting {text!r}")
            else:
                action = Action(ActionType.RAISE)
            actions.append(action)
            pos = m.end()
        rounds.append(tuple(actions))
    return tuple(rounds)


def parse_card_group(text: str, what: str) -> tuple[Card, ...]:
    """Cards written canonically and back to back (``"5sKs7s"``); ``what`` names them in
    the error message.

    >>> parse_card_group("5sKs7s", "flop")
    (15, 47, 23)
    """
    # A look-up per two characters, looped in C (the client's hot path: every new board).
    if not text:  # another player's hidden hand
        return ()
    if len(text) == 2:  # the turn, the river
        card = _CANONICAL_CARDS.get(text)
        if card is None:
            raise MatchStateError(f"bad {what} {text!r}")
        return (card,)
    pairs, odd = divmod(len(text), 2)
    if odd or pairs > len(_PAIRS):
        raise MatchStateError(f"bad {what} {text!r}")
    cards = tuple(map(_CANONICAL_CARDS.get, map(text.__getitem__, _PAIRS[:pairs])))
    if None in cards:
        raise MatchStateError(f"bad {what} {text!r}")
    return cards  # type: ignore[return-value]  # no None in it


def parse_cards_field(
    text: str, game: Game, num_rounds_shown: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]]:
    """Split ``7d3d|2hAc/5sKs7s/9s`` into hole cards by position and board by round."""
    groups = text.split("/")
    if len(groups) != num_rounds_shown:
        raise MatchStateError(
            f"cards {text!r} show {len(groups)} round(s), the betting {num_rounds_shown}"
        )
    holes = parse_hole_cards(groups[0], game, text)
    shown = sum(map(len, holes))
    board: list[tuple[Card, ...]] = [()]
    for r, group in enumerate(groups[1:], start=1):
        cards = parse_card_group(group, "board cards")
        if len(cards) != game.num_board_cards[r]:
            raise MatchStateError(
                f"round {r + 1} board {group!r}: need {game.num_board_cards[r]} cards"
            )
        board.append(cards)
        shown += len(cards)
    if game.num_board_cards[0]:
        raise MatchStateError("games with preflop board cards are not supported")
    if len(set().union(*holes, *board)) != shown:
        raise MatchStateError(f"cards {text!r} repeat a card")
    return holes, tuple(board)


def parse_hole_cards(holes_text: str, game: Game, text: str) -> tuple[tuple[Card, ...], ...]:
    """The hole cards part of a cards field (``7d3d|2hAc``), by position: each group holds
    a hand or is empty. ``text`` is the whole field, for the error message.

    >>> from acpcbot.game import bundled_game
    >>> parse_hole_cards("|2hAc", bundled_game(), "|2hAc/5sKs7s")
    ((), (2, 48))
    """
    groups = holes_text.split("|")
    if len(groups) != game.num_players:
        raise MatchStateError(f"cards {text!r} need {game.num_players} hole-card groups")
    holes = []
    for group in groups:
        cards = parse_card_group(group, "hole cards")
        if cards and len(cards) != game.num_hole_cards:
            raise MatchStateError(f"hole cards {group!r}: need {game.num_hole_cards} cards")
        holes.append(cards)
    return tuple(holes)


def format_cards_field(
    hole_cards: tuple[tuple[Card, ...], ...], board: tuple[tuple[Card, ...], ...]
) -> str:
    holes = "|".join([cards_text(h) for h in hole_cards])
    return holes + "".join(["/" + cards_text(group) for group in board[1:]])


def decode_match_state(text: str, game: Game) -> tuple[MatchState, HandState]:
    """Parse a ``MATCHSTATE`` line (no line ending) and replay its betting under the rules.

    Raises :class:`MatchStateError` for anything the reference dealer could not have sent.
    """
    if not text.startswith(PREFIX):
        raise MatchStateError(f"not a MATCHSTATE line: {clip_line(text)!r}")
    fields = text[len(PREFIX) :].split(":")
    if len(fields) != 4:
        raise MatchStateError(f"MATCHSTATE needs 4 fields after the prefix: {clip_line(text)!r}")
    position_text, hand_text, betting_text, cards = fields
    position = _parse_uint(position_text, "position", text)
    hand_number = _parse_uint(hand_text, "hand number", text)
    if position >= game.num_players:
        raise MatchStateError(f"position {position} out of range: {clip_line(text)!r}")
    betting = parse_betting(betting_text)
    try:
        hand = replay(game, betting, hand_number)
    except AcpcError as exc:
        raise MatchStateError(f"illegal betting in {clip_line(text)!r}: {exc}") from None
    hole_cards, board = parse_cards_field(cards, game, len(betting))
    check_hole_cards_view(hole_cards, position, hand.finished, text)
    state = MatchState(position, hand_number, betting, hole_cards, board)
    return state, hand


def check_hole_cards_view(
    hole_cards: tuple[tuple[Card, ...], ...], position: int, finished: bool, text: str
) -> None:
    """Check what a viewer may see: always its own hole cards, others' only once the hand
    is over. ``text`` is the line, for the error message.

    >>> check_hole_cards_view(((), (1, 2)), 0, False, "MATCHSTATE:0:0::|2c2d")
    Traceback (most recent call last):
    acpcbot.errors.MatchStateError: the viewer's own hole cards are missing: 'MATCHSTATE:0:0::|2c2d'
    """
    if not hole_cards[position]:
        raise MatchStateError(f"the viewer's own hole cards are missing: {clip_line(text)!r}")
    if not finished and any(h for p, h in enumerate(hole_cards) if p != position):
        raise MatchStateError(f"opponent cards shown before the hand ended: {clip_line(text)!r}")


def parse_match_state(text: str, game: Game) -> MatchState:
    """Parse a ``MATCHSTATE`` line; see :func:`decode_match_state`."""
    return decode_match_state(text, game)[0]


def format_match_state(state: MatchState) -> str:
    """The ``MATCHSTATE`` line of a state, without line ending."""
    return (
        f"{PREFIX}{state.position}:{state.hand_number}:{format_betting(state.betting)}:"
        f"{format_cards_field(state.hole_cards, state.board)}"
    )


def view_of(hand: HandState, deal: Deal, position: int) -> MatchState:
    """What the player at ``position`` is shown (the reference's ``printPlayerHoleCards``):
    its own cards always, others' only after a showdown they took part in."""
    game = hand.game
    show_all = hand.is_showdown
    holes = tuple(
        cards if p == position or (show_all and not hand.folded[p]) else ()
        for p, cards in enumerate(deal.hole_cards)
    )
    return MatchState(
        position,
        hand.hand_number,
        tuple(tuple(r) for r in hand.actions),
        holes,
        deal.board_by_round(game, hand.round),
    )


_MOST_DIGITS = 20
"""More digits than any number of the protocol has (its numbers are 32-bit)."""


def _parse_uint(text: str, what: str, line: str) -> int:
    if (
        not text.isascii()
        or not text.isdigit()
        or len(text) > _MOST_DIGITS
        or text != str(int(text))
    ):
        raise MatchStateError(f"bad {what} {text!r} in {clip_line(line)!r}")
    return int(text)


def clip_line(text: str, limit: int = 120) -> str:
    """``text`` cut to ``limit`` characters for an error message.

    >>> clip_line("MATCHSTATE:" + "x" * 200, 15)
    'MATCHSTATE:xxxx...'
    """
    return text if len(text) <= limit else text[:limit] + "..."
