"""``acpcbot match`` and :func:`dealer.running.run_match`: checks before any file is
written, safe result folders, Ctrl-C, halves side by side, failing agents recorded."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from acpcbot.actions import CALL, FOLD, Action
from acpcbot.cli import main
from acpcbot.errors import AcpcError
from acpcbot.game import bundled_game
from acpcbot.logconfig import get_logger
from acpcbot.player import BettingView, HandResult, MatchInfo, Player
from acpcbot.protocol.matchstate import MatchState
from agents.registry import AGENTS, AgentEntry, entrant
from agents.simple import AlwaysCall
from dealer.analysis.playedlog import read_log
from dealer.analysis.results import duplicate_result
from dealer.referee import TimeLimits
from dealer.running import MatchFailedError, MatchRequest, Transport, run_match
from tests.conftest import REPO

ACPCBOT = Path(sys.executable).with_name("acpcbot")
LEDUC = "leduc.limit.2p.game"


class FailsFromHand3(AlwaysCall):
    """Calls, and from hand 3 on raises an exception instead of deciding."""

    name = "fails-from-hand-3"

    def act(self, state: MatchState, betting: BettingView) -> Action:
        if state.hand_number >= 3:
            raise ZeroDivisionError("oops")
        return super().act(state, betting)


class FoldsWhenItCouldCheck(AlwaysCall):
    """Calls, except that it folds where it could check (an illegal action)."""

    name = "folds-when-it-could-check"

    def act(self, state: MatchState, betting: BettingView) -> Action:
        return CALL if betting.can_fold() else FOLD


class LoudCaller(AlwaysCall):
    """Calls, and logs a warning every 100 hands (as a user's agent may)."""

    def end_hand(self, result: HandResult) -> None:
        if result.state.hand_number % 100 == 0:
            get_logger("loud").warning("loud", hand=result.state.hand_number)


class CountsItsMaking(AlwaysCall):
    """Calls; counts the agents of it made and the matches they began."""

    name = "counts-its-making"
    made = 0
    began = 0

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        type(self).made += 1

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        type(self).began += 1


def _register(monkeypatch: pytest.MonkeyPatch, agent: type[AlwaysCall]) -> str:
    """``agent`` in the registry, as a plug-in would add one."""
    target = f"{__name__}:{agent.__name__}"
    monkeypatch.setitem(AGENTS, agent.name, AgentEntry(agent.name, target, agent.__doc__ or ""))
    return agent.name


@pytest.fixture
def failing_agent(monkeypatch: pytest.MonkeyPatch) -> str:
    return _register(monkeypatch, FailsFromHand3)


def _acpcbot(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ACPCBOT), *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )


def _summary(folder: Path) -> dict[str, Any]:
    summary: dict[str, Any] = json.loads((folder / "summary.json").read_text())
    return summary


# -- defect 1: a bad --out is a one-line error -------------------------------------------


@pytest.mark.parametrize("case", ["a file", "under a file", "too long a name"])
@pytest.mark.e2e
def test_a_bad_out_is_a_one_line_error(tmp_path: Path, case: str) -> None:
    (tmp_path / "afile").write_text("keep me\n")
    out = {
        "a file": "afile",
        "under a file": "afile/sub",
        "too long a name": "x" * 300 + "/m",
    }[case]
    done = _acpcbot("match", "example", "always-call", "--hands", "5", "--out", out, cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("acpcbot: error: ") and "--out" in done.stderr
    assert (tmp_path / "afile").read_text() == "keep me\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


_CANNOT_BE_MADE = {
    # (the command, run by sh in tmp_path; the one line it gives after "acpcbot: error: ")
    "from a deleted current folder": (
        "mkdir gone && cd gone && rmdir ../gone && exec {acpcbot} match example always-call "
        "--hands 10",
        "cannot create --out example-vs-always-call.seed0.n10: the current folder no longer "
        "exists (it was deleted); cd to another folder, or give --out as an absolute path",
    ),
    "a match into /proc": (
        "exec {acpcbot} match example always-call --hands 10 --out /proc/acpcbot-x",
        "cannot create --out /proc/acpcbot-x: ",
    ),
    "a tournament into /proc": (
        "exec {acpcbot} tournament example always-call --hands 10 --out /proc/acpcbot-y",
        "cannot create --out /proc/acpcbot-y: ",
    ),
    "a dangling symbolic link": (
        "ln -s nowhere/m m && exec {acpcbot} match example always-call --hands 10 --out m",
        "--out m is a symbolic link to nowhere/m, which does not exist",
    ),
}


@pytest.mark.parametrize("case", sorted(_CANNOT_BE_MADE))
@pytest.mark.e2e
def test_an_out_that_cannot_be_made_is_one_line_at_once(tmp_path: Path, case: str) -> None:
    """Not a loop at 100% CPU (``mkdir`` says "No such file or directory" in a deleted
    folder, and in /proc to root)."""
    command, message = _CANNOT_BE_MADE[case]
    started = time.monotonic()
    done = subprocess.run(
        ["sh", "-c", command.format(acpcbot=ACPCBOT)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert time.monotonic() - started < 10  # the command's start, not a wait
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"acpcbot: error: {message}"), done.stderr
    assert done.stderr.count("\n") == 1


# -- defect 2: an agent that cannot play the game is named at once, in both transports ----


@pytest.mark.parametrize("transport", ["tcp", "inprocess"])
@pytest.mark.e2e
def test_an_agent_that_cannot_play_the_game_is_named_at_once(
    tmp_path: Path, vectors: Path, transport: str
) -> None:
    game = str(vectors / "games" / LEDUC)
    args = ["match", "dpp", "always-call", "--hands", "5", "--game", game, "--out", "m"]
    started = time.monotonic()
    done = _acpcbot(*args, "--transport", transport, cwd=tmp_path)
    assert time.monotonic() - started < 10  # not the dealer's 30 s wait for a seat
    assert done.returncode == 2  # the command line's fault
    assert done.stderr.splitlines()[0].startswith(f"acpcbot: error: dpp cannot play {game}: ")
    assert "seat" not in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "m").exists()  # checked before anything is written


@pytest.mark.e2e
def test_a_game_of_three_players_is_refused_as_not_heads_up(tmp_path: Path, vectors: Path) -> None:
    game = tmp_path / "three.game"
    game.write_text(
        (vectors / "games" / "holdem.limit.2p.reverse_blinds.game")
        .read_text()
        .replace("numPlayers = 2", "numPlayers = 3")
        .replace("blind = 10 5", "blind = 10 5 0")
        .replace("firstPlayer = 2 1 1 1", "firstPlayer = 3 1 1 1")
    )
    done = _acpcbot("match", "example", "always-call", "--game", str(game), cwd=tmp_path)
    assert done.returncode == 2  # the command line's fault
    assert done.stderr == (
        f"acpcbot: error: a duplicate match is heads-up: {game} is a game of 3 players "
        "(acpc-dealer plays any number)\n"
    )


def test_an_agent_without_the_option_it_needs_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "lbr", "dpp", "--hands", "5"]) == 2
    assert capsys.readouterr().err == (
        "acpcbot: error: lbr needs opponent=NAME (opponent = the agent to exploit (with "
        "options as a log names it: NAME+KEY=VALUE); from = preflop|flop|turn|river)\n"
    )


def test_checking_a_match_makes_no_agent_and_begins_no_match(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from dealer.running import check_match

    name = _register(monkeypatch, CountsItsMaking)
    monkeypatch.setattr(CountsItsMaking, "made", 0)
    monkeypatch.setattr(CountsItsMaking, "began", 0)
    request = MatchRequest(entrant(name), entrant("example"), hands=3, jobs=1, out=tmp_path / "m")
    assert check_match(request) == bundled_game()
    assert (CountsItsMaking.made, CountsItsMaking.began) == (0, 0)
    run_match(request)  # one agent a half, each beginning its half's match
    assert (CountsItsMaking.made, CountsItsMaking.began) == (2, 2)


def test_more_hands_than_the_reference_dealer_plays_are_refused() -> None:
    from dealer.running import check_match

    with pytest.raises(AcpcError, match=r"must be 1 \.\. 4,294,967,295 .* not 4,294,967,296"):
        check_match(MatchRequest(entrant("example"), entrant("always-call"), hands=2**32))


# -- defect 4: result folders ----------------------------------------------------------------


@pytest.mark.e2e
def test_another_match_in_the_folder_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m"
    base = ["match", "example", "always-call", "--hands", "50", "--out", str(out), "--json"]
    assert main([*base, "--seed", "1"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["status"] == "finished" and _summary(out) == first
    logs_before = {p.name: p.read_bytes() for p in out.glob("*.log")}
    # another seed: refused, and nothing in the folder changes
    assert main([*base, "--seed", "2"]) == 1
    err = capsys.readouterr().err
    assert f"{out} holds another match (example vs always-call, seed 1" in err
    assert "--force" in err
    assert {p.name: p.read_bytes() for p in out.glob("*.log")} == logs_before
    assert _summary(out) == first
    # the same match again: allowed (it goes on with its files, which it finds complete)
    assert main([*base, "--seed", "1"]) == 0
    capsys.readouterr()
    assert {p.name: p.read_bytes() for p in out.glob("*.log")} == logs_before
    # forced: the other match's files go, so the folder holds one match
    assert main([*base, "--seed", "2", "--force"]) == 0
    forced = json.loads(capsys.readouterr().out)
    assert forced["seed"] == 2
    assert sorted(p.name for p in out.glob("*.log")) == sorted(h["log"] for h in forced["halves"])


@pytest.mark.e2e
def test_files_that_are_no_match_are_not_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("mine\n")
    args = ["match", "example", "always-call", "--hands", "5", "--out", str(tmp_path)]
    assert main(args) == 1
    assert "files that are not this match's (notes.txt)" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    assert main([*args, "--force"]) == 0  # written beside them, which are left alone
    assert (tmp_path / "notes.txt").read_text() == "mine\n"


def test_agent_seeds_that_are_not_the_defaults_are_in_the_file_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    base = ["match", "example", "always-call", "--hands", "20", "--seed", "5", "--jobs", "1"]
    for extra in ([], ["--seed-a", "1"], ["--seed-b", "2"], ["--seed-a", "1", "--seed-b", "2"]):
        run_dir = tmp_path / ("run" + "".join(extra))
        run_dir.mkdir()
        monkeypatch.chdir(run_dir)
        assert main([*base, *extra]) == 0
    names = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.glob("*/*/*.log"))
    capsys.readouterr()
    assert names == [
        "run--seed-a1--seed-b2/example-vs-always-call.seed5.n20.seed-a1.seed-b2/"
        "always-call-example.seed5.n20.seed-a1.seed-b2.log",
        "run--seed-a1--seed-b2/example-vs-always-call.seed5.n20.seed-a1.seed-b2/"
        "example-always-call.seed5.n20.seed-a1.seed-b2.log",
        "run--seed-a1/example-vs-always-call.seed5.n20.seed-a1/"
        "always-call-example.seed5.n20.seed-a1.log",
        "run--seed-a1/example-vs-always-call.seed5.n20.seed-a1/"
        "example-always-call.seed5.n20.seed-a1.log",
        "run--seed-b2/example-vs-always-call.seed5.n20.seed-b2/"
        "always-call-example.seed5.n20.seed-b2.log",
        "run--seed-b2/example-vs-always-call.seed5.n20.seed-b2/"
        "example-always-call.seed5.n20.seed-b2.log",
        "run/example-vs-always-call.seed5.n20/always-call-example.seed5.n20.log",
        "run/example-vs-always-call.seed5.n20/example-always-call.seed5.n20.log",
    ]


def test_summary_json_is_replaced_in_one_step(tmp_path: Path) -> None:
    from dealer.running.matchfolder import MatchFolder

    with MatchFolder.open(tmp_path / "m", {"seed": 1}, ["a.log"]) as folder:
        folder.write_summary({"seed": 1, "status": "running"})
        summary = folder.path / "summary.json"
        with summary.open() as reader:  # a reader of the old summary ...
            folder.write_summary({"seed": 1, "status": "finished"})
            assert json.load(reader)["status"] == "running"  # ... sees all of it
        assert json.loads(summary.read_text())["status"] == "finished"
        assert sorted(p.name for p in folder.path.iterdir()) == [".lock", "summary.json"]


def _wait_for(condition: Any, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _running(folder: Path) -> bool:
    try:
        return bool(_summary(folder)["status"] == "running")
    except (OSError, ValueError):
        return False


def _halves_with_a_hand(folder: Path) -> int:
    """The logs in ``folder`` that hold a hand (a log begins with its header)."""
    return sum(b"\nSTATE:" in log.read_bytes()[:4096] for log in folder.glob("*.log"))


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.e2e
def test_ctrl_c_records_the_hands_played_and_a_second_run_meanwhile_is_refused(
    tmp_path: Path, jobs: str
) -> None:
    args = ["match", "example", "always-call", "--hands", "3000000", "--out", "m"]
    match = subprocess.Popen(
        [str(ACPCBOT), *args, "--jobs", jobs],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        folder = tmp_path / "m"
        # (each half that runs has played a hand: there is something to record)
        _wait_for(lambda: _running(folder) and _halves_with_a_hand(folder) == int(jobs))
        # the same match, into the same folder, while it runs: refused at once
        again = _acpcbot(*args, cwd=tmp_path)
        assert again.returncode == 1
        assert again.stderr == (
            f"acpcbot: error: another match is running in m (process {match.pid}); "
            "wait for it or use another --out\n"
        )
        match.send_signal(signal.SIGINT)
        out, err = match.communicate(timeout=30)
    finally:
        match.kill()
    assert match.returncode == 130 and out == ""
    summary = _summary(folder)
    assert summary["status"] == "interrupted"
    assert err == (
        f"acpcbot: interrupted after {summary['hands']:,} of 6,000,000 hands; the results so "
        "far are in m/summary.json\n"
    )
    # The logs hold exactly the hands the summary counts, every one complete.
    logs = [read_log(folder / half["log"]) for half in summary["halves"]]
    assert [log.hands for log in logs] == [half["hands"] for half in summary["halves"]]
    assert all(not half["finished"] and half["hands"] > 0 for half in summary["halves"])
    assert summary["hands"] == sum(log.hands for log in logs) < 6_000_000
    if len(logs) == 2:  # with --jobs 2 both halves ran, and the pairs give the result
        pair = duplicate_result(logs[0], logs[1], big_blind=10)
        assert summary["mbb_per_game"] == pytest.approx(pair.estimate.mbb_per_game, abs=1e-3)
        assert summary["samples"] == "pairs"
    else:
        assert summary["samples"] == "hands"


# -- speed: halves side by side, identical logs --------------------------------------------


@pytest.mark.parametrize("transport", ["inprocess", "tcp"])
@pytest.mark.e2e
def test_halves_side_by_side_write_the_same_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], transport: str
) -> None:
    base = ["match", "example", "tight-aggressive", "--hands", "400", "--seed", "7", "--json"]
    base += ["--transport", transport]
    runs = []
    for jobs in ("1", "2"):
        assert main([*base, "--jobs", jobs, "--out", str(tmp_path / jobs)]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    one, two = runs
    for key in ("mbb_per_game", "ci95", "decisions", "hands"):
        assert one[key] == two[key]
    for half in one["halves"]:
        assert (tmp_path / "1" / half["log"]).read_bytes() == (
            tmp_path / "2" / half["log"]
        ).read_bytes()


def _collect_players(half: int, players: Sequence[Player]) -> tuple[int, str, str]:
    return (half, type(players[0]).__name__, type(players[1]).__name__)


@pytest.mark.e2e
def test_what_the_players_learned_comes_back_from_each_half(tmp_path: Path) -> None:
    for jobs in (1, 2):
        out = tmp_path / str(jobs)
        request = MatchRequest(
            entrant("example"), entrant("always-call"), hands=10, out=out, jobs=jobs
        )
        match = run_match(request, after_half=_collect_players)
        assert match.collected == (
            (0, "ExamplePlayer", "AlwaysCall"),
            (1, "ExamplePlayer", "AlwaysCall"),
        )


def _on_a_terminal(
    args: list[str], cwd: Path, *, columns: int = 200, env: dict[str, str] | None = None
) -> tuple[int, str]:
    """``acpcbot ARGS`` with stderr on a terminal ``columns`` wide: its exit status and
    what the terminal was sent."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    match = subprocess.Popen(
        [str(ACPCBOT), *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=follower,
        text=True,
        env=env,
    )
    os.close(follower)
    shown = b""
    try:
        while match.poll() is None or select.select([leader], [], [], 0.1)[0]:
            if select.select([leader], [], [], 0.1)[0]:
                try:
                    shown += os.read(leader, 65536)
                except OSError:
                    break
        match.communicate(timeout=60)
    finally:
        match.kill()
        os.close(leader)
    return match.returncode, shown.decode()


@pytest.mark.e2e
def test_progress_on_a_terminal_shows_hands_rate_mbb_and_eta(tmp_path: Path) -> None:
    # 8,000 hands a half: about a second on two free cores, the bar redrawn every 0.25 s
    args = ["match", "example", "always-call", "--hands", "8000", "--jobs", "2"]
    returncode, text = _on_a_terminal(args, tmp_path)
    assert returncode == 0
    assert "example vs always-call: " in text and "/16,000 hands, " in text
    assert " hands/s, example " in text and " mbb/g, ETA " in text and "%|" in text
    assert text.endswith("\r") and not text.rsplit("\r", 2)[-2].strip()  # cleared at the end


@pytest.mark.e2e
def test_at_80_columns_the_progress_line_keeps_its_ci_and_eta(tmp_path: Path) -> None:
    args = ["match", "example", "always-call", "--hands", "8000", "--jobs", "2"]  # (as above)
    returncode, text = _on_a_terminal(args, tmp_path, columns=80)
    assert returncode == 0
    drawn = [part for part in text.split("\r") if "hands/s" in part]
    assert drawn and all(len(part) < 80 for part in drawn), drawn
    assert all(re.search(r"mbb/g, ETA \d+:\d\d$", part.rstrip()) for part in drawn), drawn


@pytest.mark.e2e
def test_the_halves_log_lines_never_splice_with_the_progress_bar(tmp_path: Path) -> None:
    # Each half logs in a process of its own; the one drawing the bar writes their lines,
    # above it: a line of a half never starts in the middle of the bar's.
    loud = f"{__name__}:LoudCaller"
    args = ["match", loud, "always-call", "--hands", "20000", "--jobs", "2", "--out", "m"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    returncode, shown = _on_a_terminal(args, tmp_path, env=env)
    assert returncode == 0
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)
    # (a terminal ends its lines with \r\n; the bar is redrawn after \r)
    lines = [
        line.rstrip("\r").rsplit("\r", 1)[-1] for line in plain.split("\n") if " loud " in line
    ]
    assert len(lines) == 400, plain[-2000:]
    assert all(re.match(r"\d{4}-\d\d-\d\dT\S+ \[warning +\] loud ", line) for line in lines), [
        line for line in lines if not line[:1].isdigit()
    ][:3]


# -- defect 5: failing agents are recorded -----------------------------------------------------


def test_a_failing_agent_in_process_ends_the_match_and_is_recorded(
    tmp_path: Path, failing_agent: str
) -> None:
    request = MatchRequest(
        entrant(failing_agent), entrant("always-call"), hands=10, out=tmp_path, jobs=1
    )
    with pytest.raises(MatchFailedError, match=r"failed in hand 3: ZeroDivisionError: oops"):
        run_match(request)
    summary = _summary(tmp_path)
    assert summary["status"] == "failed"
    assert "fails-from-hand-3 failed in hand 3: ZeroDivisionError: oops" in summary["error"]
    assert summary["hands"] == 3 and summary["halves"][0]["finished"] is False
    assert read_log(tmp_path / summary["halves"][0]["log"]).hands == 3


def test_a_failing_agent_over_tcp_is_counted_not_flooded(
    tmp_path: Path, failing_agent: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["match", failing_agent, "always-call", "--hands", "40", "--transport", "tcp"]
    assert main([*args, "--out", str(tmp_path), "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    summary = _summary(tmp_path)
    counted = summary["decisions"][failing_agent]
    assert counted["failed"] == counted["fallbacks"] > 40 and counted["illegal"] == 0
    assert counted["decisions"] > counted["failed"]
    halves = [half["decisions"][failing_agent]["failed"] for half in summary["halves"]]
    assert sum(halves) == counted["failed"] and all(halves)
    assert summary["decisions"]["always-call"]["fallbacks"] == 0
    assert f"fallbacks: {counted['failed']} failed)" in captured.out
    # each half's client logs the first failure with its traceback, then counts
    assert captured.err.count("Traceback") + captured.err.count("ZeroDivisionError: oops") < 20
    assert len(captured.err) < 100_000


def test_illegal_actions_are_counted_alike_in_both_transports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # in-process the dealer repairs them, over TCP the client: a call either way
    name = _register(monkeypatch, FoldsWhenItCouldCheck)
    base = ["match", name, "always-call", "--hands", "30", "--jobs", "1", "--json"]
    counted = []
    for transport in ("inprocess", "tcp"):
        out = tmp_path / transport
        assert main([*base, "--transport", transport, "--out", str(out)]) == 0
        counted.append(json.loads(capsys.readouterr().out)["decisions"][name])
    assert counted[0] == counted[1]
    assert counted[0]["illegal"] == counted[0]["fallbacks"] > 0 and counted[0]["failed"] == 0
    for log in (tmp_path / "tcp").glob("*.log"):
        assert log.read_bytes() == (tmp_path / "inprocess" / log.name).read_bytes()


# -- friction ------------------------------------------------------------------------------------

HANDS = "1 .. 4294967295, the reference dealer's limit"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hands", "x"], f"argument --hands: not a number of hands ({HANDS}): 'x'"),
        (["--hands", "0"], f"argument --hands: not a number of hands ({HANDS}): '0'"),
        (["--seed", "-1"], "argument --seed: not a seed (0 .. 4294967295): '-1'"),
        (
            ["--hands", "99999999999999999999"],
            f"argument --hands: not a number of hands ({HANDS}): '99999999999999999999'",
        ),
        (["--out", ""], "argument --out: an empty path"),
        (["--jobs", "zero"], "argument --jobs: not a whole number (1 or more): 'zero'"),
    ],
)
def test_bad_numbers_name_the_option_not_a_function(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["match", "example", "always-call", *args])
    err = capsys.readouterr().err
    # one line: the usage is for --help
    assert err == f"acpcbot match: error: {message} (see acpcbot match --help)\n"


@pytest.mark.e2e
def test_the_default_transport_is_in_process(tmp_path: Path) -> None:
    assert MatchRequest(entrant("a"), entrant("b")).transport is Transport.INPROCESS
    done = _acpcbot("match", "example", "always-call", "--hands", "5", "--json", cwd=tmp_path)
    assert json.loads(done.stdout)["transport"] == "inprocess"


@pytest.mark.e2e
def test_the_evaluation_script_plays_the_same_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = REPO / "scripts" / "evaluate.py"
    done = subprocess.run(
        [sys.executable, str(script), "example", "always-call", "hash", "--hands", "100"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "always-call" in done.stdout and "hash" in done.stdout
    for opponent in ("always-call", "hash"):
        folder = tmp_path / "evaluation" / f"example-vs-{opponent}.seed0.n100"
        assert _summary(folder)["status"] == "finished"
        ours = tmp_path / opponent
        assert main(["match", "example", opponent, "--hands", "100", "--out", str(ours)]) == 0
        logs = sorted(folder.glob("*.log"))
        assert len(logs) == 2
        for log in logs:
            assert log.read_bytes() == (ours / log.name).read_bytes()
    capsys.readouterr()


def test_asked_before_the_second_half_the_match_ends_with_the_first_kept(
    tmp_path: Path,
) -> None:
    asked: list[int] = []

    def no_rematch(half: int) -> bool:
        asked.append(half)
        return False

    request = MatchRequest(
        entrant("example"), entrant("always-call"), hands=30, seed=4, out=tmp_path / "m", jobs=2
    )
    with pytest.raises(KeyboardInterrupt) as stopped:
        run_match(request, before_half=no_rematch)
    assert asked == [1]  # once, before the second half; the halves were played in turn
    summary = json.loads((tmp_path / "m" / "summary.json").read_text())
    assert (summary["status"], summary["hands"], len(summary["halves"])) == ("interrupted", 30, 1)
    assert sorted(p.name for p in (tmp_path / "m").glob("*.log")) == [request.plan().log_name(0)]
    assert "interrupted after 30 of 60 hands" in str(stopped.value)
    played = run_match(
        MatchRequest(entrant("example"), entrant("always-call"), hands=30, seed=4, force=True,
                     out=tmp_path / "m"),
        before_half=lambda half: True,
    )  # fmt: skip
    assert played.run.hands == 60


def test_time_limits_go_to_the_referee_and_the_logs_headers(tmp_path: Path) -> None:
    limits = TimeLimits(response_ms=1500, hand_ms=15000, per_hand_ms=15000)
    request = MatchRequest(
        entrant("example"),
        entrant("always-call"),
        hands=5,
        out=tmp_path / "m",
        transport=Transport.TCP,
        jobs=1,
        limits=limits,
    )
    run_match(request)
    header = (tmp_path / "m" / request.plan().log_name(0)).read_text().splitlines()[1:4]
    assert header == ["#--t_response 1500", "#--t_hand 15000", "#--t_per_hand 15000"]
    assert request.plan().config(0, bundled_game()).limits == limits
