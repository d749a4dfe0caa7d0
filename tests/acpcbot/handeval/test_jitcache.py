"""numba's cache on a read-only install run by a user without a writable home: one warning,
a private cache folder in the temporary directory (or no cache), never a crash."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numba
import pytest

from acpcbot.handeval import jitcache
from acpcbot.handeval.jitcache import FALLBACK_PREFIX
from acpcbot.logconfig import lines_to
from tests.conftest import REPO
from tests.tiers import starts_processes

NOBODY = 65534
AS_NOBODY = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
AS_NOBODY.append("--inh-caps=-all")
NUMBA_MODULES = (
    "acpcbot.handeval.evaluator",
    "acpcbot.handeval.enumeration",
    "acpcbot.handeval.montecarlo",
    "acpcbot.handeval.strength",
    "agents.common.weights",
    "agents.common.preflop",
    "agents.dpp.kernels",
    "agents.dpp.handstrength",
    "agents.dpp.tables",
)
SCRIPT = f"""
import importlib
import acpcbot
from acpcbot.logconfig import configure_logging
configure_logging()  # as the command line does: logs on stderr
for name in {NUMBA_MODULES!r}:
    importlib.import_module(name)
from acpcbot.cards import parse_cards
from acpcbot.handeval import rank_hand
print(acpcbot.__file__, rank_hand(parse_cards("AsKsQsJsTs2c3d")))
"""


def _nobody_can_run_python() -> str:
    """Why the test cannot run as an unprivileged user here, or ``""`` when it can."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "switching to the nobody user needs root"
    if shutil.which("setpriv") is None:
        return "setpriv (util-linux) is not installed"
    probe = subprocess.run(
        [*AS_NOBODY, sys.executable, "-c", "import numba, numpy, structlog"],
        capture_output=True,
        cwd="/",
        check=False,
        timeout=120,
    )
    if probe.returncode != 0:
        return f"the nobody user cannot run {sys.executable} with numba: {probe.stderr[-200:]!r}"
    return ""


@pytest.fixture(scope="module")
@starts_processes
def read_only_install() -> Iterator[Path]:
    """A copy of the packages in a folder the nobody user can read but not write (owned by
    root, mode 755), as a system-wide install in a container is."""
    why = _nobody_can_run_python()
    if why:
        pytest.skip(why)
    root = Path(tempfile.mkdtemp(prefix="acpcbot-readonly-"))
    try:
        root.chmod(0o755)
        site = root / "site"
        ignore = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "*.pyc")
        for package in ("acpcbot", "agents", "dealer"):
            shutil.copytree(REPO / package, site / package, ignore=ignore)
        yield site
    finally:
        shutil.rmtree(root)


def run_as_nobody(
    site: Path, tmpdir: Path, *, numba_cache: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "PYTHONPATH"}
    }
    env.update(HOME="/nonexistent", TMPDIR=str(tmpdir), PYTHONPATH=str(site))
    if numba_cache is not None:
        env["NUMBA_CACHE_DIR"] = str(numba_cache)
    return subprocess.run(
        [*AS_NOBODY, sys.executable, "-c", SCRIPT],
        env=env,
        cwd=tmpdir,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A temporary directory like /tmp: anyone may create files in it (mode 1777)."""
    folder = Path(tempfile.mkdtemp(prefix="acpcbot-tmp-"))
    folder.chmod(0o1777)
    yield folder
    shutil.rmtree(folder)


def test_kernels_are_cached_in_a_private_temporary_folder(
    read_only_install: Path, shared_tmp: Path
) -> None:
    first = run_as_nobody(read_only_install, shared_tmp)
    assert first.returncode == 0, first.stderr[-2000:]
    assert first.stdout.split() == [str(read_only_install / "acpcbot" / "__init__.py"), "7462"]
    cache = shared_tmp / f"{FALLBACK_PREFIX}{NOBODY}"
    warnings = [line for line in first.stderr.splitlines() if line.strip()]
    assert len(warnings) == 1, first.stderr
    assert (
        "numba cannot cache compiled kernels in __pycache__ or the home folder; "
        f"caching them in {cache}"
    ) in warnings[0]
    info = cache.lstat()
    assert info.st_uid == NOBODY and stat.S_IMODE(info.st_mode) == 0o700
    assert list(cache.rglob("*.nbi")), "nothing was cached"
    again = run_as_nobody(read_only_install, shared_tmp)  # loads the cache: same one warning
    assert again.returncode == 0 and again.stdout == first.stdout
    assert len([line for line in again.stderr.splitlines() if line.strip()]) == 1


def test_without_a_safe_folder_kernels_compile_uncached(
    read_only_install: Path, shared_tmp: Path
) -> None:
    # Someone else (root here) owns the folder the fallback would use: its files must not
    # be trusted, so nothing is cached, and the run still works.
    (shared_tmp / f"{FALLBACK_PREFIX}{NOBODY}").mkdir(mode=0o777)
    run = run_as_nobody(read_only_install, shared_tmp)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split()[1] == "7462"
    warnings = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(warnings) == 1, run.stderr
    assert (
        "numba cannot cache compiled kernels anywhere; compiling them in every process"
        in (warnings[0])
    )


def test_every_kernel_module_decides_its_cache_first() -> None:
    # A literal cache=True would crash on a read-only install (the defect above).
    for package in ("acpcbot", "agents", "dealer"):
        for path in (REPO / package).rglob("*.py"):
            text = path.read_text()
            if "@njit(" in text:
                assert "cache=True" not in text, path
                assert "CACHE = cache_enabled(__file__)" in text, path


def test_a_read_only_cache_is_copied_and_used_without_compiling(
    read_only_install: Path, shared_tmp: Path
) -> None:
    # As in the docker image: the kernels compiled once into $NUMBA_CACHE_DIR, which the
    # user running the container may read but not write.
    cache = shared_tmp / "image-cache"
    cache.mkdir()
    os.chown(cache, NOBODY, NOBODY)
    filled = run_as_nobody(read_only_install, shared_tmp, numba_cache=cache)
    assert filled.returncode == 0, filled.stderr[-2000:]
    assert not filled.stderr.strip(), filled.stderr  # a writable cache: no warning
    for path in (cache, *cache.rglob("*")):
        os.chown(path, 0, 0)
        path.chmod(0o755 if path.is_dir() else 0o644)
    image_files = {p.relative_to(cache): p.read_bytes() for p in cache.rglob("*") if p.is_file()}
    assert any(name.suffix == ".nbc" for name in image_files), "nothing was compiled"

    run_tmp = shared_tmp / "container-tmp"
    run_tmp.mkdir(mode=0o1777)
    run_tmp.chmod(0o1777)
    run = run_as_nobody(read_only_install, run_tmp, numba_cache=cache)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout == filled.stdout
    assert not run.stderr.strip(), run.stderr  # neither a warning nor a compile notice
    private = run_tmp / f"{FALLBACK_PREFIX}{NOBODY}"
    copied = {
        p.relative_to(private): p.read_bytes()
        for p in private.rglob("*")
        if p.is_file() and p.name not in {".copying", ".copied-from"}
    }
    assert copied == image_files  # loaded as copied: nothing new was compiled


def test_a_slow_warm_up_that_compiles_nothing_is_not_announced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A busy machine may take over NOTICE_AFTER_S to load cached kernels: no notice then.
    monkeypatch.setattr(jitcache, "NOTICE_AFTER_S", 0.02)
    said: list[str] = []
    with lines_to(said.append), jitcache.compiling("nothing"):
        time.sleep(0.3)
    assert said == []


def test_a_compile_past_the_notice_time_is_announced_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jitcache, "NOTICE_AFTER_S", 0.0)
    said: list[str] = []
    with lines_to(said.append), jitcache.compiling("a fresh kernel"):
        assert numba.njit(lambda x: x + 1)(1) == 2  # defined here: never in a cache
        time.sleep(0.3)  # still compiling, as far as the notice can tell
    # Notices, not warnings: news that is not a problem.
    assert len(said) == 2, said
    assert said[0].startswith("acpcbot: compiling a fresh kernel once, cached in "), said
    assert re.fullmatch(r"acpcbot: compiled a fresh kernel in \d+\.\d s", said[1]), said
