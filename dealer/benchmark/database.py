"""The benchmark server's database: SQLite in the data folder by default, PostgreSQL for a
shared deployment, through SQLAlchemy Core; the tables made and kept up to date by the
migrations (Alembic), run at every start.

:class:`Store` is synchronous and commits every change before it returns: the server calls it
on one thread of its own (:class:`~dealer.benchmark.service.BenchmarkService`), so the event
loop never waits on a disk, and an answer to a client is written only after what it
answers is committed. SQLite runs in WAL mode with full syncs (a request accepted survives a
power cut, not only a killed server), foreign keys on, and a busy timeout for the command
line's ``user`` subcommands run beside a live server.

>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as tmp:
...     store = Store.open(f"sqlite:///{tmp}/server.db")
...     alice = store.add_user("alice", "$argon2id$...", source="command", now=1.0)
...     [user.name for user in store.users()], store.revision()
(['alice'], '0001')
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from acpcbot.errors import AcpcError
from dealer.benchmark.schema import (
    RequestState,
    ResultKind,
    RunState,
    requests,
    results,
    runs,
    users,
)

__all__ = [
    "BoardTotals",
    "DatabaseError",
    "RequestRecord",
    "ResultRecord",
    "RunRecord",
    "Store",
    "UserRecord",
    "database_url",
]


class DatabaseError(AcpcError):
    """The database cannot be opened or used (one line, naming it without its password)."""


def database_url(given: str | None, data: Path) -> str:
    """The SQLAlchemy URL of the database: ``given`` (a ``postgresql://`` URL is read with
    psycopg 3), or SQLite's ``server.db`` in the data folder.

    >>> database_url(None, Path("/srv/bench"))
    'sqlite:////srv/bench/server.db'
    >>> database_url("postgresql://bench@db/bench", Path("."))
    'postgresql+psycopg://bench@db/bench'
    """
    if given is None:
        return f"sqlite:///{data.resolve() / 'server.db'}"
    if given.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + given.split("://", 1)[1]
    return given


def shown_url(url: str) -> str:
    """``url`` without its password, for messages."""
    try:
        return sa.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        return "(a URL that cannot be read)"


@dataclass(frozen=True, slots=True)
class UserRecord:
    id: int
    name: str
    password_hash: str = field(repr=False)
    admin: bool
    disabled: bool
    source: str
    """``config`` (from the configuration file) or ``command`` (``serve user add``)."""
    created: float
    wait_start: float
    """When one of the user's runs last started (the reference's ``waitStart``)."""


@dataclass(frozen=True, slots=True)
class RequestRecord:
    id: int
    user_id: int
    user: str
    game: str
    tag: str
    runs: int
    rng_seed: int
    """As the request gave it (0: drawn by the server)."""
    seed: int
    """The seed the runs' seeds come from (:mod:`dealer.benchmark.seeds`)."""
    players: tuple[str, ...]
    duplicate: bool
    jobs: int
    """Runs to play in all (twice :attr:`runs` for duplicate pairs)."""
    started: int
    state: RequestState
    created: float
    queued_at: float
    """When it was queued, or when its last run started (the reference's ``queueTime``)."""
    address: str | None
    """The address the request came from (its user seats admit only it by default)."""


@dataclass(frozen=True, slots=True)
class RunRecord:
    id: int
    request_id: int
    job: int
    """Its index among the request's runs (0 first)."""
    number: int
    """Its number among the user's runs with this tag (the ``rN`` of its name)."""
    half: int | None
    """0 or 1 in a duplicate pair; ``None`` otherwise."""
    seed: int
    match_name: str
    log: str
    """The log's path in the data folder."""
    seats: tuple[str, ...]
    """The players' names in the log, in seat order."""
    state: RunState
    hands: int
    error: str | None
    started: float
    ended: float | None
    told: bool
    """The user was told how it ended (when it did not finish)."""


@dataclass(frozen=True, slots=True)
class ResultRecord:
    """A player's winnings over a run (per hand) or a duplicate pair (per pair of hands),
    as the sums :class:`dealer.analysis.stats.SampleSums` keeps."""

    kind: ResultKind
    player: str
    user_id: int | None
    opponent: str
    samples: int
    total: float
    squares: float
    unpaired: int = 0
    partner_run_id: int | None = None
    """For a pair, its first half (the result is recorded with the second)."""
    run_id: int | None = None
    """The run it was recorded with (when read back)."""


@dataclass(frozen=True, slots=True)
class BoardTotals:
    """A user's duplicate results with one tag against one opponent in one game, summed
    over every pair of runs (:meth:`Store.pair_totals`)."""

    user: str
    game: str
    tag: str
    opponent: str
    pairs: int
    """Pairs of runs pooled."""
    samples: int
    """Pairs of hands."""
    total: float
    squares: float
    unpaired: int


class Store:
    """The server's tables, each change committed before a method returns."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine

    @classmethod
    def open(cls, url: str) -> Store:
        """Connect to ``url`` and migrate its tables to the latest revision."""
        try:
            engine = sa.create_engine(url, pool_pre_ping=True)
        except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ImportError) as exc:
            raise DatabaseError(f"cannot use database {shown_url(url)}: {exc}") from None
        if engine.dialect.name == "sqlite":
            sa.event.listen(engine, "connect", _sqlite_pragmas)
        store = cls(engine)
        try:
            store.migrate()
        except sa.exc.SQLAlchemyError as exc:
            engine.dispose()
            why = str(exc.orig if isinstance(exc, sa.exc.DBAPIError) else exc).splitlines()[0]
            raise DatabaseError(f"cannot open database {shown_url(url)}: {why}") from None
        return store

    def migrate(self) -> None:
        """``alembic upgrade head`` on this database."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", "dealer.benchmark:migrations")
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def revision(self) -> str | None:
        """The migration the tables are at."""
        with self.engine.connect() as connection:
            return connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()

    def close(self) -> None:
        self.engine.dispose()

    # -- users ---------------------------------------------------------------------

    def add_user(
        self, name: str, password_hash: str, *, source: str, now: float, admin: bool = False
    ) -> UserRecord:
        """A new user (:class:`DatabaseError` if the name is taken)."""
        with self.engine.begin() as c:
            if c.execute(sa.select(users.c.id).where(users.c.name == name)).first():
                raise DatabaseError(f"there is a user {name} already")
            c.execute(_new_user(name, password_hash, source=source, now=now, admin=admin))
        user = self.user(name)
        assert user is not None
        return user

    def sync_config_users(self, configured: Iterable[tuple[str, str]], *, now: float) -> None:
        """Create the configuration's users (name, password hash), or give those that exist
        the configuration's password (and enable them)."""
        with self.engine.begin() as c:
            for name, password_hash in configured:
                found = c.execute(sa.select(users.c.id).where(users.c.name == name)).first()
                if found is None:
                    c.execute(_new_user(name, password_hash, source="config", now=now))
                else:
                    c.execute(
                        users.update()
                        .where(users.c.id == found.id)
                        .values(password_hash=password_hash, disabled=False)
                    )

    def set_password(self, name: str, password_hash: str) -> None:
        self._update_user(name, password_hash=password_hash)

    def set_disabled(self, name: str, disabled: bool) -> None:
        self._update_user(name, disabled=disabled)

    def _update_user(self, name: str, **values: Any) -> None:
        with self.engine.begin() as c:
            done = c.execute(users.update().where(users.c.name == name).values(**values))
            if done.rowcount == 0:
                raise DatabaseError(f"there is no user {name}")

    def user(self, name: str) -> UserRecord | None:
        with self.engine.connect() as c:
            row = c.execute(sa.select(users).where(users.c.name == name)).first()
        return None if row is None else _user(row)

    def users(self) -> list[UserRecord]:
        with self.engine.connect() as c:
            return [_user(r) for r in c.execute(sa.select(users).order_by(users.c.name))]

    # -- requests ------------------------------------------------------------------

    def add_request(
        self,
        user_id: int,
        *,
        game: str,
        tag: str,
        runs: int,
        rng_seed: int,
        seed: int,
        players: Sequence[str],
        duplicate: bool,
        now: float,
        address: str | None,
    ) -> RequestRecord:
        """Queue a request (committed when this returns)."""
        jobs = runs * 2 if duplicate else runs
        with self.engine.begin() as c:
            new_id = c.execute(
                requests.insert().values(
                    user_id=user_id,
                    game=game,
                    tag=tag,
                    runs=runs,
                    rng_seed=rng_seed,
                    seed=seed,
                    players=json.dumps(list(players)),
                    duplicate=duplicate,
                    jobs=jobs,
                    started=0,
                    state=(RequestState.QUEUED if jobs else RequestState.DONE).value,
                    created=now,
                    queued_at=now,
                    address=address,
                )
            ).inserted_primary_key
            assert new_id is not None
            return self._request(c, new_id[0])

    def cancel_request(self, request_id: int) -> None:
        """No run of the request starts any more (those playing end as they will)."""
        with self.engine.begin() as c:
            c.execute(
                requests.update()
                .where(requests.c.id == request_id)
                .values(state=RequestState.CANCELLED.value)
            )

    def open_requests(self) -> list[RequestRecord]:
        """The requests queued or playing, oldest first."""
        with self.engine.connect() as c:
            rows = c.execute(
                _request_select()
                .where(requests.c.state == RequestState.QUEUED.value)
                .order_by(requests.c.id)
            )
            return [_request(r) for r in rows]

    def request(self, request_id: int) -> RequestRecord:
        with self.engine.connect() as c:
            return self._request(c, request_id)

    def _request(self, c: sa.Connection, request_id: int) -> RequestRecord:
        row = c.execute(_request_select().where(requests.c.id == request_id)).one()
        return _request(row)

    def find_request(self, request_id: int) -> RequestRecord | None:
        with self.engine.connect() as c:
            row = c.execute(_request_select().where(requests.c.id == request_id)).first()
        return None if row is None else _request(row)

    def recent_requests(self, user_id: int | None, limit: int) -> list[RequestRecord]:
        """A user's latest requests (everyone's: ``user_id`` ``None``), newest first."""
        select = _request_select().order_by(requests.c.id.desc()).limit(limit)
        if user_id is not None:
            select = select.where(requests.c.user_id == user_id)
        with self.engine.connect() as c:
            return [_request(r) for r in c.execute(select)]

    def requests_of(self, user_id: int) -> list[RequestRecord]:
        with self.engine.connect() as c:
            rows = c.execute(
                _request_select().where(requests.c.user_id == user_id).order_by(requests.c.id)
            )
            return [_request(r) for r in rows]

    # -- runs ----------------------------------------------------------------------

    def start_run(
        self,
        request_id: int,
        *,
        seed: int,
        seats: Sequence[str],
        half: int | None,
        now: float,
        log_folder: str,
    ) -> RunRecord:
        """Record the request's next run as starting: its number among the user's runs
        with this tag, its name and log; the request's runs started and queue time and the
        user's wait start move on, as the reference's ``startMatchJob`` moves them."""
        with self.engine.begin() as c:
            request = self._request(c, request_id)
            job = request.started
            if half == 1:  # the second half of a pair: the first's number, name + ".b"
                first = c.execute(
                    sa.select(runs.c.number).where(
                        runs.c.request_id == request_id, runs.c.job == job - 1
                    )
                ).scalar_one()
                number, suffix = first, ".b"
            else:
                number = 1 + (
                    c.execute(
                        sa.select(sa.func.max(runs.c.number))
                        .select_from(runs.join(requests))
                        .where(requests.c.user_id == request.user_id, requests.c.tag == request.tag)
                    ).scalar()
                    or 0
                )
                suffix = ".a" if half == 0 else ""
            name = f"{request.user}.{request.tag}.r{number}{suffix}"
            run_id = c.execute(
                runs.insert().values(
                    request_id=request_id,
                    job=job,
                    number=number,
                    half=half,
                    seed=seed,
                    match_name=name,
                    log=f"{log_folder}/{name}.log",
                    seats=json.dumps(list(seats)),
                    state=RunState.STARTING.value,
                    hands=0,
                    started=now,
                    told=False,
                )
            ).inserted_primary_key
            assert run_id is not None
            c.execute(
                requests.update()
                .where(requests.c.id == request_id)
                .values(started=job + 1, queued_at=now)
            )
            c.execute(users.update().where(users.c.id == request.user_id).values(wait_start=now))
            return _run(c.execute(sa.select(runs).where(runs.c.id == run_id[0])).one())

    def run_playing(self, run_id: int) -> None:
        with self.engine.begin() as c:
            c.execute(
                runs.update()
                .where(runs.c.id == run_id, runs.c.state == RunState.STARTING.value)
                .values(state=RunState.PLAYING.value)
            )

    def end_run(
        self,
        run_id: int,
        state: RunState,
        *,
        hands: int,
        error: str | None,
        now: float,
        results_of_run: Sequence[ResultRecord] = (),
        told: bool = False,
    ) -> RequestRecord:
        """Record how a run ended, with its results; the request is done when it has no
        run left to start and none playing. Returns the request as it is now."""
        assert state.ended
        with self.engine.begin() as c:
            c.execute(
                runs.update()
                .where(runs.c.id == run_id)
                .values(state=state.value, hands=hands, error=error, ended=now, told=told)
            )
            for r in results_of_run:
                c.execute(results.insert().values(run_id=run_id, **_result_values(r)))
            request_id = c.execute(
                sa.select(runs.c.request_id).where(runs.c.id == run_id)
            ).scalar_one()
            self._settle(c, request_id)
            return self._request(c, request_id)

    def _settle(self, c: sa.Connection, request_id: int) -> None:
        """Mark the request done if nothing is left of it."""
        request = self._request(c, request_id)
        playing = c.execute(
            sa.select(sa.func.count())
            .select_from(runs)
            .where(
                runs.c.request_id == request_id,
                runs.c.state.in_([RunState.STARTING.value, RunState.PLAYING.value]),
            )
        ).scalar_one()
        if request.state is RequestState.QUEUED and request.started >= request.jobs and not playing:
            c.execute(
                requests.update()
                .where(requests.c.id == request_id)
                .values(state=RequestState.DONE.value)
            )

    def unended_runs(self) -> list[RunRecord]:
        """Runs recorded as starting or playing (after a crash: those it cut short)."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(runs)
                .where(runs.c.state.in_([RunState.STARTING.value, RunState.PLAYING.value]))
                .order_by(runs.c.id)
            )
            return [_run(r) for r in rows]

    def runs_of(self, request_id: int) -> list[RunRecord]:
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(runs).where(runs.c.request_id == request_id).order_by(runs.c.job)
            )
            return [_run(r) for r in rows]

    def runs_of_requests(self, request_ids: Sequence[int], limit: int) -> list[RunRecord]:
        """The latest ``limit`` runs of the requests, newest first."""
        if not request_ids:
            return []
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(runs)
                .where(runs.c.request_id.in_(request_ids))
                .order_by(runs.c.id.desc())
                .limit(limit)
            )
            return [_run(r) for r in rows]

    def find_run(self, run_id: int) -> tuple[RunRecord, RequestRecord] | None:
        """A run and its request, if there is such a run."""
        with self.engine.connect() as c:
            row = c.execute(sa.select(runs).where(runs.c.id == run_id)).first()
            if row is None:
                return None
            return _run(row), self._request(c, row.request_id)

    def pair_candidates(self, run: RunRecord) -> list[RunRecord]:
        """The finished runs that could make a duplicate pair with ``run`` the reference's
        way, oldest first: of a request of the same user, game and tag that is not a
        duplicate one, with the same seed, in no pair yet (whether the seats are reversed is
        :func:`~dealer.benchmark.standings.reference_partner`'s to say)."""
        mine = sa.select(requests.c.user_id, requests.c.game, requests.c.tag).where(
            requests.c.id == run.request_id
        )
        paired = sa.select(results.c.id).where(
            results.c.kind == ResultKind.PAIRS.value,
            sa.or_(results.c.run_id == runs.c.id, results.c.partner_run_id == runs.c.id),
        )
        with self.engine.connect() as c:
            user_id, game, tag = c.execute(mine).one()
            rows = c.execute(
                sa.select(runs)
                .join(requests, requests.c.id == runs.c.request_id)
                .where(
                    requests.c.user_id == user_id,
                    requests.c.game == game,
                    requests.c.tag == tag,
                    requests.c.duplicate.is_(False),
                    runs.c.half.is_(None),
                    runs.c.seed == run.seed,
                    runs.c.state == RunState.FINISHED.value,
                    runs.c.id != run.id,
                    ~paired.exists(),
                )
                .order_by(runs.c.id)
            )
            return [_run(r) for r in rows]

    def add_results(self, run_id: int, rows: Sequence[ResultRecord]) -> None:
        """Record more results with a run (a pair it makes with an earlier one)."""
        with self.engine.begin() as c:
            for r in rows:
                c.execute(results.insert().values(run_id=run_id, **_result_values(r)))

    def run(self, run_id: int) -> RunRecord:
        with self.engine.connect() as c:
            return _run(c.execute(sa.select(runs).where(runs.c.id == run_id)).one())

    def untold_runs(self, user_id: int) -> list[RunRecord]:
        """The user's runs that ended without finishing, and that they were not told of."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(runs)
                .select_from(runs.join(requests))
                .where(
                    requests.c.user_id == user_id,
                    runs.c.told.is_(False),
                    runs.c.state.in_([RunState.FAILED.value, RunState.INTERRUPTED.value]),
                )
                .order_by(runs.c.id)
            )
            return [_run(r) for r in rows]

    def mark_told(self, run_ids: Sequence[int]) -> None:
        if not run_ids:
            return
        with self.engine.begin() as c:
            c.execute(runs.update().where(runs.c.id.in_(run_ids)).values(told=True))

    # -- results -------------------------------------------------------------------

    def results_of_run(self, run_id: int) -> list[ResultRecord]:
        """The results recorded with a run (its seats', and a pair's with its second half)."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(results).where(results.c.run_id == run_id).order_by(results.c.id)
            )
            return [_result(row) for row in rows]

    def results_of(self, user_id: int) -> list[tuple[RequestRecord, ResultRecord]]:
        """The user's results (over their finished runs and pairs), each with its request,
        oldest first."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(results, runs.c.request_id)
                .join(runs, runs.c.id == results.c.run_id)
                .where(results.c.user_id == user_id, runs.c.state == RunState.FINISHED.value)
                .order_by(results.c.id)
            ).all()
            asked = {r.request_id: self._request(c, r.request_id) for r in rows}
        return [(asked[row.request_id], _result(row)) for row in rows]

    def results_of_runs(self, run_ids: Sequence[int]) -> dict[int, list[ResultRecord]]:
        """The results recorded with each of the runs."""
        found: dict[int, list[ResultRecord]] = {run_id: [] for run_id in run_ids}
        if not run_ids:
            return found
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(results).where(results.c.run_id.in_(run_ids)).order_by(results.c.id)
            )
            for row in rows:
                found[row.run_id].append(_result(row))
        return found

    def pair_totals(self) -> list[BoardTotals]:
        """Every enabled user's duplicate results (over finished pairs), summed per game,
        tag and opponent: what the leaderboard is made of, in one query."""
        select = (
            sa.select(
                users.c.name,
                requests.c.game,
                requests.c.tag,
                results.c.opponent,
                sa.func.count(results.c.id),
                sa.func.sum(results.c.samples),
                sa.func.sum(results.c.total),
                sa.func.sum(results.c.squares),
                sa.func.sum(results.c.unpaired),
            )
            .select_from(results)
            .join(runs, runs.c.id == results.c.run_id)
            .join(requests, requests.c.id == runs.c.request_id)
            .join(users, users.c.id == results.c.user_id)
            .where(
                results.c.kind == ResultKind.PAIRS.value,
                runs.c.state == RunState.FINISHED.value,
                users.c.disabled.is_(False),
            )
            .group_by(users.c.name, requests.c.game, requests.c.tag, results.c.opponent)
        )
        with self.engine.connect() as c:
            return [
                BoardTotals(
                    name,
                    game,
                    tag,
                    opponent,
                    pairs,
                    int(samples),
                    float(total),
                    float(squares) if math.isfinite(squares) else 0.0,
                    int(unpaired),
                )
                for name, game, tag, opponent, pairs, samples, total, squares, unpaired in (
                    c.execute(select)
                )
            ]


def _result_values(r: ResultRecord) -> dict[str, Any]:
    return {
        "partner_run_id": r.partner_run_id,
        "kind": r.kind.value,
        "player": r.player,
        "user_id": r.user_id,
        "opponent": r.opponent,
        "samples": r.samples,
        "total": r.total,
        "squares": r.squares,
        "unpaired": r.unpaired,
    }


def _new_user(
    name: str, password_hash: str, *, source: str, now: float, admin: bool = False
) -> sa.Insert:
    return users.insert().values(
        name=name,
        password_hash=password_hash,
        admin=admin,
        disabled=False,
        source=source,
        created=now,
        wait_start=now,
    )


def _sqlite_pragmas(connection: Any, record: Any) -> None:
    del record
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def _request_select() -> sa.Select[Any]:
    return sa.select(requests, users.c.name.label("user_name")).join(
        users, users.c.id == requests.c.user_id
    )


def _user(row: sa.Row[Any]) -> UserRecord:
    return UserRecord(
        row.id,
        row.name,
        row.password_hash,
        bool(row.admin),
        bool(row.disabled),
        row.source,
        row.created,
        row.wait_start,
    )


def _request(row: sa.Row[Any]) -> RequestRecord:
    return RequestRecord(
        row.id,
        row.user_id,
        row.user_name,
        row.game,
        row.tag,
        row.runs,
        row.rng_seed,
        row.seed,
        tuple(json.loads(row.players)),
        bool(row.duplicate),
        row.jobs,
        row.started,
        RequestState(row.state),
        row.created,
        row.queued_at,
        row.address,
    )


def _run(row: sa.Row[Any]) -> RunRecord:
    return RunRecord(
        row.id,
        row.request_id,
        row.job,
        row.number,
        row.half,
        row.seed,
        row.match_name,
        row.log,
        tuple(json.loads(row.seats)),
        RunState(row.state),
        row.hands,
        row.error,
        row.started,
        row.ended,
        bool(row.told),
    )


def _result(row: sa.Row[Any]) -> ResultRecord:
    squares = row.squares if math.isfinite(row.squares) else 0.0
    return ResultRecord(
        ResultKind(row.kind),
        row.player,
        row.user_id,
        row.opponent,
        row.samples,
        row.total,
        squares,
        row.unpaired,
        row.partner_run_id,
        row.run_id,
    )
