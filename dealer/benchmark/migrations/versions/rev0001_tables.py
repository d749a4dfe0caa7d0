"""The first tables: users, requests, runs, results.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("admin", sa.Boolean, nullable=False),
        sa.Column("disabled", sa.Boolean, nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("wait_start", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("name", name="uq_users_name"),
    )
    op.create_table(
        "requests",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("game", sa.String(255), nullable=False),
        sa.Column("tag", sa.String(64), nullable=False),
        sa.Column("runs", sa.Integer, nullable=False),
        sa.Column("rng_seed", sa.BigInteger, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("duplicate", sa.Boolean, nullable=False),
        sa.Column("jobs", sa.Integer, nullable=False),
        sa.Column("started", sa.Integer, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("queued_at", sa.Float, nullable=False),
        sa.Column("address", sa.String(64)),
        sa.PrimaryKeyConstraint("id", name="pk_requests"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_requests_user_id_users"),
    )
    op.create_index("ix_requests_user_id", "requests", ["user_id"])
    op.create_index("ix_requests_state", "requests", ["state"])
    op.create_table(
        "runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("request_id", sa.Integer, nullable=False),
        sa.Column("job", sa.Integer, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("half", sa.Integer),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("match_name", sa.String(255), nullable=False),
        sa.Column("log", sa.String(512), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("ended", sa.Float),
        sa.Column("told", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_runs"),
        sa.ForeignKeyConstraint(
            ["request_id"], ["requests.id"], name="fk_runs_request_id_requests"
        ),
        sa.UniqueConstraint("match_name", name="uq_runs_match_name"),
        sa.UniqueConstraint("request_id", "job", name="uq_runs_request_id_job"),
    )
    op.create_index("ix_runs_request_id", "runs", ["request_id"])
    op.create_index("ix_runs_state", "runs", ["state"])
    op.create_table(
        "results",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run_id", sa.Integer, nullable=False),
        sa.Column("partner_run_id", sa.Integer),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer),
        sa.Column("opponent", sa.String(255), nullable=False),
        sa.Column("samples", sa.Integer, nullable=False),
        sa.Column("total", sa.Float, nullable=False),
        sa.Column("squares", sa.Float, nullable=False),
        sa.Column("unpaired", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_results"),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="fk_results_run_id_runs"),
        sa.ForeignKeyConstraint(
            ["partner_run_id"], ["runs.id"], name="fk_results_partner_run_id_runs"
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_results_user_id_users"),
    )
    op.create_index("ix_results_run_id", "results", ["run_id"])
    op.create_index("ix_results_user_id", "results", ["user_id"])


def downgrade() -> None:
    for table in ("results", "runs", "requests", "users"):
        op.drop_table(table)
