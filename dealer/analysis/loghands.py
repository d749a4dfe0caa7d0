"""Every hand of one or more logs with its game, streamed: for measures that replay the hands
(``acpcbot infogain``).

A log's game is the one given, else the one its header names (a file beside the log, here,
or a bundled game: :func:`dealer.analysis.logresults.game_named`), else (no header) the
bundled heads-up limit game; every log must be of the first one's game. Each ``STATE`` line
is checked as :func:`dealer.analysis.playedlog.read_log` checks it, then parsed under its
game's rules; a bad one is a :class:`~dealer.analysis.playedlog.LogError` naming the file and
the line.

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

from acpcbot.errors import AcpcError
from acpcbot.game import Game, bundled_game
from acpcbot.protocol.logfile import LogHeader, StateRecord, parse_state_line
from acpcbot.smallfile import shown_path
from dealer.analysis.logresults import game_named
from dealer.analysis.playedlog import LogError, state_lines

__all__ = ["LoggedHand", "logged_hands"]


@dataclass(frozen=True, slots=True)
class LoggedHand:
    """One hand of a log."""

    path: Path
    number: int
    """Its line number in the log."""
    game: Game
    record: StateRecord

    @property
    def where(self) -> str:
        """The log and the line, for a message."""
        return f"{shown_path(self.path)}:{self.number}"


def logged_hands(
    paths: Sequence[Path], game: Game | None = None, *, advice: str = "give --game"
) -> Iterator[LoggedHand]:
    """The hands of the logs at ``paths``, in order (see the module); ``advice`` ends the
    error for a game a header names that cannot be found."""
    first: Game | None = None
    for path in paths:
        chosen = game
        for item in state_lines(path):
            if isinstance(item, LogHeader):
                if chosen is None:
                    chosen = game_named(item.game_path, path, advice)
                continue
            if chosen is None:
                chosen = bundled_game()
            if first is None:
                first = chosen
            elif chosen != first:
                raise AcpcError(f"{shown_path(path)} is of another game than {paths[0]}")
            try:
                record = parse_state_line(item.text, chosen)
            except AcpcError as exc:
                raise LogError(f"{shown_path(path)}:{item.number}: {exc}") from None
            yield LoggedHand(path, item.number, chosen, record)
