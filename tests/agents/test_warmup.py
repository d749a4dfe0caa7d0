"""Agents compile their numba kernels in ``begin_match``, never in a timed decision."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from acpcbot.game import LIMIT_HOLDEM

# Each check runs in a process of its own: kernels another test compiled would hide a missing
# warm-up.
pytestmark = pytest.mark.e2e

ACPCBOT = str(Path(sys.executable).with_name("acpcbot"))
DEALER = str(Path(sys.executable).with_name("acpc-dealer"))

NO_COMPILE_AFTER_BEGIN = """
import sys
from numba.core.dispatcher import Dispatcher
from acpcbot.game import bundled_game
from acpcbot.logconfig import configure_logging
from acpcbot.player import MatchInfo
from agents.registry import create_agent
from dealer.referee.config import MatchConfig
from dealer.referee.inprocess import play_in_process
from dealer.referee.referee import Referee

# (seat A, seat B, hands). Every kernel signature these matches reach, they reach within
# their first few hands: played with every warm-up switched off, the full set's kernels all
# compiled by the second hand of each match, by the first frozen one (hand 11 of the ninth)
# and by three hands after the reshuffler's change, the same kernels and signatures as in
# 150 hands a match (80 for the frozen ones). 30 leave a margin. A frozen PLICAS gives its
# strategy for all 1326 holdings at each decision, its hands the slowest here by far: the
# freeze at 10, with the opponent's change at 15, still decides frozen on every street, bet
# to or not, several times in each of the two frozen matches.
MATCHES = [
    ("plicas", "always-raise", 30), ("plicas", "always-call", 30),
    ("plicas-static", "example", 30), ("plicas:river-search=on", "hash", 30),
    ("plicas:model=off,river-search=on", "always-raise", 30),
    ("tight-aggressive", "loose-passive", 30), ("dpp", "dpp-coarse", 30),
    ("loki2", "example", 30), ("kendall-learner", "loki2", 30),
    ("plicas:freeze-after=10", "river-bluffer:at=15", 25),
    ("plicas-static:freeze-after=0", "reshuffler:at=10", 20),
]

def compiled():
    # Every kernel's compiled signatures: a kernel gains one when compiled or loaded from
    # numba's cache, which is the cost a decision must never pay.
    found = {}
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("acpcbot", "agents", "dealer"):
            for attr, value in list(vars(module).items()):
                if isinstance(value, Dispatcher):
                    found[f"{name}.{attr}"] = len(value.signatures)
    return found

configure_logging()  # notices on stderr
game = bundled_game()
# The dealer's own kernels (the showdown ranks of the deals) are the dealer's business.
callers = [create_agent("always-call"), create_agent("always-call")]
play_in_process(Referee(MatchConfig("d", game, "g", 50, 9, ("a", "b"))), callers)
for spec in {spec for a, b, _ in MATCHES for spec in (a, b)}:
    create_agent(spec).begin_match(MatchInfo(game))
before = compiled()
for number, (a, b, hands) in enumerate(MATCHES):
    config = MatchConfig(f"m{number}", game, "g", hands, number + 1, ("a", "b"))
    play_in_process(Referee(config), [create_agent(a, 1), create_agent(b, 2)])
after = compiled()
print(sorted(name for name, count in after.items() if count > before.get(name, 0)))
print(sum(1 for count in before.values() if count))
"""


def test_no_kernel_compiles_after_begin_match() -> None:
    # In a process of its own: kernels another test compiled would hide a missing warm-up.
    run = subprocess.run(
        [sys.executable, "-c", NO_COMPILE_AFTER_BEGIN],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    late, warmed = run.stdout.splitlines()
    assert late == "[]", f"compiled during the matches: {late}"
    assert int(warmed) > 10  # the warm-ups did compile (or load) the kernels


def test_plicas_on_a_cold_cache_makes_no_fallback_decision(tmp_path: Path) -> None:
    # Against our dealer over TCP with the client's default budget (1 s per decision): on a
    # cold cache the first postflop decision used to compile for 10 s and more.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cold-cache")}
    dealer = subprocess.Popen(
        [DEALER, "m", LIMIT_HOLDEM, "60", "4", "plicas", "caller", "-t", "-q"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert dealer.stdout is not None
        ports = dealer.stdout.readline().split()
        play = [ACPCBOT, "--log-level", "warning", "play", "127.0.0.1"]
        plicas = subprocess.Popen(
            [*play, ports[0], "--agent", "plicas", "--json"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        caller = subprocess.Popen(
            [*play, ports[1], "--agent", "always-call"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        out, err = plicas.communicate(timeout=600)
        caller.wait(timeout=60)
    finally:
        dealer.kill()
        dealer.wait()
    assert plicas.returncode == 0, err
    summary = json.loads(out)
    assert summary["hands"] == 60 and summary["decisions"] > 60
    assert summary["fallback_decisions"] == 0, err
    assert err.count("compiling PLICAS's kernels once, cached in") == 1, err
