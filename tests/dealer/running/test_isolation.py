"""Fair play through :mod:`dealer.running` as ``acpcbot match`` plays: a snooping plug-in
(:mod:`tests.dealer.snoop`) finds no card it should not know in-process or over TCP, and an
isolated agent plays in a process of its own with the same logs and ``.probs``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from acpcbot.client import MatchSummary
from acpcbot.errors import AcpcError
from acpcbot.game import bundled_game
from acpcbot.player import Entrant, Player
from agents.registry import entrant
from dealer.running import (
    MatchFailedError,
    MatchRequest,
    Transport,
    check_match,
    isolated,
    run_match,
)
from dealer.running.isolation import IsolatedPlayer, _summary_of
from tests.dealer.snoop import REPORT, Snoop

SNOOP = "tests.dealer.snoop:Snoop"


def _what_snoops_found(half: int, players: Sequence[Player]) -> list[tuple[list[str], int]]:
    del half
    return [(p.leaks, p.cards_found) for p in players if isinstance(p, Snoop)]


@pytest.mark.parametrize("transport", [Transport.INPROCESS, Transport.TCP])
def test_a_snooping_plug_in_finds_no_card_it_should_not_know(
    tmp_path: Path, transport: Transport
) -> None:
    request = MatchRequest(
        entrant(SNOOP), entrant(SNOOP), hands=12, seed=2, jobs=1, transport=transport,
        out=tmp_path / "m",
    )  # fmt: skip
    match = run_match(request, after_half=_what_snoops_found)
    found = [snoop for half in match.collected for snoop in half]
    assert len(found) == 4  # two snoops in each half
    for leaks, cards in found:
        assert leaks == [] and cards > 100


def _report(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


@pytest.mark.e2e
def test_an_isolated_plug_in_plays_in_its_own_process_with_the_same_logs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = tmp_path / "report"
    monkeypatch.setenv(REPORT, str(report))

    def request(snoop: Entrant, out: str) -> MatchRequest:
        return MatchRequest(
            snoop, entrant("example"), hands=40, seed=6, jobs=1, aivat=True, out=tmp_path / out
        )

    alone = run_match(request(isolated(entrant(SNOOP)), "alone"))
    lines = _report(report)
    pids = {int(line.split()[1]) for line in lines if line.startswith("pid ")}
    assert len(pids) == 2 and os.getpid() not in pids  # one process a half, not this one
    assert [line for line in lines if line.startswith("leak")] == []
    assert sum(int(line.split()[1]) for line in lines if line.startswith("found ")) > 100
    assert alone.summary["isolated"] == ["tests.dealer.snoop.Snoop"]
    assert alone.summary["transport"] == "inprocess"
    report.unlink()
    here = run_match(request(entrant(SNOOP), "here"))
    assert {int(line.split()[1]) for line in _report(report) if line.startswith("pid ")} == {
        os.getpid()
    }
    assert "isolated" not in here.summary
    assert alone.summary["decisions"] == here.summary["decisions"]
    files = sorted(f.name for f in (tmp_path / "here").iterdir() if f.suffix in (".log", ".probs"))
    assert len(files) == 4
    for name in files:  # the isolated agent's probabilities are recorded too
        assert (tmp_path / "alone" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()


def _players(half: int, players: Sequence[Player]) -> list[str]:
    del half
    return [type(player).__name__ for player in players]


@pytest.mark.e2e
def test_both_agents_isolated_with_halves_side_by_side(tmp_path: Path) -> None:
    """Each agent in its own process, the halves in theirs (a half's process is daemonic:
    it starts the agents' processes without multiprocessing); the logs are those of the
    agents played in-process. Two agents that start at once (no tables, no compiled
    kernels: four fresh interpreters start here), one of them drawing every decision from
    its seeded stream, which an agent's process that did not keep it from hand to hand
    would show."""
    agents = ("agents.simple:ExamplePlayer", "agents.simple:AlwaysRaise")

    def request(isolate: bool, out: str) -> MatchRequest:
        a, b = (isolated(entrant(a)) if isolate else entrant(a) for a in agents)
        return MatchRequest(a, b, hands=60, seed=8, jobs=2, out=tmp_path / out)

    apart = run_match(request(True, "apart"), after_half=_players)
    assert apart.collected == (["IsolatedPlayer", "IsolatedPlayer"],) * 2
    assert apart.summary["isolated"] == ["agents.simple.ExamplePlayer", "agents.simple.AlwaysRaise"]
    run_match(request(False, "here"))
    for log in (tmp_path / "here").glob("*.log"):
        assert (tmp_path / "apart" / log.name).read_bytes() == log.read_bytes()


@pytest.mark.e2e
def test_an_isolated_agent_that_cannot_start_fails_the_match_in_one_line(tmp_path: Path) -> None:
    started = time.monotonic()
    request = MatchRequest(
        isolated(entrant("agents.simple:NoSuchAgent")), entrant("always-call"), hands=10,
        jobs=1, out=tmp_path / "m",
    )  # fmt: skip
    with pytest.raises(MatchFailedError) as failed:
        run_match(request)
    assert str(failed.value) == (
        "agents.simple.NoSuchAgent's client failed: the process playing it failed: agent "
        "agents.simple:NoSuchAgent: module agents.simple has no attribute 'NoSuchAgent'"
    )
    assert failed.value.match.summary["status"] == "failed"
    assert time.monotonic() - started < 60  # not the referee's wait for a seat


def test_nothing_of_an_isolated_agent_runs_here(tmp_path: Path) -> None:
    """Checking a match creates the stand-in only: the plug-in's module is not imported
    (it would stop this process), nor its strategy asked."""
    (tmp_path / "trap.py").write_text("raise SystemExit('imported')\n")
    sys.path.insert(0, str(tmp_path))
    try:
        bot = isolated(entrant("trap:Bot"))
        assert isinstance(bot.create(3), IsolatedPlayer)
        assert bot.strategy(bundled_game()) is None
        check_match(MatchRequest(bot, entrant("always-call"), out=tmp_path / "m"))
        remote = MatchRequest(bot, entrant("always-call"), transport=Transport.REMOTE)
        with pytest.raises(AcpcError, match=r"^--isolate is for agents played here"):
            check_match(remote)
        assert "trap" not in sys.modules
    finally:
        sys.path.remove(str(tmp_path))


ACPCBOT = Path(sys.executable).with_name("acpcbot")


@pytest.mark.e2e
def test_ctrl_c_stops_a_match_with_an_isolated_agent_after_the_hand(tmp_path: Path) -> None:
    match = subprocess.Popen(
        [ACPCBOT, "match", "agents.simple:ExamplePlayer", "always-call", "--isolate",
         "--hands", "1000000", "--jobs", "1", "--out", "m"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        log = tmp_path / "m" / "agents.simple.ExamplePlayer-always-call.seed0.n1000000.log"
        deadline = time.monotonic() + 120
        # 3,000 hands: more decisions than the pipe from the agent's process holds when
        # nobody reads them (no --aivat): it is read all the same.
        while not (log.exists() and log.stat().st_size > 3000 * 60):
            assert time.monotonic() < deadline and match.poll() is None
            time.sleep(0.2)
        match.send_signal(signal.SIGINT)
        _, err = match.communicate(timeout=60)
    finally:
        match.kill()
    assert match.returncode == 130, err
    assert err.startswith("acpcbot: interrupted after ") and err.count("\n") == 1


def test_what_an_isolated_process_reports_is_read_whatever_its_numbers() -> None:
    """The lines its process writes on the pipe, as its main writes them: each decision's
    probabilities, exact, and the summary of the longest match with the longest numbers;
    anything else is dropped."""
    player = isolated(entrant("always-call")).create(1)
    player._take(b"said 17 99:0.125/0.3333333333333333/0.5416666666666667")
    assert player._said is not None
    key, said = player._said
    assert key == (99, 17) and said is not None
    assert (said.fold, said.call, said.raise_) == (0.125, 1 / 3, 0.5416666666666667)
    summary = MatchSummary(
        hands=4_294_967_295, chips=-1.2345678901234567e17, mbb_per_game=-2.2222222222222223e-05,
        decisions=99_999_999_999, fallback_decisions=99_999_999_999, elapsed_s=123456.78901234567,
        failed_decisions=99_999_999_999, illegal_decisions=99_999_999_999,
        over_budget_decisions=99_999_999_999,
    )  # fmt: skip
    fields = {name: getattr(summary, name) for name in summary.__dataclass_fields__}
    player._take(f"summary {json.dumps(fields)}".encode("ascii"))
    assert _summary_of(player._summary or {}) == summary
    for junk in (b"said x 1:0/1/0", b"said 1 2:0.5/0.6/0", b"summary [1]", b"summary {", b"\xff"):
        player._take(junk)
    assert player._said == (key, said) and _summary_of(player._summary or {}) == summary
    assert _summary_of({**fields, "hands": 1.5}) is None
