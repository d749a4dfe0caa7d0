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
from collections.abc import Sequence
from dataclasses import dataclass

from acpcbot.actions import Action
from acpcbot.cards import Card, parse_cards
from acpcbot.errors import AcpcError, MatchStateError
from acpcbot.game import Game
from acpcbot.protocol.matchstate import (
    Betting,
    format_betting,
    format_cards_field,
    parse_betting,
    parse_cards_field,
)
from acpcbot.rules import HandState, replay

_NUMBER_RE = re.compile(r"^-?\d+(?:\.\d+)?$", re.ASCII)
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


def _parse_number(text: str, line: str) -> float:
    if not _NUMBER_RE.match(text):
        raise MatchStateError(f"bad number {text!r} in {line[:120]!r}")
    return float(text)


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


def parse_state_line(text: str, game: Game | None = None) -> StateRecord:
    """Parse a ``STATE`` log line (no line ending).

    With ``game`` the betting is replayed under the rules and the cards are checked
    against it; without, the line is parsed syntactically (heads-up is assumed for the
    card groups).
    """
    if not text.startswith("STATE:"):
        raise MatchStateError(f"not a STATE line: {text[:120]!r}")
    fields = text.split(":")
    if len(fields) != 6:
        raise MatchStateError(f"STATE needs 6 fields: {text[:120]!r}")
    _, hand_text, betting_text, cards, values_text, names_text = fields
    if not _is_whole_number(hand_text):
        raise MatchStateError(f"bad hand number in {text[:120]!r}")
    betting = parse_betting(betting_text)
    names = tuple(names_text.split("|"))
    values = tuple(_parse_number(v, text) for v in values_text.split("|"))
    if len(values) != len(names):
        raise MatchStateError(f"{len(values)} values but {len(names)} names: {text[:120]!r}")
    if game is not None:
        try:
            replay(game, betting, int(hand_text))
        except AcpcError as exc:
            raise MatchStateError(f"illegal betting in {text[:120]!r}: {exc}") from None
        if len(names) != game.num_players:
            raise MatchStateError(f"need {game.num_players} players: {text[:120]!r}")
        holes, board = parse_cards_field(cards, game, len(betting))
    else:
        holes, board = _parse_cards_loosely(cards, len(names), text)
    return StateRecord(int(hand_text), betting, holes, board, values, names)


def parse_state_outcome(text: str) -> tuple[int, tuple[float, ...], tuple[str, ...]]:
    """The hand number, values and names of a ``STATE`` line, without reading its betting
    or cards (fast, for statistics over long logs).

    >>> parse_state_outcome("STATE:3:rrc/rc/rf:Ad3s|8d5d/2cAs8s/Tc:40|-40:Bob|Alice")
    (3, (40.0, -40.0), ('Bob', 'Alice'))
    """
    fields = text.split(":")
    if len(fields) != 6 or fields[0] != "STATE" or not _is_whole_number(fields[1]):
        raise MatchStateError(f"not a STATE line: {text[:120]!r}")
    values = tuple(_parse_number(v, text) for v in fields[4].split("|"))
    names = tuple(fields[5].split("|"))
    if len(values) != len(names):
        raise MatchStateError(f"{len(values)} values but {len(names)} names: {text[:120]!r}")
    return int(fields[1]), values, names


def _parse_cards_loosely(
    text: str, num_players: int, line: str
) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]]:
    groups = text.split("/")
    holes = groups[0].split("|")
    if len(holes) != num_players:
        raise MatchStateError(f"need {num_players} hole-card groups: {line[:120]!r}")
    try:
        return (
            tuple(parse_cards(h) for h in holes),
            ((), *(parse_cards(g) for g in groups[1:])),
        )
    except AcpcError as exc:
        raise MatchStateError(f"bad cards in {line[:120]!r}: {exc}") from None


def parse_score_line(text: str) -> ScoreRecord:
    """Parse the final ``SCORE:<totals by seat>:<names by seat>`` line."""
    fields = text.split(":")
    if len(fields) != 3 or fields[0] != "SCORE":
        raise MatchStateError(f"not a SCORE line: {text[:120]!r}")
    totals = tuple(_parse_number(v, text) for v in fields[1].split("|"))
    names = tuple(fields[2].split("|"))
    if len(totals) != len(names):
        raise MatchStateError(f"{len(totals)} totals but {len(names)} names: {text[:120]!r}")
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
