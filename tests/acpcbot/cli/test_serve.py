"""``acpcbot serve`` and ``acpcbot connect`` end to end: the server as a process with its
SQLite file, our client as a process starting ``acpcbot play`` for each RUN line; the logs
the same bytes as ``acpc-dealer`` writes for the seeds the server chose; a server killed
mid-run and started again; its users managed from the command line."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from acpcbot.cli import main
from dealer.analysis.playedlog import read_log
from dealer.benchmark.database import Store, database_url
from dealer.benchmark.schema import RequestState, ResultKind, RunState
from dealer.benchmark.seeds import run_seeds
from tests.dealer.benchmark.server import serve_process
from tests.postgresserver import Postgres
from tests.tiers import starts_processes

ACPCBOT = str(Path(sys.executable).with_name("acpcbot"))
DEALER = str(Path(sys.executable).with_name("acpc-dealer"))
LIMIT = "holdem.limit.2p.reverse_blinds.game"


def write_config(folder: Path, hands: int = 50, **settings: int) -> Path:
    path = folder / "bm_server.config"
    lines = [f"{key} {value}" for key, value in settings.items()]
    path.write_text(
        "\n".join(lines)
        + f"""
game {LIMIT} {{
    matchHands {hands}
    bot dpp dpp
    bot caller always-call
    bot raiser always-raise
}}
user neil test
user ann pw
"""
    )
    return path


@contextlib.contextmanager
def server(config: Path, data: Path, *more: str) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """``acpcbot serve`` on a free port; killed at the end if still running."""
    with serve_process(config, data, *more) as (process, port, _):
        yield process, port


def connect(port: int, *args: str, cwd: Path, password: str = "test") -> subprocess.Popen[str]:
    return subprocess.Popen(
        [ACPCBOT, "connect", "127.0.0.1", str(port), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env={**os.environ, "ACPCBOT_PASSWORD": password},
    )


class Line:
    """A line-protocol connection of the test's own (blocking, with a timeout)."""

    def __init__(self, port: int, logon: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.sendall(logon.encode() + b"\n")
        self.got = b""

    def send(self, line: str) -> None:
        self.sock.sendall(line.encode() + b"\n")

    def until(self, pattern: bytes) -> bytes:
        """Everything read up to the end of the first line matching ``pattern``."""
        deadline = time.monotonic() + 60
        while (found := re.search(pattern + rb"[^\n]*\n", self.got)) is None:
            assert time.monotonic() < deadline, self.got
            data = self.sock.recv(65536)
            assert data, self.got
            self.got += data
        taken, self.got = self.got[: found.end()], self.got[found.end() :]
        return taken

    def close(self) -> None:
        self.sock.close()


def logged_hands(path: Path) -> int:
    if not path.exists():
        return 0
    return sum(line.startswith("STATE:") for line in path.read_text().splitlines())


REQUEST = f"RUNMATCHES {LIMIT} 2 t1 7 LOCAL dpp"
"""neil's request: two runs of his bot (our client's example agent, seed 3) against dpp."""


@dataclass(frozen=True)
class Played:
    """neil's :data:`REQUEST` played on a local server, which was then stopped."""

    folder: Path
    data: Path
    out: str
    """What our client printed."""


@pytest.fixture(scope="module")
@starts_processes
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """:data:`REQUEST` played by our client on a local server: made once for the two tests
    that read its logs (acpc-dealer replays them; a Dask cluster's runs log the same), which
    share one test process (``xdist_group``)."""
    folder = tmp_path_factory.mktemp("played")
    data = folder / "data"
    with server(write_config(folder), data) as (process, port):
        client = connect(
            port, "--agent", "example", "--seed", "3", "--user", "neil", "--run", "GAMES",
            "--run", REQUEST, cwd=folder,
        )  # fmt: skip
        out, err = client.communicate(timeout=300)
        assert client.returncode == 0, err
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0
    return Played(folder, data, out)


@pytest.mark.e2e
@pytest.mark.xdist_group("serve-played")
def test_our_client_runs_matches_whose_logs_acpc_dealer_reproduces(
    played: Played, capsys: pytest.CaptureFixture[str]
) -> None:
    out, data = played.out, played.data
    assert f"\n{LIMIT}\n raiser\n caller\n dpp\n" in out  # GAMES, as the reference lists
    assert "# QUEUED neil.t1 2 runs" in out
    assert out.count("# RUNNING neil.t1\n") == 2 and out.count("starting match 127.0.0.1:") == 2
    assert "# ENDED neil.t1.r1 finished 50 hands" in out
    assert "# ENDED neil.t1.r2 finished 50 hands" in out

    store = Store.open(database_url(None, data))
    (asked,) = store.requests_of(store.user("neil").id)  # type: ignore[union-attr]
    assert asked.state is RequestState.DONE and asked.seed == 7
    runs = store.runs_of(asked.id)
    seeds = run_seeds(7, 2)
    assert [(r.match_name, r.state, r.hands, r.seed) for r in runs] == [
        ("neil.t1.r1", RunState.FINISHED, 50, seeds[0]),
        ("neil.t1.r2", RunState.FINISHED, 50, seeds[1]),
    ]
    results = store.results_of(asked.user_id)
    assert [(r.kind, r.player, r.opponent, r.samples) for _, r in results] == [
        (ResultKind.HANDS, "neil", "dpp", 50)
    ] * 2
    # Each run dealt from a seed of its own.
    assert read_log(data / runs[0].log).deals != read_log(data / runs[1].log).deals

    # The reference's way, for the second run (its seed the second the request's seed
    # gives): acpc-dealer with the seed the server chose, the same agents seeded the same
    # (dpp, the request's second player, as acpcbot match's agent B). One run is enough to
    # show a run's log is the reference's for its recorded seed; the runs' seeds are the
    # ones recorded (above), and test_seeds.py derives them.
    run = runs[1]
    replay = played.folder / "replay"
    replay.mkdir()
    dealer = subprocess.Popen(
        [DEALER, run.match_name, LIMIT, "50", str(run.seed), "neil", "dpp",
         "--t_response", "600000", "--t_hand", "21000000", "--t_per_hand", "7000",
         "--start_timeout", "60000"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=replay,
    )  # fmt: skip
    assert dealer.stdout is not None
    first_port, second_port = dealer.stdout.readline().split()
    bots = [
        subprocess.Popen([ACPCBOT, "play", "127.0.0.1", first_port, "--agent", "example",
                          "--seed", "3"], stdout=subprocess.DEVNULL),
        subprocess.Popen([ACPCBOT, "play", "127.0.0.1", second_port, "--agent", "dpp",
                          "--match-seed", str(run.seed), "--as", "b"],
                         stdout=subprocess.DEVNULL),
    ]  # fmt: skip
    assert [b.wait(120) for b in bots] == [0, 0]
    assert dealer.wait(60) == 0
    served = (data / run.log).read_bytes()
    assert served == (replay / f"{run.match_name}.log").read_bytes()
    assert served.count(b"\nSTATE:") == 50

    capsys.readouterr()
    assert main(["results", str(data / runs[0].log), "--player", "neil"]) == 0
    assert "neil vs dpp: 50 hands" in capsys.readouterr().out


@pytest.mark.e2e
def test_a_killed_server_keeps_everything_and_says_which_run_it_lost(tmp_path: Path) -> None:
    data = tmp_path / "data"
    config = write_config(tmp_path, hands=400, startupTimeoutSecs=30)
    (tmp_path / "slowbot.py").write_text(SLOW_BOT)
    with server(config, data) as (process, port):
        ann = Line(port, "ann pw")
        ann.send(f"RUNMATCHES {LIMIT} 1 hh 5 caller raiser")
        ann.until(rb"# ENDED ann\.hh\.r1 finished 400 hands")  # a finished result
        neil = connect(port, "--agent", "slowbot:SlowCaller", "--user", "neil", "--run",
                       f"RUNMATCHES {LIMIT} 2 slow 9 LOCAL caller", cwd=tmp_path)  # fmt: skip
        log = data / "logs" / "neil" / "neil.slow.r1.log"
        deadline = time.monotonic() + 120
        while logged_hands(log) < 10:
            assert time.monotonic() < deadline and neil.poll() is None
            time.sleep(0.2)
        ann.send(f"RUNMATCHES {LIMIT} 1 later 3 caller raiser")  # queued behind neil's run
        ann.until(rb"# QUEUED ann\.later 1 run")
        process.send_signal(signal.SIGKILL)
        process.wait(30)
        ann.close()
        _, err = neil.communicate(timeout=60)
        assert neil.returncode == 1 and "the server closed the connection" in err
    kept = logged_hands(log)
    time.sleep(1.0)
    assert logged_hands(log) == kept and kept < 400  # the run died with the server
    assert log.read_text().splitlines()[-1].startswith("STATE:")  # whole hands only

    with server(config, data) as (process, port):
        neil_line = Line(port, "neil test")
        told = neil_line.until(rb"waits for your bot").decode()
        assert f"# ENDED neil.slow.r1 failed {kept} hands: the server stopped while it " \
            f"played ({kept} hands in its log)\n" in told  # fmt: skip
        assert f"# request slow ({LIMIT}) waits for your bot: 1 run left\n" in told
        store = Store.open(database_url(None, data))
        users = {u.name for u in store.users()}
        assert users == {"neil", "ann"}
        lost = _all_runs(store, "neil.slow.r1")
        assert (lost.state, lost.hands, lost.told) == (RunState.FAILED, kept, True)
        hh = _all_runs(store, "ann.hh.r1")
        assert hh.state is RunState.FINISHED and hh.hands == 400
        assert [(r.player, r.samples) for r in store.results_of_run(hh.id)] == [
            ("caller", 400),
            ("raiser", 400),
        ]
        deadline = time.monotonic() + 120
        while _all_runs(store, "ann.later.r1") is None or not _all_runs(
            store, "ann.later.r1"
        ).state.ended:  # fmt: skip
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert _all_runs(store, "ann.later.r1").state is RunState.FINISHED  # the queue kept it
        neil_line.close()
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0
    store = Store.open(database_url(None, data))
    second = _all_runs(store, "neil.slow.r2")
    assert second is None or second.state in (RunState.INTERRUPTED, RunState.FAILED)
    assert store.unended_runs() == []  # a SIGTERM leaves nothing half-recorded


@pytest.mark.e2e
@pytest.mark.xdist_group("serve-played")
def test_runs_on_a_dask_cluster_log_what_local_runs_log(tmp_path: Path, played: Played) -> None:
    """The request :func:`played` played on local processes, played again by a server whose
    runs go to a Dask cluster: the same logs. One worker is enough for the server's wiring
    (``--scheduler``); runs on two workers at once are test_daskpool.py's."""
    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    from tests.daskcluster import dask_cluster

    (tmp_path / "cluster").mkdir()
    data = tmp_path / "dask"
    with (
        dask_cluster(tmp_path / "cluster", {"w1": {}}) as cluster,
        server(write_config(tmp_path), data, "--scheduler", cluster.address) as (process, port),
    ):
        client = connect(port, "--agent", "example", "--seed", "3", "--user", "neil",
                         "--run", REQUEST, cwd=tmp_path)  # fmt: skip
        out, err = client.communicate(timeout=300)
        assert client.returncode == 0, err
        assert out.count("starting match 127.0.0.1:") == 2  # the worker's address
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0
    logs = {p.name: p.read_bytes() for p in (data / "logs" / "neil").iterdir()}
    local = {p.name: p.read_bytes() for p in (played.data / "logs" / "neil").iterdir()}
    assert sorted(logs) == ["neil.t1.r1.log", "neil.t1.r2.log"]
    assert logs == local


def test_a_server_on_postgresql_plays_records_and_restarts(
    tmp_path: Path, postgres: Postgres, capsys: pytest.CaptureFixture[str]
) -> None:
    url = postgres.new_database()
    database = ["--database", url]
    config = write_config(tmp_path)
    assert main(["serve", "--config", str(config), *database, "user", "add", "bob"]) == 0
    bob = capsys.readouterr().out.split(": ")[-1].strip()
    # One run against a bot that loads nothing: what is played is not the point here, that
    # PostgreSQL keeps it (the local SQLite server's runs are the other tests').
    request = f"RUNMATCHES {LIMIT} 1 t1 7 LOCAL caller"
    data = tmp_path / "data"
    with server(config, data, *database) as (process, port):
        client = connect(port, "--agent", "example", "--seed", "3", "--user", "bob", "--run",
                         request, cwd=tmp_path, password=bob)  # fmt: skip
        out, err = client.communicate(timeout=300)
        assert client.returncode == 0, err
        assert out.count("finished 50 hands") == 1
        ann = Line(port, "ann pw")
        ann.send(f"RUNMATCHES {LIMIT} 3 later 3 LOCAL caller")  # waits for ann's bot
        ann.until(rb"# QUEUED ann\.later 3 runs")
        ann.close()
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0
    assert not (data / "server.db").exists()  # all of it in PostgreSQL
    with server(config, data, *database) as (process, port):
        line = Line(port, f"bob {bob}")
        line.send("RESULTS")
        said = line.until(rb"# t1 vs caller")
        assert b"# t1 vs caller: over 50 hands (1 run): " in said
        line.send("QSTAT")
        # Queued still, waiting for ann (3 runs left, or 2 when the first began in the moment
        # between her QUEUED and her leaving: that run failed, her bot never came).
        queued = line.until(rb"later")
        assert queued in (f"ann later {LIMIT} * {left} Q\n".encode() for left in (3, 2)), queued
        line.close()
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0
    store = Store.open(url)
    (asked,) = store.requests_of(store.user("bob").id)  # type: ignore[union-attr]
    assert [(r.match_name, r.state, r.seed) for r in store.runs_of(asked.id)] == [
        ("bob.t1.r1", RunState.FINISHED, run_seeds(7, 1)[0]),
    ]
    store.close()


def _all_runs(store: Store, name: str | None = None) -> Any:
    every = [
        run
        for user in store.users()
        for request in store.requests_of(user.id)
        for run in store.runs_of(request.id)
    ]
    if name is None:
        return every
    return next((run for run in every if run.match_name == name), None)


SLOW_BOT = '''
import time

from acpcbot.actions import CALL
from agents.base import Agent


class SlowCaller(Agent):
    """Calls, after thinking 20 ms: a run long enough to be cut short."""

    name = "slow-caller"

    def act(self, state, betting):
        time.sleep(0.02)
        return CALL
'''


def test_the_user_subcommands_print_their_lines_and_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What each action does: tests/dealer/benchmark/test_users.py."""
    data = ["serve", "--data", str(tmp_path)]
    assert main([*data, "user", "add", "bob", "--admin"]) == 0
    assert capsys.readouterr().out.startswith("user bob's password (shown once, keep it): ")
    assert main([*data, "user", "disable", "bob"]) == 0
    assert main([*data, "user", "list"]) == 0
    assert re.search(r"^bob  from command, added .* UTC  admin disabled$", capsys.readouterr().out,
                     re.MULTILINE)  # fmt: skip
    assert main([*data, "user", "add", "bob"]) == 1
    assert capsys.readouterr().err.count("\n") == 1


def test_listening_beyond_the_loopback_needs_insecure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--data", str(tmp_path), "--host", "0.0.0.0", "--port", "0"]) == 2
    assert "give --insecure to do it anyway" in capsys.readouterr().err


def test_a_port_in_use_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "small.config"
    config.write_text(f"game {LIMIT} {{\n  bot caller always-call\n}}\n")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["serve", "--config", str(config), "--data", str(tmp_path), "--port", str(port)]
        assert main(args) == 1
    err = capsys.readouterr().err
    assert err == f"acpcbot: error: cannot listen on 127.0.0.1:{port}: address already in use\n"
