"""``acpcbot play`` end to end: a clean match, and every kind of bad dealer ends with a
one-line error, status 1, no traceback, in bounded time."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

from acpcbot.cli import main
from acpcbot.game import Game
from acpcbot.protocol.matchstate import decode_match_state, parse_betting
from tests.acpcbot.client.replay_dealer import (
    HASH_RAISER,
    Handler,
    ReplayDealer,
    SeatScript,
    serving_in_thread,
)

ACPCBOT = Path(sys.executable).with_name("acpcbot")
NOLIMIT_EXAMPLE = "nolimit2p.seed42.n50.example"


@pytest.fixture(autouse=True)
def _forget_logging_setup() -> Iterator[None]:
    """``main`` points structlog at the captured stderr of the test; undo that."""
    yield
    structlog.reset_defaults()


def _dealer_sending(data: bytes, *, then_close: bool) -> Handler:
    """A dealer that reads the VERSION line, sends ``data``, then closes or goes silent
    until the player leaves."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readline()
            writer.write(data)
            await writer.drain()
            if not then_close:
                await reader.read()
        except ConnectionError:
            pass
        finally:
            writer.close()

    return handle


FIRST_STATE = b"MATCHSTATE:0:0::7d3d|\r\n"
"""Hand 0 for the big blind: the other player acts first."""

BAD_DEALERS = {
    "truncated-state": (
        FIRST_STATE + b"MATCHSTATE:0:0:r:7d\r\n",
        False,
        "sent a bad state 'MATCHSTATE:0:0:r:7d': cards '7d' need 2 hole-card groups",
    ),
    "truncated-at-eof": (
        FIRST_STATE + b"MATCHSTATE:0:0:r:7d",
        True,
        "closed the connection in the middle of a line",
    ),
    "unknown-action-letter": (
        FIRST_STATE + b"MATCHSTATE:0:0:x:7d3d|\r\n",
        False,
        "sent a bad state 'MATCHSTATE:0:0:x:7d3d|': bad action 'x' in betting 'x'",
    ),
    "one-megabyte-line": (
        b"MATCHSTATE:0:0::7d3d|" + b"c" * (1 << 20) + b"\r\n",
        False,
        "sent a line that is too long: more than 4095 bytes without a line end",
    ),
    "closed-mid-hand": (FIRST_STATE, True, "closed the connection in the middle of hand 0"),
    "silent": (FIRST_STATE, False, "sent nothing for 0.5 s (read timeout)"),
}


def _play_args(port: int, agent: str = "hash") -> list[str]:
    return ["play", "127.0.0.1", str(port), "--agent", agent, "--read-timeout", "0.5"]


@pytest.mark.parametrize("case", sorted(BAD_DEALERS))
def test_a_bad_dealer_ends_the_match_with_a_clear_error(
    case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    data, then_close, message = BAD_DEALERS[case]
    with serving_in_thread(_dealer_sending(data, then_close=then_close)) as port:
        started = time.monotonic()
        status = main(_play_args(port))
        elapsed = time.monotonic() - started
    err = capsys.readouterr().err
    assert status == 1
    assert err.splitlines()[-1].startswith(f"acpcbot: error: the dealer at 127.0.0.1:{port} ")
    assert message in err.splitlines()[-1]
    assert "Traceback" not in err
    assert elapsed < 3


@pytest.mark.e2e
def test_a_bad_dealer_through_the_installed_command() -> None:
    data, then_close, message = BAD_DEALERS["one-megabyte-line"]
    with serving_in_thread(_dealer_sending(data, then_close=then_close)) as port:
        done = subprocess.run(
            [str(ACPCBOT), *_play_args(port)],
            check=False,
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1].startswith("acpcbot: error: ")
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


@pytest.mark.e2e
def test_a_clean_match_through_the_installed_command(vectors: Path) -> None:
    match_dir = vectors / "transcripts" / HASH_RAISER
    dealer = ReplayDealer(SeatScript.load(match_dir, 1))
    with serving_in_thread(dealer.handle) as port:
        done = subprocess.run(
            [str(ACPCBOT), "--log-json", "-v", *_play_args(port), "--json", "--budget-ms", "500"],
            check=False,
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["hands"] == 50 and summary["chips"] == 1155
    assert summary["mbb_per_game"] == 2310 and summary["fallback_decisions"] == 0
    assert bytes(dealer.received) == (match_dir / "seat1.player_to_dealer.bin").read_bytes()
    events = [json.loads(line)["event"] for line in done.stderr.splitlines()]
    assert events == ["connected", "match_over"]


def test_a_clean_match_prints_a_summary_and_nothing_else(
    vectors: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dealer = ReplayDealer(SeatScript.load(vectors / "transcripts" / HASH_RAISER, 2))
    with serving_in_thread(dealer.handle) as port:
        status = main(["play", "127.0.0.1", str(port), "--agent", "always-raise", "--no-uvloop"])
    assert status == 0
    out, err = capsys.readouterr()
    assert out.startswith(
        "always-raise: 50 hands, -1155 chips, -2310.00 mbb/g, 210 decisions (0 fallback), "
    )
    assert out.endswith(" s\n") and out.count("\n") == 1
    assert err == ""  # the client's events (connected, match over) are for --verbose


def test_verbose_shows_the_clients_events(
    vectors: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dealer = ReplayDealer(SeatScript.load(vectors / "transcripts" / HASH_RAISER, 2))
    with serving_in_thread(dealer.handle) as port:
        args = ["play", "127.0.0.1", str(port), "--agent", "always-raise", "--no-uvloop"]
        assert main(["-v", *args]) == 0
    err = capsys.readouterr().err
    assert "connected" in err and "match_over" in err


def test_unknown_agent_and_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "127.0.0.1", "1", "--agent", "nobody"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "127.0.0.1", "70000", "--agent", "hash"])
    assert "not a TCP port" in capsys.readouterr().err


def test_a_nolimit_match_by_bundled_game_name(
    vectors: Path, nolimit_game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    """The recorded states of a no-limit match between two example players, answered by
    ours: every answer is legal (our raise sizes differ from the recording, which the replay
    does not mind), and the chips are the recorded ones, since they come from the states."""
    dealer = ReplayDealer(SeatScript.load(vectors / "transcripts" / NOLIMIT_EXAMPLE, 1))
    game_name = "holdem.nolimit.2p.reverse_blinds.game"
    with serving_in_thread(dealer.handle) as port:
        status = main([*_play_args(port, "example"), "--game", game_name, "--json"])
    assert status == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["hands"] == 50 and summary["chips"] == 297681
    answers = bytes(dealer.received).decode().split("\r\n")[1:-1]
    assert len(answers) == summary["decisions"] > 100
    for answer in answers:
        state_text, action_text = answer.rsplit(":", 1)
        _, hand = decode_match_state(state_text, nolimit_game)
        (action,) = parse_betting(action_text)[0]
        assert hand.is_legal(action), answer


def test_a_dealer_that_gives_up_before_the_first_hand_is_an_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The reference dealer does this when another seat never connects: it reads our
    # VERSION line and closes the connection.
    with serving_in_thread(_dealer_sending(b"", then_close=True)) as port:
        status = main([*_play_args(port), "--json"])
    captured = capsys.readouterr()
    assert status == 1 and captured.out == ""
    assert captured.err.splitlines()[-1] == (
        f"acpcbot: error: the dealer at 127.0.0.1:{port} ended the match before the first hand"
    )


def test_the_json_summary_names_the_agent_and_the_dealer(
    vectors: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dealer = ReplayDealer(SeatScript.load(vectors / "transcripts" / HASH_RAISER, 1))
    with serving_in_thread(dealer.handle) as port:
        status = main([*_play_args(port), "--seed", "3", "--json"])
    assert status == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["agent"] == "hash" and summary["seed"] == 3
    assert summary["dealer"] == f"127.0.0.1:{port}" and summary["hands"] == 50
    assert summary["failed_decisions"] == summary["illegal_decisions"] == 0
    assert summary["over_budget_decisions"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--connect-timeout", "x"],
            "argument --connect-timeout: not a number of seconds (more than 0): 'x'",
        ),
        (
            ["--budget-ms", "-1"],
            "argument --budget-ms: not a number of milliseconds (0 .. 2,000,000): '-1'",
        ),
        (
            ["--connect-timeout", "0"],
            "argument --connect-timeout: not a number of seconds (more than 0): '0'",
        ),
    ],
)
def test_bad_numbers_are_named_by_their_option(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["play", "127.0.0.1", "1", "--agent", "hash", *args])
    err = capsys.readouterr().err
    assert err.splitlines() == [f"acpcbot play: error: {message} (see acpcbot play --help)"]


def test_a_port_in_other_digits_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "127.0.0.1", "8²", "--agent", "hash"])
    assert "not a TCP port (1 .. 65535): '8²' (see" in capsys.readouterr().err
