"""Reading a client's reply the way the reference dealer does (``readPlayerResponse``).

A reply is ``<the state it was sent>:<action>``. The reference reads it leniently, and so
does :func:`read_reply` by default:

* a line starting with ``#`` or ``;`` is a comment;
* the state part is parsed like ``readMatchState`` (aliases such as ``k``/``b`` in the
  betting, optional ``/`` and ``|`` separators, case-insensitive cards) and must equal the
  state that was sent in everything but the opponents' cards, else the line is skipped
  (``bad state format`` when it does not parse, ``un-requested`` when it is another state);
* the action is one character, any alias of ``f``/``c``/``r`` (plus a raise-to size in
  no-limit games); an unknown character is an invalid action, a missing ``:`` or no-limit
  size a bad action format; anything after the action is ignored.

Legality is not decided here: every action in the state part goes through
:class:`~acpcbot.rules.HandState`, and the caller repairs the reply's action with
:meth:`~acpcbot.rules.HandState.coerce`.

The common case, a client echoing the exact bytes it was sent, takes a fast path that gives
the same result as the full parse.

>>> from acpcbot.game import bundled_game
>>> from acpcbot.cards import parse_cards
>>> from acpcbot.deal import Deal
>>> from acpcbot.rules import HandState
>>> deal = Deal((parse_cards("7d3d"), parse_cards("2hAc")), parse_cards("5sKs7s9s6h"))
>>> request = Request(1, HandState(bundled_game()), deal, b"MATCHSTATE:1:0::|2hAc")
>>> read_reply(b"MATCHSTATE:1:0::|2hAc:r", True, request).action
Action(type=<ActionType.RAISE: 'r'>, size=0)
>>> read_reply(b"MATCHSTATE:1:0::2HaC|2hAc:K", True, request).action  # lenient, like the C
Action(type=<ActionType.CALL: 'c'>, size=0)
>>> read_reply(b"hello", True, request).kind
<ReplyKind.BAD_STATE: 'bad state format in response'>
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from acpcbot.actions import Action, ActionType, action_type_from_char, canonical_action
from acpcbot.cards import Card, card_from_text
from acpcbot.deal import Deal
from acpcbot.errors import AcpcError
from acpcbot.game import Game
from acpcbot.protocol.constants import COMMENT_STARTS, MATCHSTATE_PREFIX, VERSION_PREFIX
from acpcbot.rules import HandState

_C_SPACE = " \t\n\v\f\r"
_COLON = ord(":")
_ULONG_MAX = 2**64 - 1


class ReplyKind(enum.Enum):
    """What a line from the acting seat turned out to be; the value is the reference's
    warning for the lines it skips."""

    COMMENT = "comment"
    BAD_STATE = "bad state format in response"
    UNREQUESTED = "ignoring un-requested response"
    ACTION = "action"


@dataclass(frozen=True, slots=True)
class Reply:
    """One line from the acting seat, read."""

    kind: ReplyKind
    action: Action | None = None
    """For :attr:`ReplyKind.ACTION`: the action, ``None`` when it does not parse (a bad
    action format). An unknown action character is reported by :attr:`unknown`."""
    unknown: str = ""
    """The action character when it is not one the protocol knows (an invalid action)."""
    trailing: str = ""
    """What followed the action; the reference ignores it."""


class Request(NamedTuple):
    """What the dealer asked the acting seat: its state, as sent (a named tuple: the
    dealer makes one for every action)."""

    position: int
    hand: HandState
    deal: Deal
    sent: bytes
    """The state line as sent, without its line ending."""


COMMENT = Reply(ReplyKind.COMMENT)
BAD_STATE = Reply(ReplyKind.BAD_STATE)
UNREQUESTED = Reply(ReplyKind.UNREQUESTED)
_SIMPLE_REPLIES = {
    ord(char): Reply(ReplyKind.ACTION, canonical_action(kind.value))
    for char in "fFcCkKrRbB"
    if (kind := action_type_from_char(char)) is not None
}
"""Replies of one action letter, with the core's canonical actions (``CALL`` ...)."""


def read_reply(line: bytes, terminated: bool, request: Request) -> Reply:
    """Read one line (without its line ending) from the acting seat.

    ``terminated`` tells whether the line ended with ``\\n`` (it does not when it was cut at
    the reference's 4095-byte limit or the connection ended): the reference's parser sees
    the line ending and it can change the outcome.
    """
    sent = request.sent
    if line.startswith(sent) and line[len(sent) : len(sent) + 1] == b":":
        if request.hand.game.is_limit:
            simple = echoed_action(line, sent)
            if simple is not None:
                return simple
        return _read_action(line[len(sent) + 1 :].decode("latin-1"), request.hand.game)
    if line[:1] in COMMENT_STARTS:
        return COMMENT
    return _read_slowly(line.decode("latin-1"), terminated, request)


def echoed_action(line: bytes, sent: bytes) -> Reply | None:
    """The usual reply in a limit game, read at once: ``line`` is the state ``sent`` (as
    sent, without its line ending), ``:`` and one action letter (aliases included). ``None``
    for any other line: :func:`read_reply` reads it (and gives this same answer for these).

    >>> echoed_action(b"MATCHSTATE:1:0::|2hAc:k", b"MATCHSTATE:1:0::|2hAc").action
    Action(type=<ActionType.CALL: 'c'>, size=0)
    >>> echoed_action(b"MATCHSTATE:1:0::|2hAc:k ", b"MATCHSTATE:1:0::|2hAc") is None
    True
    """
    if len(line) == len(sent) + 2 and line[-2] == _COLON and line.startswith(sent):
        return _SIMPLE_REPLIES.get(line[-1])
    return None


def read_version(line: bytes) -> tuple[int, int, int] | None:
    """The numbers of a ``VERSION:<major>.<minor>.<revision>`` line, or ``None``, read like
    the reference's ``sscanf("VERSION:%u.%u.%u")`` (prefix exact, numbers C-style).

    >>> read_version(b"VERSION:2.0.0"), read_version(b"HELLO")
    ((2, 0, 0), None)
    """
    text = line.decode("latin-1")
    if not text.startswith(VERSION_PREFIX):
        return None
    numbers = []
    pos = len(VERSION_PREFIX)
    for index in range(3):
        if index:
            if text[pos : pos + 1] != ".":
                return None
            pos += 1
        scanned = _scan_unsigned(text, pos, 32)
        if scanned is None:
            return None
        value, pos = scanned
        numbers.append(value)
    return numbers[0], numbers[1], numbers[2]


def _read_action(text: str, game: Game) -> Reply:
    """``readAction`` on what follows the ``:``."""
    kind = action_type_from_char(text[:1])
    if kind is None:
        return Reply(ReplyKind.ACTION, None, unknown=text[:1] or "(nothing)", trailing=text[1:])
    if kind is ActionType.RAISE and not game.is_limit:
        scanned = _scan_int32(text, 1)
        if scanned is None:
            return Reply(ReplyKind.ACTION, None, trailing=text[1:])
        size, end = scanned
        return Reply(ReplyKind.ACTION, Action(kind, size), trailing=text[end:])
    return Reply(ReplyKind.ACTION, Action(kind), trailing=text[1:])


def _read_slowly(text: str, terminated: bool, request: Request) -> Reply:
    game = request.hand.game
    parsed = _read_match_state(text, terminated, game)
    if parsed is None:
        return BAD_STATE
    if not _equal_to_request(parsed, request):
        return UNREQUESTED
    end = parsed.end
    if text[end : end + 1] != ":":
        return Reply(ReplyKind.ACTION, None, trailing=text[end:])
    return _read_action(text[end + 1 :], game)


@dataclass(frozen=True, slots=True)
class _ParsedState:
    position: int
    hand: HandState
    holes: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    end: int
    """Where the state's text ends in the line."""


def _equal_to_request(parsed: _ParsedState, request: Request) -> bool:
    """``matchStatesEqual``: everything but the other positions' hole cards."""
    expected = request.hand
    hand = parsed.hand
    if parsed.position != request.position or hand.hand_number != expected.hand_number:
        return False
    if hand.round != expected.round or hand.actions != expected.actions:
        return False
    if parsed.board != request.deal.visible_board(expected.game, expected.round):
        return False
    return parsed.holes[parsed.position] == request.deal.hole_cards[parsed.position]


def _read_match_state(text: str, terminated: bool, game: Game) -> _ParsedState | None:
    """``readMatchState``: the state's fields and where it ends, or ``None``."""
    prefix = MATCHSTATE_PREFIX
    if not text.startswith(prefix):
        return None
    scanned = _scan_unsigned(text, len(prefix), 8)
    if scanned is None or scanned[0] >= game.num_players:
        return None
    position, pos = scanned
    if text[pos : pos + 1] != ":":
        return None
    scanned = _scan_unsigned(text, pos + 1, 32)
    if scanned is None:
        return None
    hand_number, pos = scanned
    if text[pos : pos + 1] != ":":
        return None
    hand = HandState(game, hand_number)
    pos = _read_betting(text, pos + 1, terminated, hand)
    if pos < 0:
        return None
    holes: list[tuple[Card, ...]] = []
    for player in range(game.num_players):
        if player and text[pos : pos + 1] == "|":
            pos += 1
        cards, pos = _read_cards(text, pos, game.num_hole_cards)
        if cards and len(cards) != game.num_hole_cards:
            return None
        holes.append(cards)
    board: list[Card] = []
    for round_ in range(hand.round + 1):
        if round_ and text[pos : pos + 1] == "/":
            pos += 1
        cards, pos = _read_cards(text, pos, game.num_board_cards[round_])
        if len(cards) != game.num_board_cards[round_]:
            return None
        board.extend(cards)
    return _ParsedState(position, hand, tuple(holes), tuple(board), pos)


def _read_betting(text: str, pos: int, terminated: bool, hand: HandState) -> int:
    """``readBetting``: apply the actions up to ``:``; returns where it stopped or -1."""
    game = hand.game
    while True:
        if pos >= len(text):
            # The reference reads the line ending as one more (invalid) action.
            return -1 if terminated else pos
        char = text[pos]
        if char == ":":
            return pos + 1
        if char == "/":
            pos += 1
            continue
        kind = action_type_from_char(char)
        if kind is None:
            return -1
        pos += 1
        action = Action(kind)
        if kind is ActionType.RAISE and not game.is_limit:
            scanned = _scan_int32(text, pos)
            if scanned is None:
                return -1
            size, pos = scanned
            action = Action(kind, size)
        try:
            hand.apply(action)
        except AcpcError:
            return -1


def _read_cards(text: str, pos: int, most: int) -> tuple[tuple[Card, ...], int]:
    """``readCards``: up to ``most`` two-character cards."""
    cards: list[Card] = []
    while len(cards) < most:
        try:
            cards.append(card_from_text(text[pos : pos + 2]))
        except AcpcError:
            break
        pos += 2
    return tuple(cards), pos


def _scan_unsigned(text: str, pos: int, bits: int) -> tuple[int, int] | None:
    """C ``%u``-style: spaces, a sign, digits; the value wraps to ``bits`` bits."""
    scanned = _scan_integer(text, pos)
    if scanned is None:
        return None
    value, end = scanned
    if value < 0:  # strtoul negates in unsigned arithmetic
        value = _ULONG_MAX if -value > _ULONG_MAX else (2**64 + value) % 2**64
    return min(value, _ULONG_MAX) % 2**bits, end


def _scan_int32(text: str, pos: int) -> tuple[int, int] | None:
    """C ``%d``-style for an ``int32_t``; out-of-range values saturate."""
    scanned = _scan_integer(text, pos)
    if scanned is None:
        return None
    value, end = scanned
    return max(-(2**31), min(2**31 - 1, value)), end


def _scan_integer(text: str, pos: int) -> tuple[int, int] | None:
    while pos < len(text) and text[pos] in _C_SPACE:
        pos += 1
    start = pos
    if pos < len(text) and text[pos] in "+-":
        pos += 1
    digits = pos
    while pos < len(text) and "0" <= text[pos] <= "9":
        pos += 1
    if pos == digits:
        return None
    sign = -1 if text[start] == "-" else 1
    significant = text[digits:pos].lstrip("0")
    if len(significant) > _SATURATED_DIGITS:  # C saturates; int() refuses 4,301 digits
        return sign * 10**_SATURATED_DIGITS, pos
    return sign * int(significant or "0"), pos


_SATURATED_DIGITS = 30
"""Digits past which a number is out of every C integer's range (2^64 has 20)."""
