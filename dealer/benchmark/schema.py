"""The benchmark server's tables (SQLAlchemy Core), as the latest migration leaves them.

The database is the record: users, their requests (the queue), the runs played and their
results; the logs stay ACPC ``.log`` files under the data folder, which ``runs.log``
indexes. The tables are made and changed by the migrations (:mod:`.migrations`), never by
``create_all``; this module describes them for the queries (and for ``alembic revision
--autogenerate``, which compares it with a database).

Times are seconds since the epoch (UTC), as floats: the scheduler orders by them, and both
SQLite and PostgreSQL store them exactly.
"""

from __future__ import annotations

import enum

import sqlalchemy as sa

__all__ = [
    "RequestState",
    "ResultKind",
    "RunState",
    "metadata",
    "requests",
    "results",
    "runs",
    "users",
]

metadata = sa.MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)


class RequestState(enum.Enum):
    QUEUED = "queued"
    """Runs left to start, or playing."""
    DONE = "done"
    """Every run started has ended and none is left."""
    CANCELLED = "cancelled"


class RunState(enum.Enum):
    STARTING = "starting"
    """Its dealer is starting (or waits for its players)."""
    PLAYING = "playing"
    FINISHED = "finished"
    """Every hand was played."""
    FAILED = "failed"
    """Ended early by an error: a player that crashed, timed out or never connected, or a
    server that died while it played."""
    INTERRUPTED = "interrupted"
    """Stopped after a hand because the server was stopped (SIGTERM)."""

    @property
    def ended(self) -> bool:
        return self not in (RunState.STARTING, RunState.PLAYING)


class ResultKind(enum.Enum):
    HANDS = "hands"
    """One seat's winnings over a run, per hand."""
    PAIRS = "pairs"
    """One player's winnings over a duplicate pair of runs, per pair of hands."""


users = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(32), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("admin", sa.Boolean, nullable=False, default=False),
    sa.Column("disabled", sa.Boolean, nullable=False, default=False),
    sa.Column("source", sa.String(16), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("wait_start", sa.Float, nullable=False),
)

requests = sa.Table(
    "requests",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
    sa.Column("game", sa.String(255), nullable=False),
    sa.Column("tag", sa.String(64), nullable=False),
    sa.Column("runs", sa.Integer, nullable=False),
    sa.Column("rng_seed", sa.BigInteger, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("players", sa.Text, nullable=False),
    sa.Column("duplicate", sa.Boolean, nullable=False),
    sa.Column("jobs", sa.Integer, nullable=False),
    sa.Column("started", sa.Integer, nullable=False, default=0),
    sa.Column("state", sa.String(16), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("queued_at", sa.Float, nullable=False),
    sa.Column("address", sa.String(64)),
)

runs = sa.Table(
    "runs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("request_id", sa.Integer, sa.ForeignKey("requests.id"), nullable=False, index=True),
    sa.Column("job", sa.Integer, nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("half", sa.Integer),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("match_name", sa.String(255), nullable=False, unique=True),
    sa.Column("log", sa.String(512), nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("state", sa.String(16), nullable=False, index=True),
    sa.Column("hands", sa.Integer, nullable=False, default=0),
    sa.Column("error", sa.Text),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("ended", sa.Float),
    sa.Column("told", sa.Boolean, nullable=False, default=False),
    sa.UniqueConstraint("request_id", "job", name="uq_runs_request_id_job"),
)

results = sa.Table(
    "results",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id"), nullable=False, index=True),
    sa.Column("partner_run_id", sa.Integer, sa.ForeignKey("runs.id")),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("player", sa.String(64), nullable=False),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), index=True),
    sa.Column("opponent", sa.String(255), nullable=False),
    sa.Column("samples", sa.Integer, nullable=False),
    sa.Column("total", sa.Float, nullable=False),
    sa.Column("squares", sa.Float, nullable=False),
    sa.Column("unpaired", sa.Integer, nullable=False, default=0),
)
