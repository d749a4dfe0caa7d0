"""Our bm_widget-like client against the server (both in the test's event loop, over real
sockets): typed lines passed on, commands given up front, bots started for RUN lines, and
the end of its work known from the server's QUEUED and ENDED lines."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from pathlib import Path

import pytest

from acpcbot.client import play_match
from acpcbot.errors import AcpcError, UsageError
from acpcbot.game import bundled_game
from agents.registry import create_agent
from dealer.benchmark.widget import converse, logon_line
from tests.dealer.benchmark.server import LIMIT, config, running


def typed(*lines: str) -> asyncio.StreamReader:
    stdin = asyncio.StreamReader()
    stdin.feed_data("".join(f"{line}\n" for line in lines).encode())
    stdin.feed_eof()
    return stdin


async def test_typed_lines_go_to_the_server_and_its_answers_are_printed(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        out = io.StringIO()
        report = await converse(
            "127.0.0.1", server.port, ["bot"], logon=None, stdin=typed("neil test", "QSTAT"),
            out=out,
        )  # fmt: skip
    assert out.getvalue() == (
        "Log in with 'user password'\nLOGON OKAY - type help for commands\nQueue empty\n"
    )
    assert report.ok and report.queued == {} and report.bots == []


async def test_a_refused_logon_is_an_error(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        with pytest.raises(AcpcError, match="BAD LOGON"):
            await converse("127.0.0.1", server.port, ["bot"], logon="neil nope", out=io.StringIO())


async def test_a_refused_request_is_counted_and_the_client_ends(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        out = io.StringIO()
        report = await converse(
            "127.0.0.1", server.port, ["bot"], logon="neil test",
            commands=[f"RUNMATCHES {LIMIT} 9 t1 7 LOCAL caller", "GAMES"], out=out,
        )  # fmt: skip
    assert report.refused == 1 and not report.ok
    assert out.getvalue().endswith("BAD RUNMATCHES COMMAND\n\n" + LIMIT + "\n raiser\n caller\n")


@pytest.mark.e2e
async def test_the_client_starts_its_bot_for_each_run_and_ends_with_them(tmp_path: Path) -> None:
    started: list[Sequence[str]] = []

    def start_bot(command: Sequence[str]) -> asyncio.Future[int]:
        """The bot, played here: what the command would run with HOST PORT appended."""
        started.append(command)
        host, port = command[-2:]
        caller = create_agent("always-call", seed=0)

        async def play() -> int:
            await play_match(host, int(port), caller, game=bundled_game())
            return 0

        return asyncio.ensure_future(play())

    async with running(tmp_path, config(max_running_bots=0)) as server:
        out = io.StringIO()
        report = await converse(
            "127.0.0.1", server.port, ["my-bot"], logon="neil test",
            commands=[f"RUNMATCHES {LIMIT} 2 w 3 LOCAL raiser"], out=out, start_bot=start_bot,
        )  # fmt: skip
        assert report.ok and report.queued == {"neil.w": 2} and report.bots == [0, 0]
        assert report.ended == {"neil.w.r1": "finished", "neil.w.r2": "finished"}
        assert [c[0] for c in started] == ["my-bot", "my-bot"]
        assert out.getvalue().count("starting match 127.0.0.1:") == 2
        later = io.StringIO()
        await converse("127.0.0.1", server.port, ["my-bot"], logon="neil test",
                       commands=["RESULTS"], out=later)  # fmt: skip
    assert later.getvalue().startswith(
        "LOGON OKAY - type help for commands\n# w vs raiser: over 100 hands (2 runs): "
    )


def test_a_user_needs_a_password_from_the_environment_or_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert logon_line(None, None, "ACPCBOT_PASSWORD") is None  # typed, as with bm_widget
    monkeypatch.delenv("ACPCBOT_PASSWORD", raising=False)
    with pytest.raises(UsageError, match=r"--user needs a password: \$ACPCBOT_PASSWORD or"):
        logon_line("neil", None, "ACPCBOT_PASSWORD")
    monkeypatch.setenv("ACPCBOT_PASSWORD", "s3cret")
    assert logon_line("neil", None, "ACPCBOT_PASSWORD") == "neil s3cret"
    empty = tmp_path / "pw"
    empty.write_text("")
    with pytest.raises(AcpcError, match=f"cannot read a password from {empty}"):
        logon_line("neil", empty, "ACPCBOT_PASSWORD")
    empty.write_text(" other \nmore\n")
    assert logon_line("neil", empty, "ACPCBOT_PASSWORD") == "neil other"  # the file first
