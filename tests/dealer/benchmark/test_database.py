"""The server's database on a real SQLite file and on a real PostgreSQL server (Debian's, started
by :mod:`tests.postgresserver`; those tests are end to end): migrated at open, every change
committed, read back the same by another connection (another process would see the same
file), and all of it kept when the database is opened again, as a restarted server opens it."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from dealer.benchmark.database import (
    DatabaseError,
    ResultRecord,
    Store,
    database_url,
)
from dealer.benchmark.schema import RequestState, ResultKind, RunState
from tests.postgresserver import Postgres

LIMIT = "holdem.limit.2p.reverse_blinds.game"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.e2e)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database: a SQLite file in the test's folder, or a PostgreSQL database."""
    if request.param == "sqlite":
        return database_url(None, tmp_path)
    server: Postgres = request.getfixturevalue("postgres")
    return server.new_database()


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    opened = Store.open(url)
    yield opened
    opened.close()


def add_request(store: Store, user_id: int, *, tag: str = "t1", runs: int = 2,
                duplicate: bool = False) -> int:  # fmt: skip
    request = store.add_request(
        user_id, game=LIMIT, tag=tag, runs=runs, rng_seed=7, seed=7, players=("LOCAL", "dpp"),
        duplicate=duplicate, now=10.0, address="127.0.0.1",
    )  # fmt: skip
    return request.id


def test_a_new_database_is_migrated_to_the_latest_revision(url: str) -> None:
    store = Store.open(url)
    assert store.revision() == "0001"
    tables = set(sa.inspect(store.engine).get_table_names())
    assert tables == {"users", "requests", "runs", "results", "alembic_version"}
    store.close()
    again = Store.open(url)  # the migrations run again at every start: nothing to do
    assert again.revision() == "0001"
    again.close()


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    Store.open(database_url(None, tmp_path)).close()
    with sqlite3.connect(tmp_path / "server.db") as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_database_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "server.db").write_bytes(b"not a database" * 100)
    with pytest.raises(DatabaseError, match=r"cannot open database sqlite:///.*server.db: file"):
        Store.open(database_url(None, tmp_path))
    with pytest.raises(DatabaseError, match="cannot use database nosuch://"):
        Store.open("nosuch://x")


def test_an_unreachable_postgresql_is_one_line_without_its_password() -> None:
    pytest.importorskip("psycopg", reason="the postgres extra is not installed")
    url = database_url("postgresql://bench:s3cret@127.0.0.1:1/bench", Path())
    with pytest.raises(DatabaseError) as refused:
        Store.open(url)
    said = str(refused.value)
    assert said.startswith("cannot open database postgresql+psycopg://bench:***@127.0.0.1:1/")
    assert "s3cret" not in said and "\n" not in said


def test_users_are_kept_and_configured_ones_updated(url: str, store: Store) -> None:
    store.add_user("ann", "h1", source="command", now=1.0, admin=True)
    with pytest.raises(DatabaseError, match="there is a user ann already"):
        store.add_user("ann", "h2", source="command", now=1.0)
    store.sync_config_users([("neil", "h3")], now=2.0)
    store.set_disabled("neil", True)
    store.sync_config_users([("neil", "h4"), ("ann", "h5")], now=3.0)
    again = Store.open(url)  # what another connection sees
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


def test_a_cancelled_request_leaves_the_queue(store: Store) -> None:
    ann = store.add_user("ann", "h", source="command", now=1.0)
    kept, cancelled = add_request(store, ann.id, tag="a"), add_request(store, ann.id, tag="b")
    store.cancel_request(cancelled)
    assert [r.id for r in store.open_requests()] == [kept]
    assert [(r.tag, r.state) for r in store.requests_of(ann.id)] == [
        ("a", RequestState.QUEUED),
        ("b", RequestState.CANCELLED),
    ]


def test_everything_is_read_back_the_same_after_a_restart(url: str, store: Store) -> None:
    """Every record, as a server restarted on the same database reads it."""
    ann = store.add_user("ann", "h1", source="command", now=1.5, admin=True)
    neil = store.add_user("neil", "h2", source="config", now=2.25)
    store.set_password("neil", "h3")
    store.set_disabled("ann", True)
    first = add_request(store, ann.id, runs=1, duplicate=True)
    second = add_request(store, neil.id, tag="t9", runs=3)
    a = store.start_run(first, seed=2**32 - 1, seats=("ann", "dpp"), half=0, now=3.125,
                        log_folder="logs/ann")  # fmt: skip
    store.run_playing(a.id)
    rows = [ResultRecord(ResultKind.HANDS, "ann", ann.id, "dpp", 50, -12.5, 1e12)]
    store.end_run(a.id, RunState.FINISHED, hands=50, error=None, now=4.0, results_of_run=rows)
    b = store.start_run(first, seed=2**32 - 1, seats=("dpp", "ann"), half=1, now=5.0,
                        log_folder="logs/ann")  # fmt: skip
    lost = store.start_run(second, seed=77, seats=("neil", "dpp"), half=None, now=6.0,
                           log_folder="logs/neil")  # fmt: skip
    store.run_playing(lost.id)
    pairs = [ResultRecord(ResultKind.PAIRS, "ann", ann.id, "dpp", 50, 30.0, 900.0, 1, a.id)]
    store.end_run(b.id, RunState.FINISHED, hands=50, error=None, now=7.0, results_of_run=pairs,
                  told=True)  # fmt: skip

    def everything(store: Store) -> tuple[Any, ...]:
        return (
            store.users(),
            [store.requests_of(u.id) for u in (ann, neil)],
            [store.runs_of(r) for r in (first, second)],
            store.unended_runs(),
            store.untold_runs(neil.id),
            store.results_of(ann.id),
            [store.results_of_run(r.id) for r in (a, b)],
            store.open_requests(),
            store.run(lost.id),
        )

    before = everything(store)
    store.close()
    again = Store.open(url)
    after = everything(again)
    again.close()
    assert after == before
    users, asked, played, unended, _, results, _, queued, lost_again = after
    assert [(u.name, u.admin, u.disabled, u.password_hash) for u in users] == [
        ("ann", True, True, "h1"),
        ("neil", False, False, "h3"),
    ]
    assert asked[0][0].state is RequestState.DONE and [r.id for r in queued] == [second]
    assert [r.seed for r in played[0]] == [2**32 - 1] * 2  # 32-bit seeds kept whole
    assert (played[0][0].started, played[0][0].ended) == (3.125, 4.0)  # times kept exactly
    assert [r.id for r in unended] == [lost.id] and lost_again.state is RunState.PLAYING
    assert [(r.kind, r.samples, r.squares) for _, r in results] == [
        (ResultKind.HANDS, 50, 1e12),
        (ResultKind.PAIRS, 50, 900.0),
    ]
