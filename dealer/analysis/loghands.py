"""Every hand of one or more logs with its game, streamed: for measures that replay the hands
(``acpcbot stats``, ``acpcbot infogain``).

A log's game is :func:`acpcbot.logreader.game_of_log`'s (the game file its header names,
beside the log or bundled; without a header, heads-up limit hold'em); a game given instead is
taken for a log without a header or whose header names none that can be read, and refused for
a log whose header names another. Every log must be of the first one's game.
Each log is read once, by :mod:`acpcbot.logreader`, every hand checked under its game's
rules (its betting, its cards, its values); anything wrong is a
:class:`~acpcbot.logreader.LogError` naming the file and the line.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     log = Path(tmp) / "m.log"
...     _ = log.write_text("STATE:0:rf:9h6s|3d3h:-10|10:A|B\\n")
...     [(hand.number, hand.record.values) for hand in logged_hands([log])]
[(1, (-10.0, 10.0))]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from acpcbot.errors import AcpcError
from acpcbot.game import Game
from acpcbot.logreader import IllegalHandError, LogError, game_of_log, open_log
from acpcbot.protocol.logfile import LogHeader, StateRecord
from acpcbot.protocol.matchstate import clip_line
from acpcbot.smallfile import shown_path
from dealer.analysis.logresults import notice_headerless

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
        return LogError(_hand_error(f"{self.where}: {why}", given=self.game_given))


def logged_hands(
    paths: Sequence[Path], game: Game | None = None, *, advice: str = "give --game"
) -> Iterator[LoggedHand]:
    """The hands of the logs at ``paths``, in order (see the module); ``game``: the game
    given for them; ``advice`` ends the error for a game a header names that cannot be
    found."""
    first: Game | None = None
    for path in paths:
        choice = _GameChoice(shown_path(path), path, game, advice)
        try:
            with open_log(path, game_of=choice) as log:
                for hand in log:  # (each checked under its game's rules as it is read)
                    chosen = log.game
                    assert chosen is not None
                    if first is None:
                        first = chosen
                    elif chosen != first:
                        raise AcpcError(
                            f"{choice.where} is of another game than {shown_path(paths[0])}"
                        )
                    yield LoggedHand(path, hand.number, chosen, hand.record(), choice.given)
                if not log.hands:
                    raise log.no_hands()
        except IllegalHandError as exc:
            raise LogError(_hand_error(str(exc), given=choice.given)) from None


@dataclass
class _GameChoice:
    """The game of the log at ``path`` (shown as ``where``), from its header: the game
    ``given`` if any, the one its header names, else (no header) the bundled game."""

    where: str
    path: Path
    given_game: Game | None
    advice: str
    given: bool = False
    """Whether the game is the one given, for a log whose header names none."""

    def __call__(self, header: LogHeader | None) -> Game:
        self.given = self.given_game is not None and header is None
        return _game_of(self.where, self.path, self.given_game, self.advice, header)


def _game_of(
    where: str, path: Path, given: Game | None, advice: str, header: LogHeader | None
) -> Game:
    """The game of the log at ``path`` (shown as ``where``) whose header is ``header``, the
    game ``given`` if any."""
    if header is None:
        if given is None:
            notice_headerless(where, "--game")
        return given or game_of_log(path, header)
    if given is None:
        return game_of_log(path, header, advice=advice)
    try:
        named = game_of_log(path, header, advice=advice)
    except LogError:
        return given  # a game the header names but that is not here: the one given is
    if named != given:
        game = clip_line(header.game_path, 80)
        raise LogError(
            f"{where} is a log of another game: its header names {game!r}, not the game given"
        )
    return named


def _hand_error(why: str, *, given: bool) -> str:
    """Why a hand (``why``, where it is) does not replay under its game: with a game given
    for a log whose header names none, perhaps because the log is of another game."""
    hint = " (not a hand of the game given: is the log of another game?)" if given else ""
    return f"{why}{hint}"
