"""Runs of the benchmark server on a real Dask cluster (a ``dask scheduler`` and two ``dask
worker`` processes on 127.0.0.1): the same log, byte for byte, as the local pool's; the host
``RUN`` lines name is each worker's own; a run stopped after its hand; a worker killed
mid-run fails its run instead of playing it again; a worker that does not see the data
folder says so."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from acpcbot.client import play_match
from acpcbot.game import LIMIT_HOLDEM, bundled_game
from agents.registry import create_agent, entrant
from dealer.analysis.playedlog import read_log
from dealer.benchmark.pool import LocalRunPool, RunExecutor
from dealer.benchmark.runs import RunOrder, RunOutcome, RunSeat, RunStatus, SeatKind
from dealer.referee.config import TimeLimits
from tests.daskcluster import Cluster, dask_cluster, skip_without_the_cluster_extra
from tests.dealer.benchmark.test_pool import stop_mid_run

# A Dask scheduler and workers as processes, started once for the module: its tests run in one
# test process (--dist loadgroup).
pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("benchmark-dask-cluster")]

skip_without_the_cluster_extra()

from dealer.benchmark.daskpool import PUBLIC_HOST_VARIABLE, DaskRunPool  # noqa: E402

GAME = bundled_game()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    # w1 names itself "localhost" in RUN lines, w2 is named by its address; a worker takes
    # one task at a time (two runs at once play on both).
    workers = {"w1": {PUBLIC_HOST_VARIABLE: "localhost"}, "w2": {}}
    saturation = {"DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION": "1.0"}
    with dask_cluster(tmp_path_factory.mktemp("cluster"), workers, saturation) as started:
        yield started


@pytest.fixture
async def dask_pool(cluster: Cluster) -> AsyncIterator[DaskRunPool]:
    pool = DaskRunPool(cluster.address)
    await asyncio.to_thread(pool.connect)
    try:
        yield pool
    finally:
        await asyncio.to_thread(pool.close)


def user_order(folder: Path, number: int, hands: int = 60) -> RunOrder:
    """The user ``ann`` against the example player (a house agent)."""
    seats = (
        RunSeat("ann", SeatKind.USER),
        RunSeat("example", SeatKind.AGENT, entrant=entrant("example"), agent_seed=5),
    )
    name = f"ann.t1.r{number}"
    return RunOrder(
        number, name, GAME, LIMIT_HOLDEM, hands, 7 + number, seats, folder / f"{name}.log",
        TimeLimits(10_000, 600_000, 10_000), 60_000, "127.0.0.1", "127.0.0.1",
    )  # fmt: skip


async def play_with_user(
    pool: RunExecutor, order: RunOrder, agent: str = "always-call"
) -> tuple[RunOutcome, str]:
    """Play ``order`` on ``pool``, the user's bot (``agent``) started on the host and port
    the run names, as bm_widget starts it: the outcome and the host."""
    told: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()

    def listening(ports: list[int], host: str | None) -> None:
        told.set_result((host or order.user_host, ports[0]))

    playing = asyncio.create_task(pool.play(order, listening))
    host, port = await asyncio.wait_for(told, 120)
    bot = create_agent(agent, seed=0)
    await play_match(host, port, bot, game=GAME)
    return await asyncio.wait_for(playing, 120), host


def logged_hands(path: Path) -> int:
    return path.read_bytes().count(b"\nSTATE:") if path.exists() else 0


async def test_runs_on_two_workers_log_what_the_local_pool_logs(
    tmp_path: Path, dask_pool: DaskRunPool
) -> None:
    (tmp_path / "dask").mkdir()
    (tmp_path / "local").mkdir()
    on_dask = await asyncio.gather(
        *(play_with_user(dask_pool, user_order(tmp_path / "dask", n)) for n in (1, 2))
    )
    assert {host for _, host in on_dask} == {"localhost", "127.0.0.1"}  # each worker's own
    local = LocalRunPool()
    try:
        for number, (outcome, _) in enumerate(on_dask, start=1):
            assert (outcome.status, outcome.hands, outcome.error) == (RunStatus.FINISHED, 60, None)
            here, _ = await play_with_user(local, user_order(tmp_path / "local", number))
            assert here.sums == outcome.sums
            name = f"ann.t1.r{number}.log"
            served = (tmp_path / "dask" / name).read_bytes()
            assert served == (tmp_path / "local" / name).read_bytes()
    finally:
        local.close()


async def test_a_run_stopped_on_a_worker_ends_after_its_hand(
    tmp_path: Path, dask_pool: DaskRunPool
) -> None:
    await stop_mid_run(dask_pool, tmp_path)


async def test_a_worker_without_the_data_folder_fails_the_run_at_once(
    tmp_path: Path, dask_pool: DaskRunPool
) -> None:
    order = user_order(tmp_path / "not-shared", 1)
    heard: list[object] = []
    outcome = await asyncio.wait_for(dask_pool.play(order, lambda *a: heard.append(a)), 120)
    assert outcome.status is RunStatus.FAILED and outcome.hands == 0 and heard == []
    assert outcome.error is not None
    assert f"the server's data folder ({tmp_path / 'not-shared'}) is not on the Dask worker " \
        "tcp://127.0.0.1:" in outcome.error  # fmt: skip


async def test_a_worker_killed_mid_run_fails_the_run_without_playing_it_again(
    tmp_path: Path, dask_pool: DaskRunPool, cluster: Cluster
) -> None:
    # (The module's last test: it leaves the cluster one worker short.)
    order = user_order(tmp_path, 3, hands=100_000)
    told: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    relisten: list[list[int]] = []

    def listening(ports: list[int], host: str | None) -> None:
        if told.done():
            relisten.append(ports)
        else:
            told.set_result((host or "?", ports[0]))

    playing = asyncio.create_task(dask_pool.play(order, listening))
    host, port = await asyncio.wait_for(told, 120)
    caller = create_agent("always-call", seed=0)
    bot = asyncio.create_task(play_match(host, port, caller, game=GAME))
    while logged_hands(order.log) < 20:
        await asyncio.sleep(0.1)
    doomed = cluster.workers[0 if host == "localhost" else 1]  # w1 names itself localhost
    doomed.send_signal(signal.SIGKILL)
    outcome = await asyncio.wait_for(playing, 120)
    await asyncio.gather(bot, return_exceptions=True)  # its dealer is gone
    kept = read_log(order.log).hands
    assert outcome.status is RunStatus.FAILED and 20 <= outcome.hands == kept < 100_000
    assert outcome.error is not None and "worker" in outcome.error and "died" in outcome.error
    assert relisten == []  # never started again, so never announced again
