"""``acpc-dealer`` as a real subprocess: its interface, its outputs, and resuming."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from acpcbot.game import Game
from tests.dealer.referee.scripted import ScriptedClient

pytestmark = pytest.mark.e2e  # every test runs acpc-dealer as a process

DEALER = [sys.executable, "-m", "dealer.referee.cli"]
GAME = "holdem.limit.2p.reverse_blinds.game"


def _dealer(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*DEALER, *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=False
    )


def test_usage_and_argument_errors_exit_1(tmp_path: Path) -> None:
    missing = _dealer("m", GAME, cwd=tmp_path)
    assert missing.returncode == 1 and "usage: acpc-dealer" in missing.stderr
    zero = _dealer("m", GAME, "0", "1", "A", "B", cwd=tmp_path)
    assert zero.returncode == 1 and "ERROR: invalid number of hands 0" in zero.stderr
    ports = _dealer("m", GAME, "1", "1", "A", "B", "-p", "1,x", cwd=tmp_path)
    assert ports.returncode == 1 and "ERROR: bad port string 1,x" in ports.stderr
    names = _dealer("m", GAME, "1", "1", "A", cwd=tmp_path)
    assert names.returncode == 1 and "2 player names needed" in names.stderr
    game = _dealer("m", "nonexistent.game", "1", "1", "A", "B", cwd=tmp_path)
    assert game.returncode == 1 and "ERROR: could not read game nonexistent.game" in game.stderr
    unknown = _dealer("m", GAME, "1", "1", "A", "B", "-z", cwd=tmp_path)
    assert unknown.returncode == 1
    assert _dealer("--help", cwd=tmp_path).returncode == 0
    assert "Traceback" not in missing.stderr + zero.stderr + ports.stderr + game.stderr


async def _start(*args: str, cwd: Path) -> tuple[asyncio.subprocess.Process, list[int]]:
    process = await asyncio.create_subprocess_exec(
        *DEALER, *args, cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    ports = [int(p) for p in (await process.stdout.readline()).split()]
    return process, ports


async def test_a_match_prints_ports_then_score_and_logs_like_the_reference(
    tmp_path: Path, limit_game: Game, vectors: Path
) -> None:
    folder = vectors / "transcripts" / "limit2p.seed42.n50.Alice_hash-Bob_raiser"
    name = "limit2p.seed42.n50.Alice_hash-Bob_raiser"
    process, ports = await _start(name, GAME, "50", "42", "Alice", "-T", "Bob", cwd=tmp_path)
    assert len(ports) == 2 and all(ports)
    clients = [ScriptedClient(limit_game, "hash"), ScriptedClient(limit_game, "raiser")]
    await asyncio.gather(*(c.play(port) for c, port in zip(clients, ports, strict=True)))
    out, err = await process.communicate()
    assert process.returncode == 0
    assert out.decode() == (folder / "dealer.stdout.txt").read_text()
    assert (tmp_path / f"{name}.log").read_bytes() == (folder / "dealer.log").read_bytes()
    # stderr is the reference's transcript, but for the times (and CRs of received lines)
    reference = (folder / "dealer.stderr.txt").read_bytes()

    def untimed(data: bytes) -> bytes:
        data = re.sub(rb" at \d+\.\d{6}", b" at T", data)
        return re.sub(rb"(FROM [^\n]*)\r\n", rb"\1\n", data)

    assert untimed(err) == untimed(reference)
    tlog = (tmp_path / f"{name}.tlog").read_text().splitlines()
    assert len(tlog) == sum(1 for line in reference.splitlines() if line.startswith(b"FROM"))
    assert re.fullmatch(r"[fcr] 0 \d+\.\d{6} \d+\.\d{6}", tlog[0])


async def test_given_ports_and_no_log(tmp_path: Path, limit_game: Game) -> None:
    process, ports = await _start("m", GAME, "2", "7", "A", "B", "-l", "-q", cwd=tmp_path)
    process2, ports2 = await _start(
        "m2", GAME, "2", "7", "A", "B", "-q", "-p", f"0,{ports[0] + 1}", cwd=tmp_path
    )
    assert ports2[1] == ports[0] + 1
    for proc, seat_ports in ((process, ports), (process2, ports2)):
        clients = [ScriptedClient(limit_game), ScriptedClient(limit_game)]
        await asyncio.gather(*(c.play(p) for c, p in zip(clients, seat_ports, strict=True)))
        out, _ = await proc.communicate()
        assert proc.returncode == 0 and out.decode().startswith("SCORE:")
    assert not (tmp_path / "m.log").exists() and (tmp_path / "m2.log").exists()


async def test_resume_after_sigkill_ends_with_the_uninterrupted_score(
    tmp_path: Path, limit_game: Game, vectors: Path
) -> None:
    """Kill -9 a 1000-hand match part-way, resume with ``-T -a``: same SCORE, same log."""
    reference = (
        vectors / "logs" / "deterministic" / "limit2p.seed42.n1000.Alice_hash-Bob_raiser.log"
    )
    name = reference.stem
    args = (name, GAME, "1000", "42", "Alice", "Bob", "-q", "-T", "-a")
    log = tmp_path / f"{name}.log"
    process, ports = await _start(*args, cwd=tmp_path)
    clients = [ScriptedClient(limit_game, "hash"), ScriptedClient(limit_game, "raiser")]
    playing = asyncio.gather(*(c.play(p) for c, p in zip(clients, ports, strict=True)))
    while not log.exists() or log.read_text().count("\nSTATE:") < 300:
        await asyncio.sleep(0.01)
    os.kill(process.pid, signal.SIGKILL)
    await process.wait()
    await playing
    hands_before = log.read_text().count("\nSTATE:")
    assert 300 <= hands_before < 1000

    process, ports = await _start(*args, cwd=tmp_path)
    clients = [ScriptedClient(limit_game, "hash"), ScriptedClient(limit_game, "raiser")]
    await asyncio.gather(*(c.play(p) for c, p in zip(clients, ports, strict=True)))
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    assert out.decode().splitlines() == ["SCORE:-4120|4120:Alice|Bob"]
    assert log.read_bytes() == reference.read_bytes()
    first_hand_played = int(clients[0].received[0].split(b":")[2])
    assert first_hand_played >= hands_before  # the replayed hands were not played again

    # resuming a finished match plays nothing: no ports, the SCORE, the log unchanged
    done = _dealer(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["SCORE:-4120|4120:Alice|Bob"]
    assert "was over already (1000 hands in" in done.stderr
    assert log.read_bytes() == reference.read_bytes()


async def test_ctrl_c_ends_a_match_at_once(tmp_path: Path) -> None:
    """The hands are played in a thread: SIGINT must still end the dealer while it waits."""
    process, ports = await _start("m", GAME, "10", "1", "A", "B", "-q", "-l", cwd=tmp_path)
    writers = []
    for port in ports:  # connect, say the version, then never answer
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"VERSION:2.0.0\r\n")
        writers.append(writer)
    assert process.stderr is not None
    await process.stderr.readline()  # the header: the match is under way
    await asyncio.sleep(0.3)
    process.send_signal(signal.SIGINT)
    try:
        _, err = await asyncio.wait_for(process.communicate(), 10)
    finally:
        if process.returncode is None:
            process.kill()
        for writer in writers:
            writer.close()
    assert process.returncode == 1 and "ERROR: interrupted" in err.decode()
