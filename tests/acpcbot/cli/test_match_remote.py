"""``acpcbot match --transport remote`` with ``acpcbot play`` players in processes of their
own, as in docker/compose.yaml: the same logs and results as ``--transport tcp``, a lost
player named, SIGTERM stopping a match with its results kept, clear errors."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from dealer.analysis.playedlog import read_log

pytestmark = pytest.mark.e2e  # every test runs acpcbot match and its players as processes

ACPCBOT = Path(sys.executable).with_name("acpcbot")
WAITS = re.compile(r"acpcbot: half (\d) waits on \S+ for (\S+) \(agent seed \d+\) on port (\d+), ")
WAITS_SECOND = re.compile(r", (\S+) \(agent seed \d+\) on port (\d+)$")


def _start(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(ACPCBOT), *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _ports(stderr: IO[str]) -> dict[str, list[int]]:
    """Each agent's ports as the dealer announces them (half 1's seat first), read from its
    stderr until both halves listen."""
    ports: dict[tuple[int, str], int] = {}
    other: list[str] = []  # what else it says meanwhile (a compile notice on a cold cache)
    while len(ports) < 4:
        line = stderr.readline()
        assert line, f"the dealer ended before it listened, saying {other!r}"
        first, second = WAITS.search(line), WAITS_SECOND.search(line.rstrip())
        if first is None or second is None:
            other.append(line)
            continue
        half = int(first.group(1))
        ports[(half, first.group(2))] = int(first.group(3))
        ports[(half, second.group(1))] = int(second.group(2))
    agents = sorted({name for _, name in ports})
    return {name: [ports[(1, name)], ports[(2, name)]] for name in agents}


def _players(
    ports: dict[str, list[int]], agents: tuple[str, str], seed: str, cwd: Path, *extra: str
) -> list[subprocess.Popen[str]]:
    """``acpcbot play`` for agents A and B of the match of card seed ``seed``, each on its
    ports in both halves, as the bot services of docker/compose.yaml are."""
    return [
        _start(
            "play",
            "127.0.0.1",
            *map(str, ports[agent]),
            "--agent",
            agent,
            "--match-seed",
            seed,
            "--as",
            letter,
            *extra,
            cwd=cwd,
        )
        for letter, agent in zip("ab", agents, strict=True)
    ]


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
        process.communicate()


def _summary(folder: Path) -> dict[str, Any]:
    summary: dict[str, Any] = json.loads((folder / "summary.json").read_text())
    return summary


def test_players_elsewhere_play_the_match_tcp_plays(
    tmp_path: Path, processes: list[subprocess.Popen[str]]
) -> None:
    # (100 hands a half: the logs are compared byte for byte, the players' counts exactly)
    match = ["match", "example", "always-raise", "--hands", "100", "--seed", "7"]
    remote = ["--transport", "remote", "--start-timeout", "60", "--out", "remote", "--json"]
    dealer = _start(*match, *remote, cwd=tmp_path)
    processes.append(dealer)
    assert dealer.stderr is not None
    ports = _ports(dealer.stderr)
    processes += _players(ports, ("example", "always-raise"), "7", tmp_path, "--json")
    out, err = dealer.communicate(timeout=60)
    assert dealer.returncode == 0, err
    remote = json.loads(out)
    here = subprocess.run(
        [str(ACPCBOT), *match, "--transport", "tcp", "--out", "tcp", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    tcp = json.loads(here.stdout)
    for key in ("status", "agents", "agent_seeds", "hands", "mbb_per_game", "ci95", "pair_sd_mbb"):
        assert remote[key] == tcp[key], key
    assert remote["transport"] == "remote" and remote["decisions"] == {
        "example": None,
        "always-raise": None,
    }
    for mine, theirs in zip(remote["halves"], tcp["halves"], strict=True):
        assert (mine["log"], mine["chips"], mine["seats"]) == (
            theirs["log"],
            theirs["chips"],
            theirs["seats"],
        )
        assert (tmp_path / "remote" / mine["log"]).read_bytes() == (
            tmp_path / "tcp" / theirs["log"]
        ).read_bytes()
    # Each player's own summary: its seats in both halves, the decisions tcp counted.
    for player, agent in zip(processes[1:], ("example", "always-raise"), strict=True):
        said, _ = player.communicate(timeout=10)
        assert player.returncode == 0
        lines = [json.loads(line) for line in said.splitlines()]
        assert [line["dealer"] for line in lines] == [f"127.0.0.1:{p}" for p in ports[agent]]
        assert sum(line["decisions"] for line in lines) == tcp["decisions"][agent]["decisions"]


def test_a_player_that_dies_is_named_and_every_finished_hand_is_kept(
    tmp_path: Path, processes: list[subprocess.Popen[str]]
) -> None:
    args = ["match", "always-call", "example", "--hands", "1000000", "--transport", "remote"]
    dealer = _start(*args, "--out", "m", cwd=tmp_path)
    processes.append(dealer)
    assert dealer.stderr is not None
    ports = _ports(dealer.stderr)
    processes += _players(ports, ("always-call", "example"), "0", tmp_path)
    folder = tmp_path / "m"
    deadline = time.monotonic() + 30
    while len([p for p in folder.glob("*.log") if p.stat().st_size > 5_000]) < 2:
        assert time.monotonic() < deadline and dealer.poll() is None
        time.sleep(0.05)
    processes[2].kill()  # example, in seat 2 of half 1 and seat 1 of half 2
    _, err = dealer.communicate(timeout=30)
    assert dealer.returncode == 1
    [message] = err.splitlines()
    assert re.fullmatch(
        r"acpcbot: error: half [12]: (could not get action from|could not send state to) "
        rf"seat ([12]) \(example, port ({'|'.join(map(str, ports['example']))})\).*",
        message,
    ), message
    summary = _summary(folder)
    assert summary["status"] == "failed" and summary["error"] == message.split(": ", 2)[2]
    for half in summary["halves"]:
        log = read_log(folder / half["log"])
        assert log.hands == half["hands"] > 50  # every finished hand, and only those
        assert not half["finished"]


def test_sigterm_stops_after_the_hand_and_keeps_the_results(tmp_path: Path) -> None:
    match = _start("match", "example", "always-call", "--hands", "3000000", cwd=tmp_path)
    folder = tmp_path / "example-vs-always-call.seed0.n3000000"
    deadline = time.monotonic() + 30
    while sum(p.stat().st_size for p in folder.glob("*.log")) < 20_000:
        assert time.monotonic() < deadline and match.poll() is None
        time.sleep(0.05)
    match.send_signal(signal.SIGTERM)
    _, err = match.communicate(timeout=30)
    assert match.returncode == 130
    summary = _summary(folder)
    assert summary["status"] == "interrupted"
    assert err.startswith(f"acpcbot: interrupted after {summary['hands']:,} of 6,000,000 hands")
    logs = [read_log(folder / half["log"]) for half in summary["halves"]]
    assert [log.hands for log in logs] == [half["hands"] for half in summary["halves"]]


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_while_waiting_for_the_players_ends_at_once(
    tmp_path: Path, how: signal.Signals
) -> None:
    """No hand is played while the halves wait for their players: a stop still ends the
    match at once (as ``docker compose stop`` before the bots connect), not at the start
    timeout."""
    match = _start("match", "example", "always-call", "--transport", "remote", cwd=tmp_path)
    assert match.stderr is not None
    _ports(match.stderr)
    match.send_signal(how)
    stopped = time.monotonic()
    _, err = match.communicate(timeout=30)
    assert time.monotonic() - stopped < 10
    assert match.returncode == 130, err
    summary = _summary(tmp_path / "example-vs-always-call.seed0.n1000")
    assert (summary["status"], summary["hands"]) == ("interrupted", 0)


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--host", "0.0.0.0"], "--host: for --transport remote only"),
        (["--transport", "tcp", "--ports", "1,2"], "--ports: for --transport remote only"),
        (
            ["--transport", "remote", "--ports", "1,2,3,4,5"],
            "5 ports given; a duplicate match listens on 4 (half 1's seats, then half 2's)",
        ),
        (["--transport", "remote", "--ports", "7000,0,7000"], "a port is given twice"),
        (["--transport", "remote", "--aivat"], "--aivat needs the agents' probabilities"),
    ],
)
def test_where_to_listen_is_checked_before_anything_is_written(
    tmp_path: Path, args: list[str], error: str
) -> None:
    done = subprocess.run(
        [str(ACPCBOT), "match", "example", "always-call", "--out", "m", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 2 and done.stderr.startswith(f"acpcbot: error: {error}")
    assert done.stderr.count("\n") == 1
    assert not (tmp_path / "m").exists()


def test_a_match_seed_needs_the_agent_it_is_for(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(ACPCBOT), "play", "127.0.0.1", "9", "--agent", "example", "--match-seed", "4"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "acpcbot: error: --match-seed and --as go together: --match-seed S --as a|b\n"
    )
