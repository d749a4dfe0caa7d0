"""Game definitions: the ACPC ``.game`` format as an immutable value.

The parser reads every key the reference dealer reads (``game.c`` ``readGame``): keys are
case-insensitive, ``=`` is optional, ``#`` lines and blank lines are skipped and
``GAMEDEF`` / ``END GAMEDEF`` frame the definition. Unlike the reference, an unknown or
malformed line is an error that names the line instead of being ignored.

>>> game = bundled_game(LIMIT_HOLDEM)
>>> game.betting_type, game.blind, game.raise_size, game.max_raises
(<BettingType.LIMIT: 'limit'>, (10, 5), (10, 10, 20, 20), (3, 4, 4, 4))
>>> game.first_player  # stored 0-based: position 1 acts first preflop
(1, 0, 0, 0)
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from acpcbot.cards import NUM_RANKS, NUM_SUITS, Card, make_card
from acpcbot.errors import GameDefinitionError
from acpcbot.smallfile import FileRefusedError, read_small_file

MAX_ROUNDS = 4
MAX_PLAYERS = 10
MAX_HOLE_CARDS = 3
MAX_BOARD_CARDS = 7
MAX_SUITS = 4
MAX_RANKS = 13
INT32_MAX = 2**31 - 1
UNLIMITED_STACK = INT32_MAX
"""The reference's ``INT32_MAX``: a stack that never runs out (limit games)."""
UNLIMITED_RAISES = 255
"""The reference's ``UINT8_MAX``: no cap on raises in a round."""

LIMIT_HOLDEM = "holdem.limit.2p.reverse_blinds.game"
NOLIMIT_HOLDEM = "holdem.nolimit.2p.reverse_blinds.game"
BUNDLED_GAMES = (LIMIT_HOLDEM, NOLIMIT_HOLDEM)
HOLDEM_ROUNDS = ("preflop", "flop", "turn", "river")
"""Hold'em's betting rounds by name, in order (the first four of a game with more)."""


class BettingType(enum.Enum):
    """Fixed-size bets (``limit``) or sized bets (``nolimit``)."""

    LIMIT = "limit"
    NO_LIMIT = "nolimit"


_LIMIT = BettingType.LIMIT
"""A member as a module constant: reading it from the class costs ten times as much, and
every action of every hand asks (``Game.is_limit``)."""


@dataclass(frozen=True, slots=True)
class Game:
    """An immutable ACPC game definition. Per-player tuples are indexed by position."""

    betting_type: BettingType
    num_players: int
    num_rounds: int
    stack: tuple[int, ...]
    blind: tuple[int, ...]
    raise_size: tuple[int, ...]
    first_player: tuple[int, ...]
    """First position to act in each round, 0-based (the file is 1-based)."""
    max_raises: tuple[int, ...]
    num_suits: int
    num_ranks: int
    num_hole_cards: int
    num_board_cards: tuple[int, ...]

    @property
    def is_limit(self) -> bool:
        return self.betting_type is _LIMIT

    def board_start(self, round_: int) -> int:
        """Index of the first board card dealt in ``round_`` (``bcStart``)."""
        return sum(self.num_board_cards[:round_])

    def board_total(self, round_: int) -> int:
        """Number of board cards visible in ``round_`` (``sumBoardCards``)."""
        return sum(self.num_board_cards[: round_ + 1])

    def deck(self) -> tuple[Card, ...]:
        """The cards this game deals, in the reference dealer's order: suits outer, ranks
        inner, keeping only the highest ``numSuits`` suits and the highest ``numRanks``
        ranks (``game.c:662-664``): Leduc's six cards are the queens, kings and aces of
        hearts and spades.

        >>> from dataclasses import replace
        >>> from acpcbot.cards import cards_text
        >>> cards_text(replace(bundled_game(), num_ranks=3, num_suits=2).deck())
        'QhKhAhQsKsAs'
        """
        return _deck(self.num_suits, self.num_ranks)

    @property
    def big_blind(self) -> int:
        return max(self.blind)

    def to_text(self) -> str:
        """The definition in the reference's ``printGame`` layout."""
        lines = ["GAMEDEF", self.betting_type.value]
        lines.append(f"numPlayers = {self.num_players}")
        lines.append(f"numRounds = {self.num_rounds}")
        if any(s < UNLIMITED_STACK for s in self.stack):
            lines.append("stack =" + "".join(f" {s}" for s in self.stack))
        lines.append("blind =" + "".join(f" {b}" for b in self.blind))
        if self.is_limit:
            lines.append("raiseSize =" + "".join(f" {r}" for r in self.raise_size))
        if any(self.first_player):
            lines.append("firstPlayer =" + "".join(f" {p + 1}" for p in self.first_player))
        if any(m != UNLIMITED_RAISES for m in self.max_raises):
            lines.append("maxRaises =" + "".join(f" {m}" for m in self.max_raises))
        lines.append(f"numSuits = {self.num_suits}")
        lines.append(f"numRanks = {self.num_ranks}")
        lines.append(f"numHoleCards = {self.num_hole_cards}")
        lines.append("numBoardCards =" + "".join(f" {n}" for n in self.num_board_cards))
        lines.append("END GAMEDEF")
        return "\n".join(lines) + "\n"


# key -> (most values accepted, least values accepted)
_LIST_KEYS = {
    "stack": MAX_PLAYERS,
    "blind": MAX_PLAYERS,
    "raisesize": MAX_ROUNDS,
    "firstplayer": MAX_ROUNDS,
    "maxraises": MAX_ROUNDS,
    "numboardcards": MAX_ROUNDS,
}
_SCALAR_KEYS = ("numplayers", "numrounds", "numsuits", "numranks", "numholecards")
_FLAG_KEYS = ("limit", "nolimit", "gamedef")
_KEY_RE = re.compile(r"\s*([A-Za-z]+(?:\s+gamedef)?)\s*(.*)$", re.IGNORECASE)
_SEPARATOR_RE = re.compile(r"[\s=]+")
_INTEGER_RE = re.compile(r"[+-]?[0-9]+")
"""One value; values are separated by blanks or ``=`` (one pattern per value, not one for
the line: a nested repeat would take exponential time on a long run of digits)."""


def parse_game(text: str, source: str = "<string>") -> Game:
    """Parse the text of a ``.game`` file.

    ``source`` names the file in error messages.

    >>> parse_game("GAMEDEF\\nlimit\\nnumPlayers = 2\\nnumRounds = 1\\nblind = 2 1\\n"
    ...            "raiseSize = 2\\nnumSuits = 4\\nnumRanks = 13\\nnumHoleCards = 1\\n"
    ...            "numBoardCards = 0\\nEND GAMEDEF\\n").num_rounds
    1
    """
    values: dict[str, tuple[int, ...]] = {}
    betting = BettingType.LIMIT
    ended = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue

        def fail(why: str, number: int = number, line: str = line) -> GameDefinitionError:
            return GameDefinitionError(f"{source}:{number}: {why}: {line.strip()[:120]!r}")

        match = _KEY_RE.match(line)
        if match is None:
            raise fail("not a game definition line")
        key = " ".join(match.group(1).lower().split())
        rest = match.group(2)
        if key == "end gamedef":
            ended = True
            break
        if key in _FLAG_KEYS:
            if rest.strip():
                raise fail(f"unexpected text after {key!r}")
            if key == "limit":
                betting = BettingType.LIMIT
            elif key == "nolimit":
                betting = BettingType.NO_LIMIT
            continue
        if key not in _LIST_KEYS and key not in _SCALAR_KEYS:
            raise fail("unknown key")
        texts = [v for v in _SEPARATOR_RE.split(rest) if v]
        if not all(_INTEGER_RE.fullmatch(v) for v in texts):
            raise fail(f"malformed value for {key!r}")
        # The reference reads these into 32-bit ints; a longer number is not a game.
        if any(len(v.lstrip("+-")) > 10 or abs(int(v)) > INT32_MAX for v in texts):
            raise fail(f"a value of {key!r} beyond {INT32_MAX}")
        items = tuple(int(v) for v in texts)
        if not items:
            raise fail(f"no value for {key!r}")
        limit = _LIST_KEYS.get(key, 1)
        if len(items) > limit:
            raise fail(f"{key!r} takes at most {limit} value(s)")
        if key in values:
            raise fail(f"{key!r} given twice")
        values[key] = items
    if not ended and "end gamedef" in text.lower():  # pragma: no cover - defensive
        raise GameDefinitionError(f"{source}: malformed END GAMEDEF")
    return _build_game(values, betting, source)


def _build_game(values: dict[str, tuple[int, ...]], betting: BettingType, source: str) -> Game:
    def fail(why: str) -> GameDefinitionError:
        return GameDefinitionError(f"{source}: {why}")

    def scalar(key: str) -> int:
        if key not in values:
            raise fail(f"missing {key}")
        return values[key][0]

    num_rounds = scalar("numrounds")
    if not 1 <= num_rounds <= MAX_ROUNDS:
        raise fail(f"invalid number of rounds: {num_rounds}")
    num_players = scalar("numplayers")
    if not 2 <= num_players <= MAX_PLAYERS:
        raise fail(f"invalid number of players: {num_players}")

    def per_player(key: str, default: int | None) -> tuple[int, ...]:
        got = values.get(key, ())
        if len(got) < num_players:
            if default is None or got:
                raise fail(f"only read {len(got)} {key} values, need {num_players}")
            return (default,) * num_players
        return got[:num_players]

    def per_round(key: str, default: int | None) -> tuple[int, ...]:
        got = values.get(key, ())
        if len(got) < num_rounds:
            if default is None or got:
                raise fail(f"only read {len(got)} {key} values, need {num_rounds}")
            return (default,) * num_rounds
        return got[:num_rounds]

    stack = per_player("stack", UNLIMITED_STACK)
    blind = per_player("blind", None)
    for position, (b, s) in enumerate(zip(blind, stack, strict=True)):
        if b < 0 or b > s:
            raise fail(f"blind for player {position + 1} is negative or greater than its stack")
    if betting is BettingType.LIMIT:
        raise_size = per_round("raisesize", None)
        if any(r <= 0 for r in raise_size):
            raise fail("raise sizes must be positive")
    else:
        raise_size = per_round("raisesize", 0)
    first_player_1 = per_round("firstplayer", 1)
    if any(not 1 <= p <= num_players for p in first_player_1):
        raise fail(f"invalid first player in {first_player_1}")
    max_raises = per_round("maxraises", UNLIMITED_RAISES)
    if any(not 0 <= m <= UNLIMITED_RAISES for m in max_raises):
        raise fail(f"invalid maxRaises {max_raises}")
    num_suits = scalar("numsuits")
    if not 1 <= num_suits <= MAX_SUITS:
        raise fail(f"invalid number of suits: {num_suits}")
    num_ranks = scalar("numranks")
    if not 1 <= num_ranks <= MAX_RANKS:
        raise fail(f"invalid number of ranks: {num_ranks}")
    num_hole_cards = scalar("numholecards")
    if not 1 <= num_hole_cards <= MAX_HOLE_CARDS:
        raise fail(f"invalid number of hole cards: {num_hole_cards}")
    num_board_cards = per_round("numboardcards", None)
    if any(n < 0 for n in num_board_cards) or sum(num_board_cards) > MAX_BOARD_CARDS:
        raise fail(f"invalid numBoardCards {num_board_cards}")
    if num_hole_cards * num_players + sum(num_board_cards) > num_suits * num_ranks:
        raise fail("too many hole and board cards for specified deck")
    return Game(
        betting_type=betting,
        num_players=num_players,
        num_rounds=num_rounds,
        stack=stack,
        blind=blind,
        raise_size=raise_size,
        first_player=tuple(p - 1 for p in first_player_1),
        max_raises=max_raises,
        num_suits=num_suits,
        num_ranks=num_ranks,
        num_hole_cards=num_hole_cards,
        num_board_cards=num_board_cards,
    )


MAX_GAME_FILE_BYTES = 1 << 16
"""Game files are a few hundred bytes; anything beyond this is refused unread."""


def load_game(path: str | Path) -> Game:
    """Read a ``.game`` file, or a bundled game given by its file name."""
    p = Path(path)
    if not p.exists() and p.name == str(path) and p.name in BUNDLED_GAMES:
        return bundled_game(p.name)
    try:
        # A device or a FIFO would never end, a huge file would fill the memory.
        data = read_small_file(p, limit=MAX_GAME_FILE_BYTES)
    except FileRefusedError as exc:
        raise GameDefinitionError(f"{path}: {exc.why}") from None
    return parse_game(data.decode("latin-1"), source=str(path))


def bundled_game(name: str = LIMIT_HOLDEM) -> Game:
    """One of the game files shipped with acpcbot (see :data:`BUNDLED_GAMES`)."""
    if name not in BUNDLED_GAMES:
        raise GameDefinitionError(f"no bundled game {name!r}; bundled: {', '.join(BUNDLED_GAMES)}")
    text = resources.files("acpcbot").joinpath("games").joinpath(name).read_text(encoding="latin-1")
    return parse_game(text, source=name)


def bundled_game_path(name: str = LIMIT_HOLDEM) -> Path:
    """Filesystem path of a bundled game file (for tools that want a path)."""
    if name not in BUNDLED_GAMES:
        raise GameDefinitionError(f"no bundled game {name!r}")
    return Path(str(resources.files("acpcbot").joinpath("games").joinpath(name)))


@cache
def _deck(num_suits: int, num_ranks: int) -> tuple[Card, ...]:
    """:meth:`Game.deck`, built once per shape: a loop that deals a hand asks for it every
    hand."""
    return tuple(
        make_card(rank, suit)
        for suit in range(NUM_SUITS - num_suits, NUM_SUITS)
        for rank in range(NUM_RANKS - num_ranks, NUM_RANKS)
    )
