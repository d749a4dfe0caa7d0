"""``acpcbot serve`` (a process of its own, whose memory is measured) under hostile clients
while two users' matches play: 200 idle connections that never log on (each connected again
when the server drops it), and 20 garbage clients: random bytes, endless lines without a
newline, logon floods, half-open connections (a partial logon, then nothing) and logged-on
clients that never read what they ask for. Beside them a user's bot that never acts and one
that leaves mid-hand. The two matches finish; the stuck runs end on the configured timeouts
without holding the others up; other users' logons and commands answer promptly; the server's
memory stays bounded. The hostile clients come from addresses of their own on the loopback
(127.0.x.y), as they would from elsewhere: the users' own addresses are never locked out."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.acpcbot.cli.test_serve import ACPCBOT, LIMIT

pytestmark = pytest.mark.e2e  # acpcbot serve, acpcbot connect and acpcbot play as processes

HANDS = 500
"""Enough for the storm to be on while the two matches play, and for several checks of the
answers' promptness and samples of the memory meanwhile (the storm costs CPU for as long as
it lasts, on both sides)."""
IDLE = 200
GARBAGE_KINDS = 5  # of 4 clients each: 20
RESPONSE_TIMEOUT_S = 15
"""Long enough for a bot started on a loaded machine, short enough for a test."""
RSS_GROWTH_LIMIT_MIB = 192
"""What the storm may add to the server's peak memory: two password checks at once (argon2id
takes 64 MiB each), the connections' buffers, the interpreter's arenas."""
PROMPT_S = 10.0
"""Longest wait for a logon and a QSTAT answered, on a loaded 2-core machine."""

CONFIG = f"""
port = 0
response_timeout_secs = {RESPONSE_TIMEOUT_S}
startup_timeout_secs = 60
logon_timeout_secs = 20

[limits]
running = 2

[[game]]
file = "{LIMIT}"
max_running_jobs = 0
match_hands = {HANDS}
bots = {{ dpp = "dpp", caller = "always-call", raiser = "always-raise" }}

[[user]]
name = "ann"
password = "ann-pw"
[[user]]
name = "bob"
password = "bob-pw"
[[user]]
name = "carl"
password = "carl-pw"
[[user]]
name = "dora"
password = "dora-pw"
[[user]]
name = "eve"
password = "eve-pw"
[[user]]
name = "mute"
password = "mute-pw"
"""


def memory_kib(pid: int) -> tuple[int, int]:
    """A process's resident memory now and at its peak (``VmRSS``, ``VmHWM``), in KiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = {k: int(v) for k, v in re.findall(r"^(VmRSS|VmHWM):\s+(\d+) kB", status, re.M)}
    return found["VmRSS"], found["VmHWM"]


@dataclass
class Storm:
    """The hostile clients' counts (connections made, dropped by the server)."""

    port: int
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    connections: int = 0
    refused: int = 0
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    async def open(self, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        try:
            opened = await asyncio.open_connection(
                "127.0.0.1", self.port, local_addr=(source, 0), limit=1 << 16
            )
        except OSError:
            self.refused += 1
            await asyncio.sleep(0.2)
            return None
        self.connections += 1
        return opened

    def forever(self, source: str, client: Callable[..., Awaitable[None]]) -> None:
        """Run ``client`` on a connection from ``source``, again and again, until the end."""

        async def loop() -> None:
            while not self.stop.is_set():
                opened = await self.open(source)
                if opened is None:
                    continue
                reader, writer = opened
                try:
                    await client(reader, writer, self.stop)
                except (OSError, asyncio.IncompleteReadError):
                    pass
                finally:
                    writer.transport.abort()

        self.tasks.append(asyncio.create_task(loop()))

    async def end(self) -> None:
        self.stop.set()
        await asyncio.wait_for(asyncio.gather(*self.tasks), 60)


async def _until_closed(reader: asyncio.StreamReader, stop: asyncio.Event) -> None:
    """Read (and drop) until the server closes, or the storm ends."""
    while not stop.is_set():
        reading = asyncio.ensure_future(reader.read(1 << 16))
        ending = asyncio.ensure_future(stop.wait())
        done, _ = await asyncio.wait({reading, ending}, return_when=asyncio.FIRST_COMPLETED)
        ending.cancel()
        if reading not in done:
            reading.cancel()
            return
        if not reading.result():
            return


async def idle(r: asyncio.StreamReader, w: asyncio.StreamWriter, stop: asyncio.Event) -> None:
    await _until_closed(r, stop)


async def random_bytes(
    r: asyncio.StreamReader, w: asyncio.StreamWriter, stop: asyncio.Event
) -> None:
    for _ in range(64):
        w.write(os.urandom(4096))
        await w.drain()
    await _until_closed(r, stop)


async def endless_line(
    r: asyncio.StreamReader, w: asyncio.StreamWriter, stop: asyncio.Event
) -> None:
    while not stop.is_set() and not w.is_closing():
        w.write(b"A" * 65536)
        await w.drain()


async def logon_flood(
    r: asyncio.StreamReader, w: asyncio.StreamWriter, stop: asyncio.Event
) -> None:
    w.write(f"guess{random.randrange(10**6)} wrong\n".encode())
    await _until_closed(r, stop)


async def half_open(r: asyncio.StreamReader, w: asyncio.StreamWriter, stop: asyncio.Event) -> None:
    w.write(b"ann ann-p")  # a logon that never ends
    await _until_closed(r, stop)


async def never_reads(
    r: asyncio.StreamReader, w: asyncio.StreamWriter, stop: asyncio.Event
) -> None:
    w.write(b"mute mute-pw\n")
    while not stop.is_set() and not w.is_closing():
        w.write(b"GAMES\nHELP\nQSTAT\n" * 200)
        with contextlib.suppress(TimeoutError):  # (our buffers are full: it stopped reading)
            await asyncio.wait_for(w.drain(), 1.0)


@contextlib.asynccontextmanager
async def serve(tmp_path: Path) -> AsyncIterator[tuple[subprocess.Popen[str], int]]:
    (tmp_path / "server.toml").write_text(CONFIG)
    err = (tmp_path / "server.err").open("w")
    process = subprocess.Popen(
        [ACPCBOT, "serve", "--config", str(tmp_path / "server.toml"), "--data",
         str(tmp_path / "data")],
        stdout=subprocess.PIPE, stderr=err, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = await asyncio.to_thread(process.stdout.readline)
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        assert found, line + (tmp_path / "server.err").read_text()
        yield process, int(found.group(1))
    finally:
        if process.poll() is None:
            process.terminate()
        await asyncio.to_thread(process.wait, 60)
        err.close()


async def connect_bot(port: int, user: str, agent: str, request: str) -> asyncio.subprocess.Process:
    """``acpcbot connect`` for ``user``, playing ``agent`` in the runs of ``request``."""
    return await asyncio.create_subprocess_exec(
        ACPCBOT, "connect", "127.0.0.1", str(port), "--agent", agent, "--user", user,
        "--run", request,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "ACPCBOT_PASSWORD": f"{user}-pw"},
    )  # fmt: skip


async def stuck_user(port: int, user: str, leaves: bool) -> str:
    """A user whose bot connects to its run, reads its first state, then never acts (or
    leaves mid-hand): how the run ended."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"{user} {user}-pw\nRUNMATCHES {LIMIT} 1 stuck 5 LOCAL caller\n".encode())
    bot: asyncio.StreamWriter | None = None
    try:
        while True:
            line = (await asyncio.wait_for(reader.readline(), 300)).decode()
            if line.startswith("RUN "):
                _, host, run_port = line.split()
                bot_reader, bot = await asyncio.open_connection(host, int(run_port))
                bot.write(b"VERSION:2.0.0\r\n")
                await asyncio.wait_for(bot_reader.readline(), 60)  # the first state
                if leaves:
                    bot.transport.abort()
            elif line.startswith("# ENDED"):
                return line
            assert line, "the server closed the connection"
    finally:
        writer.close()
        if bot is not None:
            bot.close()


async def prompt_check(port: int) -> float:
    """A logon as carl and a QSTAT, from a place of carl's own: seconds until answered."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.9", 0))
    try:
        writer.write(b"carl carl-pw\nQSTAT\n")
        assert await asyncio.wait_for(reader.readline(), 60) == (
            b"LOGON OKAY - type help for commands\n"
        )
        answer = await asyncio.wait_for(reader.readline(), 60)
        assert answer == b"Queue empty\n" or f" {LIMIT} * ".encode() in answer, answer
    finally:
        writer.close()
    return time.monotonic() - started


async def test_hostile_clients_cost_bounded_memory_and_stall_nobody(tmp_path: Path) -> None:
    async with serve(tmp_path) as (process, port):
        baseline_rss, _ = memory_kib(process.pid)
        storm = Storm(port)
        for n in range(IDLE):  # 25 from each of 8 addresses (the cap is 32 an address)
            storm.forever(f"127.0.1.{1 + n % 8}", idle)
        kinds = (random_bytes, endless_line, logon_flood, half_open, never_reads)
        assert len(kinds) == GARBAGE_KINDS
        for n in range(4 * GARBAGE_KINDS):
            storm.forever(f"127.0.2.{1 + n % 4}", kinds[n % GARBAGE_KINDS])
        await asyncio.sleep(2)  # the storm is on before the matches begin
        ann = await connect_bot(port, "ann", "example", f"RUNMATCHES {LIMIT} 1 a 11 LOCAL dpp")
        bob = await connect_bot(
            port, "bob", "always-call", f"RUNMATCHES {LIMIT} 1 b 12 LOCAL raiser"
        )
        stuck = asyncio.gather(stuck_user(port, "dora", False), stuck_user(port, "eve", True))
        samples: list[int] = []
        waits: list[float] = []
        playing = asyncio.gather(ann.communicate(), bob.communicate())
        while not playing.done():
            samples.append(memory_kib(process.pid)[0])
            waits.append(await prompt_check(port))
            await asyncio.wait({playing}, timeout=2)
        (ann_out, ann_err), (bob_out, bob_err) = playing.result()
        dora, eve = await asyncio.wait_for(stuck, 120)
        end_rss, peak_rss = memory_kib(process.pid)
        connections = storm.connections
        await storm.end()
        after = await prompt_check(port)  # and it still serves
    said = (
        f"server RSS: {baseline_rss / 1024:.0f} MiB at start, {max(samples) / 1024:.0f} MiB "
        f"at most while sampled, {peak_rss / 1024:.0f} MiB peak (VmHWM), "
        f"{end_rss / 1024:.0f} MiB at the end; {connections} hostile connections; logon + "
        f"QSTAT answered in {max(waits):.2f} s at most ({len(waits)} checks: "
        f"{', '.join(f'{w:.1f}' for w in waits)}), {after:.2f} s after"
    )
    print(said)
    assert ann.returncode == 0, ann_err.decode() + said
    assert bob.returncode == 0, bob_err.decode() + said
    assert f"# ENDED ann.a.r1 finished {HANDS} hands" in ann_out.decode()
    assert f"# ENDED bob.b.r1 finished {HANDS} hands" in bob_out.decode()
    assert re.match(r"# ENDED dora\.stuck\.r1 failed 0 hands: .*seat 1 \(dora, port \d+\)", dora)
    assert "timeout" in dora or "timed out" in dora, dora
    assert re.match(r"# ENDED eve\.stuck\.r1 failed 0 hands: .*seat 1 \(eve, port \d+\)", eve)
    assert peak_rss - baseline_rss < RSS_GROWTH_LIMIT_MIB * 1024, said
    assert max(waits) < PROMPT_S, said
    assert connections > IDLE + 4 * GARBAGE_KINDS, said  # the server dropped them, they came again
    # What the clients sent reaches the server's log only as printable text (a client's
    # bytes must not write into the operator's terminal).
    logged = (tmp_path / "server.err").read_text(errors="replace").splitlines()
    assert any("logon_refused" in line for line in logged)
    assert all(line.isprintable() for line in logged), [
        line for line in logged if not line.isprintable()
    ][:3]
