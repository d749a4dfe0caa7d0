"""The benchmark server's line protocol, as ``bm_server.c`` speaks it (pure: no I/O).

A client's first line logs on (``NAME PASSWORD``); then each line is a command, matched
case-insensitively by its *prefix* as the C's ``strncasecmp`` does (``helpme`` is ``HELP``):
``HELP``, ``GAMES``, ``QSTAT``, ``RUNMATCHES game #runs tag rngSeed player ...``, anything
else ``UNKNOWN``. The answers are the reference's bytes (lines end in ``\\n``). A
``RUNMATCHES`` is read the way the C's ``sscanf`` reads it (``2t1`` is 2 runs of tag ``t1``);
words after the players are our options (``DUPLICATE``, ``SINGLE``), which the C ignored.
Our own news for a client (a run that ended, a run lost while the server was down) goes in
``#`` comment lines, which ``bm_widget`` prints as they come.

The reference's later client, ``bm_run_matches``, says everything on its logon line:
``NAME PW games``, or ``NAME PW run 2pl SCRIPT RUNS TAG SEED P1 P2`` (``2pl``: limit hold'em
for two, ``2pn`` no-limit, ``3pl`` limit for three; ``local`` for its own bot), and ends when
it reads ``Matches finished`` (:func:`parse_batch`).

>>> parse_command(b"qstat please")
Command(kind=<CommandKind.QSTAT: 'QSTAT'>, rest=' please')
>>> games = {"holdem.limit.2p.reverse_blinds.game": OfferedGame(2, ("dpp", "plicas"), 10)}
>>> spec = parse_runmatches(" holdem.limit.2p.reverse_blinds.game 2t1 7 LOCAL dpp", games)
>>> spec.runs, spec.tag, spec.rng_seed, spec.players
(2, 't1', 7, ('LOCAL', 'dpp'))
>>> parse_runmatches(" holdem.limit.2p.reverse_blinds.game 2 a/b 7 LOCAL dpp", games)
>>> games_text([("g1", ("a", "b")), ("g2", ())])
b'\\ng2\\n\\ng1\\n b\\n a\\n'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from acpcbot.game import BettingType

__all__ = [
    "BAD_LOGON",
    "BAD_RUNMATCHES",
    "BATCH_GAMES",
    "HELP",
    "LOGON_OKAY",
    "MATCHES_FINISHED",
    "MAX_TAG_CHARS",
    "UNKNOWN",
    "Batch",
    "BatchKind",
    "Command",
    "CommandKind",
    "Logon",
    "MatchSpec",
    "MatchSpecError",
    "OfferedGame",
    "QueueEntry",
    "comment",
    "ended_text",
    "games_text",
    "match_spec",
    "parse_batch",
    "parse_command",
    "parse_logon",
    "parse_runmatches",
    "queue_text",
    "queued_text",
    "read_ended",
    "read_queued",
    "read_run",
    "running_text",
]

LOGON_OKAY = b"LOGON OKAY - type help for commands\n"
BAD_LOGON = b"BAD LOGON\n"
BAD_RUNMATCHES = b"BAD RUNMATCHES COMMAND\n"
UNKNOWN = b"UNKNOWN\n"
HELP = (
    b"HELP - this message\n"
    b"GAMES - list available games and players\n"
    b"QSTAT - show the current queue\n"
    b"RUNMATCHES game #runs tag rngSeed player ... - submit match request\n"
    b"  - Player order decides match seating\n"
    b'  - "LOCAL" player runs the bm_widget agent (bot_command)\n'
)
"""The reference's help, without the two stray bytes its C writes after the last line (it
writes that 58-byte line with a count of 60)."""

MATCHES_FINISHED = b"Matches finished\n"
"""What ``bm_run_matches`` ends on."""
QUEUE_EMPTY = b"Queue empty\n"
MAX_TAG_CHARS = 64
LOCAL = "LOCAL"

_TAG = re.compile(rf"[!-~]{{1,{MAX_TAG_CHARS}}}")
"""Printable ASCII without spaces (the C's ``%s`` reads up to white space)."""


class CommandKind(enum.Enum):
    HELP = "HELP"
    GAMES = "GAMES"
    QSTAT = "QSTAT"
    RUNMATCHES = "RUNMATCHES"
    UNKNOWN = "UNKNOWN"


_PREFIXES = (CommandKind.HELP, CommandKind.GAMES, CommandKind.QSTAT, CommandKind.RUNMATCHES)
"""In the C's order."""


@dataclass(frozen=True, slots=True)
class Command:
    kind: CommandKind
    rest: str
    """What follows the command's name (a ``RUNMATCHES``'s match spec)."""


@dataclass(frozen=True, slots=True)
class Logon:
    name: str
    password: str


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """A ``RUNMATCHES`` request as read."""

    game: str
    runs: int
    tag: str
    rng_seed: int
    players: tuple[str, ...]
    """By seat: ``LOCAL`` for the client's bot, else a house bot's name."""
    duplicate: bool | None = None
    """``DUPLICATE`` (true) or ``SINGLE`` (false) given; ``None``: the server's default."""

    @property
    def local_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, name in enumerate(self.players) if name == LOCAL)


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """A request as ``QSTAT`` shows it."""

    user: str
    tag: str
    game: str
    runs_left: int
    running: bool


def _text(line: bytes) -> str:
    return line.decode("latin-1")


def parse_logon(line: bytes) -> Logon | None:
    """The name and password of a logon line (``" %s %s"``), or ``None``.

    >>> parse_logon(b"  alice  s3cret extra"), parse_logon(b"alice")
    (Logon(name='alice', password='s3cret'), None)
    """
    words = _words(line)
    if len(words) < 2:
        return None
    return Logon(_text(words[0]), _text(words[1]))


BATCH_GAMES = {
    "2pl": (BettingType.LIMIT, 2),
    "2pn": (BettingType.NO_LIMIT, 2),
    "3pl": (BettingType.LIMIT, 3),
}
"""``bm_run_matches``' kinds of game: the betting and the players."""


class BatchKind(enum.Enum):
    GAMES = "games"
    RUN = "run"
    RERUN = "rerun"


@dataclass(frozen=True, slots=True)
class Batch:
    """What a ``bm_run_matches`` logon line asks for."""

    kind: BatchKind
    game: str = ""
    """The kind of game (``2pl``...), as given."""
    rest: str = ""
    """A run's ``RUNS TAG SEED PLAYER ...``, ``local`` written ``LOCAL``."""


def parse_batch(line: bytes) -> Batch | None:
    """What a logon line asks for after ``NAME PW`` (``bm_run_matches``' way), or ``None``
    for a logon alone (the reference's server ignores any other words after the password,
    and so do we).

    >>> parse_batch(b"neil pw run 2pl ./bot.sh 2 t1 7 local dpp")
    Batch(kind=<BatchKind.RUN: 'run'>, game='2pl', rest='2 t1 7 LOCAL dpp')
    >>> parse_batch(b"neil pw games").kind, parse_batch(b"neil pw"), parse_batch(b"neil pw x")
    (<BatchKind.GAMES: 'games'>, None, None)
    """
    words = [_text(w) for w in _words(line)[2:]]
    if not words:
        return None
    try:
        kind = BatchKind(words[0].lower())
    except ValueError:
        return None
    if kind is BatchKind.GAMES:
        return Batch(kind)
    game = words[1] if len(words) > 1 else ""
    rest = [LOCAL if w.lower() == "local" else w for w in words[3:]]  # (after the script)
    return Batch(kind, game, " ".join(rest))


def parse_command(line: bytes) -> Command:
    """Which command ``line`` is (a case-insensitive prefix, as the C matches it)."""
    for kind in _PREFIXES:
        size = len(kind.value)
        if line[:size].upper() == kind.value.encode():
            return Command(kind, _text(line[size:]))
    return Command(CommandKind.UNKNOWN, _text(line))


def _words(line: bytes) -> list[bytes]:
    """The words of a C string (it ends at its first NUL), split at C's white space."""
    return line.split(b"\0", 1)[0].split()


class _Scan:
    """``sscanf`` over a string: the few conversions ``parseMatchSpec`` uses."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def _skip(self) -> None:
        while self.at < len(self.text) and self.text[self.at] in " \t\n\v\f\r":
            self.at += 1

    def word(self) -> str | None:
        """``" %s"``."""
        self._skip()
        start = self.at
        while self.at < len(self.text) and self.text[self.at] not in " \t\n\v\f\r":
            self.at += 1
        return self.text[start : self.at] if self.at > start else None

    def number(self, *, signed: bool) -> int | None:
        """``" %d"`` or ``" %u"``: an optional sign, then at least one digit. A ``%u``
        with a minus sign is refused here (the C wraps it around)."""
        self._skip()
        match = re.compile(r"[+-]?[0-9]+").match(self.text, self.at)
        if match is None:
            return None
        self.at = match.end()
        value = int(match.group())
        if not signed and value < 0:
            return None
        return value


@dataclass(frozen=True, slots=True)
class OfferedGame:
    """A game as a ``RUNMATCHES`` may ask for it."""

    players: int
    bots: tuple[str, ...]
    max_runs: int


class MatchSpecError(ValueError):
    """A request the server does not take, and why (``RUNMATCHES`` answers only ``BAD
    RUNMATCHES COMMAND``; the HTTP API says why)."""


def match_spec(
    games: Mapping[str, OfferedGame],
    *,
    game: str,
    runs: int,
    tag: str,
    rng_seed: int,
    players: Sequence[str],
    duplicate: bool | None = None,
) -> MatchSpec:
    """The request, checked as the reference checks a ``RUNMATCHES`` (and as we do: see
    :func:`_good_tag`), whichever way it came; :class:`MatchSpecError` says what is wrong.

    >>> games = {"g.game": OfferedGame(2, ("dpp",), 10)}
    >>> match_spec(games, game="g.game", runs=11, tag="t1", rng_seed=7, players=["LOCAL", "dpp"])
    Traceback (most recent call last):
    dealer.benchmark.lineprotocol.MatchSpecError: runs: 0 to 10 for g.game
    """
    offered = games.get(game)
    if offered is None:
        raise MatchSpecError(f"game: not one of {', '.join(sorted(games))}")
    if not 0 <= runs <= offered.max_runs:
        raise MatchSpecError(f"runs: 0 to {offered.max_runs} for {game}")
    if not _good_tag(tag):
        raise MatchSpecError(
            f"tag: 1 to {MAX_TAG_CHARS} printable ASCII characters, without spaces, '/', "
            "'\\' or '..'"
        )
    if not 0 <= rng_seed < 2**32:
        raise MatchSpecError("seed: 0 to 4294967295 (0: the server draws one)")
    if len(players) != offered.players:
        raise MatchSpecError(f"players: one a seat, {offered.players} for {game}")
    for name in players:
        if name != LOCAL and name not in offered.bots:
            bots = ", ".join((LOCAL, *offered.bots))
            raise MatchSpecError(f"players: {name!r} is not one of {bots}")
    return MatchSpec(game, runs, tag, rng_seed, tuple(players), duplicate)


def parse_runmatches(rest: str, games: Mapping[str, OfferedGame]) -> MatchSpec | None:
    """The request in a ``RUNMATCHES`` line's ``rest``, or ``None`` when the reference
    refuses it (or when we do: a tag or option we do not take). ``games`` are the games
    offered, by file."""
    scan = _Scan(rest.split("\0", maxsplit=1)[0])  # a C string ends at its first NUL
    game = scan.word()
    if game is None or game not in games:
        return None
    runs = scan.number(signed=True)
    tag = scan.word() if runs is not None else None
    seed = scan.number(signed=False) if tag is not None else None
    if runs is None or tag is None or seed is None:
        return None
    players: list[str] = []
    for _ in range(games[game].players):
        name = scan.word()
        if name is None:
            return None
        players.append(name)
    duplicate: bool | None = None
    while (option := scan.word()) is not None:
        if option.upper() == "DUPLICATE":
            duplicate = True
        elif option.upper() == "SINGLE":
            duplicate = False
        else:
            return None
    try:
        return match_spec(
            games, game=game, runs=runs, tag=tag, rng_seed=seed, players=players,
            duplicate=duplicate,
        )  # fmt: skip
    except MatchSpecError:
        return None


def _good_tag(tag: str) -> bool:
    """A tag names files: no ``/`` (the C's one check), no ``\\``, no ``..``, printable
    ASCII, at most :data:`MAX_TAG_CHARS` characters."""
    return bool(_TAG.fullmatch(tag)) and "/" not in tag and "\\" not in tag and ".." not in tag


def games_text(games: Sequence[tuple[str, Sequence[str]]]) -> bytes:
    """``GAMES``' answer: each game's file and its bots, listed as the C lists them (its
    lists are built by adding at the head, so the last game configured comes first, and
    the last bot of a game first)."""
    out = []
    for file, bots in reversed(games):
        out.append(f"\n{file}\n")
        out.extend(f" {bot}\n" for bot in reversed(bots))
    return "".join(out).encode("latin-1")


def queue_text(entries: Sequence[QueueEntry]) -> bytes:
    """``QSTAT``'s answer, ``entries`` in the order they were queued (shown newest first,
    as the C shows them).

    >>> queue_text([QueueEntry("neil", "t1", "g.game", 2, True)])
    b'neil t1 g.game * 2 R\\n'
    """
    if not entries:
        return QUEUE_EMPTY
    return "".join(
        f"{e.user} {e.tag} {e.game} * {e.runs_left} {'R' if e.running else 'Q'}\n"
        for e in reversed(entries)
    ).encode("latin-1")


def running_text(job_tag: str, host: str, port: int) -> bytes:
    """What a client is sent to start its bot on a run: ``# RUNNING USER.TAG`` and
    ``RUN HOST PORT``.

    >>> running_text("neil.t1", "127.0.0.1", 40001)
    b'# RUNNING neil.t1\\nRUN 127.0.0.1 40001\\n'
    """
    return f"# RUNNING {job_tag}\nRUN {host} {port}\n".encode("latin-1")


def queued_text(job_tag: str, runs: int) -> bytes:
    """Our word that a request was queued (the reference says nothing): ``# QUEUED
    USER.TAG N runs``, each of which ends in an ``# ENDED`` line (:func:`ended_text`).

    >>> queued_text("neil.t1", 4)
    b'# QUEUED neil.t1 4 runs\\n'
    """
    return comment(f"QUEUED {job_tag} {runs} run{'s' if runs != 1 else ''}")


def ended_text(match_name: str, status: str, hands: int, why: str | None = None) -> bytes:
    """Our word that a run ended: ``# ENDED USER.TAG.rN STATUS N hands[: why]``.

    >>> ended_text("neil.t1.r2", "failed", 12, "seat 1 (neil) disconnected")
    b'# ENDED neil.t1.r2 failed 12 hands: seat 1 (neil) disconnected\\n'
    """
    text = f"ENDED {match_name} {status} {hands} hand{'s' if hands != 1 else ''}"
    return comment(f"{text}: {why}" if why else text)


_QUEUED = re.compile(r"# QUEUED (\S+) (\d+) runs?$")
_ENDED = re.compile(r"# ENDED (\S+) (\S+) (\d+) hands?(?:: (.*))?$")


def read_queued(line: str) -> tuple[str, int] | None:
    """The job tag and runs of a :func:`queued_text` line."""
    match = _QUEUED.match(line)
    return (match.group(1), int(match.group(2))) if match else None


def read_ended(line: str) -> tuple[str, str, int, str | None] | None:
    """The run, status, hands and error of an :func:`ended_text` line.

    >>> read_ended("# ENDED neil.t1.r2 finished 50 hands")
    ('neil.t1.r2', 'finished', 50, None)
    """
    match = _ENDED.match(line)
    if match is None:
        return None
    return match.group(1), match.group(2), int(match.group(3)), match.group(4)


def read_run(line: str) -> tuple[str, str] | None:
    """The host and port of a ``RUN HOST PORT`` line, read as ``bm_widget`` reads it (a
    case-insensitive ``run `` then the host up to the next space, the rest the port).

    >>> read_run("RUN 127.0.0.1 40001"), read_run("# RUNNING x")
    (('127.0.0.1', '40001'), None)
    """
    if line[:4].lower() != "run ":
        return None
    host, _, port = line[4:].partition(" ")
    return host, port


def comment(text: str) -> bytes:
    """A ``#`` line of news for a client (one line: line ends in ``text`` become spaces).

    >>> comment("run neil.t1.r1 failed:\\nno bot")
    b'# run neil.t1.r1 failed: no bot\\n'
    """
    flat = " ".join(text.splitlines())
    return f"# {flat}\n".encode()  # our own words (a ±, say): UTF-8, as terminals read
