"""``acpcbot tournament --scheduler`` on a real Dask cluster: a ``dask scheduler`` and two
``dask worker`` processes on 127.0.0.1, started from this environment (where acpcbot is
installed). The tournament gives the logs and the crosstable of one local process, and
still does when a worker is killed in the middle of a match."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daskcluster import Cluster, dask_cluster, skip_without_the_cluster_extra
from tests.dealer.running.tournaments import (
    ACPCBOT,
    MATCHES,
    SHARES_THE_REFERENCE,
    SMALL,
    logs,
    results,
    wait_for,
)

pytestmark = pytest.mark.e2e  # a Dask scheduler and workers, and acpcbot tournament, as processes

skip_without_the_cluster_extra()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with dask_cluster(tmp_path_factory.mktemp("cluster")) as started:
        yield started


def _playing(scratch: Path) -> bool:
    """A worker is in the middle of a match, and has said so: its scratch log holds the
    hands of a few progress reports (one every 64 hands; the log has each hand as it ends)."""
    return any(
        log.read_bytes().count(b"\nSTATE:") >= 256
        for log in scratch.glob("acpcbot-match-*/*/*.log")
    )


@SHARES_THE_REFERENCE  # (and the cluster: one test process starts it)
def test_a_dask_cluster_gives_the_same_logs_and_crosstable_as_one_process_though_a_worker_dies(
    tmp_path: Path, reference: Path, cluster: Cluster
) -> None:
    """A worker killed in the middle of a match changes nothing: the tournament on the
    cluster still gives the logs and the crosstable of one local process (which it gives
    all the more when no worker dies: one tournament on the cluster shows both)."""
    folder = tmp_path / "t"
    args = ["tournament", *SMALL, "--out", str(folder), "--scheduler", cluster.address]
    tournament = subprocess.Popen(
        [str(ACPCBOT), *args, "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        doomed = cluster.workers[0]
        wait_for(lambda: _playing(cluster.scratch[0]))
        doomed.send_signal(signal.SIGKILL)
        out, err = tournament.communicate(timeout=300)
    finally:
        tournament.kill()
    assert doomed.wait(timeout=10) == -signal.SIGKILL
    assert tournament.returncode == 0, err
    data = json.loads(out)
    assert data["status"] == "finished"
    assert data["matches"] == {"planned": MATCHES, "finished": MATCHES, "unfinished": []}
    assert data["run"]["executor"] == f"the Dask cluster at {cluster.address}"
    assert (data["run"]["played"], data["run"]["reused"]) == (MATCHES, 0)
    # the match it was playing began again on the other worker
    assert "; playing it again (attempt 2)" in err
    assert logs(folder) == logs(reference)
    assert results(folder) == results(reference)


def test_an_unreachable_scheduler_is_a_one_line_error_before_any_file(tmp_path: Path) -> None:
    args = [
        "tournament",
        "example",
        "always-call",
        "--out",
        "t",
        "--scheduler",
        "tcp://127.0.0.1:9",
    ]
    done = subprocess.run(
        [str(ACPCBOT), *args],
        cwd=tmp_path,
        env={**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert (
        done.stderr.startswith(
            "acpcbot: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9: "
        )
        and done.stderr.count("\n") == 1
    )
    assert not (tmp_path / "t").exists()


def test_a_refused_connection_is_one_line_at_once(tmp_path: Path) -> None:
    """Not after Dask's 30 s of trying again (``distributed.comm.timeouts.connect``): a
    port where nothing listens refuses at once."""
    with socket.socket() as taken:  # a port of ours, not listening: connections are refused
        taken.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{taken.getsockname()[1]}"
        started = time.monotonic()
        done = subprocess.run(
            [
                str(ACPCBOT),
                "tournament",
                "example",
                "always-call",
                "--out",
                "t",
                "--scheduler",
                address,
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        seconds = time.monotonic() - started
    assert done.returncode == 1
    assert done.stderr == (
        f"acpcbot: error: cannot reach the Dask scheduler at {address}: Connection refused\n"
    )
    assert seconds < 10, seconds  # the command's start, not Dask's 30 s
    assert not (tmp_path / "t").exists()
