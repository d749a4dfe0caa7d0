"""Kendall's four styles differ as their names say; the learning player learns."""

from __future__ import annotations

from pathlib import Path

import pytest

from acpcbot.errors import UnsupportedGameError
from acpcbot.game import Game, bundled_game, load_game
from acpcbot.handeval.combos import class_of
from acpcbot.player import HandResult, MatchInfo
from acpcbot.protocol.logfile import parse_state_line
from acpcbot.protocol.matchstate import decode_match_state
from acpcbot.rules import HandState
from agents.common.decisions import PlayStyle, play_style
from agents.common.tables import preflop_equity
from agents.kendall import (
    LOOSE_AGGRESSIVE,
    LOOSE_PASSIVE,
    TIGHT_AGGRESSIVE,
    TIGHT_PASSIVE,
    KendallLearner,
    Style,
    preflop_style_triple,
    style_triple,
)
from agents.registry import create_agent
from tests.agents.matches import play_match

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


def test_styles_differ_in_play_as_their_names_say() -> None:
    # Two in-process matches, loose-aggressive against tight-passive and loose-passive
    # against tight-aggressive: every style's participation and aggression from its hands
    # (scripts/field_styles.py measures 10,000 hands). 300 hands keep the gaps of 1,000
    # (participation 0.23 beyond the 0.2 asked, aggression 0.26 beyond 0.1).
    game = bundled_game()
    styles: dict[str, PlayStyle] = {}
    for a, b in (("loose-aggressive", "tight-passive"), ("loose-passive", "tight-aggressive")):
        lines = play_match(game, [create_agent(a, 1), create_agent(b, 2)], 300, seed=7)
        hands = [parse_state_line(line) for line in lines if line.startswith("STATE:")]
        styles[a] = play_style(game, hands, "p0")
        styles[b] = play_style(game, hands, "p1")
    played = {name: style.participation for name, style in styles.items()}
    aggression = {name: style.aggression for name, style in styles.items()}
    for loose in ("loose-passive", "loose-aggressive"):
        for tight in ("tight-passive", "tight-aggressive"):
            assert played[loose] > played[tight] + 0.2, (loose, tight, played)
    for aggressive in ("loose-aggressive", "tight-aggressive"):
        for passive in ("loose-passive", "tight-passive"):
            assert aggression[aggressive] > aggression[passive] + 0.1, aggression


def final(text: str) -> HandResult:
    state, betting = decode_match_state(text, bundled_game())
    me = state.position
    ranks = None
    if all(state.hole_cards):
        from acpcbot.handeval import rank_hand

        ranks = [rank_hand((*hole, *state.board_cards)) for hole in state.hole_cards]
    assert isinstance(betting, HandState)
    values = betting.values(ranks if betting.is_showdown else None)
    assert state.position == me
    return HandResult(state, values)


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("MATCHSTATE:0:0:cc/cc/cc/cc:AsAh|7c2d/2s8d9h/Jc/3d", +0.1),  # won a showdown
        ("MATCHSTATE:0:0:cc/cc/cc/cc:7c2d|AsAh/2s8d9h/Jc/3d", -0.1),  # lost one
        ("MATCHSTATE:1:0:cc/rf:|7c2d/2s8d9h", -0.1),  # called preflop, then folded
        ("MATCHSTATE:1:0:f:|7c2d", 0.0),  # folded without calling or raising
        ("MATCHSTATE:0:0:f:7c2d|", 0.0),  # won, but the opponent never called or raised
        ("MATCHSTATE:1:0:cc/rrf:|7c2d/2s8d9h", 0.0),  # won when the opponent folded
    ],
)
def test_the_learning_value_moves_by_the_hand_s_result(text: str, change: float) -> None:
    learner = KendallLearner(1)
    learner.begin_match(MatchInfo(bundled_game()))
    result = final(text)
    k = class_of(*result.state.own_cards)
    learner.values[k] = 8.0
    learner.end_hand(result)
    assert learner.values[k] == pytest.approx(8.0 + change)


def test_the_learner_drops_weak_hands_and_starts_each_match_afresh() -> None:
    game = bundled_game()
    learner = KendallLearner(1)
    play_match(game, [learner, create_agent("always-raise")], 4000, seed=3)
    values = learner.values.copy()
    assert values.min() < 8.0 <= values.max() == 10.0
    equity = preflop_equity()
    dropped, kept = values < 8.0, values == 10.0
    assert equity[dropped].mean() < equity[kept].mean() - 0.05  # it learned which are weak
    learner.begin_match(MatchInfo(game))
    assert (learner.values == 10.0).all()
