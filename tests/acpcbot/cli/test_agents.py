"""``acpcbot agents`` and agent specs on the command line: bad ones are refused at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

from acpcbot.cli import main


@pytest.fixture(autouse=True)
def _forget_logging_setup() -> Iterator[None]:
    """``main`` points structlog at the captured stderr of the test; undo that."""
    yield
    structlog.reset_defaults()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "plicas:samples=99999999999999999999",
            "PLICAS option samples=99999999999999999999: samples is an integer from 1 to 1000000",
        ),
        (
            "plicas:samples=10,samples=20",
            "agent option samples is given twice in 'plicas:samples=10,samples=20'",
        ),
        (
            "plicas:case-weight=nan",
            "PLICAS option case-weight=nan: case-weight is a number from 0 to 100",
        ),
    ],
)
def test_a_bad_option_is_one_line_before_the_match_starts(
    spec: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m"
    args = ["match", spec, "always-call", "--hands", "20", "--transport", "inprocess"]
    assert main([*args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == f"acpcbot: error: {message}\n"
    assert not out.exists()


def test_play_refuses_a_bad_option_before_it_connects(capsys: pytest.CaptureFixture[str]) -> None:
    # Port 9 (discard) on loopback: nothing listens, so connecting would be a connect error.
    args = ["play", "127.0.0.1", "9", "--agent", "plicas:samples=0", "--connect-timeout", "1"]
    assert main(args) == 2
    assert capsys.readouterr().err == (
        "acpcbot: error: PLICAS option samples=0: samples is an integer from 1 to 1000000\n"
    )


def test_the_listing_names_every_agent_and_plicas_option_ranges(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from agents.registry import AGENTS

    assert main(["agents"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines if not line.startswith(" ")][: len(AGENTS)] == sorted(
        AGENTS
    )
    assert any("samples 1..1000000, ahead 0..46, memory 0..1000000000" in line for line in lines)
    assert lines[-1].startswith("Any Agent subclass of yours plays as module:Class")


def test_the_specs_play_as_they_are(capsys: pytest.CaptureFixture[str]) -> None:
    """``--specs``: one spec per agent, with the options it cannot play without (what the
    docker image's warm-up plays, tests/docker/test_warm_up.py)."""
    from agents.registry import AGENTS, create_agent

    assert main(["agents", "--specs"]) == 0
    specs = capsys.readouterr().out.splitlines()
    assert [spec.partition(":")[0] for spec in specs] == sorted(AGENTS)
    assert "lbr:opponent=dpp" in specs and "plicas" in specs
    for spec in specs:
        create_agent(spec)  # every spec parses and its options are accepted
