"""Alembic's environment: migrate the connection the server hands over (never a URL of its
own), comparing with :mod:`dealer.benchmark.schema` for ``--autogenerate``."""

from __future__ import annotations

from alembic import context

from dealer.benchmark.schema import metadata


def _migrate() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


# Alembic runs this file as a script (a module named after its path, "env_py"); imported as
# a module of the package (by the doctests' collection, say) it does nothing.
if not __name__.startswith("dealer."):
    _migrate()
