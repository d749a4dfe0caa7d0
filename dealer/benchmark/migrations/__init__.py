"""The benchmark server's schema migrations (Alembic), run at every start by
:func:`dealer.benchmark.database.migrate` (``alembic upgrade head``, programmatically).

A change to the tables is a new revision in ``versions/`` (``revision``,
``down_revision``, ``upgrade``), written by hand or drafted by ``alembic revision
--autogenerate`` against :mod:`dealer.benchmark.schema`; SQLite alters tables in batch mode
(``render_as_batch``), so the same revision runs on SQLite and PostgreSQL.
"""
