"""A misspelt command, choice or agent: one line that suggests the close names."""

from __future__ import annotations

from pathlib import Path

import pytest

from acpcbot.cli import main


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["mach"], "acpcbot: error: argument COMMAND: invalid choice: 'mach' (did you mean match"),
        (["tournamnt"], "invalid choice: 'tournamnt' (did you mean tournament?)"),
        (
            ["match", "a", "b", "--transport", "tcpp"],
            "match: error: argument --transport: invalid choice: 'tcpp' (did you mean tcp?)",
        ),
    ],
)
def test_a_misspelt_command_or_choice_suggests_the_close_one(
    args: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(args)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1


def test_a_word_close_to_no_choice_lists_them(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["zzzz"])
    err = capsys.readouterr().err
    assert "invalid choice: 'zzzz' (choose from 'agents', 'connect', 'equity'" in err


def test_a_misspelt_agent_suggests_the_close_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", "plicass", "dpp", "--hands", "10", "--out", str(tmp_path / "m")]) != 0
    err = capsys.readouterr().err
    assert err.startswith("acpcbot: error: unknown agent 'plicass'; did you mean plicas")
    assert err.count("\n") == 1 and not (tmp_path / "m").exists()
