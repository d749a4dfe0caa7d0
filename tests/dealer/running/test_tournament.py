"""``acpcbot tournament`` on the local pool: the same logs and crosstable whatever --jobs,
resumed runs that play only what is missing, matches whose process dies played again,
failures reported, one tournament at a time, and ``acpcbot results --tournament``."""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from acpcbot.actions import Action
from acpcbot.cli import main
from acpcbot.extras import install_hint
from acpcbot.player import BettingView
from acpcbot.protocol.matchstate import MatchState
from agents.registry import AGENTS, AgentEntry
from agents.simple import AlwaysCall
from dealer.running.tournamentfolder import TournamentFolder
from dealer.running.tournamentplan import TournamentPlan
from tests.dealer.running.tournaments import (
    ACPCBOT,
    MATCHES,
    SHARES_THE_REFERENCE,
    SMALL,
    acpcbot,
    logs,
    match_folders,
    results,
    wait_for,
)
from tests.dealer.running.tournaments import (
    AGENTS as SMALL_AGENTS,
)
from tests.tiers import starts_processes


def _json_run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    status = main(["tournament", *args, "--json"])
    out = capsys.readouterr().out
    return status, json.loads(out)


# -- determinism ---------------------------------------------------------------------------


@SHARES_THE_REFERENCE
def test_two_processes_give_the_same_logs_and_crosstable_as_one(
    tmp_path: Path, reference: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, data = _json_run(capsys, *SMALL, "--out", str(tmp_path / "t"), "--jobs", "2")
    assert status == 0 and data["status"] == "finished"
    assert data["run"]["played"] == MATCHES and data["run"]["reused"] == 0
    assert data["run"]["executor"] == "2 local processes"
    assert data["matches"] == {"planned": MATCHES, "finished": MATCHES, "unfinished": []}
    assert len(logs(reference)) == 2 * MATCHES
    assert logs(tmp_path / "t") == logs(reference)
    assert results(tmp_path / "t") == results(reference)
    # the crosstable, rebuilt from the folder alone, is the same
    assert main(["results", "--tournament", str(tmp_path / "t"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == results(reference)


@SHARES_THE_REFERENCE
def test_each_match_is_the_one_acpcbot_match_plays_on_its_card_seed(
    tmp_path: Path, reference: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --seed 11 --seeds 2: the second seed is 12
    args = ["match", "kendall-learner", "example", "--hands", "500", "--seed", "12"]
    assert main([*args, "--out", str(tmp_path / "m"), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    folder = reference / "kendall-learner-vs-example.seed12.n500"
    for half in summary["halves"]:
        assert (folder / half["log"]).read_bytes() == (tmp_path / "m" / half["log"]).read_bytes()
    table = results(reference)
    pairing = next(p for p in table["pairings"] if p["agents"] == ["kendall-learner", "example"])
    assert pairing["matches"] == 2 and pairing["pairs"] == 1000


@SHARES_THE_REFERENCE
def test_the_text_gives_the_crosstable_and_both_rankings(
    reference: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["results", "--tournament", str(reference)]) == 0
    text = capsys.readouterr().out
    assert main(["results", str(reference)]) == 0  # a tournament's folder is one too
    assert capsys.readouterr().out == text
    lines = text.splitlines()
    assert lines[0] == (
        "tournament: round robin of 3 agents, 3 pairings × 2 seeds (11, 12) × 2 × 500 hands, "
        "holdem.limit.2p.reverse_blinds.game: 6 of 6 matches finished"
    )
    table = results(reference)
    mbb = table["crosstable"]["mbb_per_game"]
    ci = table["crosstable"]["ci95"]
    assert lines[3].startswith("1 tight-aggressive")
    assert f"{mbb[0][1]:+.1f} ± {ci[0][1]:.1f}" in lines[3]
    assert mbb[1][0] == -mbb[0][1] and ci[1][0] == ci[0][1]
    total = table["rankings"]["total_bankroll"]
    runoff = table["rankings"]["instant_runoff"]
    assert [p["rank"] for p in total] == [1, 2, 3] and len(runoff) == 3
    for placing in total:  # a bankroll is the mean of the agent's row
        row = mbb[SMALL_AGENTS.index(placing["agent"])]
        mean = sum(v for v in row if v is not None) / 2
        assert placing["mbb_per_game"] == pytest.approx(mean, abs=2e-3)
    assert "ranking by total bankroll (mean mbb/g against every other agent):" in lines
    assert any(line.startswith(f"   1  {runoff[0]['agent']}") for line in lines)


@pytest.mark.e2e
def test_without_out_the_folder_is_named_after_the_series(tmp_path: Path) -> None:
    # as acpcbot match has a default folder, so has a tournament
    args = ["--hands", "20", "--seed", "4"]
    done = acpcbot("tournament", "example", "always-call", *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "results in tournament.seed4.n20/results.json" in done.stdout
    again = acpcbot("tournament", "example", "always-call", "always-raise", *args, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tournament.seed4.n20"]
    assert len(match_folders(tmp_path / "tournament.seed4.n20")) == 3


# -- resilience ---------------------------------------------------------------------------


@SHARES_THE_REFERENCE
def test_an_interrupted_tournament_keeps_its_finished_matches_and_plays_only_the_others(
    tmp_path: Path, reference: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "t"
    status, out, err = _ctrl_c_after_a_match([str(ACPCBOT)], folder)
    assert status == 130, err
    kept = match_folders(folder)
    assert 1 <= len(kept) < MATCHES  # stopped mid-run
    assert err.endswith(
        f"acpcbot: interrupted with {len(kept)} of {MATCHES} matches finished; the same "
        "command plays the others\n"
    )
    assert f"{len(kept)} of {MATCHES} matches finished" in out.splitlines()[0]
    assert json.loads((folder / "tournament.json").read_text())["status"] == "interrupted"
    assert json.loads((folder / "results.json").read_text())["status"] == "interrupted"
    assert not (folder / ".partial").exists()  # no half-played match left behind
    for name in kept:  # every match kept is whole and the same as one process plays it
        for log in (folder / name).glob("*.log"):
            assert log.read_bytes() == (reference / name / log.name).read_bytes()

    status, data = _json_run(capsys, *SMALL, "--out", str(folder), "--jobs", "2")
    assert status == 0
    assert data["run"]["reused"] == len(kept)
    assert data["run"]["played"] == MATCHES - len(kept)
    assert logs(folder) == logs(reference)
    assert results(folder) == results(reference)


@pytest.mark.e2e
def test_ctrl_c_ends_a_tournament_whose_workers_outlive_sigterm(tmp_path: Path) -> None:
    """Started by a supervisor that ignores SIGTERM, the tournament's workers inherit that,
    so the terminate() it sends them at Ctrl-C does nothing: they end when it closes their
    pipes, which no other worker may hold open (hung for ever before; once in about ten
    Ctrl-Cs without the supervisor, when SIGTERM found a worker ending a match). Agents
    that start at once and decide cheaply: what is stopped is the pool, whatever it plays;
    three matches of 2 × 1,000 hands, so that the others still play when the first is kept."""
    supervised = ["sh", "-c", 'trap "" TERM; exec "$0" "$@"', str(ACPCBOT)]  # SIGTERM ignored
    cheap = ["example", "always-call", "always-raise", "--hands", "1000"]
    status, _, err = _ctrl_c_after_a_match(supervised, tmp_path / "t", cheap)
    assert status == 130, err
    assert "the same command plays the others" in err


def _ctrl_c_after_a_match(
    command: list[str], folder: Path, tournament: list[str] = SMALL
) -> tuple[int, str, str]:
    """The ``tournament`` (the small one unless given) in two workers, Ctrl-C once its first
    match is kept: the exit status, stdout and stderr (a tournament still running a minute
    later fails)."""
    run = subprocess.Popen(
        [*command, "tournament", *tournament, "--out", str(folder), "--jobs", "2"],
        cwd=folder.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(lambda: bool(match_folders(folder)))
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=60)
    finally:
        run.kill()
    return run.returncode, out, err


@SHARES_THE_REFERENCE
def test_a_half_written_or_damaged_match_is_played_again(
    tmp_path: Path, reference: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "t"
    shutil.copytree(reference, folder)
    cut, running, *_ = match_folders(folder)
    log = next((folder / cut).glob("*.log"))
    log.write_bytes(log.read_bytes()[:-1000])  # a log cut while it was written
    summary = folder / running / "summary.json"
    summary.write_text(summary.read_text().replace('"finished"', '"running"', 1))
    status, data = _json_run(capsys, *SMALL, "--out", str(folder), "--jobs", "1")
    assert status == 0
    assert (data["run"]["played"], data["run"]["reused"]) == (2, MATCHES - 2)
    assert logs(folder) == logs(reference)
    assert results(folder) == results(reference)
    # nothing left to play
    status, data = _json_run(capsys, *SMALL, "--out", str(folder), "--jobs", "1")
    assert (status, data["run"]["played"], data["run"]["reused"]) == (0, 0, MATCHES)


@pytest.mark.e2e
def test_a_folder_in_use_by_another_tournament_is_refused_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    plan = TournamentPlan(SMALL_AGENTS, SMALL_AGENTS, hands=500, seed=11, seeds=2)
    with TournamentFolder.open(folder, plan):
        done = acpcbot("tournament", *SMALL, "--out", "t", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == (
        f"acpcbot: error: another tournament is running in t (process {os.getpid()}); "
        "wait for it or use another --out\n"
    )


class _TestAgent(AlwaysCall):
    marker: ClassVar[Path]
    """A file shared by every process of a test."""


class DiesOnce(_TestAgent):
    """Calls; in hand 5 of the first match to get there, kills its own process."""

    name = "dies-once"

    def act(self, state: MatchState, betting: BettingView) -> Action:
        if state.hand_number == 5 and not self.marker.exists():
            self.marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return super().act(state, betting)


class AlwaysDies(_TestAgent):
    """Kills its own process in hand 5."""

    name = "always-dies"

    def act(self, state: MatchState, betting: BettingView) -> Action:
        if state.hand_number == 5:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().act(state, betting)


class FailsFromHand3(_TestAgent):
    """Calls, and from hand 3 on raises an exception instead of deciding."""

    name = "fails-from-hand-3"

    def act(self, state: MatchState, betting: BettingView) -> Action:
        if state.hand_number >= 3:
            raise ZeroDivisionError("oops")
        return super().act(state, betting)


@pytest.fixture
def test_agents(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The agents above in the registry, as a plug-in would add them (the pool's processes
    are forked from this one: they have them too)."""
    monkeypatch.setattr(_TestAgent, "marker", tmp_path / "died", raising=False)
    for agent in (DiesOnce, AlwaysDies, FailsFromHand3):
        target = f"{__name__}:{agent.__name__}"
        monkeypatch.setitem(AGENTS, agent.name, AgentEntry(agent.name, target, ""))


@pytest.mark.usefixtures("test_agents")
@pytest.mark.e2e
def test_a_match_whose_process_dies_is_played_again_in_a_fresh_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["dies-once", "always-call", "example", "--hands", "20", "--out", str(tmp_path / "t")]
    status = main(["tournament", *args, "--jobs", "2"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert (tmp_path / "died").exists()
    assert (
        "dies-once-vs-always-call.seed0.n20: its process was killed (SIGKILL); playing it again "
        "(attempt 2)"
    ) in captured.err or (
        "dies-once-vs-example.seed0.n20: its process was killed (SIGKILL); playing it again "
        "(attempt 2)"
    ) in captured.err
    assert "3 of 3 matches finished" in captured.out
    # the match played again is the one a match plays
    assert (
        main(["match", "dies-once", "example", "--hands", "20", "--out", str(tmp_path / "m")]) == 0
    )
    capsys.readouterr()
    for log in (tmp_path / "m").glob("*.log"):
        played = tmp_path / "t" / "dies-once-vs-example.seed0.n20" / log.name
        assert played.read_bytes() == log.read_bytes()


@pytest.mark.usefixtures("test_agents")
@pytest.mark.e2e
def test_a_match_that_dies_three_times_is_given_up_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "t"
    args = ["always-dies", "always-call", "--hands", "20", "--out", str(folder), "--jobs", "1"]
    assert main(["tournament", *args]) == 1
    err = capsys.readouterr().err
    name = "always-dies-vs-always-call.seed0.n20"
    assert err.count(f"{name}: its process was killed (SIGKILL); playing it again") == 2
    assert err.endswith(
        f"acpcbot: error: {name}: failed 3 times; the last time: its process was killed (SIGKILL)\n"
    )
    assert json.loads((folder / "tournament.json").read_text())["status"] == "failed"
    assert not (folder / name).exists()


@pytest.mark.usefixtures("test_agents")
@pytest.mark.e2e
def test_a_match_an_agent_fails_is_reported_with_its_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "t"
    args = ["fails-from-hand-3", "always-call", "example", "--hands", "10", "--out", str(folder)]
    status, data = _json_run(capsys, *args)
    assert status == 1 and data["status"] == "failed"
    failed = sorted(f["match"] for f in data["run"]["failed"])
    assert failed == [
        "fails-from-hand-3-vs-always-call.seed0.n10",
        "fails-from-hand-3-vs-example.seed0.n10",
    ]
    for failure in data["run"]["failed"]:
        assert "failed in hand 3: ZeroDivisionError: oops" in failure["why"]
    assert data["matches"]["finished"] == 1
    assert data["rankings"]["total_bankroll"] is None
    summary = json.loads((folder / failed[0] / "summary.json").read_text())
    assert summary["status"] == "failed" and summary["out"] == str(folder / failed[0])


# -- what it prints and writes ---------------------------------------------------------------


@pytest.mark.e2e
def test_one_against_the_rest_has_its_row_and_no_rankings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["always-call", "always-raise", "--vs", "example", "--hands", "50", "--seeds", "2"]
    assert main(["tournament", *args, "--out", str(tmp_path / "t"), "--jobs", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(
        "tournament: example against 2 agents, 2 pairings × 2 seeds (0, 1) × 2 × 50 hands"
    )
    assert lines[2].split() == ["opponent", "pairs", "mbb/g", "±95%", "SD", "sig"]
    assert lines[3].split()[:2] == ["always-call", "100"]
    assert lines[4].split()[:2] == ["always-raise", "100"]
    assert lines[5] == (
        "no rankings: example against the rest (the rankings need every two agents paired)"
    )
    assert sorted(match_folders(tmp_path / "t")) == [
        "example-vs-always-call.seed0.n50",
        "example-vs-always-call.seed1.n50",
        "example-vs-always-raise.seed0.n50",
        "example-vs-always-raise.seed1.n50",
    ]


@SHARES_THE_REFERENCE
def test_plot_draws_the_crosstable_as_a_png(
    tmp_path: Path, reference: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "t"
    shutil.copytree(reference, folder)
    assert main(["tournament", *SMALL, "--out", str(folder), "--plot"]) == 0
    assert "results in " in capsys.readouterr().out
    png = (folder / "crosstable.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
    (folder / "crosstable.png").unlink()
    assert main(["results", "--tournament", str(folder), "--plot"]) == 0
    assert (folder / "crosstable.png").read_bytes().startswith(b"\x89PNG")


def test_missing_packages_are_named_with_their_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "distributed", None)
    base = ["tournament", "example", "always-call", "--out", str(tmp_path / "t")]
    assert main([*base, "--plot"]) == 1
    assert capsys.readouterr().err == (
        f"acpcbot: error: --plot needs matplotlib, which is not installed: {install_hint('plot')}\n"
    )
    assert main([*base, "--scheduler", "tcp://127.0.0.1:1"]) == 1
    assert capsys.readouterr().err == (
        "acpcbot: error: --scheduler needs Dask distributed, which is not installed: "
        f"{install_hint('cluster')}\n"
    )
    assert not (tmp_path / "t").exists()  # refused before anything was written


@pytest.fixture(scope="module")
@starts_processes
def played_in_t(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding ``t``, a finished tournament of 5 hands: played once for the module,
    each test given a copy (a copy is what a tournament that played there leaves; what is
    refused is only its folder's contents)."""
    root = tmp_path_factory.mktemp("played")
    args = ["example", "always-call", "--hands", "5", "--out", "t"]
    first = acpcbot("tournament", *args, cwd=root)
    assert first.returncode == 0, first.stderr
    return root


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["example", "--out", "t"], "a tournament needs at least two agents"),
        (["example", "nobody", "--out", "t"], "unknown agent 'nobody'"),
        (
            ["example", "plicas:dprc=off", "plicas: dprc=off", "--out", "t"],
            "plicas:dprc=off and plicas: dprc=off are the same agent (plicas+dprc=off)",
        ),
        (
            ["example", "always-call", "--seed", "4294967295", "--seeds", "2", "--out", "t"],
            "the card seeds 4294967295 .. 4294967296 go beyond the dealer's 0 .. 4294967295",
        ),
        (["example", "always-call", "--out", "file"], "--out file is a file, not a folder"),
        (
            ["example", "always-call", "--out", "other"],
            "other holds files that are not a tournament's (notes.txt); use another --out",
        ),
        (
            ["example", "always-call", "--out", "t", "--hands", "7"],
            "t holds another tournament (hands 5, not 7); use another --out",
        ),
    ],
)
@pytest.mark.e2e
def test_what_cannot_be_played_is_a_one_line_error_before_any_file(
    tmp_path: Path, played_in_t: Path, args: list[str], message: str
) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("x")
    shutil.copytree(played_in_t / "t", tmp_path / "t")
    before = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    done = acpcbot("tournament", *args, cwd=tmp_path)
    # what was asked cannot be played (2); what is in the folder stops it (1)
    assert done.returncode == (1 if "--out" in message or "file" in args else 2)
    assert done.stderr.startswith(f"acpcbot: error: {message}") and done.stderr.count("\n") == 1
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")) == before


@pytest.mark.e2e
def test_results_of_a_folder_that_holds_no_tournament_is_an_error(tmp_path: Path) -> None:
    done = acpcbot("results", "--tournament", "nowhere", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, "acpcbot: error: no folder nowhere\n")
    (tmp_path / "empty").mkdir()
    done = acpcbot("results", "--tournament", "empty", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (
        1,
        "acpcbot: error: empty holds no tournament (no tournament.json)\n",
    )
    done = acpcbot("results", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (
        2,
        "acpcbot: error: give a log, the two logs of a duplicate pair, or a match's or "
        "tournament's folder\n",
    )
    done = acpcbot("results", "a.log", "--tournament", "t", cwd=tmp_path)
    assert done.stderr == "acpcbot: error: give logs or --tournament DIR, not both\n"


@pytest.mark.e2e
def test_progress_on_a_terminal_shows_matches_rate_and_eta(tmp_path: Path) -> None:
    leader, follower = pty.openpty()
    # 3 matches of 2 × 3,000 hands: about a second on two free cores, the bar redrawn
    # every 0.25 s
    args = ["tournament", "example", "always-call", "hash", "--hands", "3000", "--out", "t"]
    run = subprocess.Popen(
        [str(ACPCBOT), *args], cwd=tmp_path, stdout=subprocess.PIPE, stderr=follower, text=True
    )
    os.close(follower)
    shown = b""
    try:
        while run.poll() is None or select.select([leader], [], [], 0.1)[0]:
            if select.select([leader], [], [], 0.1)[0]:
                try:
                    shown += os.read(leader, 65536)
                except OSError:
                    break
        run.communicate(timeout=120)
    finally:
        run.kill()
        os.close(leader)
    assert run.returncode == 0
    text = shown.decode()
    assert "| tournament: " in text and "/18,000 hands, " in text and " hands/s, " in text
    assert "/3 matches (" in text and " running), ETA " in text
    assert "acpcbot: 3/3 " in text  # each match's end, on its own line
