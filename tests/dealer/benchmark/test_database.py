"""The server's database on a real SQLite file: migrated at open, every change committed, read
back the same by another connection (another process would see the same file)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dealer.benchmark.database import (
    DatabaseError,
    ResultRecord,
    Store,
    database_url,
)
from dealer.benchmark.schema import RequestState, ResultKind, RunState

LIMIT = "holdem.limit.2p.reverse_blinds.game"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(database_url(None, tmp_path))


def add_request(store: Store, user_id: int, *, tag: str = "t1", runs: int = 2,
                duplicate: bool = False) -> int:  # fmt: skip
    request = store.add_request(
        user_id, game=LIMIT, tag=tag, runs=runs, rng_seed=7, seed=7, players=("LOCAL", "dpp"),
        duplicate=duplicate, now=10.0, address="127.0.0.1",
    )  # fmt: skip
    return request.id


def test_a_new_database_is_migrated_to_the_latest_revision(tmp_path: Path) -> None:
    store = Store.open(database_url(None, tmp_path))
    assert store.revision() == "0001"
    store.close()
    with sqlite3.connect(tmp_path / "server.db") as raw:
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        mode = raw.execute("PRAGMA journal_mode").fetchone()[0]
    assert {"users", "requests", "runs", "results", "alembic_version"} <= tables
    assert mode == "wal"
    assert Store.open(database_url(None, tmp_path)).revision() == "0001"  # opened again


def test_a_database_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "server.db").write_bytes(b"not a database" * 100)
    with pytest.raises(DatabaseError, match=r"cannot open database sqlite:///.*server.db: file"):
        Store.open(database_url(None, tmp_path))
    with pytest.raises(DatabaseError, match="cannot use database nosuch://"):
        Store.open("nosuch://x")


def test_users_are_kept_and_configured_ones_updated(tmp_path: Path, store: Store) -> None:
    store.add_user("ann", "h1", source="command", now=1.0, admin=True)
    with pytest.raises(DatabaseError, match="there is a user ann already"):
        store.add_user("ann", "h2", source="command", now=1.0)
    store.sync_config_users([("neil", "h3")], now=2.0)
    store.set_disabled("neil", True)
    store.sync_config_users([("neil", "h4"), ("ann", "h5")], now=3.0)
    again = Store.open(database_url(None, tmp_path))  # what another connection sees
    users = {u.name: u for u in again.users()}
    assert (users["ann"].password_hash, users["ann"].admin, users["ann"].source) == (
        "h5",
        True,
        "command",
    )
    assert (users["neil"].password_hash, users["neil"].disabled) == ("h4", False)
    assert "h4" not in repr(users["neil"])
    with pytest.raises(DatabaseError, match="there is no user bob"):
        again.set_password("bob", "x")


def test_runs_are_numbered_per_user_and_tag_and_end_their_request(store: Store) -> None:
    ann = store.add_user("ann", "h", source="command", now=1.0)
    first, second = add_request(store, ann.id), add_request(store, ann.id)
    run = store.start_run(first, seed=11, seats=("ann", "dpp"), half=None, now=20.0,
                          log_folder="logs/ann")  # fmt: skip
    assert (run.match_name, run.log, run.state, run.job) == (
        "ann.t1.r1",
        "logs/ann/ann.t1.r1.log",
        RunState.STARTING,
        0,
    )
    assert store.request(first).queued_at == 20.0 and store.user("ann").wait_start == 20.0  # type: ignore[union-attr]
    store.run_playing(run.id)
    store.end_run(run.id, RunState.FINISHED, hands=50, error=None, now=21.0)
    run2 = store.start_run(first, seed=12, seats=("ann", "dpp"), half=None, now=22.0,
                           log_folder="logs/ann")  # fmt: skip
    run3 = store.start_run(second, seed=13, seats=("ann", "dpp"), half=None, now=23.0,
                           log_folder="logs/ann")  # fmt: skip
    assert (run2.match_name, run3.match_name) == ("ann.t1.r2", "ann.t1.r3")  # never a name twice
    assert store.request(first).state is RequestState.QUEUED  # its second run plays
    done = store.end_run(run2.id, RunState.FAILED, hands=3, error="gone", now=24.0)
    assert done.state is RequestState.DONE and done.started == 2
    assert [r.id for r in store.unended_runs()] == [run3.id]
    assert [r.id for r in store.untold_runs(ann.id)] == [run2.id]
    store.mark_told([run2.id])
    assert store.untold_runs(ann.id) == []
    assert [r.id for r in store.open_requests()] == [second]


def test_a_duplicate_pairs_halves_share_a_number(store: Store) -> None:
    ann = store.add_user("ann", "h", source="command", now=1.0)
    request = add_request(store, ann.id, runs=1, duplicate=True)
    assert store.request(request).jobs == 2
    a = store.start_run(request, seed=5, seats=("ann", "dpp"), half=0, now=2.0, log_folder="l")
    store.end_run(a.id, RunState.FINISHED, hands=50, error=None, now=3.0)
    b = store.start_run(request, seed=5, seats=("dpp", "ann"), half=1, now=4.0, log_folder="l")
    assert (a.match_name, b.match_name, b.seats) == ("ann.t1.r1.a", "ann.t1.r1.b", ("dpp", "ann"))


def test_results_are_kept_with_their_runs(store: Store) -> None:
    ann = store.add_user("ann", "h", source="command", now=1.0)
    request = add_request(store, ann.id, runs=1)
    run = store.start_run(request, seed=5, seats=("ann", "dpp"), half=None, now=2.0, log_folder="l")
    rows = [
        ResultRecord(ResultKind.HANDS, "ann", ann.id, "dpp", 50, 120.0, 9000.0),
        ResultRecord(ResultKind.HANDS, "dpp", None, "ann", 50, -120.0, 9000.0),
    ]
    store.end_run(run.id, RunState.FINISHED, hands=50, error=None, now=3.0, results_of_run=rows)
    ((asked, result),) = store.results_of(ann.id)
    assert asked.id == request and asked.tag == "t1"
    assert result == ResultRecord(ResultKind.HANDS, "ann", ann.id, "dpp", 50, 120.0, 9000.0,
                                  run_id=run.id)  # fmt: skip


def test_a_request_without_runs_is_done_at_once(store: Store) -> None:
    ann = store.add_user("ann", "h", source="command", now=1.0)
    assert store.request(add_request(store, ann.id, runs=0)).state is RequestState.DONE
    assert store.open_requests() == []
