"""``acpcbot connect``'s command line: a logon's password never on the command line, and one
line for what is missing (the conversation itself: tests/dealer/benchmark/test_widget.py)."""

from __future__ import annotations

import socket

import pytest

from acpcbot.cli import main


def test_commands_given_up_front_need_a_user(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["connect", "127.0.0.1", "--agent", "example", "--run", "QSTAT"]) == 2
    assert capsys.readouterr().err == (
        "acpcbot: error: --run needs --user (the logon cannot be typed then)\n"
    )


def test_the_password_is_not_an_option() -> None:
    with pytest.raises(SystemExit):
        main(["connect", "127.0.0.1", "--agent", "example", "--password", "s3cret"])


def test_a_server_that_is_not_there_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("ACPCBOT_PASSWORD", "test")
    args = ["connect", "127.0.0.1", str(port), "--agent", "example", "--user", "neil"]
    assert main([*args, "--run", "QSTAT"]) == 1
    assert capsys.readouterr().err.startswith(f"acpcbot: error: cannot connect to 127.0.0.1:{port}")
