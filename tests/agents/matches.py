"""In-process matches on acpcbot's dealer, their log lines kept in memory."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from acpcbot.actions import ActionType
from acpcbot.cards import Card
from acpcbot.game import LIMIT_HOLDEM, Game
from acpcbot.player import Player
from acpcbot.protocol.logfile import LogHeader, parse_state_line
from acpcbot.rules import HandState
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


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a player in a logged hand."""

    hand: int
    """The hand's number in the match (0 first)."""
    state: HandState
    """The betting before the action (a copy)."""
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    """The board cards visible then."""
    action: ActionType


def decisions_of(name: str, lines: Sequence[str], game: Game) -> list[Decision]:
    """Every decision of the player called ``name`` in the ``STATE`` lines of a log, in
    order (the betting replayed under the rules)."""
    found = []
    for line in lines:
        if not line.startswith("STATE:"):
            continue
        record = parse_state_line(line)
        position = record.names.index(name)
        board = record.board_cards
        hand = HandState(game, record.hand_number)
        for actions in record.betting:
            for action in actions:
                if hand.current_player == position:
                    visible = board[: game.board_total(hand.round)]
                    found.append(
                        Decision(
                            record.hand_number,
                            hand.copy(),
                            record.hole_cards[position],
                            visible,
                            action.type,
                        )
                    )
                hand.apply(action)
    return found
