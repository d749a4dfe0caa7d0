"""In-process matches on acpcbot's dealer, their log lines kept in memory."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from acpcbot.game import LIMIT_HOLDEM, Game
from acpcbot.player import Player
from acpcbot.protocol.logfile import LogHeader
from dealer.referee.config import MatchConfig
from dealer.referee.inprocess import play_in_process
from dealer.referee.referee import Referee


class LogInMemory:
    """The log's lines, as the referee writes them."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def line(self, text: str) -> None:
        self.lines.append(text)

    def hand_done(self) -> None:
        pass

    def flush(self) -> None:
        pass


def play_match(game: Game, players: Sequence[Player], hands: int, seed: int) -> list[str]:
    """Play ``hands`` hands of ``players`` (seat order) on a dealer seeded ``seed``; the
    ``STATE`` and ``SCORE`` lines of the log."""
    names = tuple(f"p{seat}" for seat in range(len(players)))
    config = MatchConfig("test", game, "test.game", hands, seed, names)
    log = LogInMemory()
    play_in_process(Referee(config, log=log), players)
    return [line for line in log.lines if not line.startswith("#")]


def write_log(path: Path, game: Game, players: Sequence[Player], hands: int, seed: int) -> Path:
    """Play a match as :func:`play_match` does and write its ACPC log (header included,
    the bundled game named) to ``path``."""
    header = LogHeader("test", LIMIT_HOLDEM, hands, seed)
    lines = [*header.lines(), *play_match(game, players, hands, seed)]
    path.write_text("\n".join(lines) + "\n", encoding="latin-1")
    return path
