from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from acpcbot.cli import main


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["equity", *argv, "--json"]) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def test_exact_json(capsys: pytest.CaptureFixture[str]) -> None:
    result = _json(capsys, "AsAc", "kdkh")
    assert list(result) == ["hands", "board", "equity", "exact", "trials"]
    assert result["hands"] == ["AsAc", "KdKh"] and result["board"] == ""
    assert result["exact"] is True and result["trials"] == 1_712_304
    equity = result["equity"]
    assert isinstance(equity, list) and round(100 * equity[0], 2) == 81.26


def test_random_hand_json(capsys: pytest.CaptureFixture[str]) -> None:
    sampled = _json(capsys, "AhAd", "random", "--trials", "50000", "--seed", "9")
    assert sampled["hands"] == ["AhAd", "random"]
    assert sampled["exact"] is False and sampled["trials"] == 50_000
    assert sampled == _json(capsys, "AhAd", "random", "--trials", "50000", "--seed", "9")
    on_flop = _json(capsys, "AhAd", "RANDOM", "--board", "Kc7d2s")
    assert on_flop["exact"] is True and on_flop["board"] == "Kc7d2s"


def test_text_output_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AhKh", "QsQd", "--board", "Qh7h2c"]) == 0
    out = capsys.readouterr().out
    assert "AhKh" in out and "%" in out and "exact" in out
    assert main(["equity", "AhKh", "AhQd"]) == 2
    assert (
        capsys.readouterr().err == "acpcbot: error: Ah is dealt twice (each card is dealt once)\n"
    )
    assert main(["equity", "AhKh", "QsQd", "--board", "2c7dQs2c"]) == 2
    assert "2c Qs are dealt twice" in capsys.readouterr().err  # cards, not card codes
    assert main(["equity", "AhKh", "Zz9x"]) == 2
    assert main(["equity", "AhKh"]) == 2
    assert main(["equity", "AhKhQh", "random"]) == 2


@pytest.mark.e2e
def test_the_installed_command_end_to_end() -> None:
    command = str(Path(sys.executable).with_name("acpcbot"))
    out = subprocess.run(
        [command, "equity", "AsAc", "KdKh", "--json"], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout)["equity"][0] == pytest.approx(0.81255, abs=1e-5)


def test_trials_are_bounded_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["equity", "random", "random", "--trials", "10000000000"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == (
        "acpcbot equity: error: argument --trials: not a number of deals (1 .. 1000000000, the "
        "standard error of an equity is then under 0.002%, below the 0.01% shown): "
        "'10000000000' (see acpcbot equity --help)\n"
    )


@pytest.mark.e2e
def test_a_long_run_shows_its_progress_and_stops_at_ctrl_c() -> None:
    command = str(Path(sys.executable).with_name("acpcbot"))
    leader, follower = pty.openpty()  # stderr on a terminal: the progress bar
    process = subprocess.Popen(
        [command, "equity", "random", "random", "--trials", "1000000000"],
        stdout=subprocess.PIPE,
        stderr=follower,
        text=True,
    )
    os.close(follower)
    shown, asked = b"", None
    deadline = time.monotonic() + 120
    try:
        while process.poll() is None or select.select([leader], [], [], 0.1)[0]:
            assert time.monotonic() < deadline, shown
            if select.select([leader], [], [], 0.1)[0]:
                try:
                    shown += os.read(leader, 65536)
                except OSError:
                    break
            if asked is None and b" deals/s" in shown:  # sampling, and saying how far
                process.send_signal(signal.SIGINT)
                asked = time.monotonic()
        out, _ = process.communicate(timeout=30)
    finally:
        process.kill()
        os.close(leader)
    assert asked is not None, shown
    assert time.monotonic() - asked < 5  # not the minutes a billion deals take
    assert process.returncode == 130 and out == ""
    assert shown.decode().endswith("acpcbot: interrupted\r\n")
