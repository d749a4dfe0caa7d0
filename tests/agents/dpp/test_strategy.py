"""Strategy files round-trip and are checked; a strategy agent plays only legal actions."""

from __future__ import annotations

import io
from collections import Counter

import numpy as np
import pytest

from acpcbot.actions import Action, ActionType
from acpcbot.errors import UnsupportedGameError
from acpcbot.game import bundled_game, parse_game
from acpcbot.player import MatchInfo
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import HandState, replay
from agents.dpp.agent import StrategyAgent
from agents.dpp.chance import LEDUC_TEXT, LeducBuckets, leduc_chance
from agents.dpp.solver import AbstractGame, CfrPlus
from agents.dpp.strategy import Strategy, StrategyFileError, _row_sums, write_arrays
from tests.agents.driving import play_hands

LEDUC = parse_game(LEDUC_TEXT)


@pytest.fixture(scope="module")
def strategy() -> Strategy:
    game = AbstractGame.build(LEDUC, leduc_chance(LEDUC))
    solver = CfrPlus(game)
    solver.run(50)
    legal = game.tree.children[game.tree.kind == 0] >= 0
    return Strategy(LEDUC, game.layout, legal, solver.average_strategy(), "leduc-cards", {"x": 1})


def saved(strategy: Strategy) -> bytes:
    buffer = io.BytesIO()
    strategy.save(buffer)
    return buffer.getvalue()


def test_round_trip_is_exact_to_float16(strategy: Strategy) -> None:
    data = saved(strategy)
    assert saved(strategy) == data  # deterministic bytes
    loaded = Strategy.load(io.BytesIO(data))
    assert loaded.game == LEDUC and loaded.abstraction == "leduc-cards"
    assert loaded.metadata == {"x": 1}
    assert loaded.checksum() == strategy.checksum()
    assert np.allclose(loaded.probabilities, strategy.probabilities, atol=1e-3)
    assert np.allclose(loaded.probabilities.sum(axis=1), 1.0)
    assert not loaded.probabilities[~loaded.row_legal()].any()


def test_rows_are_summed_as_numpy_sums_them_bit_for_bit() -> None:
    """Loading adds each row's three probabilities column by column (numpy's per-row sums
    were most of a dpp's start): in the order numpy does, or a loaded probability would
    move by a bit and a match's sampled actions with it."""
    rows = np.random.default_rng(3).random((100_000, 3)).astype(np.float32)
    rows[::3, 2] = 0.0
    rows[1::7] /= 3
    assert _row_sums(rows).tobytes() == rows.sum(axis=1).tobytes()


def test_corruption_is_detected(strategy: Strategy) -> None:
    data = bytearray(saved(strategy))
    with pytest.raises(StrategyFileError):
        Strategy.load(io.BytesIO(bytes(data[:100])))
    tampered = Strategy(
        LEDUC, strategy.layout, strategy.legal, strategy.probabilities[::-1].copy(), "x", {}
    )
    arrays = tampered._arrays()
    arrays["checksum"] = np.array(strategy.checksum())  # a checksum that does not match
    buffer = io.BytesIO()
    write_arrays(buffer, arrays)
    with pytest.raises(StrategyFileError, match="checksum"):
        Strategy.load(io.BytesIO(buffer.getvalue()))


def test_agent_plays_legal_actions_from_its_strategy(strategy: Strategy) -> None:
    agents = [StrategyAgent(s, strategy, LeducBuckets(LEDUC)) for s in (1, 2)]
    seen: Counter[ActionType] = Counter()

    def check(state: MatchState, hand: HandState, action: Action) -> None:
        assert hand.is_legal(action)
        assert not (action.type is ActionType.FOLD and not hand.can_fold())
        seen[action.type] += 1

    assert play_hands(LEDUC, agents, 2000, seed=7, check=check) > 2000
    assert set(seen) == set(ActionType)


def test_agent_samples_the_strategy_with_its_seed(strategy: Strategy) -> None:
    agent = StrategyAgent(3, strategy, LeducBuckets(LEDUC))
    agent.begin_match(MatchInfo(game=LEDUC))
    hand = replay(LEDUC, [[]])
    state = MatchState(1, 0, ((),), ((), (42,)), ((),))  # position 1 holds Qh
    triple = strategy.triple("", LeducBuckets(LEDUC).bucket(0, (42,), ()))
    draws = Counter(agent.act(state, hand).type for _ in range(4000))
    assert draws[ActionType.RAISE] / 4000 == pytest.approx(triple.raise_, abs=0.03)
    runs = []
    for _ in range(2):
        agent.begin_match(MatchInfo(game=LEDUC))  # a new match restarts the RNG
        runs.append([agent.act(state, hand) for _ in range(50)])
    assert runs[0] == runs[1]


def test_agent_refuses_another_game(strategy: Strategy) -> None:
    agent = StrategyAgent(0, strategy, LeducBuckets(LEDUC))
    with pytest.raises(UnsupportedGameError):
        agent.begin_match(MatchInfo(game=bundled_game()))
