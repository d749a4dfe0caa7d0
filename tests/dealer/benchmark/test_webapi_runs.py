"""Runs asked for over HTTP and played (``e2e``: each run plays in a process of its own): the
user's bot started from the API's bot stream, the runs followed live (hands so far, running
mbb/g), their logs downloaded by their user only, the duplicate result in "my results" and
on the leaderboard; single runs submitted the reference's way (the same seed twice, the
players reversed) paired as a duplicate pair is; a request cancelled while its run plays (the
run stops after its hand, no other starts)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from acpcbot.actions import CALL
from acpcbot.client import play_match
from acpcbot.game import bundled_game
from acpcbot.player import Player
from agents.base import Agent
from agents.registry import entrant
from dealer.analysis.stats import estimate
from dealer.benchmark.lineprotocol import read_run
from dealer.web.logs import LogTail
from tests.dealer.benchmark.server import LIMIT, Server, config, running
from tests.dealer.benchmark.test_webapi import ANN, NEIL, call

pytestmark = pytest.mark.e2e

CONFIG = f"""
game {LIMIT} {{
  maxMatchRuns 3
  maxRunningJobs 2
  matchHands 600
  bot caller always-call
  bot raiser always-raise
}}
user neil test
user ann pw
"""


class SlowCaller(Agent):
    """Calls after 10 ms: a run long enough to be cancelled while it plays."""

    name = "slow-caller"

    def act(self, state: Any, betting: Any) -> Any:
        time.sleep(0.01)
        return CALL


@contextlib.asynccontextmanager
async def bot_stream(
    server: Server, headers: dict[str, str], bot: Callable[[str], Player]
) -> AsyncIterator[list[str]]:
    """The user's bot stream open: for each ``RUN HOST PORT`` it is told, the player
    ``bot(job tag)`` plays that run (in this process, over TCP). Yields the lines told."""
    told: list[str] = []
    games: set[asyncio.Task[Any]] = set()
    ready = asyncio.Event()

    async def listen() -> None:
        job = ""
        async with (
            aiohttp.ClientSession() as session,
            session.get(server.url + "/api/my/bot", headers=headers) as stream,
        ):
            ready.set()
            async for raw in stream.content:
                line = raw.decode().rstrip("\n")
                if not line.startswith("data: "):
                    continue
                line = line.removeprefix("data: ")
                told.append(line)
                if line.startswith("# RUNNING "):
                    job = line.removeprefix("# RUNNING ")
                run = read_run(line)
                if run is not None:
                    host, port = run
                    player = bot(job)
                    game = asyncio.create_task(
                        play_match(host, int(port), player, game=bundled_game(), name="ann")
                    )
                    games.add(game)

    listening = asyncio.create_task(listen())
    await asyncio.wait_for(ready.wait(), 30)
    try:
        yield told
    finally:
        listening.cancel()
        await asyncio.gather(listening, *games, return_exceptions=True)


async def until(check: Callable[[], Any], what: str, timeout: float = 240.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.2)


def estimate_json(chips: Sequence[float]) -> dict[str, Any]:
    """The result of ``chips`` as the API shows it."""
    shown = estimate(chips, bundled_game().big_blind)
    ci = round(shown.ci95_mbb, 1) if math.isfinite(shown.ci95_mbb) else None
    return {"mbb": round(shown.mbb_per_game, 1), "ci": ci, "samples": shown.samples}


async def request_of(server: Server, number: int) -> dict[str, Any]:
    status, shown = await call(server, "GET", f"/api/my/requests/{number}", ANN)
    assert status == 200, shown
    return dict(shown)


async def submit(server: Server, **body: Any) -> int:
    body = {"game": LIMIT, "runs": 1, "seed": 7} | body
    status, made = await call(server, "POST", "/api/my/requests", ANN, body)
    assert status == 201, made
    return int(made["id"])


async def test_runs_asked_for_over_http_play_are_followed_and_their_logs_are_their_users(
    tmp_path: Path,
) -> None:
    example = entrant("example")
    async with (
        running(tmp_path, config(CONFIG), web=True) as server,
        bot_stream(server, ANN, lambda job: example.create(3)) as told,
    ):
        first = await submit(server, tag="v1", players=["LOCAL", "caller"], duplicate=True)
        seen: list[dict[str, Any]] = []

        async def done() -> bool:
            # (Several views at once, as several pages of the user's would ask: each reads
            # the logs' growth once.)
            views = await asyncio.gather(*(request_of(server, first) for _ in range(6)))
            for shown in views:
                seen.extend(r for r in shown["runs_detail"] if r["state"] == "playing")
            return bool(views[-1]["state"] == "done")

        await until(done, "the duplicate pair played")
        assert "# RUNNING ann.v1" in told and "# ENDED ann.v1.r1.b finished 600 hands" in told
        # Followed live: hands so far and a running mbb/g while it played.
        assert any(0 < r["hands"] < 600 and r["result"] is not None for r in seen), seen
        # Each as its log says, though several read it at once: the running result that of
        # the log's first hands (each read once).
        for r in seen:
            whole = LogTail(server.data / f"logs/ann/{r['name']}.log")
            whole.update()
            assert r["hands"] <= 600, r
            if r["result"] is not None:
                so_far = whole.chips["ann"][: r["result"]["samples"]]
                assert r["result"] == estimate_json(so_far), r
        shown = await request_of(server, first)
        b, a = shown["runs_detail"]
        assert (a["name"], a["state"], a["hands"]) == ("ann.v1.r1.a", "finished", 600)
        assert b["pair"] is not None and b["pair"]["samples"] == 600
        # Its logs: Ann's to download, nobody else's.
        for run in (a, b):
            status, log = await call(server, "GET", run["log"], ANN)
            assert status == 200
            assert log == (server.data / f"logs/ann/{run['name']}.log").read_bytes()
            assert log.count(b"\nSTATE:") == 600
            assert (await call(server, "GET", run["log"], NEIL))[0] == 404
        # The reference's way: the same seed twice, the players reversed, single runs.
        # (Both may play at once, and either end first: the pair is recorded at the later.)
        halves = [
            await submit(server, tag="ref", players=["LOCAL", "caller"], duplicate=False),
            await submit(server, tag="ref", players=["caller", "LOCAL"], duplicate=False),
        ]

        async def reference_done() -> bool:
            return all([(await request_of(server, n))["state"] == "done" for n in halves])

        await until(reference_done, "the reference's pair played")
        status, results = await call(server, "GET", "/api/my/results", ANN)
        pairs = {r["tag"]: r for r in results["results"] if r["kind"] == "pairs"}
        # The same cards, the same bots, the same seeds: the same result as the pair.
        assert pairs["ref"] | {"tag": "v1"} == pairs["v1"], results
        status, board = await call(server, "GET", "/api/leaderboard")
        caller = next(b for b in board["boards"] if b["bot"] == "caller")
        (row,) = caller["rows"]
        assert (row["user"], row["tag"] in ("ref", "v1"), row["hands"]) == ("ann", True, 1200)
        assert row["mbb"] == pairs["v1"]["mbb"]


async def test_a_request_cancelled_while_its_run_plays_stops_after_the_hand(
    tmp_path: Path,
) -> None:
    async with (
        running(tmp_path, config(CONFIG), web=True) as server,
        bot_stream(server, ANN, lambda job: SlowCaller()) as told,
    ):
        number = await submit(server, tag="c", runs=3, players=["LOCAL", "caller"])

        async def playing() -> dict[str, Any] | None:
            runs = (await request_of(server, number))["runs_detail"]
            return next((r for r in runs if r["state"] == "playing" and r["hands"] > 0), None)

        await until(playing, "the first run plays")
        status, cancelled = await call(server, "POST", f"/api/my/requests/{number}/cancel", ANN)
        assert status == 200 and cancelled["state"] == "cancelled" and cancelled["left"] == 0

        async def ended() -> dict[str, Any] | None:
            (run,) = (await request_of(server, number))["runs_detail"]
            return run if run["state"] == "interrupted" else None

        run = await until(ended, "the run stopped")
        assert run["error"] == "cancelled by its user" and 0 < run["hands"] < 600
        log = (server.data / "logs/ann/ann.c.r1.log").read_text()
        assert log.count("\nSTATE:") == run["hands"]  # every hand played, to the last
        await asyncio.sleep(2)
        shown = await request_of(server, number)
        assert len(shown["runs_detail"]) == 1 and shown["state"] == "cancelled"  # no more
        assert f"# ENDED ann.c.r1 interrupted {run['hands']} hands: cancelled by its user" in told
        assert json.dumps(shown).count('"state": "interrupted"') == 1
