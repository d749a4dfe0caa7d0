"""Hostile input to ``acpc-dealer``: every argument is accepted or refused in one line, and
what a peer sends cannot make the dealer's memory grow without bound.

The peers are raw sockets against the real dealer process, whose resident memory is read
from ``/proc`` while they misbehave.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from acpcbot.game import Game
from dealer.referee.cli import main
from dealer.referee.transcript import MAX_MESSAGES, Transcript
from tests.dealer.referee.scripted import ScriptedClient

DEALER = [sys.executable, "-m", "dealer.referee.cli"]
GAME = "holdem.limit.2p.reverse_blinds.game"
BASE = ["m", GAME, "1", "1", "A", "B", "-q", "--start_timeout", "1"]


def _run_main(argv: list[str], cwd: Path) -> tuple[int, str]:
    """``acpc-dealer`` in this process: its status and stderr."""
    stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape")
    with contextlib.chdir(cwd), contextlib.redirect_stderr(stderr):
        status = main(argv)
    stderr.flush()
    return status, stderr.buffer.getvalue().decode("utf-8", "backslashreplace")


def _with(position: int | str, value: str) -> list[str]:
    argv = list(BASE)
    if isinstance(position, int):
        argv[position] = value
    else:
        argv += [position, value]
    return argv


HOSTILE_ARGUMENTS = {
    "hands-superscript": (_with(2, "²"), "ERROR: invalid number of hands ²"),
    "hands-arabic-digit": (_with(2, "٣"), "ERROR: invalid number of hands ٣"),
    "hands-underscore": (_with(2, "1_0"), "ERROR: invalid number of hands 1_0"),
    "hands-space": (_with(2, " 1"), "ERROR: invalid number of hands  1"),
    "hands-over-uint32": (_with(2, "4294967296"), "ERROR: invalid number of hands 4294967296"),
    "hands-5000-digits": (_with(2, "9" * 5000), "ERROR: invalid number of hands 999"),
    "seed-superscript": (_with(3, "²"), "ERROR: invalid random number seed ²"),
    "seed-5000-digits": (_with(3, "9" * 5000), "ERROR: invalid random number seed 999"),
    "seed-negative": (_with(3, "-1"), "ERROR: invalid random number seed -1"),
    "port-superscript": (_with("-p", "²"), "ERROR: bad port string ²"),
    "port-too-big": (_with("-p", "65536"), "ERROR: bad port string 65536"),
    "ports-too-many": (_with("-p", ",".join(["0"] * 11)), "ERROR: bad port string 0,0"),
    "ports-commas": (_with("-p", "," * 20), "ERROR: bad port string ,,"),
    "t_response-superscript": (_with("--t_response", "²"), "--t_response: not a number of"),
    "t_response-huge": (_with("--t_response", "9" * 14), "--t_response: not a number of"),
    "t_hand-arabic-digit": (_with("--t_hand", "٣"), "--t_hand: not a number of"),
    "t_per_hand-negative": (_with("--t_per_hand", "-5"), "--t_per_hand: not a number of"),
    "start_timeout-huge": (_with("--start_timeout", "9" * 14), "--start_timeout: not a number of"),
    "spin-us-superscript": (_with("--spin-us", "²"), "--spin-us: not a number of microseconds"),
    "name-bar": (_with(4, "A|B"), "ERROR: player name 'A|B' cannot be written to a log"),
    "name-colon": (_with(4, "A:B"), "ERROR: player name 'A:B' cannot be written to a log"),
    "name-space": (_with(4, "A B"), "ERROR: player name 'A B' cannot be written to a log"),
    "name-escape": (_with(4, "A\x1b[2J"), "ERROR: player name 'A\\x1b[2J' cannot be written"),
    "name-empty": (_with(4, ""), "ERROR: player name '' cannot be written to a log"),
    "match-space": (_with(0, "m n"), "ERROR: match name 'm n' cannot be written to a log header"),
    "match-newline": (_with(0, "m\nn"), "ERROR: match name 'm\\nn' cannot be written"),
    "names-missing": (BASE[:5] + BASE[6:], "ERROR: 2 player names needed, 1 given"),
    "host-not-idna": (_with("--host", "ü" * 300), "ERROR: could not create listen socket"),
}


@pytest.mark.parametrize("case", list(HOSTILE_ARGUMENTS), ids=list(HOSTILE_ARGUMENTS))
def test_a_bad_argument_is_one_line(tmp_path: Path, case: str) -> None:
    argv, expected = HOSTILE_ARGUMENTS[case]
    status, stderr = _run_main(argv, tmp_path)
    assert status == 1
    last = stderr.splitlines()[-1]
    assert last.startswith(("ERROR: ", "acpc-dealer: error: ")) and expected in last, stderr
    assert not (tmp_path / "m.log").exists() or case == "host-not-idna"


def _game_file(kind: str, folder: Path) -> str:
    """A hostile game file of the given kind."""
    path = folder / kind
    if kind == "device":
        return "/dev/zero"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "big":
        with path.open("wb") as file:
            file.truncate(2 << 20)
    elif kind == "folder":
        path.mkdir()
    else:
        path.write_bytes(b"\x00\xff\n")
    return str(path)


@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("device", "/dev/zero: not a regular file"),
        ("fifo", "fifo: not a regular file"),
        ("big", "big: larger than 64 KB"),
        ("folder", "folder: not a regular file"),
        ("binary", "binary:1: not a game definition line"),
    ],
)
def test_a_game_file_is_read_only_when_it_is_a_small_regular_file(
    tmp_path: Path, kind: str, why: str
) -> None:
    game = _game_file(kind, tmp_path)
    started = time.monotonic()
    status, stderr = _run_main(_with(1, game), tmp_path)
    assert status == 1 and time.monotonic() - started < 5
    assert stderr.startswith(f"ERROR: could not read game {game}") and why in stderr, stderr
    assert stderr.count(game) == 1  # the file is named once


def test_the_game_error_names_the_file_once(tmp_path: Path) -> None:
    status, stderr = _run_main(_with(1, "nonexistent.game"), tmp_path)
    assert status == 1
    assert stderr == "ERROR: could not read game nonexistent.game: no such file\n"


async def _play(args: list[bytes], cwd: Path, game: Game) -> tuple[int, bytes, bytes]:
    process = await asyncio.create_subprocess_exec(
        *DEALER, *args, cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    ports = [int(p) for p in (await process.stdout.readline()).split()]
    clients = [ScriptedClient(game), ScriptedClient(game)]
    await asyncio.gather(*(c.play(p) for c, p in zip(clients, ports, strict=True)))
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out, err


@pytest.mark.e2e
async def test_names_are_written_as_the_bytes_given(tmp_path: Path, limit_game: Game) -> None:
    """UTF-8 names, a UTF-8 match name and a name that is not UTF-8 at all: the log and
    stdout hold the bytes of the command line, as the reference writes them."""
    names = ["Zoë".encode(), b"\xffmega"]
    status, out, err = await _play(
        ["café".encode(), GAME.encode(), b"2", b"1", *names, b"-q"], tmp_path, limit_game
    )
    assert status == 0, err
    log = (tmp_path / "café.log").read_bytes()
    assert log.startswith("# name/game/hands/seed café ".encode())
    assert b":Zo\xc3\xab|\xffmega\n" in log and b":\xffmega|Zo\xc3\xab\n" in log
    assert out.endswith(b":Zo\xc3\xab|\xffmega\n") and out.startswith(b"SCORE:")


# -- peers that send too much ------------------------------------------------------------


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _settled_rss_kb(pid: int) -> int:
    """The resident memory once it stops growing (the evaluator loads after the ports)."""
    last = _rss_kb(pid)
    for _ in range(100):
        time.sleep(0.2)
        now = _rss_kb(pid)
        if abs(now - last) < 1024:
            return now
        last = now
    return last


def _flood(port: int, first: bytes, total: int, sent: list[int], stop: threading.Event) -> None:
    """Connect and send ``first`` then ``x``s without a line end, as fast as the dealer
    takes them, until ``total`` bytes or ``stop``; ``sent[0]`` counts."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(0.5)
        sock.sendall(first)
        chunk = b"x" * (1 << 20)
        while sent[0] < total and not stop.is_set():
            try:
                sent[0] += sock.send(chunk)
            except TimeoutError:
                continue  # held back: the dealer does not read
            except OSError:
                return
        stop.wait(30)  # then hang up


@pytest.mark.parametrize("first", [b"", b"VERSION:2.0.0\r\n"], ids=["before", "with"])
@pytest.mark.e2e
def test_a_flood_around_the_version_line_is_held_back(tmp_path: Path, first: bytes) -> None:
    """Seat 2 sends 300 MB before (or right after) its VERSION line while the dealer still
    waits for seat 1's: the dealer stops reading it, so it neither grows nor takes them."""
    dealer = subprocess.Popen(
        [*DEALER, "m", GAME, "1", "1", "A", "B", "-q", "-l", "--t_response", "20000"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert dealer.stdout is not None and dealer.stderr is not None
    try:
        ports = [int(p) for p in dealer.stdout.readline().split()]
        seat1 = socket.create_connection(("127.0.0.1", ports[0]))
        before = _settled_rss_kb(dealer.pid)
        sent, stop = [0], threading.Event()
        flooder = threading.Thread(target=_flood, args=(ports[1], first, 300 << 20, sent, stop))
        flooder.start()
        peak, deadline = before, time.monotonic() + 4
        while time.monotonic() < deadline and sent[0] < 300 << 20:
            peak = max(peak, _rss_kb(dealer.pid))
            time.sleep(0.05)
        assert sent[0] < 64 << 20, f"the dealer took {sent[0] >> 20} MB"
        assert peak - before < 64 << 10, f"the dealer grew by {(peak - before) >> 10} MB"
        stop.set()  # the flooder hangs up
        flooder.join()
        seat1.sendall(b"VERSION:2.0.0\r\n")
        _, err = dealer.communicate(timeout=30)
        seat1.close()
    finally:
        dealer.kill()
    assert dealer.returncode == 1
    lines = err.decode("latin-1").splitlines()
    assert "Traceback" not in err.decode("latin-1")
    if first:  # its VERSION was fine: the flood is its reply to a state, cut in pieces
        assert any("seat 2" in line for line in lines if line.startswith("ERROR"))
    else:
        assert lines[-1] == "ERROR: invalid version string " + "x" * 4095 + " (seat 2)"


@pytest.mark.e2e
async def test_comments_in_a_turn_keep_the_transcript_bounded(
    tmp_path: Path, limit_game: Game
) -> None:
    """80 MB of comment lines before an action, with the verbose transcript on: every
    line is printed, and the dealer does not keep them."""
    process = await asyncio.create_subprocess_exec(
        *DEALER, "m", GAME, "2", "1", "A", "B", "-l", cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdout is not None
    ports = [int(p) for p in (await process.stdout.readline()).split()]
    before = peak = await asyncio.to_thread(_settled_rss_kb, process.pid)
    comments = ("#" + "c" * 4000 + "\r\n") * 20_000
    talker = ScriptedClient(limit_game, overrides={"0:": comments + "{STATE}:c\r\n"})
    playing = asyncio.gather(ScriptedClient(limit_game).play(ports[0]), talker.play(ports[1]))
    while not playing.done():
        peak = max(peak, _rss_kb(process.pid))
        await asyncio.sleep(0.02)
    await playing
    out, _ = await process.communicate()
    assert process.returncode == 0 and out.decode().splitlines()[-1].startswith("SCORE:")
    assert peak - before < 32 << 10, f"the dealer grew by {(peak - before) >> 10} MB"


def test_the_kept_messages_are_bounded() -> None:
    reporter = Transcript(None)
    for _ in range(MAX_MESSAGES + 500):
        reporter.warning("bad state format in response")
    assert len(reporter.messages) == MAX_MESSAGES and reporter.more_messages == 500
