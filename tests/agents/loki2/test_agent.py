"""loki2 in real matches: repeatable from its seed, refusing games it cannot play."""

from __future__ import annotations

from pathlib import Path

import pytest

from acpcbot.errors import UnsupportedGameError
from acpcbot.game import Game, load_game
from acpcbot.player import MatchInfo
from agents.loki2.agent import Loki2
from agents.registry import create_agent
from tests.agents.matches import play_match


def test_a_seed_repeats_every_decision(limit_game: Game) -> None:
    runs = [
        play_match(limit_game, [Loki2(seed=3), create_agent("example", seed=8)], 60, seed=21)
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    other = play_match(limit_game, [Loki2(seed=4), create_agent("example", seed=8)], 60, 21)
    assert other != runs[0]  # the agent's seed, not only the cards, drives it


def test_its_wins_come_from_reading_the_cards(limit_game: Game) -> None:
    lines = play_match(limit_game, [Loki2(seed=1), create_agent("always-raise")], 200, seed=5)
    score = lines[-1]  # SCORE:<seat 1>|<seat 2>:names
    assert float(score.split(":")[1].split("|")[0]) > 0


def test_a_game_other_than_heads_up_limit_holdem_is_refused(vectors: Path) -> None:
    game = load_game(str(vectors / "games" / "leduc.limit.2p.game"))
    with pytest.raises(UnsupportedGameError, match="loki2 plays heads-up limit hold'em"):
        Loki2().begin_match(MatchInfo(game))
