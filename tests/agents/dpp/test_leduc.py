"""CFR+ solves limit Leduc: exploitability by exact best response falls below 10 mbb/g."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from acpcbot.cards import Card
from acpcbot.game import Game, load_game, parse_game
from agents.dpp.chance import LEDUC_TEXT, LeducBuckets, leduc_chance
from agents.dpp.enumeration import Policy, best_response_value
from agents.dpp.infoset import InfoSetKey
from agents.dpp.solver import AbstractGame, CfrPlus


@pytest.fixture(scope="module")
def leduc(vectors: Path) -> Game:
    game = load_game(vectors / "games" / "leduc.limit.2p.game")
    assert game == parse_game(LEDUC_TEXT)
    return game


@pytest.fixture(scope="module")
def solver(leduc: Game) -> CfrPlus:
    solver = CfrPlus(AbstractGame.build(leduc, leduc_chance(leduc)))
    solver.run(300)
    return solver


def mbb_per_game(chips: float, game: Game) -> float:
    return 1000 * chips / game.big_blind


def test_exploitability_below_10_mbb(leduc: Game, solver: CfrPlus) -> None:
    uniform = solver.exploitability(solver.game.uniform_strategy())
    assert mbb_per_game(uniform, leduc) > 1000
    assert mbb_per_game(solver.exploitability(), leduc) < 10
    # the game value of limit Leduc for the first player to act is about -0.0856 chips
    assert solver.value(solver.average_strategy()) == pytest.approx(-0.0856, abs=0.002)


def test_best_response_agrees_with_real_game_enumeration(leduc: Game, solver: CfrPlus) -> None:
    layout = solver.game.layout
    cards = leduc.num_ranks * leduc.num_suits
    index = LeducBuckets(leduc).card_index

    def policy_of(strategy: np.ndarray) -> Policy:
        def policy(betting: str, position: int, hole: tuple[Card, ...], board: tuple[Card, ...]):  # type: ignore[no-untyped-def]
            bucket = index(hole[0]) + (index(board[0]) * cards if board else 0)
            return tuple(strategy[layout.row_of(InfoSetKey(betting, bucket))])

        return policy

    for strategy in (solver.game.uniform_strategy(), solver.average_strategy()):
        for position in (0, 1):
            expected = best_response_value(leduc, position, policy_of(strategy))
            got = solver.best_response_value(position, strategy)
            assert got == pytest.approx(expected, abs=1e-12)


def test_cfr_plus_is_deterministic(leduc: Game, solver: CfrPlus) -> None:
    again = CfrPlus(AbstractGame.build(leduc, leduc_chance(leduc)))
    again.run(solver.iterations)
    assert np.array_equal(again.average, solver.average)
