"""A client of a benchmark server (``acpcbot serve`` or the reference's ``bm_server``) that
speaks the lines ``bm_widget`` speaks: it logs on, passes commands on, prints what the
server says, and starts the user's bot with ``HOST PORT`` appended for every ``RUN HOST
PORT`` line.

Unlike ``bm_widget`` it can log on and send its commands by itself (no terminal needed), and
know when its work is done: our server answers an accepted ``RUNMATCHES`` with ``# QUEUED
USER.TAG N runs`` and each run's end with ``# ENDED USER.TAG.rN STATUS ...``, so with
commands given up front the client ends when every run it asked for has ended and every bot
it started has exited (status 0 when all finished). Lines typed (or piped) on standard
input go to the server as they come, as ``bm_widget`` passes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from acpcbot import eventloop
from acpcbot.errors import AcpcError, UsageError
from acpcbot.protocol.framing import MAX_LINE_BYTES, LineBuffer
from dealer.benchmark.lineprotocol import (
    BAD_LOGON,
    BAD_RUNMATCHES,
    read_ended,
    read_queued,
    read_run,
)

__all__ = ["WidgetReport", "connect", "converse", "logon_line"]

_CONNECT_TIMEOUT_S = 30.0


@dataclass
class WidgetReport:
    """What the conversation came to."""

    queued: dict[str, int] = field(default_factory=dict)
    """Runs asked for, by job tag (``USER.TAG``)."""
    ended: dict[str, str] = field(default_factory=dict)
    """How each run that ended ended, by run name."""
    refused: int = 0
    """``RUNMATCHES`` refused."""
    bots: list[int | None] = field(default_factory=list)
    """The bots' exit statuses."""

    @property
    def waiting(self) -> int:
        """Runs asked for that have not ended."""
        asked = sum(self.queued.values())
        ours = [r for r in self.ended if any(r.startswith(f"{tag}.r") for tag in self.queued)]
        return asked - len(ours)

    @property
    def ok(self) -> bool:
        return not self.refused and all(s == "finished" for s in self.ended.values())


async def converse(
    host: str,
    port: int,
    bot_command: Sequence[str],
    *,
    logon: str | None,
    commands: Sequence[str] = (),
    stdin: asyncio.StreamReader | None = None,
    out: TextIO = sys.stdout,
    start_bot: Callable[[Sequence[str]], asyncio.Future[int]] | None = None,
) -> WidgetReport:
    """Talk to the server at ``host:port`` until the work is done (see the module):
    ``logon`` (``NAME PASSWORD``, else the first line of ``stdin``) and ``commands`` sent,
    the lines of ``stdin`` passed on as they come; the server's lines printed to ``out``.
    Returns when every run asked for has ended and its bots have exited (with ``commands``)
    or when ``stdin`` ends and nothing is left to wait for."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, limit=2 * MAX_LINE_BYTES), _CONNECT_TIMEOUT_S
        )
    except (OSError, TimeoutError) as exc:
        raise AcpcError(f"cannot connect to {host}:{port}: {exc}") from None
    report = WidgetReport()
    bots: list[asyncio.Future[int]] = []
    start = start_bot or _start_bot
    pending_commands = sum(c[:10].upper() == "RUNMATCHES" for c in commands)
    """``RUNMATCHES`` sent and not yet answered (queued or refused)."""
    typing_done = stdin is None

    def send(line: str) -> None:
        writer.write(line.rstrip("\r\n").encode("latin-1", "replace") + b"\n")

    if logon is not None:
        send(logon)
    elif stdin is None:
        raise AcpcError("no logon: give one, or lines on standard input")
    else:
        print("Log in with 'user password'", file=out, flush=True)

    logged_on = False
    finishing = False

    def finish_when_done() -> None:
        """Once nothing is left to send or wait for, say so (an end of file): the server
        answers what it was sent, then closes, and every answer is read before that."""
        nonlocal finishing
        waiting = pending_commands or report.waiting > 0 or not typing_done
        if logged_on and not waiting and not finishing:
            finishing = True
            writer.write_eof()

    async def typed() -> None:
        nonlocal typing_done, pending_commands
        assert stdin is not None
        first = logon is None
        while line := await stdin.readline():
            if not first and line[:10].upper() == b"RUNMATCHES":
                pending_commands += 1
            first = False
            writer.write(line if line.endswith(b"\n") else line + b"\n")
        typing_done = True
        finish_when_done()

    typing = asyncio.create_task(typed()) if stdin is not None else None
    lines = LineBuffer(MAX_LINE_BYTES, split_long=True)
    try:
        while data := await reader.read(4096):
            for raw in lines.feed(data):
                text = _text(raw)
                if raw + b"\n" == BAD_LOGON:
                    raise AcpcError("BAD LOGON: the server refused the name or the password")
                run = read_run(text)
                if run is not None:
                    print(f"starting match {run[0]}:{run[1]}", file=out, flush=True)
                    bots.append(start([*bot_command, run[0], run[1]]))
                    continue
                print(text, file=out, flush=True)
                if not logged_on and text.startswith("LOGON OKAY"):
                    logged_on = True
                    for command in commands:
                        send(command)
                elif raw + b"\n" == BAD_RUNMATCHES:
                    report.refused += 1
                    pending_commands = max(pending_commands - 1, 0)
                elif (queued := read_queued(text)) is not None:
                    report.queued[queued[0]] = report.queued.get(queued[0], 0) + queued[1]
                    pending_commands = max(pending_commands - 1, 0)
                elif (ended := read_ended(text)) is not None:
                    report.ended[ended[0]] = ended[1]
            finish_when_done()
            await writer.drain()
        if not finishing:
            raise AcpcError("the server closed the connection")
    finally:
        if typing is not None:
            typing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await typing
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
        report.bots = list(await asyncio.gather(*bots))
    return report


def logon_line(user: str | None, password_file: Path | None, variable: str) -> str | None:
    """The logon (``NAME PASSWORD``) of ``user``, with the password from ``password_file``'s
    first line, else from the environment's ``variable``; ``None`` without a user (it is
    typed)."""
    if user is None:
        return None
    if password_file is not None:
        try:
            password = password_file.read_text().splitlines()[0].strip()
        except (OSError, IndexError, UnicodeDecodeError) as exc:
            raise AcpcError(f"cannot read a password from {password_file}: {exc}") from None
    else:
        password = os.environ.get(variable, "")
        if not password:
            raise UsageError(f"--user needs a password: ${variable} or --password-file")
    return f"{user} {password}"


def connect(
    host: str, port: int, bot_command: Sequence[str], *, logon: str | None, commands: Sequence[str]
) -> None:
    """:func:`converse` in an event loop of its own: the lines of standard input passed on
    unless ``commands`` are given, and then an :class:`AcpcError` naming the runs (and the
    requests) that did not finish."""

    async def talk() -> None:
        stdin = None
        if not commands:
            stdin = asyncio.StreamReader()
            loop = asyncio.get_running_loop()

            def pump() -> None:  # any standard input (a terminal, a pipe, a file)
                for line in sys.stdin.buffer:
                    loop.call_soon_threadsafe(stdin.feed_data, line)
                loop.call_soon_threadsafe(stdin.feed_eof)

            threading.Thread(target=pump, daemon=True).start()
        report = await converse(
            host, port, bot_command, logon=logon, commands=commands, stdin=stdin
        )
        if commands and not report.ok:
            failed = [f"{run} {how}" for run, how in report.ended.items() if how != "finished"]
            if report.refused:
                failed.insert(0, f"{report.refused} request(s) refused")
            raise AcpcError("; ".join(failed))

    eventloop.run(talk(), uvloop=False)


def _text(line: bytes) -> str:
    """A server's line as text: UTF-8 (our ``#`` lines), else its bytes as Latin-1."""
    try:
        return line.decode()
    except UnicodeDecodeError:
        return line.decode("latin-1")


def _start_bot(command: Sequence[str]) -> asyncio.Future[int]:
    """Start ``command`` (the bot with the host and port appended); its exit status."""

    async def run() -> int:
        try:
            process = await asyncio.create_subprocess_exec(
                *command, stdin=asyncio.subprocess.DEVNULL
            )
        except OSError as exc:
            print(f"ERROR: could not run {command[0]}: {exc.strerror}", file=sys.stderr)
            return 127
        return await process.wait()

    return asyncio.ensure_future(run())
