"""docker/warm-up.sh, the steps the image's build runs (``RUN sh /src/docker/warm-up.sh``,
checked in test_compose.py), run here in this virtual environment: no docker daemon needed.
Every agent ``acpcbot agents --specs`` lists must play with what its registry entry gives it,
and every command and flag the script uses must still exist; otherwise the image cannot be
built, and this is the test that says so (CI cannot run docker)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents.registry import AGENTS, player_name
from tests.conftest import REPO

WARM_UP = REPO / "docker" / "warm-up.sh"


@pytest.mark.slow
@pytest.mark.e2e
def test_the_images_warm_up_plays_every_agent_here(tmp_path: Path) -> None:
    # The environment's own commands (acpcbot, dask, python) come first on PATH, as
    # /opt/acpcbot/bin does in the image; the numba cache is the suite's (NUMBA_CACHE_DIR).
    environment = {
        **os.environ,
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
        "TMPDIR": str(tmp_path),
        "MPLCONFIGDIR": str(tmp_path / "matplotlib"),
    }
    done = subprocess.run(
        ["sh", str(WARM_UP)],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, f"docker/warm-up.sh failed:\n{done.stderr}"
    # Every registered agent played: always-call against each of the others.
    lines = done.stderr.splitlines()
    played = {line.split()[2] for line in lines if line.startswith("acpcbot: ") and "-vs-" in line}
    expected = {
        f"always-call-vs-{player_name(entry.spec)}.seed0.n20:"
        for name, entry in AGENTS.items()
        if name != "always-call"
    }
    assert played == expected, done.stderr
    assert not list(tmp_path.glob("tmp.*"))  # its work folder (mktemp -d) is gone
