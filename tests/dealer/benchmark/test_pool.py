"""Runs in processes of their own (the fork server's), as the server awaits them: a house bot
started by its startup script as the reference starts one, a run stopped after its hand, and
duplicate pairs with the user's bot played by the test as bm_widget would start it."""

from __future__ import annotations

import asyncio
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from acpcbot.client import play_match
from acpcbot.game import LIMIT_HOLDEM, bundled_game
from agents.registry import create_agent, entrant
from dealer.analysis.playedlog import read_log
from dealer.analysis.results import duplicate_result
from dealer.benchmark.pool import LocalRunPool, RunExecutor, RunStopped
from dealer.benchmark.runs import RunOrder, RunSeat, RunStatus, SeatKind
from dealer.benchmark.schema import RequestState, ResultKind, RunState
from tests.dealer.benchmark.server import LIMIT, LineClient, config, running

pytestmark = pytest.mark.e2e

GAME = bundled_game()


@pytest.fixture
def pool() -> Iterator[LocalRunPool]:
    runs = LocalRunPool()
    yield runs
    runs.close()


def script(folder: Path) -> Path:
    """A startup script as the reference's config names one: run with HOST PORT POSITION,
    it notes its position and plays always-call there."""
    path = folder / "caller.sh"
    python = sys.executable
    path.write_text(
        "#!/bin/sh\n"
        f'echo "$3" > "{folder}/position"\n'
        f'exec "{python}" -c "import sys; from acpcbot.cli import main; sys.exit(main())" '
        'play "$1" "$2" --agent always-call\n'
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


async def test_a_startup_script_plays_a_house_seat(tmp_path: Path, pool: LocalRunPool) -> None:
    seats = (
        RunSeat("example", SeatKind.AGENT, entrant=entrant("example"), agent_seed=1),
        RunSeat("scripted", SeatKind.SCRIPT, script=script(tmp_path), position=1),
    )
    order = RunOrder(1, "h.t.r1", GAME, LIMIT_HOLDEM, 40, 9, seats, tmp_path / "h.t.r1.log")
    ports: list[list[int]] = []
    outcome = await asyncio.wait_for(pool.play(order, lambda p, host: ports.append(p)), 120)
    assert (outcome.status, outcome.hands, outcome.error) == (RunStatus.FINISHED, 40, None)
    assert len(ports) == 1 and len(ports[0]) == 2
    assert (tmp_path / "position").read_text() == "1\n"
    assert read_log(order.log).seat_names == ("example", "scripted")


async def test_a_run_cancelled_stops_after_its_hand_and_says_how_far_it_got(
    tmp_path: Path, pool: LocalRunPool
) -> None:
    await stop_mid_run(pool, tmp_path)


async def stop_mid_run(pool: RunExecutor, folder: Path) -> None:
    """A long run of two house agents on ``pool``, cancelled once it plays: it stops after
    its hand, and its outcome says how far it got, as its log does."""
    seats = (
        RunSeat("caller", SeatKind.AGENT, entrant=entrant("always-call")),
        RunSeat("raiser", SeatKind.AGENT, entrant=entrant("always-raise")),
    )
    order = RunOrder(2, "h.t.r2", GAME, LIMIT_HOLDEM, 2_000_000, 9, seats, folder / "r.log")
    played = asyncio.Event()
    playing = asyncio.create_task(
        pool.play(order, lambda ports, host: None, lambda hands: played.set())
    )
    await asyncio.wait_for(played.wait(), 120)
    playing.cancel()
    with pytest.raises(RunStopped) as stopped:
        await asyncio.wait_for(playing, 60)
    outcome = stopped.value.outcome
    assert outcome.status is RunStatus.INTERRUPTED and 0 < outcome.hands < 2_000_000
    assert read_log(order.log).hands == outcome.hands


async def test_duplicate_pairs_are_played_and_scored_over_the_pairs(tmp_path: Path) -> None:
    async with running(tmp_path, config(max_running_bots=0)) as server:
        client = await LineClient.open(server.port, "neil test")
        await client.logged_on()
        client.send(f"RUNMATCHES {LIMIT} 1 d 7 LOCAL raiser DUPLICATE")
        assert await client.read_until(b"\n") == b"# QUEUED neil.d 2 runs\n"
        bots = []
        ended: list[str] = []
        while len(ended) < 2:
            line = (await client.read_until(b"\n", 120)).decode()
            if line.startswith("RUN "):
                _, host, port = line.split()
                caller = create_agent("always-call", seed=0)
                bots.append(asyncio.create_task(play_match(host, int(port), caller, game=GAME)))
            elif line.startswith("# ENDED"):
                ended.append(line)
        assert ended == [
            "# ENDED neil.d.r1.a finished 50 hands\n",
            "# ENDED neil.d.r1.b finished 50 hands\n",
        ]
        await asyncio.gather(*bots)
        client.send("RESULTS")
        standing = (await client.read_until(b"\n")).decode()
        client.close()
        store = server.store()
        neil = store.user("neil")
        assert neil is not None
        (request,) = store.requests_of(neil.id)
        first, second = store.runs_of(request.id)
        assert (first.seats, second.seats) == (("neil", "raiser"), ("raiser", "neil"))
        assert first.seed == second.seed == 7
        assert (first.state, second.state) == (RunState.FINISHED, RunState.FINISHED)
        pairs = [r for r in store.results_of_run(second.id) if r.kind is ResultKind.PAIRS]
        assert [(r.player, r.opponent, r.samples, r.partner_run_id) for r in pairs] == [
            ("neil", "raiser", 50, first.id),
            ("raiser", "neil", 50, first.id),
        ]
    # The same as acpcbot results gives for the two logs.
    pair = duplicate_result(read_log(tmp_path / first.log), read_log(tmp_path / second.log), 10)
    assert pairs[0].total / 50 * 100 == pytest.approx(pair.estimate.mbb_per_game)
    assert standing == (
        f"# d vs raiser: duplicate over 50 pairs (1 run): {pair.estimate.mbb_per_game:+.1f} "
        f"mbb/g ± {pair.estimate.ci95_mbb:.1f} (95% CI)\n"
    )


async def test_bm_run_matches_runs_its_matches_then_hears_they_finished(tmp_path: Path) -> None:
    """The reference's later client: everything on its logon line, its script started for
    each RUN line, and its end on ``Matches finished``."""
    async with running(tmp_path) as server:
        script = "./play_my_bot.sh"  # (its own: the server never sees it run)
        client = await LineClient.open(
            server.port, f"neil test run 2pl {script} 2 b 7 local caller"
        )
        lines: list[str] = []
        bots = []
        while not lines or lines[-1] != "Matches finished\n":
            line = (await client.read_until(b"\n", 120)).decode()
            lines.append(line)
            if line.startswith("RUN "):
                _, host, port = line.split()
                raiser = create_agent("always-raise", seed=0)
                bots.append(asyncio.create_task(play_match(host, int(port), raiser, game=GAME)))
        assert await client.read_to_close() == b""  # and the server closed the connection
        await asyncio.gather(*bots)
        said = [line for line in lines if not line.startswith("RUN ")]
        assert said == [
            "LOGON OKAY - type help for commands\n",
            "# QUEUED neil.b 2 runs\n",
            "# RUNNING neil.b\n",
            "# ENDED neil.b.r1 finished 50 hands\n",
            "# RUNNING neil.b\n",
            "# ENDED neil.b.r2 finished 50 hands\n",
            "Matches finished\n",
        ]
        (request,) = server.store().requests_of(server.store().user("neil").id)  # type: ignore[union-attr]
        assert (request.players, request.seed, request.state) == (
            ("LOCAL", "caller"), 7, RequestState.DONE
        )  # fmt: skip
