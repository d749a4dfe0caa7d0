"""PLICAS through the command line: agent specs with options, TCP and in-process matches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from acpcbot.cli import main


@pytest.mark.e2e
def test_specs_with_options_play_matches_and_name_the_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["match", "plicas:dprc=off,bluff=off", "always-call", "--hands", "30", "--json"]
    assert main([*args, "--transport", "inprocess", "--out", str(tmp_path / "mem")]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["names"][0] == "plicas+dprc=off+bluff=off"
    logs = sorted((tmp_path / "mem").glob("*.log"))
    assert len(logs) == 2 and "plicas+dprc=off+bluff=off" in logs[0].read_text()


@pytest.mark.e2e
def test_plicas_plays_over_tcp_through_the_client(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["match", "plicas", "tight-aggressive", "--hands", "20", "--json"]
    assert main([*args, "--transport", "tcp", "--out", str(tmp_path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["names"] == ["plicas", "tight-aggressive"] and len(summary["halves"]) == 2


def test_bad_options_are_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "plicas:dprc=maybe", "always-call", "--out", str(tmp_path / "x")]) == 2
    assert "PLICAS option dprc=maybe: dprc is on or off" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
