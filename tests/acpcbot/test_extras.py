"""The hint an extra's absence gives (:mod:`acpcbot.extras`): what installs it where
acpcbot runs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from acpcbot.errors import AcpcError
from acpcbot.extras import install_hint, need
from tests.conftest import REPO

MADE_BY_DEV_SH = any(Path(sys.prefix).glob(".acpcbot-*"))


@pytest.mark.skipif(not MADE_BY_DEV_SH, reason="the tests do not run in a .venv of ./dev.sh")
def test_in_the_venv_of_dev_sh_it_is_dev_sh_extras(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The quick start's user has .venv and dev.sh, and no pip on the PATH for that venv.
    monkeypatch.chdir(REPO)
    assert install_hint("plot") == "./dev.sh extras plot"
    with pytest.raises(AcpcError) as raised:
        need("no_such_package", "--plot", "plot")
    assert str(raised.value) == (
        "--plot needs no_such_package, which is not installed: ./dev.sh extras plot"
    )
    monkeypatch.chdir(tmp_path)  # elsewhere: where dev.sh is
    assert install_hint("mqtt") == f"{REPO / 'dev.sh'} extras mqtt"


def test_anywhere_else_it_is_pip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "prefix", str(tmp_path))  # a Python that dev.sh did not make
    assert install_hint("cluster") == "pip install 'acpcbot[cluster]'"
