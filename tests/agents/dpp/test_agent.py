"""The shipped dpp agents: files and play through many real states."""

from __future__ import annotations

from collections import Counter
from importlib import resources

import pytest

from acpcbot.actions import Action, ActionType
from acpcbot.game import Game
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import HandState
from agents.dpp.strategy import Strategy
from agents.registry import create_agent
from tests.agents.driving import play_hands

DATA = resources.files("agents").joinpath("data")


@pytest.mark.parametrize(("name", "buckets"), [("dpp", 256), ("dpp-coarse", 4)])
def test_strategy_loads_and_fits_the_game(limit_game: Game, name: str, buckets: int) -> None:
    with DATA.joinpath(f"{name}.npz").open("rb") as stream:
        strategy = Strategy.load(stream)
    assert strategy.game == limit_game
    assert strategy.layout.buckets[:2] == (169, buckets)
    assert strategy.metadata["exploitability_mbb"] < strategy.metadata["curve"][0][1]


@pytest.mark.parametrize("name", ["dpp", "dpp-coarse"])
def test_agent_never_folds_a_free_check_nor_raises_at_the_cap(limit_game: Game, name: str) -> None:
    agents = [create_agent(name, seed=1), create_agent(name, seed=2)]
    seen: Counter[tuple[int, ActionType]] = Counter()

    def check(state: MatchState, hand: HandState, action: Action) -> None:
        assert hand.is_legal(action)
        if action.type is ActionType.FOLD:
            assert hand.amount_to_call() > 0  # never folds when it could check
        if action.type is ActionType.RAISE:
            assert hand.num_raises < limit_game.max_raises[hand.round]
        seen[(hand.round, action.type)] += 1

    decisions = play_hands(limit_game, agents, 500, seed=3, check=check)
    assert decisions > 3000
    for round_ in range(4):  # it does everything, in every round
        assert {a for r, a in seen if r == round_} == set(ActionType)


def test_same_seed_same_actions(limit_game: Game) -> None:
    runs: list[list[str]] = [[], []]
    for actions in runs:
        agents = [create_agent("dpp", seed=9), create_agent("dpp-coarse", seed=4)]

        def record(
            state: MatchState, hand: HandState, action: Action, into: list[str] = actions
        ) -> None:
            into.append(str(action))

        play_hands(limit_game, agents, 200, seed=1, check=record)
    assert runs[0] == runs[1] and len(runs[0]) > 400
