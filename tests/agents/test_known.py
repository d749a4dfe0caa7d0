"""Known strategies: each decision's probabilities, and every holding's at once, are what the
agent plays; asking changes nothing."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from acpcbot.actions import CALL, RAISE, ActionType
from acpcbot.cards import Card, parse_cards
from acpcbot.deal import Deal
from acpcbot.game import Game
from acpcbot.handeval.combos import COMBO_CARDS
from acpcbot.player import MatchInfo, decision_key, decision_probabilities
from acpcbot.protocol.matchstate import decode_match_state, view_of
from acpcbot.rules import HandState
from agents.base import Agent
from agents.errors import NoFixedStrategyError
from agents.known import dead_holdings, holding_index, holdings, legal_rows
from agents.registry import create_agent
from agents.triple import Triple
from tests.leduc import LEDUC, strategy_agent

COLUMN = {ActionType.FOLD: 0, ActionType.CALL: 1, ActionType.RAISE: 2}
EXACT = ("always-call", "always-raise", "example", "hash", "dpp", "dpp-coarse")
"""Agents whose table row is exactly the triple they draw from, everywhere."""
KENDALL = ("loose-passive", "loose-aggressive", "tight-passive", "tight-aggressive")
BOARD = parse_cards("Kh8d3c2s9h")


def test_holdings() -> None:
    assert holdings(LEDUC).shape == (6, 1)
    assert sorted(c for (c,) in holdings(LEDUC).tolist()) == sorted(LEDUC.deck())
    assert holding_index(LEDUC, (LEDUC.deck()[0],)) in range(6)
    dead = dead_holdings(LEDUC, LEDUC.deck()[:2])
    assert dead.sum() == 2


@given(
    st.lists(st.floats(0, 5), min_size=3, max_size=3),
    st.sampled_from(
        ["MATCHSTATE:1:0::|AsKd", "MATCHSTATE:0:0:c:AsKd|", "MATCHSTATE:1:0:rrr:|AsKd"]
    ),
)
def test_legal_rows_are_triple_legal_float_for_float(weights: list[float], text: str) -> None:
    from acpcbot.game import bundled_game

    _, betting = decode_match_state(text, bundled_game())
    triple = Triple.of(*weights)
    legal = triple.legal(betting)
    row = legal_rows(np.array([[triple.fold, triple.call, triple.raise_]]), betting)[0]
    assert row.tolist() == [legal.fold, legal.call, legal.raise_]


def states(game: Game, rng: random.Random, count: int) -> list[tuple[HandState, Deal]]:
    """Random decisions of random hands (both positions, every round)."""
    out: list[tuple[HandState, Deal]] = []
    number = 0
    while len(out) < count:
        number += 1
        cards = rng.sample(range(52), 9)
        deal = Deal(hole_cards=((cards[0], cards[1]), (cards[2], cards[3])), board=tuple(cards[4:]))
        hand = HandState(game, number)  # a new number a hand, as in a match
        while not hand.finished:
            if rng.random() < 0.35:
                # Each agent plays one position of a hand: one hand number per position.
                copy = hand.copy()
                copy.hand_number = 2 * number + hand.current_player
                out.append((copy, deal))
            hand.apply(RAISE if hand.can_raise() and rng.random() < 0.4 else CALL)
    return out


def played(agent: Agent, hand: HandState, deal: Deal) -> Triple:
    """What the agent draws from at ``hand`` with ``deal``, as it reports it."""
    position = hand.current_player
    agent.act(view_of(hand, deal, position), hand)
    said = decision_probabilities(agent, hand)
    assert said is not None and agent.last_triple_at == decision_key(hand)
    return Triple(*said)


@pytest.mark.parametrize("name", EXACT + KENDALL)
def test_every_fixed_agent_reports_and_tables_what_it_plays(limit_game: Game, name: str) -> None:
    agent = create_agent(name, 11)
    agent.begin_match(MatchInfo(limit_game))
    assert agent.fixed_strategy
    rng = random.Random(name)
    exact = name in EXACT
    for hand, deal in states(limit_game, rng, 12):
        position = hand.current_player
        board = deal.visible_board(limit_game, hand.round)
        before = agent.rng.getstate()
        table = agent.strategy_table(hand, board)
        assert agent.rng.getstate() == before  # asking draws nothing
        assert table.shape == (1326, 3)
        assert not table[dead_holdings(limit_game, board)].any()
        live = table[~dead_holdings(limit_game, board)]
        assert np.allclose(live.sum(axis=1), 1.0)
        if not hand.can_fold():
            assert not live[:, 0].any()
        if not hand.can_raise():
            assert not live[:, 2].any()
        row = table[holding_index(limit_game, deal.hole_cards[position])]
        assert agent.strategy_at(hand, deal.hole_cards[position], board) == tuple(row)
        said = played(agent, hand, deal)
        if exact or hand.round in (0, 3):  # Kendall: exact before the flop and on the river
            assert row.tolist() == [said.fold, said.call, said.raise_]


def test_kendall_tables_give_how_often_it_plays_each_action(limit_game: Game) -> None:
    """On the flop a style plays on a Monte-Carlo strength: its table is the mixture."""
    agent = create_agent("loose-aggressive", 0)
    agent.begin_match(MatchInfo(limit_game))
    hand = HandState(limit_game, 1)
    for action in (CALL, CALL, RAISE):
        hand.apply(action)  # the flop: position 0 bets, position 1 faces it
    table = agent.strategy_table(hand, BOARD[:3])
    mixed = [k for k in range(1326) if 0.15 < table[k].max() < 0.85][:2]
    assert mixed
    for k in mixed:
        hole: tuple[Card, ...] = tuple(int(c) for c in COMBO_CARDS[k])
        deal = Deal(hole_cards=(parse_cards("2h2d"), hole), board=BOARD)
        counts: Counter[ActionType] = Counter()
        trials = 400
        for i in range(trials):
            agent.rng = random.Random(i)
            counts[agent.act(view_of(hand, deal, 1), hand).type] += 1
        for kind, column in COLUMN.items():
            p = table[k, column]
            assert abs(counts[kind] / trials - p) <= 4 * np.sqrt(p * (1 - p) / trials) + 0.01


def test_leduc_strategy_agent_tables_its_strategy() -> None:
    agent = strategy_agent(20, seed=3)
    agent.begin_match(MatchInfo(LEDUC))
    deck = LEDUC.deck()
    hand = HandState(LEDUC, 0)
    hand.apply(RAISE)
    hand.apply(CALL)  # round 1
    board = (deck[0],)
    table = agent.strategy_table(hand, board)
    for cards in holdings(LEDUC).tolist():
        row = table[holding_index(LEDUC, cards)]
        if cards[0] in board:
            assert not row.any()
            continue
        deal = Deal(hole_cards=((deck[5],), tuple(cards)), board=board)
        if cards[0] == deck[5]:
            deal = Deal(hole_cards=((deck[4],), tuple(cards)), board=board)
        said = played(agent, hand, deal)
        assert row.tolist() == [said.fold, said.call, said.raise_]


def test_adaptive_agents_have_no_table(limit_game: Game) -> None:
    agent = create_agent("plicas", 0)
    with pytest.raises(NoFixedStrategyError, match="plicas has no fixed strategy"):
        agent.strategy_table(HandState(limit_game), ())
    assert not agent.fixed_strategy
