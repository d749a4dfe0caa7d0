"""Local best response: below the exact best response in Leduc, near the known best
responses in hold'em, the same play for the same seed, clear errors."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from acpcbot.actions import Action
from acpcbot.deal import Deal
from acpcbot.errors import AcpcError
from acpcbot.player import MatchInfo
from acpcbot.protocol.matchstate import view_of
from acpcbot.rules import HandState
from agents.base import Agent
from agents.dpp.enumeration import best_response_value
from agents.errors import AgentOptionError, NoFixedStrategyError
from agents.lbr import LocalBestResponse
from agents.registry import create_agent, entrant, lbr_against
from tests.leduc import (
    LEDUC,
    ChooserOf,
    expected_value,
    leduc_strategy,
    play_leduc,
    strategy_agent,
    strategy_policy,
)

WEAK = 3
"""CFR+ iterations of the Leduc strategy LBR exploits (a few: clearly exploitable)."""


def lbr_chooser(iterations: int) -> ChooserOf:
    """LBR against the Leduc strategy, as a deterministic player of the tree walk (every
    call a new hand, so its range is rebuilt from the betting)."""
    lbr = LocalBestResponse(0, model=strategy_agent(iterations))
    lbr.begin_match(MatchInfo(LEDUC))
    numbers = itertools.count()

    def choose(hand: HandState, deal: Deal, position: int) -> Action:
        copy = hand.copy()
        copy.hand_number = next(numbers)
        return lbr.act(view_of(copy, deal, position), copy)

    return ChooserOf(choose)


@pytest.fixture(scope="module")
def exact() -> dict[str, tuple[float, float]]:
    """LBR's and the best response's exact values against the weak strategy, by position."""
    policy = strategy_policy(leduc_strategy(WEAK))
    lbr = lbr_chooser(WEAK)
    lbr_values = (expected_value(LEDUC, (lbr, policy)), -expected_value(LEDUC, (policy, lbr)))
    best = (best_response_value(LEDUC, 0, policy), best_response_value(LEDUC, 1, policy))
    return {"lbr": lbr_values, "best": best}


def test_lbr_wins_but_never_more_than_the_best_response(
    exact: dict[str, tuple[float, float]],
) -> None:
    for position in (0, 1):
        lbr, best = exact["lbr"][position], exact["best"][position]
        assert lbr <= best + 1e-12
    average_lbr = sum(exact["lbr"]) / 2
    assert average_lbr > 0.1  # chips a hand: LBR does exploit the weak strategy
    assert average_lbr < sum(exact["best"]) / 2


def test_lbr_against_a_near_equilibrium_wins_little() -> None:
    policy = strategy_policy(leduc_strategy(300))
    lbr = lbr_chooser(300)
    value = (expected_value(LEDUC, (lbr, policy)) - expected_value(LEDUC, (policy, lbr))) / 2
    best = (best_response_value(LEDUC, 0, policy) + best_response_value(LEDUC, 1, policy)) / 2
    assert value <= best < 0.01


def leduc_match(tmp: Path, seed: int, hands: int) -> tuple[float, float, list[bytes]]:
    """LBR against the weak strategy in a duplicate Leduc match: mean, CI (chips), logs."""

    def make(which: int, agent_seed: int) -> Agent:
        if which == 0:
            return LocalBestResponse(agent_seed, model=strategy_agent(WEAK))
        return strategy_agent(WEAK, agent_seed)

    run = play_leduc(tmp, make, hands, seed, names=("lbr", "cfr"))
    assert run.pair is not None
    e = run.pair.estimate
    chips = LEDUC.big_blind / 1000
    logs = [(tmp / half.log).read_bytes() for half in run.halves]
    return e.mbb_per_game * chips, e.ci95_mbb * chips, logs


def test_lbr_plays_its_exact_value_and_repeats(
    tmp_path: Path, exact: dict[str, tuple[float, float]]
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    mean, ci, logs = leduc_match(tmp_path / "a", seed=4, hands=2000)
    assert abs(mean - sum(exact["lbr"]) / 2) <= ci
    # The same seed plays the same hands again: a shorter match with it repeats the first
    # hands of each half line for line (a seventh of the cost of replaying all 2,000).
    again = leduc_match(tmp_path / "b", seed=4, hands=300)[2]
    for whole, short in zip(logs, again, strict=True):
        first = [line for line in short.splitlines() if line.startswith(b"STATE:")]
        assert len(first) == 300
        assert [line for line in whole.splitlines() if line.startswith(b"STATE:")][:300] == first


@pytest.mark.parametrize(("opponent", "best"), [("always-call", 1163), ("always-raise", 3698)])
@pytest.mark.e2e
def test_lbr_comes_near_the_best_response_to_the_trivial_bots(
    tmp_path: Path, opponent: str, best: float
) -> None:
    from dealer.running import MatchRequest, run_match

    request = MatchRequest(
        lbr_against(opponent), entrant(opponent), hands=250, seed=7, out=tmp_path
    )
    match = run_match(request)
    assert match.run.pair is not None
    e = match.run.pair.estimate
    # Within the CI of the best response's value (or 8% of it): LBR is greedy, not best.
    assert abs(e.mbb_per_game - best) <= max(e.ci95_mbb, 0.08 * best)


def test_options_and_opponents_without_a_fixed_strategy() -> None:
    with pytest.raises(AgentOptionError, match="needs opponent=NAME"):
        create_agent("lbr").begin_match(MatchInfo(LEDUC))
    with pytest.raises(AgentOptionError, match="from='button'"):
        create_agent("lbr:opponent=dpp,from=button")
    with pytest.raises(AgentOptionError, match="unknown lbr option 'depth'"):
        create_agent("lbr:opponent=dpp,depth=2")
    with pytest.raises(NoFixedStrategyError, match="plicas has no fixed strategy"):
        create_agent("lbr:opponent=plicas").begin_match(MatchInfo(LEDUC))
    with pytest.raises(AcpcError, match="its own opponent"):
        create_agent("lbr:opponent=lbr").begin_match(MatchInfo(LEDUC))
