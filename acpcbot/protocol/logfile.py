"""The ACPC match log format (``.log``): header, ``STATE`` lines, ``SCORE`` line.

Pure codec, no I/O. ``STATE`` values and names are in **position** order for that hand;
``SCORE`` totals and names are in **seat** order. Numbers are printed like the reference's
``%.6f`` with trailing zeros and a bare dot removed.

>>> record = parse_state_line("STATE:0:crrc/crc/rf:7d3d|2hAc/5sKs7s/9s:40|-40:Alice|Bob")
>>> record.values, record.names, str(record) == (
...     "STATE:0:crrc/crc/rf:7d3d|2hAc/5sKs7s/9s:40|-40:Alice|Bob")
((40.0, -40.0), ('Alice', 'Bob'), True)
>>> format_number(-7.5), format_number(40.0), format_number(0.0)
('-7.5', '40', '0')
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import NamedTuple, NoReturn

from acpcbot.actions import Action
from acpcbot.cards import NUM_CARDS, Card, card_text
from acpcbot.errors import AcpcError, MatchStateError
from acpcbot.game import MAX_PLAYERS, Game
from acpcbot.handeval import rank_hand, rank_hand_reference
from acpcbot.protocol.matchstate import (
    Betting,
    clip_line,
    format_betting,
    format_cards_field,
    parse_betting,
    parse_card_group,
    parse_cards_field,
)
from acpcbot.rules import HandState, replay

MAX_HAND_NUMBER = 2**32 - 1
"""The reference dealer's hand numbers are ``uint32``."""
MAX_CHIPS = 2**53
"""Most chips won or lost in one hand: beyond it a float no longer holds every whole chip."""
_VALUE_TOLERANCE = 1e-6
"""How far a value printed to six decimals may be from the chips it stands for (a pot split
three ways), with room for the float sums."""
_REFERENCE_SHOWDOWNS = 5_000
"""Showdowns a :class:`HandRules` ranks with the reference evaluator before it loads the numba
engine (unless numba is loaded already): loading numba takes as long as some tens of
thousands of showdowns ranked by the reference, so a log of a few thousand hands (a match's,
a replay on the page, the tests') never waits for it, and a large one loses a fraction of
the load."""
_REPLAYS_KEPT = 8192
"""Bettings whose replay is kept (a heads-up limit match has a few thousand distinct ones)."""

_MAX_CHIPS_DIGITS = len(str(MAX_CHIPS))
_HAND_RE = re.compile(rb"[0-9]{1,10}")
_ACTIONS = rb"(?:[fc]|r[0-9]{0,10})*"
_BETTING_RE = re.compile(_ACTIONS + rb"(?:/" + _ACTIONS + rb")*")
_CARDS = rb"(?:[2-9TJQKA][cdhs])*"
_CARDS_RE = re.compile(_CARDS + rb"(?:\|" + _CARDS + rb")*(?:/" + _CARDS + rb")*")
_NUMBER = rb"-?[0-9]+(?:\.[0-9]+)?"
_NUMBER_RE = re.compile(_NUMBER)
_STATE_RE = re.compile(
    rb"STATE:([0-9]{1,10}):(%s):((%s(?:\|%s){1,%d})(?:/%s)*):(%s(?:\|%s){1,%d}):([^:]*)"
    % (_BETTING_RE.pattern, _CARDS, _CARDS, MAX_PLAYERS - 1, _CARDS, _NUMBER, _NUMBER,
       MAX_PLAYERS - 1)
)  # fmt: skip
"""A whole ``STATE`` line in one match: hand number, betting, cards (and in them the hole
cards), values, names. Each part is bounded by a separator of its own, so matching takes
linear time."""
_HEADER_RE = re.compile(
    r"^# name/game/hands/seed +([^ ]+) +(.+?) +(\d{1,10}) +(\d{1,10}) *$", re.ASCII
)
"""The header's first line; the game file's name may hold spaces, the match name not."""


def _is_whole_number(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` alone takes ``²``, which ``int`` refuses), and no
    more than a 64-bit number has.

    >>> _is_whole_number("600000"), _is_whole_number("²"), _is_whole_number("9" * 21)
    (True, False, False)
    """
    return 0 < len(text) <= 20 and text.isascii() and text.isdigit()


_WHOLE_NUMBERS = {float(n): str(n) for n in range(-1000, 1001)}
"""The text of the small whole numbers that most values are (a dict look-up is the
fastest path; ``-0.0`` finds ``0.0``'s entry, as it should)."""


def format_number(value: float) -> str:
    """The reference's ``%.6f`` with trailing zeros and a trailing ``.`` stripped."""
    text = _WHOLE_NUMBERS.get(value)
    if text is not None:
        return text
    number = float(value)
    if number.is_integer():  # hot path: whole chips print as the integer itself
        return str(int(number))
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@dataclass(frozen=True, slots=True)
class StateRecord:
    """One finished hand as the dealer logs it."""

    hand_number: int
    betting: Betting
    hole_cards: tuple[tuple[Card, ...], ...]
    board: tuple[tuple[Card, ...], ...]
    values: tuple[float, ...]
    """Chips won by each position."""
    names: tuple[str, ...]
    """Player name at each position."""

    @property
    def board_cards(self) -> tuple[Card, ...]:
        """All board cards shown, flattened."""
        return tuple(c for group in self.board for c in group)

    def __str__(self) -> str:
        return format_state_line(self)

    def value_of(self, name: str) -> float:
        """Chips won in this hand by the player called ``name``."""
        return self.values[self.names.index(name)]


@dataclass(frozen=True, slots=True)
class ScoreRecord:
    """The final ``SCORE`` line: totals and names in seat order."""

    totals: tuple[float, ...]
    names: tuple[str, ...]

    def __str__(self) -> str:
        return format_score_line(self.totals, self.names)


@dataclass(frozen=True, slots=True)
class LogHeader:
    """The four ``#`` lines at the top of a log."""

    match_name: str
    game_path: str
    hands: int
    seed: int
    t_response: int = 600000
    t_hand: int = 600000
    t_per_hand: int = 7000

    def lines(self) -> list[str]:
        return [
            f"# name/game/hands/seed {self.match_name} {self.game_path} {self.hands} {self.seed}",
            f"#--t_response {self.t_response}",
            f"#--t_hand {self.t_hand}",
            f"#--t_per_hand {self.t_per_hand}",
        ]


def format_state_line(record: StateRecord) -> str:
    return state_line(
        record.hand_number,
        format_betting(record.betting),
        format_cards_field(record.hole_cards, record.board),
        record.values,
        "|".join(record.names),
    )


def state_line(
    hand_number: int, betting: str, cards: str, values: Sequence[float], names: str
) -> str:
    """A ``STATE`` line from its fields already printed (``names`` joined by ``|``): the
    dealer's fast path, which keeps the betting and cards as text.

    >>> state_line(3, "rf", "Ad3s|8d5d", (10.0, -10.0), "Bob|Alice")
    'STATE:3:rf:Ad3s|8d5d:10|-10:Bob|Alice'
    """
    return f"STATE:{hand_number}:{betting}:{cards}:{'|'.join(map(format_number, values))}:{names}"


def format_score_line(totals: Sequence[float], names: Sequence[str]) -> str:
    return f"SCORE:{'|'.join(format_number(t) for t in totals)}:{'|'.join(names)}"


def parse_state_line(text: str | bytes, game: Game | None = None) -> StateRecord:
    """Parse a ``STATE`` log line (no line ending): :func:`state_fields`, then
    :func:`state_record`; an error quotes the start of the line.

    >>> record = parse_state_line("STATE:3:rf:Ad3s|8d5d:10|-10:Bob|Alice")
    >>> format_betting(record.betting), record.hole_cards, record.names
    ('rf', ((49, 7), (25, 13)), ('Bob', 'Alice'))
    >>> parse_state_line("STATE:3:rx:Ad3s|8d5d:10|-10:Bob|Alice")
    Traceback (most recent call last):
    ...
    acpcbot.errors.MatchStateError: bad betting 'rx': 'STATE:3:rx:Ad3s|8d5d:10|-10:Bob|Alice'
    """
    data = _line_bytes(text)
    try:
        return state_record(state_fields(data), game)
    except MatchStateError as exc:
        raise MatchStateError(f"{exc}: {_excerpt(data, 120)}") from None


class StateFields(NamedTuple):
    """A ``STATE`` line split into its fields (bytes, as in the file), each checked for its
    syntax and the counts checked to agree: what :func:`state_fields` reads."""

    hand_number: int
    betting: bytes
    cards: bytes
    holes: bytes
    """The hole-card groups (the cards before the first ``/``)."""
    values: tuple[float, ...]
    names: bytes
    """The names field, ``|``-separated (:func:`state_names` reads it)."""


_new_fields = partial(tuple.__new__, StateFields)
"""``StateFields(...)`` without the Python-level ``__new__`` (a hand of every log passes)."""


def state_fields(line: bytes) -> StateFields:
    """The one parser of ``STATE`` lines: ``line`` (no line ending) split into its fields,
    each checked for its syntax (the betting and the cards are not replayed), or a
    :class:`MatchStateError` saying what is wrong, field by field.

    The hand number is an ASCII whole number up to the reference's 2^32 - 1; each value an
    ASCII decimal of at most :data:`MAX_CHIPS` chips; there are as many hole-card groups
    and names as values (2 .. :data:`~acpcbot.game.MAX_PLAYERS`).

    >>> fields = state_fields(b"STATE:3:rf:Ad3s|8d5d/2cAs8s:10|-10:Bob|Alice")
    >>> fields.hand_number, fields.holes, fields.values, fields.names
    (3, b'Ad3s|8d5d', (10.0, -10.0), b'Bob|Alice')
    >>> state_fields(b"STATE:3:rf:Ad3s|8d5d:10|-1e3:Bob|Alice")
    Traceback (most recent call last):
    ...
    acpcbot.errors.MatchStateError: the value '-1e3' is not a decimal number
    """
    match = _STATE_RE.fullmatch(line)
    if match is None:  # the slow path only says what is wrong
        _not_a_state_line(line)
    hand_text, betting, cards, holes, values_text, names = match.groups()
    hand = int(hand_text)
    if hand > MAX_HAND_NUMBER:
        raise MatchStateError(f"the hand number {hand} is not 0 .. {MAX_HAND_NUMBER}")
    values = tuple(map(float, values_text.split(b"|")))
    # Under 16 characters every value has fewer digits than 2**53 (the usual line: fast).
    if len(values_text) >= _MAX_CHIPS_DIGITS and (
        max(values) > MAX_CHIPS or min(values) < -MAX_CHIPS
    ):
        raise MatchStateError(f"a value beyond {MAX_CHIPS} chips: {_excerpt(values_text)}")
    players = len(values)
    if holes.count(b"|") + 1 != players:
        raise MatchStateError(f"{holes.count(b'|') + 1} hole-card groups for {players} values")
    if names.count(b"|") + 1 != players:
        raise MatchStateError(f"{players} values but {names.count(b'|') + 1} names")
    return _new_fields((hand, betting, cards, holes, values, names))


def state_names(field: bytes) -> tuple[str, ...]:
    """The player names of a names field (``STATE`` or ``SCORE``): read as UTF-8 when they
    are valid UTF-8, else as Latin-1 (so any name prints as it was written); each one
    non-empty and printable, no two alike.

    >>> state_names(b"Bob|Alice"), state_names("Zoë|Ana".encode("latin-1"))
    (('Bob', 'Alice'), ('Zoë', 'Ana'))
    """
    names = tuple(_text(field).split("|"))
    for name in names:
        if not name:
            raise MatchStateError("an empty player name")
        if not name.isprintable():
            raise MatchStateError(
                f"a player name with a control character: {clip_line(name, 60)!r}"
            )
    if len(set(names)) != len(names):
        raise MatchStateError(f"two players of one name: {clip_line('|'.join(names), 60)!r}")
    return names


def check_fields(fields: StateFields) -> None:
    """Raise :class:`MatchStateError` for what no hand of any game holds: a card dealt twice,
    or values that do not sum to zero (the pot is shared out whole; each value is printed to
    six decimals, so they may miss zero by half a millionth each).

    >>> check_fields(state_fields(b"STATE:0:rc/cc:7d7d|2hAc/5sKs7s:20|-20:A|B"))
    Traceback (most recent call last):
    ...
    acpcbot.errors.MatchStateError: 7d is dealt twice: '7d7d|2hAc/5sKs7s'
    >>> check_fields(state_fields(b"STATE:0:rf:7d3d|2hAc:10|10:A|B"))
    Traceback (most recent call last):
    ...
    acpcbot.errors.MatchStateError: the values 10|10 do not sum to zero
    """
    values = fields.values
    if abs(sum(values)) > _VALUE_TOLERANCE * len(values):
        text = "|".join(map(format_number, values))
        raise MatchStateError(f"the values {clip_line(text, 80)} do not sum to zero")
    shown = fields.cards.translate(None, b"|/")
    count = len(shown) >> 1
    if len(set(map(shown.__getitem__, _CARD_SLICES[:count]))) != count:
        cards = [shown[i : i + 2] for i in range(0, len(shown), 2)]
        twice = next(card for i, card in enumerate(cards) if card in cards[:i])
        raise MatchStateError(f"{twice.decode()} is dealt twice: {_excerpt(fields.cards)}")


def state_record(
    fields: StateFields, game: Game | None = None, names: tuple[str, ...] | None = None
) -> StateRecord:
    """The hand of a ``STATE`` line's fields. With ``game`` it is checked under the rules
    first (:meth:`HandRules.check`: its betting, its cards, its values); without, its cards
    are parsed syntactically (one group of hole cards per player). ``names``: the names
    field already read by :func:`state_names`.

    >>> from acpcbot.game import bundled_game
    >>> state_record(state_fields(b"STATE:0:rf:7d3d|2hAc:-10|10:A|B"), bundled_game()).values
    (-10.0, 10.0)
    """
    if names is None:
        names = state_names(fields.names)
    if game is not None:
        betting = _rules_of(game).check(fields)
    else:
        betting = parse_betting(fields.betting.decode("ascii"))
    # The cards are canonical (state_fields checked them): a look-up per card.
    groups = fields.cards.decode("ascii").split("/")
    holes = tuple([parse_card_group(h, "hole cards") for h in groups[0].split("|")])
    board = ((), *[parse_card_group(g, "board cards") for g in groups[1:]])
    return StateRecord(fields.hand_number, betting, holes, board, fields.values, names)


class HandRules:
    """The rules of ``game`` applied to the hands of its logs (:meth:`check`), at the pace
    of reading them: each betting is replayed once (a match repeats a few thousand), each
    number of rounds shown has its layout of the cards field, and only a showdown's values
    need the hands the cards make.

    >>> from acpcbot.game import bundled_game
    >>> rules = HandRules(bundled_game())
    >>> rules.check(state_fields(b"STATE:0:rf:7d3d|2hAc:10|-10:A|B"))
    Traceback (most recent call last):
    ...
    acpcbot.errors.MatchStateError: the values 10|-10, where the betting gives -10|10
    >>> rules.check(state_fields(b"STATE:0:rrrrf:7d3d|2hAc:30|-30:A|B"))
    Traceback (most recent call last):
    ...
    acpcbot.errors.MatchStateError: illegal betting: hand 0: raise not allowed (cap reached \
or nobody left to call): r
    """

    __slots__ = ("_bettings", "_layouts", "_rank", "_reference_left", "game")

    def __init__(self, game: Game) -> None:
        self.game = game
        self._rank: Callable[[Sequence[Card]], int] | None = None
        """What ranks the hands of a showdown once the reference has ranked its share (numba,
        loaded then)."""
        self._reference_left = 0 if "numba" in sys.modules else _REFERENCE_SHOWDOWNS
        """Showdowns still to rank with the reference evaluator (the same order of hands)."""
        self._bettings: dict[bytes, _Played] = {}
        """Each betting seen (legal, ending the hand), replayed."""
        self._layouts: dict[int, re.Pattern[bytes]] = {}
        """The cards field of a hand that shows each number of rounds."""

    def check(self, fields: StateFields) -> Betting:
        """Raise :class:`MatchStateError` unless the hand of ``fields`` is one the rules
        play: its betting legal (the cap on raises, say) and ending the hand, the cards of
        the rounds it shows, the values what the betting and (at a showdown) the hands the
        cards make give (unless a showing player's cards are not in the log: then who won
        cannot be told). Returns the betting, parsed."""
        played = self._bettings.get(fields.betting) or self._replayed(fields)
        values = fields.values
        if len(values) != self.game.num_players:
            raise MatchStateError(f"{len(values)} players, the game has {self.game.num_players}")
        if played.layout.fullmatch(fields.cards) is None:  # parsing says what is wrong
            parse_cards_field(fields.cards.decode("ascii"), self.game, len(played.betting))
        given = played.values
        if given is None:
            given = self._showdown(fields, played.hand)
            if given is None:
                return played.betting
        if values != given and not all(map(_close, values, given)):
            ours, theirs = ("|".join(map(format_number, v)) for v in (values, given))
            what = "the betting gives" if played.values else "the cards and the betting give"
            raise MatchStateError(f"the values {clip_line(ours, 80)}, where {what} {theirs}")
        return played.betting

    def _replayed(self, fields: StateFields) -> _Played:
        """The betting of the hand ``fields``, replayed (kept for the next hands)."""
        betting = parse_betting(fields.betting.decode("ascii"))
        try:
            hand = replay(self.game, betting, fields.hand_number)
        except AcpcError as exc:
            raise MatchStateError(f"illegal betting: {exc}") from None
        if not hand.finished:
            raise MatchStateError(f"the betting {_excerpt(fields.betting)} does not end the hand")
        rounds = len(betting)
        layout = self._layouts.get(rounds) or self._layout(rounds)
        values = None if hand.is_showdown else hand.values()
        if len(self._bettings) >= _REPLAYS_KEPT:
            self._bettings.clear()  # (memory stays bounded whatever a log holds)
        played = self._bettings[fields.betting] = _Played(betting, hand, layout, values)
        return played

    def _layout(self, rounds: int) -> re.Pattern[bytes]:
        """The cards field of a hand that shows ``rounds`` rounds: each player's hole cards
        (or none, hidden), then each later round's board cards."""
        game = self.game
        hole = rb"(?:%s){%d}" % (_CARD, game.num_hole_cards)
        holes = rb"\|".join([rb"(?:%s)?" % hole] * game.num_players)
        board = b"".join(rb"/(?:%s){%d}" % (_CARD, n) for n in game.num_board_cards[1:rounds])
        layout = self._layouts[rounds] = re.compile(holes + board)
        return layout

    def _showdown(self, fields: StateFields, hand: HandState) -> tuple[float, ...] | None:
        """What a showdown gives each position, by the hands its cards make (``None`` when
        a showing player's cards are not in the log)."""
        # Every hand of one showdown by the same evaluator: their values are compared.
        rank: Callable[[Sequence[Card]], int]
        if self._reference_left:
            self._reference_left -= 1
            rank = rank_hand_reference
        else:
            if self._rank is None:
                self._rank = _ranker(self.game)
            rank = self._rank
        holes = fields.holes.split(b"|")
        board = fields.cards[len(fields.holes) + 1 :].replace(b"/", b"")
        ranks = [0] * len(holes)
        for position, hole in enumerate(holes):
            if hand.folded[position]:
                continue
            if not hole:
                return None
            shown = hole + board
            ranks[position] = rank(
                list(
                    map(_CODES.__getitem__, map(shown.__getitem__, _CARD_SLICES[: len(shown) >> 1]))
                )
            )
        return hand.values(ranks)


class _Played(NamedTuple):
    """A betting replayed under the rules."""

    betting: Betting
    hand: HandState
    """The state it ends in (shared by every hand of this betting: read, never changed)."""
    layout: re.Pattern[bytes]
    """The cards field of a hand of this betting."""
    values: tuple[float, ...] | None
    """What each position wins when no showdown decides it."""


def _close(value: float, given: float) -> bool:
    """A value printed to six decimals, and the chips it stands for."""
    return abs(value - given) <= _VALUE_TOLERANCE


_CARD = rb"[2-9TJQKA][cdhs]"
_CODES = {card_text(code).encode("ascii"): code for code in range(NUM_CARDS)}
"""Each card's code, by its two characters."""
_CARD_SLICES = tuple(slice(i, i + 2) for i in range(0, 2 * NUM_CARDS, 2))
"""Where each card of a run of cards is (two characters each)."""


def _ranker(game: Game) -> Callable[[Sequence[Card]], int]:
    """What ranks a player's cards at a showdown of ``game``: the numba evaluator, without
    :func:`acpcbot.handeval.rank_hand`'s checks (the cards field was checked), for hold'em's
    hands of 5 to 7 cards."""
    size = game.num_hole_cards + sum(game.num_board_cards)
    if 5 <= size <= 7:
        from acpcbot.handeval.evaluator import rank_hand as ranked  # numba: when needed

        return ranked
    return rank_hand


@lru_cache(maxsize=16)
def _rules_of(game: Game) -> HandRules:
    """The rules of ``game`` for :func:`state_record` (replays kept across calls)."""
    return HandRules(game)


def _not_a_state_line(line: bytes) -> NoReturn:
    """Why ``line`` is not a ``STATE`` line of :data:`_STATE_RE`, field by field."""
    fields = line.split(b":")
    if fields[0] != b"STATE":
        raise MatchStateError("not a STATE line")
    if len(fields) != 6:
        raise MatchStateError(f"a STATE line has 6 fields, this one {len(fields)}")
    _, hand_text, betting, cards, values_text, _ = fields
    if not _HAND_RE.fullmatch(hand_text):
        raise MatchStateError(
            f"the hand number {_excerpt(hand_text)} is not 0 .. {MAX_HAND_NUMBER}"
        )
    if not _BETTING_RE.fullmatch(betting):
        raise MatchStateError(f"bad betting {_excerpt(betting)}")
    if not _CARDS_RE.fullmatch(cards):
        raise MatchStateError(f"bad cards {_excerpt(cards)}")
    texts = values_text.split(b"|")
    if not 2 <= len(texts) <= MAX_PLAYERS:
        raise MatchStateError(f"{len(texts)} values (a game has 2 .. {MAX_PLAYERS} players)")
    for text in texts:
        _number(text, "the value", MAX_CHIPS)
    groups = cards.split(b"/", 1)[0].count(b"|") + 1
    raise MatchStateError(f"{groups} hole-card groups for {len(texts)} values")


def _number(text: bytes, what: str, limit: float) -> float:
    if not _NUMBER_RE.fullmatch(text):
        raise MatchStateError(f"{what} {_excerpt(text)} is not a decimal number")
    value = float(text)  # a long run of digits is inf here, never an error
    if abs(value) > limit:
        raise MatchStateError(f"{what} {_excerpt(text)} is beyond {limit:.0f} chips")
    return value


def _excerpt(data: bytes, limit: int = 60) -> str:
    """The start of a field or line for a message, quoted, control characters escaped."""
    text = data[:limit].decode("latin-1")
    return repr(text + "...") if len(data) > limit else repr(text)


def _text(data: bytes) -> str:
    """UTF-8 if it is valid UTF-8, else Latin-1 (never fails)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _line_bytes(text: str | bytes) -> bytes:
    """A line given as text, as the bytes of a file (names in UTF-8)."""
    if isinstance(text, bytes):
        return text
    return text.encode("utf-8", "surrogateescape")


def parse_score_line(text: str | bytes) -> ScoreRecord:
    """Parse the final ``SCORE:<totals by seat>:<names by seat>`` line: each total an
    ASCII decimal (at most :data:`MAX_CHIPS` a hand for :data:`MAX_HAND_NUMBER` hands), the
    names as :func:`state_names` reads them, as many as totals.

    >>> parse_score_line("SCORE:2770|-2770:Alice|Bob")
    ScoreRecord(totals=(2770.0, -2770.0), names=('Alice', 'Bob'))
    """
    data = _line_bytes(text)
    fields = data.split(b":")
    if fields[0] != b"SCORE":
        raise MatchStateError("not a SCORE line")
    if len(fields) != 3:
        raise MatchStateError(f"a SCORE line has 3 fields, this one {len(fields)}")
    limit = MAX_CHIPS * MAX_HAND_NUMBER
    totals = tuple(_number(t, "the total", limit) for t in fields[1].split(b"|"))
    names = state_names(fields[2])
    if len(names) != len(totals):
        raise MatchStateError(f"{len(totals)} totals but {len(names)} names")
    return ScoreRecord(totals, names)


def parse_header(lines: Sequence[str]) -> LogHeader:
    """Parse the four ``#`` header lines of a log."""
    if len(lines) < 4:
        raise MatchStateError("a log header has four lines")
    first = _HEADER_RE.match(lines[0])
    if first is None:
        raise MatchStateError(f"bad log header line: {lines[0][:120]!r}")

    def option(line: str, name: str) -> int:
        value = line.removeprefix(f"#--{name} ").strip()
        if value == line or not _is_whole_number(value):
            raise MatchStateError(f"bad log header line: {line[:120]!r}")
        return int(value)

    return LogHeader(
        match_name=first.group(1),
        game_path=first.group(2),
        hands=int(first.group(3)),
        seed=int(first.group(4)),
        t_response=option(lines[1], "t_response"),
        t_hand=option(lines[2], "t_hand"),
        t_per_hand=option(lines[3], "t_per_hand"),
    )


def record_of(
    hand: HandState,
    deal_holes: tuple[tuple[Card, ...], ...],
    board: tuple[tuple[Card, ...], ...],
    values: Sequence[float],
    names: Sequence[str],
) -> StateRecord:
    """The log record of a finished hand (all hole cards are logged, even after a fold)."""
    betting: tuple[tuple[Action, ...], ...] = tuple([tuple(r) for r in hand.actions])
    return StateRecord(hand.hand_number, betting, deal_holes, board, tuple(values), tuple(names))
