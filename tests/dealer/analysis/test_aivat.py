"""AIVAT: unbiased (Leduc's exact value by walking the tree), each correction as defined,
the logs the same with the decisions recorded, and in agreement with the plain estimate."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from acpcbot.game import Game
from acpcbot.player import MatchInfo
from agents.base import Agent
from agents.registry import create_agent, entrant
from agents.simple import ExamplePlayer
from dealer.analysis.aivat import BetValue, CheckDownValue, aivat_half, aivat_pair, correct_hand
from dealer.analysis.playedlog import read_log
from dealer.analysis.stats import estimate, pair_sorted
from dealer.referee.decisionlog import read_decisions
from dealer.running import MatchRequest, run_match
from dealer.running.duplicate import DuplicatePlan, Transport
from dealer.running.halves import play_half
from tests.conftest import REPO
from tests.leduc import (
    LEDUC,
    expected_value,
    leduc_strategy,
    play_leduc,
    strategy_agent,
    strategy_policy,
)
from tests.leduc import triple_policy as constant_policy

ITERATIONS = 20
"""CFR+ iterations of the Leduc strategy that plays the example player."""


AGENTS = ("example", "dpp-coarse")


def make(which: int, seed: int) -> Agent:
    return create_agent(AGENTS[which], seed)


def leduc_agents(which: int, seed: int) -> Agent:
    return strategy_agent(ITERATIONS, seed) if which == 0 else ExamplePlayer(seed)


@pytest.mark.slow
def test_aivat_is_unbiased_in_leduc(tmp_path: Path) -> None:
    strategy = strategy_policy(leduc_strategy(ITERATIONS))
    example = constant_policy(ExamplePlayer.TRIPLE)
    # Agent A plays each position in half of the hands of each half.
    exact = expected_value(LEDUC, (strategy, example)) - expected_value(LEDUC, (example, strategy))
    exact /= 2
    run = play_leduc(tmp_path, leduc_agents, 4000, seed=8, record_decisions=True)
    logs = [read_log(tmp_path / half.log) for half in run.halves]
    pair = aivat_pair(logs[0], logs[1], LEDUC)
    assert run.pair is not None
    plain, corrected = run.pair.estimate, pair.estimate
    chips = LEDUC.big_blind / 1000  # mbb to chips
    assert abs(plain.mbb_per_game * chips - exact) <= plain.ci95_mbb * chips
    assert abs(corrected.mbb_per_game * chips - exact) <= corrected.ci95_mbb * chips
    assert corrected.ci95_mbb < 0.8 * plain.ci95_mbb
    assert all(h.known == h.actions > 0 for h in pair.halves)  # every action corrected
    # Looking one action ahead where a strategy is known anywhere: unbiased too.
    known = {}
    for name, agent in zip(
        run.plan.names, (strategy_agent(ITERATIONS), ExamplePlayer()), strict=True
    ):
        agent.begin_match(MatchInfo(LEDUC))
        known[name] = agent.strategy_at
    ahead = aivat_pair(logs[0], logs[1], LEDUC, oracles=known).estimate
    assert ahead.mbb_per_game != corrected.mbb_per_game
    assert abs(ahead.mbb_per_game * chips - exact) <= ahead.ci95_mbb * chips
    # Without the decisions files, the chance corrections alone: unbiased too, wider.
    chance = aivat_pair(logs[0], logs[1], LEDUC, decisions=False).estimate
    assert abs(chance.mbb_per_game * chips - exact) <= chance.ci95_mbb * chips
    assert corrected.ci95_mbb < chance.ci95_mbb
    # With a bets-to-come term (any fixed table, here a random one): unbiased too.
    table = np.random.default_rng(3).normal(0.0, 0.5, (LEDUC.num_rounds, 5, 6))
    value = CheckDownValue(LEDUC, bets=BetValue(table))
    termed = aivat_pair(logs[0], logs[1], LEDUC, value=value).estimate
    assert termed.mbb_per_game != corrected.mbb_per_game
    assert abs(termed.mbb_per_game * chips - exact) <= termed.ci95_mbb * chips


def test_one_hand_by_hand(tmp_path: Path) -> None:
    """Qh against Ks, the ace on the board, checked down: the deal and the board cost A
    2 × (1/4 − 1/2) and 2 × (0 − 1/4); A's first check, drawn from (0, ½, ½), gains
    v(check) − ½ v(check) − ½ v(raise) = −0.5 − (−0.25 − 1) = 0.75."""
    from acpcbot.protocol.logfile import parse_state_line

    record = parse_state_line("STATE:0:cc/cc:Qh|Ks/Ah:-1|1:A|B", LEDUC)
    value = CheckDownValue(LEDUC)
    assert value.equities(record, 0) == [0.25, 0.0]
    pure = [(0.0, 1.0, 0.0)] * 4
    assert correct_hand(LEDUC, record, 0, pure, value) == (0.0, 4)
    assert correct_hand(LEDUC, record, 1, pure, value) == (0.0, 4)
    mixed = [(0.0, 0.5, 0.5), None, None, None]
    assert correct_hand(LEDUC, record, 0, mixed, value) == (-0.75, 1)
    assert correct_hand(LEDUC, record, 0, (), value) == (0.0, 0)  # chance only


def test_one_hand_with_a_bets_to_come_term() -> None:
    """The hand above with the term ``1 × e·P`` before the first raise of round 1 (e: the
    edge of the player to act, P the pot): for A it adds (¼ − ½) × 2 at the deal, and at
    A's check v(check) − ½ v(check) − ½ v(raise) = ½ × (−0.5) − ½ × 0 (the raise leaves
    the context); A's estimate becomes −1 − (−1.0) = 0, and B's its opposite."""
    from acpcbot.protocol.logfile import parse_state_line

    record = parse_state_line("STATE:0:cc/cc:Qh|Ks/Ah:-1|1:A|B", LEDUC)
    table = np.zeros((2, 5, 6))
    table[0, 0, 0] = 1.0
    value = CheckDownValue(LEDUC, bets=BetValue(table))
    mixed = [(0.0, 0.5, 0.5), None, None, None]
    assert correct_hand(LEDUC, record, 0, mixed, value) == (0.0, 1)
    assert correct_hand(LEDUC, record, 1, mixed, value) == (0.0, 1)
    assert correct_hand(LEDUC, record, 0, (), value) == (0.5, 0)
    assert correct_hand(LEDUC, record, 1, (), value) == (-0.5, 0)


def test_the_value_function_is_zero_sum(tmp_path: Path, limit_game: Game) -> None:
    """With the shipped table, the two players' estimates of every hand add up to 0, as
    their results do: the estimate does not depend on whose winnings are asked for."""
    from acpcbot.logreader import open_log

    value = CheckDownValue(limit_game)
    assert value.bets is not None and np.abs(value.bets.coefficients).sum() > 0
    plan = DuplicatePlan(AGENTS, 40, 11, (11, 12))
    outcome = play_half(plan, 0, limit_game, tmp_path, make, record_decisions=True)
    log = tmp_path / outcome.log
    said = dict(read_decisions(log.with_suffix(".probs")))
    with open_log(log) as hands:
        for hand in hands:
            record = hand.record(limit_game)
            decisions = said[record.hand_number]
            a, _ = correct_hand(limit_game, record, 0, decisions, value)
            b, _ = correct_hand(limit_game, record, 1, decisions, value)
            assert a == pytest.approx(-b, abs=1e-9), hand.line


@pytest.mark.e2e
def test_fitting_the_term(tmp_path: Path) -> None:
    """scripts/fit_aivat_value.py on two short matches: a table of the right shape that
    the value function loads, and each match's ratio with and without it."""
    folders = []
    for seed in (1, 2):
        out = tmp_path / str(seed)
        run_match(
            MatchRequest(
                entrant("example"), entrant("dpp-coarse"), hands=150, seed=seed, out=out, aivat=True
            )
        )
        folders.append(str(out))
    script = REPO / "scripts" / "fit_aivat_value.py"
    table = tmp_path / "table.py"
    done = subprocess.run(
        [sys.executable, str(script), folders[0], "--check", folders[1], "--out", str(table)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "(fitted: example vs dpp-coarse, seed 1, 150 pairs): CI ratio" in done.stdout
    assert "(held out: example vs dpp-coarse, seed 2, 150 pairs): CI ratio" in done.stdout
    space: dict[str, object] = {}
    exec(table.read_text(), space)
    coefficients = np.array(space["COEFFICIENTS"])
    assert coefficients.shape == (4, 5, 6) and np.abs(coefficients).sum() > 0


@pytest.mark.e2e
def test_decisions_file_beside_an_unchanged_log(tmp_path: Path) -> None:
    for transport in (Transport.INPROCESS, Transport.TCP):
        folders = []
        for record in (False, True):
            out = tmp_path / f"{transport.value}-{record}"
            request = MatchRequest(
                entrant("example"),
                entrant("dpp-coarse"),
                hands=60,
                seed=5,
                out=out,
                transport=transport,
                aivat=record,
            )
            match = run_match(request)
            folders.append(out)
            if record:
                assert match.aivat is not None and "aivat" in match.summary
                assert {"mbb_per_game", "ci95"} <= set(match.summary["aivat"])
                assert match.summary["aivat"]["value_function"] == "check-down + bets-to-come"
        plain, recorded = folders
        for log in plain.glob("*.log"):
            assert (recorded / log.name).read_bytes() == log.read_bytes()
            assert not log.with_suffix(".probs").exists()
            probs = list(read_decisions((recorded / log.name).with_suffix(".probs")))
            lines = [
                line.split(":")[2]
                for line in log.read_text().splitlines()
                if line.startswith("STATE:")
            ]
            assert [number for number, _ in probs] == list(range(60))
            for (_, decisions), betting in zip(probs, lines, strict=True):
                assert len(decisions) == len(betting.replace("/", ""))
                assert all(d is not None for d in decisions)  # both agents say


@pytest.mark.slow
def test_aivat_and_plain_agree_across_seeds(tmp_path: Path, limit_game: Game) -> None:
    """Twenty short hold'em matches: every AIVAT interval meets its plain one."""
    for seed in range(20):
        plan = DuplicatePlan(AGENTS, 60, seed, (seed, seed + 1))
        folder = tmp_path / str(seed)
        folder.mkdir()

        outcomes = [
            play_half(plan, h, limit_game, folder, make, record_decisions=True) for h in (0, 1)
        ]
        logs = [read_log(folder / o.log) for o in outcomes]
        a = logs[0].seat_names[0]
        plain = estimate(
            pair_sorted(logs[0].hand_numbers, logs[0].chips[a], logs[1].hand_numbers,
                        logs[1].chips[a])[0],
            limit_game.big_blind,
        )  # fmt: skip
        corrected = aivat_pair(logs[0], logs[1], limit_game).estimate
        gap = abs(corrected.mbb_per_game - plain.mbb_per_game)
        assert gap <= corrected.ci95_mbb + plain.ci95_mbb, seed


def test_a_log_without_decisions_gets_chance_corrections(vectors: Path, limit_game: Game) -> None:
    log = read_log(vectors / "logs" / "example_player" / "limit2p.seed42.n1000.Alice-Bob.log")
    half = aivat_half(log, limit_game)
    assert half.decisions_file is None and half.known == 0 and half.hands == 1000
    assert half.estimate.sd_mbb < estimate(log.chips["Alice"], limit_game.big_blind).sd_mbb
    with pytest.raises(Exception, match="no player 'Carol'"):
        aivat_half(log, limit_game, "Carol")


def test_agents_report_nothing_they_did_not_draw(limit_game: Game) -> None:
    agent = create_agent("example", 1)
    agent.begin_match(MatchInfo(limit_game))
    assert agent.last_triple is None and agent.last_triple_at is None
