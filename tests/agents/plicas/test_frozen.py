"""A frozen PLICAS: it learns nothing after ``freeze-after`` hands, plays exactly the table it
gives for every holding, trains before the match the same whatever its seed, and local best
response can play it."""

from __future__ import annotations

import random

import numpy as np
import pytest

from acpcbot.cards import parse_cards
from acpcbot.game import bundled_game
from acpcbot.handeval.combos import combo_index
from acpcbot.player import MatchInfo
from acpcbot.rules import CALL, RAISE, HandState
from agents.base import Agent
from agents.common.handloop import play_hand, random_deal
from agents.errors import AgentSpecError
from agents.plicas.agent import Plicas
from agents.plicas.exploitation import ExploitationUnit
from agents.plicas.frozen import FrozenPolicy, _Walk, equities_at
from agents.registry import create_agent, lbr_against
from agents.triple import Triple

GAME = bundled_game()
BOARD = parse_cards("Ah7c2dKs5h")


def state(*actions: object) -> HandState:
    hand = HandState(GAME)
    for action in actions:
        hand.apply(action)  # type: ignore[arg-type]
    return hand


STATES = [
    (state(), ()),
    (state(RAISE), ()),
    (state(RAISE, CALL), BOARD[:3]),
    (state(RAISE, CALL, RAISE), BOARD[:3]),
    (state(RAISE, CALL, CALL, CALL), BOARD[:4]),
    (state(RAISE, CALL, CALL, CALL, RAISE, CALL), BOARD),
]
"""Public states where the big blind (position 0) or the small blind acts, every round."""


def begun(spec: str, seed: int = 3) -> Plicas:
    agent = create_agent(spec, seed)
    assert isinstance(agent, Plicas)
    agent.begin_match(MatchInfo(GAME))
    return agent


def play(agent: Agent, opponent: Agent, hands: int, seed: int) -> None:
    """``hands`` hands of ``agent`` (begun) against ``opponent``, the seats alternating."""
    opponent.begin_match(MatchInfo(GAME))
    deals = random.Random(seed)
    for number in range(hands):
        seats = (agent, opponent) if number % 2 == 0 else (opponent, agent)
        play_hand(GAME, number, random_deal(GAME, deals), seats)


def tables(policy: FrozenPolicy) -> list[np.ndarray]:
    return [policy.table(hand, board).copy() for hand, board in STATES]


@pytest.mark.slow
def test_after_freeze_after_hands_what_it_sees_changes_nothing() -> None:
    agent = begun("plicas:freeze-after=40")
    play(agent, create_agent("always-raise", 4), 40, seed=1)
    assert agent.frozen and agent.model.hands_seen == 40
    before = tables(agent.policy)
    # A very different opponent, for 10 hands: each is a hand every unit would learn from
    # (its actions; at a showdown, its cards), so one would already move the counts and the
    # tables; 10 give both seats and the showdowns. Each frozen decision computes a table
    # for all 1326 holdings, the cost of this test.
    play(agent, create_agent("always-call", 5), 10, seed=2)
    assert agent.model.hands_seen == 40 and agent.exploitation.model.hands == 40
    after = tables(FrozenPolicy(agent))  # read afresh from what it has learned now
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))


def test_before_it_freezes_it_learns() -> None:
    agent = begun("plicas:freeze-after=40")
    play(agent, create_agent("always-raise", 4), 20, seed=1)
    assert not agent.frozen and agent.model.hands_seen == 20


@pytest.mark.slow
def test_it_plays_the_row_of_its_table() -> None:
    agent = begun("plicas:freeze-after=0")
    seen = []

    class Watched(Agent):
        """Asks the frozen agent's table after each of its decisions."""

        def act(self, match_state, betting):  # type: ignore[no-untyped-def]
            action = agent.act(match_state, betting)
            table = agent.strategy_table(betting, match_state.board_cards)
            row = table[combo_index(*match_state.own_cards)]
            seen.append((agent.last_triple, Triple(*(float(x) for x in row))))
            return action

        def observe(self, match_state, betting):  # type: ignore[no-untyped-def]
            agent.observe(match_state, betting)

    play(Watched(0), create_agent("example", 4), 12, seed=3)
    assert len(seen) > 20
    assert all(drawn == row for drawn, row in seen)


def test_its_table_is_a_legal_strategy_for_every_holding() -> None:
    agent = begun("plicas:freeze-after=0")
    for (hand, board), table in zip(STATES, tables(agent.policy), strict=True):
        dead = np.isin(np.array([list(c) for c in _combos()]), board).any(axis=1)
        assert np.all(table[dead] == 0)
        assert np.allclose(table[~dead].sum(axis=1), 1.0)
        if not hand.can_fold():
            assert np.all(table[:, 0] == 0)


def _combos() -> list[tuple[int, int]]:
    from acpcbot.handeval.combos import COMBO_CARDS

    return [tuple(row) for row in COMBO_CARDS.tolist()]


@pytest.mark.parametrize("ahead", [0, 6])
def test_its_walk_values_every_holding_as_the_unit_values_one(ahead: int) -> None:
    """On the turn (every runout, as the unit's): the exploitation unit's walk for every
    holding at once gives each holding the values the unit's own walk gives it, looking into
    the river's betting or not."""
    agent = begun(f"plicas:freeze-after=0,ahead={ahead}")
    hand = state(RAISE, CALL, CALL, CALL, CALL)  # the turn, the big blind checked
    board = BOARD[:4]
    model = agent.exploitation.model
    public = ExploitationUnit(model, 3.0)
    public.start(())
    replay = HandState(GAME)
    for action in [a for r in hand.actions for a in r]:
        if replay.current_player == 0:
            public.opponent_acted(replay, action.type, board[: GAME.board_total(replay.round)])
        replay.apply(action)
    public.see_board(board)
    walk = _Walk(model, board, hand.current_player, hand.round, ahead)
    live = ~np.isin(np.array(_combos()), board).any(axis=1)
    weights = np.where(live, public.range.weights, 0.0)
    for cards in ("QsQd", "6h4h", "9c8c"):
        own = parse_cards(cards)
        one = ExploitationUnit(model, 3.0, ahead)
        one.start(own)
        replay = HandState(GAME)
        for action in [a for r in hand.actions for a in r]:
            if replay.current_player == 0:
                one.opponent_acted(replay, action.type, board[: GAME.board_total(replay.round)])
            replay.apply(action)
        values = one.values(hand, own, board)
        for child, expected in (
            (hand.child(CALL), values.call),
            (hand.child(RAISE), values.raise_),
        ):
            every = walk.value(child, weights, iter(equities_at(walk.ends(child, weights))))
            assert every[combo_index(*own)] == pytest.approx(expected, abs=1e-9)


@pytest.mark.slow
def test_a_training_teaches_every_copy_the_same() -> None:
    spec = "plicas:train=always-raise,train-hands=30,freeze-after=0"
    first, second = begun(spec, seed=3), begun(spec, seed=8)
    assert first.model.hands_seen == 30 and first.exploitation.model.hands == 30
    hand, board = STATES[2]
    assert np.array_equal(first.strategy_table(hand, board), second.strategy_table(hand, board))
    fresh = begun("plicas:freeze-after=0")
    assert fresh.model.hands_seen == 0


def test_lbr_takes_a_frozen_plicas_and_refuses_one_that_learns() -> None:
    assert create_agent("plicas:freeze-after=0").fixed_strategy
    assert not create_agent("plicas:freeze-after=10").fixed_strategy
    assert lbr_against("plicas-static:freeze-after=0").name.startswith("lbr+opponent=plicas")
    with pytest.raises(AgentSpecError, match="no fixed strategy"):
        lbr_against("plicas")
    with pytest.raises(AgentSpecError, match="does not go with river-search"):
        create_agent("plicas:freeze-after=5,river-search=on")
    with pytest.raises(AgentSpecError, match="unknown agent 'nobody'"):
        create_agent("plicas:train=nobody")
