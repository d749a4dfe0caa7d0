"""A real PostgreSQL server for the benchmark server's database tests: Debian's ``postgresql``
package (``./dev.sh test`` installs it when it is missing), a cluster made by its
``initdb`` in a temporary folder and its ``postgres`` listening on a free port of 127.0.0.1
(its socket in that folder, not the system's), for the session; each test gets a database of
its own. As root it runs as the ``postgres`` user (PostgreSQL refuses to run as root), in a
folder that user owns. Its durability is turned off (``fsync``): the tests check what the
server does, not the disk."""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from acpcbot.telemetry.localbroker import free_port
from tests.tiers import starts_processes

__all__ = ["Postgres", "postgres", "postgres_binaries"]

_START_TIMEOUT_S = 60.0


def postgres_binaries() -> Path | None:
    """The folder of Debian's PostgreSQL programs (the newest version installed), if any."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return found[-1].parent if found else None


@dataclass
class Postgres:
    """A running server: ``url(name)`` is a SQLAlchemy URL of one of its databases."""

    port: int
    folder: Path
    process: subprocess.Popen[bytes]
    _numbers: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new empty database's URL."""
        import psycopg

        name = f"test{next(self._numbers)}"
        with psycopg.connect(self._dsn(), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")  # (a name of ours: no quoting)
        return self.url(name)

    def _dsn(self, database: str = "postgres") -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={database}"


def _as_postgres() -> dict[str, object]:
    """How to run PostgreSQL's programs: as the ``postgres`` user when we are root."""
    if os.geteuid() != 0:
        return {}
    return {"user": "postgres", "group": "postgres", "extra_groups": []}


@pytest.fixture(scope="session")
@starts_processes
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL server for the session (skipped when Debian's package is not installed)."""
    pytest.importorskip("psycopg", reason="the postgres extra is not installed")
    binaries = postgres_binaries()
    if binaries is None:
        pytest.skip("Debian's postgresql is not installed (./dev.sh test installs it)")
    owner = _as_postgres()
    if owner:
        import pwd

        try:
            account = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("there is no postgres user to run PostgreSQL as (we are root)")
    folder = Path(tempfile.mkdtemp(prefix="acpcbot-postgres-"))
    if owner:
        os.chown(folder, account.pw_uid, account.pw_gid)
    try:
        data = folder / "data"
        initdb = subprocess.run(
            [binaries / "initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8",
             "--no-sync", "--no-instructions"],
            capture_output=True, text=True, timeout=120, check=False, cwd=folder, **owner,  # type: ignore[call-overload]
        )  # fmt: skip
        assert initdb.returncode == 0, initdb.stderr
        port = free_port()
        with (folder / "postgres.log").open("wb") as log:
            process = subprocess.Popen(
                [binaries / "postgres", "-D", data, "-p", str(port), "-h", "127.0.0.1",
                 "-k", folder, "-c", "fsync=off", "-c", "synchronous_commit=off",
                 "-c", "full_page_writes=off"],
                stdout=log, stderr=subprocess.STDOUT, cwd=folder, **owner,  # type: ignore[call-overload]
            )  # fmt: skip
        server = Postgres(port, folder, process)
        try:
            _wait_until_ready(server)
            yield server
        finally:
            process.send_signal(signal.SIGINT)  # a fast shutdown
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _wait_until_ready(server: Postgres) -> None:
    import psycopg

    deadline = time.monotonic() + _START_TIMEOUT_S
    while True:
        if server.process.poll() is not None:
            log = (server.folder / "postgres.log").read_text(errors="replace")
            raise AssertionError(f"postgres exited ({server.process.returncode}):\n{log}")
        with contextlib.suppress(psycopg.OperationalError):
            psycopg.connect(server._dsn(), connect_timeout=2).close()
            return
        assert time.monotonic() < deadline, "postgres did not accept connections in time"
        time.sleep(0.1)
