"""Limit Leduc for the evaluation tests: strategies to play, and exact values by walking the
whole game tree (every deal, every action) instead of sampling.

A *policy* here is ``(betting, position, hole, board) -> (fold, call, raise)`` (made legal
by the walk), as :mod:`agents.dpp.enumeration` takes it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

from acpcbot.actions import CALL, FOLD, RAISE, Action
from acpcbot.cards import Card
from acpcbot.deal import Deal
from acpcbot.game import Game, parse_game
from acpcbot.handeval import rank_hand
from acpcbot.rules import HandState
from agents.base import Agent
from agents.dpp.agent import StrategyAgent
from agents.dpp.chance import LEDUC_TEXT, LeducBuckets, leduc_chance
from agents.dpp.enumeration import Policy, all_deals
from agents.dpp.solver import AbstractGame, CfrPlus
from agents.dpp.strategy import Strategy
from agents.triple import Triple
from dealer.running.duplicate import (
    DuplicatePlan,
    DuplicateRun,
    MatchStatus,
    duplicate_run,
)
from dealer.running.halves import play_half

LEDUC: Game = parse_game(LEDUC_TEXT)
ACTIONS: tuple[Action, ...] = (FOLD, CALL, RAISE)


@cache
def leduc_strategy(iterations: int) -> Strategy:
    """CFR+ on Leduc after ``iterations`` iterations (few: an exploitable strategy)."""
    game = AbstractGame.build(LEDUC, leduc_chance(LEDUC))
    solver = CfrPlus(game)
    solver.run(iterations)
    legal = game.tree.children[game.tree.kind == 0] >= 0
    return Strategy(LEDUC, game.layout, legal, solver.average_strategy(), "leduc-cards", {})


def strategy_agent(iterations: int, seed: int = 0) -> StrategyAgent:
    """dpp's agent class playing :func:`leduc_strategy` with Leduc's card buckets."""
    return StrategyAgent(seed, leduc_strategy(iterations), LeducBuckets(LEDUC))


def strategy_policy(strategy: Strategy) -> Policy:
    buckets = LeducBuckets(LEDUC)

    def policy(
        betting: str, position: int, hole: tuple[Card, ...], board: tuple[Card, ...]
    ) -> tuple[float, float, float]:
        del position
        t = strategy.triple(betting, buckets.bucket(1 if board else 0, hole, board))
        return (t.fold, t.call, t.raise_)

    return policy


def triple_policy(triple: Triple) -> Policy:
    def policy(
        betting: str, position: int, hole: tuple[Card, ...], board: tuple[Card, ...]
    ) -> tuple[float, float, float]:
        del betting, position, hole, board
        return (triple.fold, triple.call, triple.raise_)

    return policy


Chooser = Callable[[HandState, Deal, int], Action]
"""A deterministic player: the action at ``hand`` with ``deal`` for ``position``."""


def _legal(hand: HandState, probabilities: tuple[float, float, float]) -> list[float]:
    t = Triple.of(*probabilities).legal(hand)
    return [t.fold, t.call, t.raise_]


def expected_value(game: Game, players: tuple[Policy | ChooserOf, Policy | ChooserOf]) -> float:
    """Position 0's exact expected chips per hand when ``players[p]`` plays position ``p``:
    a policy (probabilities) or a deterministic player (:class:`ChooserOf`)."""
    deals = all_deals(game)
    total = 0.0
    for deal in deals:
        total += _walk(game, HandState(game), deal, players)
    return total / len(deals)


def _walk(
    game: Game, hand: HandState, deal: Deal, players: tuple[Policy | ChooserOf, Policy | ChooserOf]
) -> float:
    if hand.finished:
        if not hand.is_showdown:
            return hand.value(0)
        board = deal.visible_board(game, hand.round)
        ranks = [rank_hand((*deal.hole_cards[p], *board)) for p in range(2)]
        return hand.value(0, ranks)
    position = hand.current_player
    player = players[position]
    board = deal.visible_board(game, hand.round)
    if isinstance(player, ChooserOf):
        return _walk(game, hand.child(player(hand, deal, position)), deal, players)
    said = player(hand.betting_text(), position, deal.hole_cards[position], board)
    probabilities = _legal(hand, (float(said[0]), float(said[1]), float(said[2])))
    value = 0.0
    for p, action in zip(probabilities, ACTIONS, strict=True):
        if p > 0:
            value += p * _walk(game, hand.child(action), deal, players)
    return value


class ChooserOf:
    """A deterministic player's choices, remembered per information set (its cards, the
    board it sees and the betting)."""

    def __init__(self, choose: Chooser) -> None:
        self.choose = choose
        self.known: dict[tuple[tuple[Card, ...], tuple[Card, ...], str], Action] = {}

    def __call__(self, hand: HandState, deal: Deal, position: int) -> Action:
        key = (
            deal.hole_cards[position],
            deal.visible_board(hand.game, hand.round),
            hand.betting_text(),
        )
        action = self.known.get(key)
        if action is None:
            action = self.known[key] = self.choose(hand, deal, position)
        return action


def play_leduc(
    folder: Path,
    make: Callable[[int, int], Agent],
    hands: int,
    seed: int,
    *,
    names: tuple[str, str] = ("a", "b"),
    record_decisions: bool = False,
) -> DuplicateRun:
    """A duplicate Leduc match played by the dealer (in-process), ``make(which, seed)``
    making agent A (0) and B (1); its logs (and decisions files) in ``folder``."""
    plan = DuplicatePlan(names, hands, seed, (1, 2), game_path="leduc.limit.2p.game")
    outcomes = [
        play_half(plan, h, LEDUC, folder, make, record_decisions=record_decisions) for h in (0, 1)
    ]
    assert all(o.finished and o.error is None for o in outcomes), outcomes[0].error
    return duplicate_run(
        plan, folder, LEDUC.big_blind, outcomes, seconds=0.0, status=MatchStatus.FINISHED
    )
