"""The hint an extra's absence gives (:mod:`acpcbot.extras`): what installs it where
acpcbot runs."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from acpcbot import extras
from acpcbot.errors import AcpcError
from acpcbot.extras import install_hint, need
from tests.conftest import REPO

MADE_BY_DEV_SH = (
    Path(sys.prefix).resolve() == Path(os.environ.get("ACPCBOT_VENV") or REPO / ".venv").resolve()
)
"""The tests run in the virtual environment ./dev.sh made (and installs extras into)."""


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


def test_in_a_checkout_with_a_venv_of_its_own_it_is_dev_sh_extras_into_that_venv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `python3 -m venv env && env/bin/pip install -e .` (the README's way without dev.sh):
    # dev.sh installs into whatever ACPCBOT_VENV names.
    monkeypatch.chdir(REPO)
    monkeypatch.delenv("ACPCBOT_VENV", raising=False)
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "my env"))
    assert install_hint("web") == f"ACPCBOT_VENV='{tmp_path / 'my env'}' ./dev.sh extras web"
    monkeypatch.setattr(sys, "prefix", str(REPO / ".venv"))  # the quick start's
    assert install_hint("web") == "./dev.sh extras web"
    monkeypatch.setenv("ACPCBOT_VENV", str(tmp_path / "my env"))
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "my env"))  # dev.sh's, elsewhere
    assert install_hint("web") == "./dev.sh extras web"


def test_anywhere_else_it_is_pip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # installed from a wheel: no dev.sh beside the package
    monkeypatch.setattr(extras, "_CHECKOUT", tmp_path)
    assert install_hint("cluster") == "pip install 'acpcbot[cluster]'"
