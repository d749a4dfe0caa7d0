"""Kendall's four styles: hand selection and raise frequency differ as the names say."""

from __future__ import annotations

from pathlib import Path

import pytest

from acpcbot.errors import UnsupportedGameError
from acpcbot.game import Game, load_game
from acpcbot.player import MatchInfo
from acpcbot.protocol.matchstate import decode_match_state
from agents.kendall import (
    LOOSE_AGGRESSIVE,
    LOOSE_PASSIVE,
    TIGHT_AGGRESSIVE,
    TIGHT_PASSIVE,
    Style,
    preflop_style_triple,
    style_triple,
)
from agents.registry import create_agent

STYLES = {
    "loose-passive": LOOSE_PASSIVE,
    "loose-aggressive": LOOSE_AGGRESSIVE,
    "tight-passive": TIGHT_PASSIVE,
    "tight-aggressive": TIGHT_AGGRESSIVE,
}


def played_share(style: Style) -> float:
    shares = [i / 1000 for i in range(1, 1001)]
    return sum(
        preflop_style_triple(style, share, True, True, 15).fold == 0.0 for share in shares
    ) / len(shares)


def raise_share(style: Style) -> float:
    strengths = [i / 1000 for i in range(1000)]
    return sum(style_triple(style, x, False, True, 40).raise_ for x in strengths) / 1000


def test_loose_styles_play_more_hands_than_tight_ones() -> None:
    assert played_share(LOOSE_PASSIVE) == played_share(LOOSE_AGGRESSIVE) == pytest.approx(0.8)
    assert played_share(TIGHT_PASSIVE) == played_share(TIGHT_AGGRESSIVE) == pytest.approx(0.3)


def test_aggressive_styles_raise_more_than_passive_ones() -> None:
    assert raise_share(LOOSE_AGGRESSIVE) > 2 * raise_share(LOOSE_PASSIVE)
    assert raise_share(TIGHT_AGGRESSIVE) > 2 * raise_share(TIGHT_PASSIVE)


def test_no_raise_above_the_pot_limit() -> None:
    assert style_triple(LOOSE_AGGRESSIVE, 0.95, True, True, pot=500).raise_ == 0.0
    assert style_triple(LOOSE_AGGRESSIVE, 0.95, True, True, pot=100).raise_ > 0.0


@pytest.mark.parametrize("name", sorted(STYLES))
def test_agents_play_legal_seeded_actions(limit_game: Game, name: str) -> None:
    texts = [
        "MATCHSTATE:1:0::|AsAd",
        "MATCHSTATE:0:0:r:7c2d|",
        "MATCHSTATE:0:1:cc/:AhKd|/AcKs2d",
        "MATCHSTATE:1:1:cc/r:|9c8d/AhKhQs",
        "MATCHSTATE:0:2:cc/cc/cc/r:2c3d|/AhKhQs/Js/9d",
    ]
    runs = []
    for _ in range(2):
        agent = create_agent(name, seed=5)
        agent.begin_match(MatchInfo(limit_game, seat=0))
        actions = []
        for text in texts * 20:
            state, betting = decode_match_state(text, limit_game)
            action = agent.act(state, betting)
            assert betting.is_legal(action)
            actions.append(str(action))
        runs.append(actions)
    assert runs[0] == runs[1]  # every choice comes from the agent's seed


@pytest.mark.parametrize(
    "game_file", ["leduc.limit.2p.game", "holdem.nolimit.2p.reverse_blinds.game"]
)
def test_a_game_other_than_heads_up_limit_holdem_is_refused_at_the_start(
    vectors: Path, game_file: str
) -> None:
    # Before: Leduc failed at the first decision (class_of() of one hole card).
    game = load_game(str(vectors / "games" / game_file))
    with pytest.raises(UnsupportedGameError, match="tight-passive plays heads-up limit hold'em"):
        create_agent("tight-passive").begin_match(MatchInfo(game))
