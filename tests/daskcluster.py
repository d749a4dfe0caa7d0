"""A real Dask cluster for the tests that play on one: a ``dask scheduler`` and ``dask
worker`` processes on 127.0.0.1 (one thread each, no nanny), started from this environment,
where acpcbot is installed. Each worker has a temporary folder of its own (its ``TMPDIR``)
and may be given more environment."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.dealer.running.tournaments import wait_for

__all__ = ["DASK", "Cluster", "dask_cluster", "skip_without_the_cluster_extra", "wait_for"]

DASK = Path(sys.executable).with_name("dask")


def skip_without_the_cluster_extra() -> None:
    """Skip the calling test module when the cluster extra (``distributed``) is missing. It
    is looked for, not imported: importing it (about 0.4 s of CPU) would cost every test
    process's collection that much, the fast tier's too, which runs none of these tests."""
    if importlib.util.find_spec("distributed") is None:
        pytest.skip("the cluster extra is not installed", allow_module_level=True)


@dataclass(frozen=True)
class Cluster:
    address: str
    workers: tuple[subprocess.Popen[bytes], ...]
    scratch: tuple[Path, ...]
    """Each worker's temporary folder (where it plays its matches)."""
    logs: tuple[Path, ...]
    """Each worker's output."""


def _said(log: Path, text: str) -> bool:
    return log.exists() and text in log.read_text(errors="replace")


@contextlib.contextmanager
def dask_cluster(
    root: Path,
    workers: Mapping[str, Mapping[str, str]] | None = None,
    scheduler: Mapping[str, str] | None = None,
) -> Iterator[Cluster]:
    """A scheduler (``scheduler``: more environment) and the ``workers`` (name → more
    environment; default two, ``w1`` and ``w2``), their files under ``root``; killed at the
    end."""
    workers = workers if workers is not None else {"w1": {}, "w2": {}}
    processes: list[subprocess.Popen[bytes]] = []

    def start(args: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        with log.open("wb") as output:
            processes.append(
                subprocess.Popen(
                    [str(DASK), *args, "--no-dashboard"],
                    stdout=output,
                    stderr=subprocess.STDOUT,
                    env=env,
                    cwd=root,
                )
            )

    try:
        file = root / "scheduler.json"
        start(
            ["scheduler", "--host", "127.0.0.1", "--port", "0", "--scheduler-file", str(file)],
            root / "scheduler.log",
            {**os.environ, **(scheduler or {})},
        )
        # The file exists before the scheduler has written it: wait for the whole of it.
        wait_for(
            lambda: _said(root / "scheduler.log", "Scheduler at:") and _address(file) is not None
        )
        address = _address(file)
        assert address is not None
        scratch = []
        logs = []
        for name, more in workers.items():
            (root / name).mkdir()
            scratch.append(root / name)
            logs.append(root / f"{name}.log")
            env = {**os.environ, "TMPDIR": str(root / name), **more}
            worker = ["worker", address, "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1"]
            start([*worker, "--name", name], logs[-1], env)
        for log in logs:
            wait_for(lambda log=log: _said(log, "Registered to:"))  # type: ignore[misc]
        yield Cluster(address, tuple(processes[1:]), tuple(scratch), tuple(logs))
    finally:
        for process in processes:  # nothing of theirs is kept: no need to wait for a close
            process.kill()
            process.wait()


def _address(file: Path) -> str | None:
    """The scheduler's address from its file, or ``None`` until the file is written whole."""
    try:
        return str(json.loads(file.read_text())["address"])
    except (OSError, ValueError, KeyError):
        return None
