"""Shared helpers for the dealer tests: the corpus's deterministic matches and log files; the
page's browser (``browser``, ``page``)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from acpcbot.game import parse_game
from acpcbot.logreader import game_of_log
from acpcbot.protocol.logfile import parse_header, parse_score_line
from dealer.referee.config import MatchConfig
from dealer.referee.matchlog import MatchLog
from dealer.referee.referee import Referee
from tests.dealer.web.browser import browser, page  # noqa: F401  (fixtures: Chromium, a tab)


@dataclass(frozen=True)
class DeterministicMatch:
    """One file of ``logs/deterministic/`` and the policies that played it."""

    file: str
    seed: int
    names: tuple[str, str]
    policies: tuple[str, str]
    """The corpus's policy names (caller/raiser/hash)."""

    @property
    def match_name(self) -> str:
        return self.file.removesuffix(".log")

    @property
    def agents(self) -> tuple[str, str]:
        """Our agents for the policies."""
        ours = {"caller": "always-call", "raiser": "always-raise", "hash": "hash"}
        return (ours[self.policies[0]], ours[self.policies[1]])


DETERMINISTIC = (
    DeterministicMatch(
        "limit2p.seed42.n1000.Alice_hash-Bob_raiser.log", 42, ("Alice", "Bob"), ("hash", "raiser")
    ),
    DeterministicMatch(
        "limit2p.seed42.n1000.Bob_raiser-Alice_hash.log", 42, ("Bob", "Alice"), ("raiser", "hash")
    ),
    DeterministicMatch(
        "limit2p.seed1.n1000.Alice_caller-Bob_caller.log", 1, ("Alice", "Bob"), ("caller", "caller")
    ),
    DeterministicMatch(
        "limit2p.seed2026.n1000.Alice_hash-Bob_hash.log", 2026, ("Alice", "Bob"), ("hash", "hash")
    ),
)


def referee_for_log(path: Path, buffer: io.BytesIO) -> Referee:
    """An referee set up like the reference run that wrote ``path`` (header, seed, names),
    writing its own log to ``buffer``."""
    lines = path.read_text().splitlines()
    header = parse_header(lines[:4])
    config = MatchConfig(
        match_name=header.match_name,
        game=game_of_log(path, header),
        game_path=header.game_path,
        hands=header.hands,
        seed=header.seed,
        names=parse_score_line(lines[-1]).names,
    )
    log = MatchLog(buffer)
    log.header(config.header)
    return Referee(config, log=log)


LEDUC_LIKE = parse_game(
    "GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 2\nblind = 1 1\nraiseSize = 2 4\n"
    "numSuits = 2\nnumRanks = 3\nnumHoleCards = 1\nnumBoardCards = 0 1\nEND GAMEDEF\n"
)
THREE_PLAYERS = parse_game(
    "GAMEDEF\nlimit\nnumPlayers = 3\nnumRounds = 4\nblind = 5 10 0\nraiseSize = 10 10 20 20\n"
    "firstPlayer = 3 1 1 1\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\n"
    "numBoardCards = 0 3 1 1\nEND GAMEDEF\n"
)
