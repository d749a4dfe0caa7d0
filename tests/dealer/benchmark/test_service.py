"""The service's life: a stop records every run it started, even one whose start it cut."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from dealer.benchmark.schema import RunState
from tests.dealer.benchmark.server import LIMIT, LineClient, running


async def test_a_stop_while_a_run_is_being_recorded_leaves_it_ended(tmp_path: Path) -> None:
    # The database thread writes the run's record only once the stop has cancelled the
    # scheduler that waits for it: the record lands all the same, for a run never played.
    held, go_on = threading.Event(), threading.Event()

    def hold(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO RUNS"):
            held.set()
            go_on.wait(30)

    async with running(tmp_path) as server:
        sa.event.listen(server.service.store.engine, "before_cursor_execute", hold)
        scheduler = server.service._scheduler
        assert scheduler is not None
        scheduler.add_done_callback(lambda _: go_on.set())
        client = await LineClient.open(server.port, "neil test")
        await client.logged_on()
        client.send(f"RUNMATCHES {LIMIT} 1 cut 5 LOCAL caller")
        assert await client.read_until(b"\n") == b"# QUEUED neil.cut 1 run\n"
        while not held.is_set():
            await asyncio.sleep(0.01)
        client.close()
    assert go_on.is_set()  # (not the hold's timeout)
    store = server.store()
    assert store.unended_runs() == []  # nothing left as starting for the next start to "lose"
    neil = store.user("neil")
    assert neil is not None
    (run,) = store.runs_of(store.requests_of(neil.id)[0].id)
    assert (run.state, run.hands, run.error) == (
        RunState.INTERRUPTED, 0, "the server stopped as it started"
    )  # fmt: skip
