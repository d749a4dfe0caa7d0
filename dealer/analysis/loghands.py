"""Every hand of one or more logs with its game, streamed: for measures that replay the hands
(``acpcbot stats``, ``acpcbot infogain``).

A log's game is the one its header names (a file beside the log, here, or a bundled game:
:func:`dealer.analysis.logresults.game_named`), else (no header) the bundled heads-up limit
game; a game given instead is taken for a log whose header names none that can be read, and
refused for a log whose header names another. Every log must be of the first one's game.
Each log is read once, by :mod:`acpcbot.logreader` (every line checked); each hand is then
parsed under its game's rules; anything wrong is a
:class:`~acpcbot.logreader.LogError` naming the file and the line.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     log = Path(tmp) / "m.log"
...     _ = log.write_text("STATE:0:rf:9h6s|3d3h:10|-10:A|B\\n")
...     [(hand.number, hand.record.values) for hand in logged_hands([log])]
[(1, (10.0, -10.0))]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from acpcbot.errors import AcpcError, MatchStateError
from acpcbot.game import Game
from acpcbot.logreader import LogError, LogReader, open_log
from acpcbot.protocol.logfile import StateRecord
from acpcbot.protocol.matchstate import clip_line
from acpcbot.smallfile import shown_path
from dealer.analysis.logresults import game_named, headerless_game
from dealer.analysis.results import ResultsError

__all__ = ["LoggedHand", "logged_hands"]


@dataclass(frozen=True, slots=True)
class LoggedHand:
    """One hand of a log."""

    path: Path
    number: int
    """Its line number in the log."""
    game: Game
    record: StateRecord
    game_given: bool = False
    """Whether :attr:`game` is the one given for a log whose header names none (a hand
    that does not fit it may be of another game)."""

    @property
    def where(self) -> str:
        """The log and the line, for a message."""
        return f"{shown_path(self.path)}:{self.number}"

    def error(self, why: object) -> LogError:
        """Why this hand cannot be read: a one-line error naming the log and the line."""
        return LogError(_hand_error(self.where, why, given=self.game_given))


def logged_hands(
    paths: Sequence[Path],
    game: Game | None = None,
    *,
    advice: str = "give --game",
    rules: bool = True,
) -> Iterator[LoggedHand]:
    """The hands of the logs at ``paths``, in order (see the module); ``game``: the game
    given for them; ``advice`` ends the error for a game a header names that cannot be
    found. ``rules=False``: each hand parsed for its syntax only, not replayed under its
    game's rules, for a caller that replays it anyway (:meth:`LoggedHand.error` then says
    what is wrong with it)."""
    first: Game | None = None
    for path in paths:
        with open_log(path) as log:
            chosen = _game_of(log, path, game, advice)
            if first is None:
                first = chosen
            elif chosen != first:
                raise AcpcError(f"{log.where} is of another game than {shown_path(paths[0])}")
            given = game is not None and log.header is None
            parsed_under = chosen if rules else None
            for hand in log:
                try:
                    record = hand.record(parsed_under)
                except MatchStateError as exc:
                    where = f"{log.where}:{hand.number}"
                    raise LogError(_hand_error(where, exc, given=given)) from None
                yield LoggedHand(path, hand.number, chosen, record, given)
            if not log.hands:
                raise log.no_hands()


def _game_of(log: LogReader, path: Path, given: Game | None, advice: str) -> Game:
    """The game of the log ``log`` (at ``path``), the game ``given`` if any."""
    header = log.header
    if header is None:
        return given or headerless_game(shown_path(path), "--game")
    if given is None:
        return game_named(header.game_path, path, advice)
    try:
        named = game_named(header.game_path, path, advice)
    except ResultsError:
        return given  # a game the header names but that is not here: the one given is
    if named != given:
        game = clip_line(header.game_path, 80)
        raise LogError(
            f"{log.where} is a log of another game: its header names {game!r}, not the game given"
        )
    return named


def _hand_error(where: str, why: object, *, given: bool) -> str:
    """Why a hand does not parse or replay under its game: with a game given for a log whose
    header names none, perhaps because the log is of another game."""
    hint = " (not a hand of the game given: is the log of another game?)" if given else ""
    return f"{where}: {why}{hint}"
