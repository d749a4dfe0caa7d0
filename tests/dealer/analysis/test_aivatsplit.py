"""AIVAT split by decision: each hand's terms as defined, adding up to its estimate, and a
real match's spots adding up to the AIVAT estimate its summary reports, in every grouping."""

from __future__ import annotations

import csv
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from acpcbot.game import Game
from acpcbot.logreader import game_of_log
from acpcbot.player import BettingView
from acpcbot.protocol.logfile import parse_state_line
from agents.registry import entrant, known_strategies
from dealer.analysis import read_log
from dealer.analysis.aivat import (
    CheckDownValue,
    Oracle,
    Step,
    aivat_half,
    aivat_pair,
    correct_hand,
    correction_parts,
)
from dealer.analysis.aivatsplit import AivatSplit, Grouping, split_aivat
from dealer.analysis.playedlog import PlayedLog
from dealer.referee.decisionlog import Probabilities
from dealer.running import MatchRequest, run_match
from tests.conftest import REPO
from tests.leduc import LEDUC

Term = tuple[str, str, str | None, float]


def terms_of(
    record_line: str,
    decisions: list[Probabilities | None],
    oracles: tuple[Oracle | None, Oracle | None] = (None, None),
) -> list[Term]:
    """A's terms of a Leduc hand: (step, betting before it, action, chips)."""
    record = parse_state_line(record_line, LEDUC)
    terms: list[Term] = []
    value = CheckDownValue(LEDUC)
    correction_parts(
        LEDUC,
        record,
        0,
        decisions,
        value,
        oracles,
        lambda step, hand, action, said, equity, term: terms.append(
            (
                step.value,
                hand.betting_text(),
                action if action is None else str(action),
                round(term, 9),
            )
        ),
    )
    estimate, _ = correct_hand(LEDUC, record, 0, decisions, value, oracles)
    assert math.fsum(t[3] for t in terms) == pytest.approx(estimate, abs=1e-12)
    return terms


HAND = "STATE:0:cc/cc:Qh|Ks/Ah:-1|1:A|B"
"""Qh against Ks, the ace on the board, checked down (A's equity ¼, then 0)."""
MIXED: list[Probabilities | None] = [(0.0, 0.5, 0.5), None, None, None]


def test_a_hand_term_by_term() -> None:
    """A's first check, drawn from (0, ½, ½), is worth ½ v(check) + ½ v(raise) − v =
    ½ (−0.5) + ½ (¼·4 − 3) − (−0.5) = −0.75 (its estimate: the chance terms are zero for
    the check-down value, and the unknown checks change nothing)."""
    assert terms_of(HAND, MIXED) == [
        ("deal", "", None, 0.0),
        ("action", "", "c", -0.75),
        ("action", "c", "c", 0.0),
        ("cards", "cc/", None, 0.0),
        ("action", "cc/", "c", 0.0),
        ("action", "cc/c", "c", 0.0),
        ("end", "cc/cc", None, 0.0),
    ]


def test_a_known_strategy_is_credited_with_its_replies() -> None:
    """With B's strategy known anywhere, (0, ½, ½) where it may raise, the value after A's
    check looks ahead at B's answer: ½ v(cc) + ½ v(cr) = ½ (−0.5) + ½ (¼·4 − 1) = −0.25,
    and after A's raise ½ (¼·6 − 3) + ½ (¼·8 − 3) = −1.25 against −2 without looking. A's
    own term stays −0.75; what the looking adds, weighted by A's ½ and ½, is B's: 0.125
    at "c" and 0.375 at "r" (a spot B never reached in this hand). B's check itself, its
    probabilities not recorded, is its luck: v(cc) − v(c) = −0.25."""

    def raises_half(betting: BettingView, hole: object, board: object) -> Probabilities:
        return (0.0, 0.5, 0.5) if betting.can_raise() else (0.0, 1.0, 0.0)

    terms = terms_of(HAND, MIXED, (None, raises_half))
    assert terms[:5] == [
        ("deal", "", None, 0.0),
        ("action", "", "c", -0.75),
        ("reply", "c", None, 0.125),
        ("reply", "r", None, 0.375),
        ("action", "c", "c", -0.25),
    ]
    assert math.fsum(t[3] for t in terms) == pytest.approx(-0.5)


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real duplicate match with decisions recorded: a learning agent (no strategy known)
    against dpp-coarse (its strategy known anywhere: the value function looks ahead)."""
    out = tmp_path_factory.mktemp("split") / "match"
    agents = entrant("kendall-learner"), entrant("dpp-coarse")
    run_match(MatchRequest(*agents, hands=120, seed=5, out=out, aivat=True, jobs=1))
    return out


def logs_of(folder: Path) -> list[PlayedLog]:
    """The match's logs in half order (the first seats agent A in seat 1)."""
    halves = json.loads((folder / "summary.json").read_text())["halves"]
    return [read_log(folder / half["log"]) for half in halves]


def split_of(logs: list[PlayedLog]) -> tuple[AivatSplit, Game]:
    game = game_of_log(logs[0].path, logs[0].header)
    oracles = known_strategies(logs[0].seat_names, game)
    return split_aivat(logs, game, "kendall-learner", oracles=oracles), game


def test_a_match_adds_up_in_every_grouping(match: Path) -> None:
    logs = logs_of(match)
    split, game = split_of(logs)
    oracles = known_strategies(logs[0].seat_names, game)
    reported = json.loads((match / "summary.json").read_text())["aivat"]["mbb_per_game"]
    pair = aivat_pair(logs[0], logs[1], game, "kendall-learner", oracles=oracles)
    assert split.estimate == pair.estimate
    assert split.estimate.mbb_per_game == pytest.approx(reported, abs=5e-4)
    actions = sum(h.actions for h in split.halves)
    assert actions == sum(h.known for h in split.halves) > 0
    by_round: dict[int | None, float] = {}
    for grouping in Grouping:
        rows = split.rows(grouping)
        assert split.total(grouping) == pytest.approx(split.estimate.mbb_per_game, abs=1e-9)
        decided = [r for r in rows if r.step is Step.ACTION]
        parts = [p for r in decided for p in (r.player, r.opponent) if p is not None]
        assert sum(p.decisions for p in parts) == actions
        assert sum(p.known for p in parts) == actions
        assert all(sum(p.actions) == p.decisions for p in parts)
        for row in decided:
            assert row.player is not None and row.opponent is not None
            both = row.player.estimate.mbb_per_game + row.opponent.estimate.mbb_per_game
            assert row.net.mbb_per_game == pytest.approx(both, abs=1e-9)
        for row in rows:
            if row.step is Step.DEAL:  # the seats' blinds, opposite in the two halves
                assert row.net.mbb_per_game == pytest.approx(0.0, abs=1e-9)
            if row.step is Step.END:  # the value of a finished hand is its result
                assert row.net.mbb_per_game == pytest.approx(0.0, abs=1e-9)
        # Any grouping's spots of a round add up to that round's.
        sums: dict[int | None, float] = {}
        for row in decided:
            sums[row.round] = sums.get(row.round, 0.0) + row.net.mbb_per_game
        if grouping is Grouping.ROUND:
            by_round = sums
        assert sums == pytest.approx(by_round, abs=1e-9)
    context = split.rows(Grouping.CONTEXT)
    assert {r.context for r in context if r.step is Step.ACTION} <= {
        "",
        "c",
        "r",
        "cr",
        "rr",
        "crr",
        "rrr",
        "crrr",
        "rrrr",
        "crrrr",
    }
    # dpp-coarse's strategy is known anywhere: its answers within a round are looked
    # ahead at, and credited to it at the spots it answers at.
    facing = next(r for r in context if r.round == 1 and r.context == "r")
    assert facing.opponent is not None and facing.opponent.decisions > 0
    assert facing.opponent.estimate.mbb_per_game != 0.0


def test_one_log_is_split_by_hand(match: Path) -> None:
    first = logs_of(match)[0]
    split, game = split_of([first])
    oracles = known_strategies(first.seat_names, game)
    half = aivat_half(first, game, "kendall-learner", oracles=oracles)
    assert split.samples == "hands" and split.estimate == half.estimate
    assert split.total(Grouping.HISTORY) == pytest.approx(half.estimate.mbb_per_game, abs=1e-9)


def test_hands_without_their_pair_are_left_out(match: Path, tmp_path: Path) -> None:
    """A half cut short (its last hand and SCORE line gone): the other half's last hand has
    no pair, and is left out as the AIVAT estimate leaves it out."""
    for path in match.iterdir():
        shutil.copy(path, tmp_path / path.name)
    first, second = (tmp_path / log.path.name for log in logs_of(match))
    lines = second.read_text().splitlines(keepends=True)
    assert lines[-1].startswith("SCORE") and lines[-2].startswith("STATE")
    second.write_text("".join(lines[:-2]))
    logs = [read_log(first), read_log(second)]
    assert logs[1].hands == logs[0].hands - 1
    split, game = split_of(logs)
    assert split.unpaired == 1 and split.estimate.samples == logs[1].hands
    oracles = known_strategies(logs[0].seat_names, game)
    pair = aivat_pair(logs[0], logs[1], game, "kendall-learner", oracles=oracles)
    assert split.estimate == pair.estimate
    assert split.total(Grouping.CONTEXT) == pytest.approx(pair.estimate.mbb_per_game, abs=1e-9)


@pytest.mark.e2e
def test_the_script_prints_the_spots_and_writes_them(match: Path, tmp_path: Path) -> None:
    script = REPO / "scripts" / "explain_match.py"
    table = tmp_path / "spots.csv"
    command = [sys.executable, str(script), str(match), "--top", "5", "--csv", str(table)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("kendall-learner vs dpp-coarse: AIVAT ")
    assert "by round and the round's betting before the decision" in lines[0]
    assert (
        len([line for line in lines if line.startswith(("preflop", "flop", "turn", "river"))]) == 5
    )
    assert any(
        line.strip().startswith(tuple("0123456789")) and "more spots" in line for line in lines
    )
    assert any(line.startswith("the spots add up to ") for line in lines)
    assert lines[-1].startswith("summary.json: AIVAT ")
    assert lines[-1].endswith("the spots agree (to its 3 decimals)")
    with open(table, newline="") as file:
        rows = list(csv.reader(file))
    assert rows[0][:5] == ["grouping", "step", "round", "context", "net_mbb_per_game"]
    assert {row[0] for row in rows[1:]} == {g.value for g in Grouping}
    for grouping in Grouping:
        total = math.fsum(float(row[4]) for row in rows[1:] if row[0] == grouping.value)
        assert total == pytest.approx(float(lines[0].split("AIVAT ")[1].split()[0]), abs=0.1)
    # An existing file is not overwritten.
    again = subprocess.run(command, check=False, capture_output=True, text=True)
    assert again.returncode == 2 and "exists: not overwritten" in again.stderr
