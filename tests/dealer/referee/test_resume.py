"""Resuming with ``acpc-dealer ... -T -a``: a resume fits the earlier run or is refused with
one line, and the ``.log`` always holds what was played.

The earlier runs are the reference dealer's own ``.log``/``.tlog`` pair (cut where a kill
would have cut them) and our dealer's runs with the corpus's scripted players.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from acpcbot.game import Game
from acpcbot.protocol.logfile import LogHeader, format_score_line, parse_state_line
from dealer.referee.cli import main
from tests.dealer.referee.scripted import ScriptedClient

DEALER = [sys.executable, "-m", "dealer.referee.cli"]
GAME = "holdem.limit.2p.reverse_blinds.game"
PAIR = "limit2p.seed42.n1000.Alice-Bob"
"""The reference dealer's run with two ``example_player``: a ``.log`` and a ``.tlog``."""
RESUME = (PAIR, GAME, "1000", "42", "Alice", "Bob", "-q", "-T", "-a", "--start_timeout", "500")


def _dealer(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*DEALER, *args], cwd=cwd, capture_output=True, timeout=60, check=False,
        encoding="utf-8", errors="backslashreplace",
    )  # fmt: skip


def _earlier_run(vectors: Path, folder: Path, *, hands: int = 1000, logged: int = 1000) -> None:
    """The reference's files as a run killed before hand ``hands`` would leave them: the
    ``.tlog`` up to that hand, the ``.log`` with its first ``logged`` hands (and the
    ``SCORE`` if the match was over)."""
    source = vectors / "logs" / "example_player"
    tlog = (source / f"{PAIR}.tlog").read_text().splitlines(keepends=True)
    kept = [line for line in tlog if int(line.split()[1]) < hands]
    (folder / f"{PAIR}.tlog").write_text("".join(kept))
    log = (source / f"{PAIR}.log").read_text().splitlines(keepends=True)
    over = hands == logged == 1000
    (folder / f"{PAIR}.log").write_text("".join(log[: 4 + logged] + (log[-1:] if over else [])))


def _files(folder: Path) -> dict[str, bytes | None]:
    """Every file's bytes (``None`` for what is not a regular file)."""
    return {p.name: p.read_bytes() if p.is_file() else None for p in sorted(folder.iterdir())}


def _refused(
    done: subprocess.CompletedProcess[str], before: dict[str, bytes | None], folder: Path
) -> str:
    """The one-line error of a refused resume, which left every file as it was."""
    assert done.returncode == 1 and done.stdout == ""
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ERROR: "), done.stderr
    assert _files(folder) == before
    return lines[0]


@pytest.mark.e2e
def test_a_finished_match_is_not_played_again(tmp_path: Path, vectors: Path) -> None:
    _earlier_run(vectors, tmp_path)
    before = _files(tmp_path)
    done = _dealer(*RESUME, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "SCORE:2770|-2770:Alice|Bob\n"  # and no ports: nothing to play
    assert f"{PAIR} was over already (1000 hands in {PAIR}.tlog): nothing to play" in done.stderr
    assert _files(tmp_path) == before


@pytest.mark.e2e
def test_nothing_may_follow_the_score_line(tmp_path: Path, vectors: Path) -> None:
    _earlier_run(vectors, tmp_path)
    with (tmp_path / f"{PAIR}.log").open("a") as log:
        log.write("STATE:1000:cc/cc/cc/cc:9h6s|3d3h/5s3s8h/9d/5c:0|0:Bob|Alice\n")
    before = _files(tmp_path)
    error = _refused(_dealer(*RESUME, cwd=tmp_path), before, tmp_path)
    assert error.endswith(f"{PAIR}.log:1006: a STATE line after the SCORE line (line 1005)")


@pytest.mark.e2e
def test_a_finished_match_killed_before_its_score_gets_it(tmp_path: Path, vectors: Path) -> None:
    _earlier_run(vectors, tmp_path, logged=999)  # the last hand and SCORE not yet flushed
    done = _dealer(*RESUME, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    reference = (vectors / "logs" / "example_player" / f"{PAIR}.log").read_bytes()
    assert (tmp_path / f"{PAIR}.log").read_bytes() == reference


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({3: "43"}, f"{PAIR}.log was played with seed 42, not 43"),
        ({1: "holdem.nolimit.2p.reverse_blinds.game"}, "was played with game holdem.limit"),
        ({4: "Bob", 5: "Alice"}, "(hand 0) was played by Alice|Bob, not Bob|Alice"),
        ({5: "Carol"}, "(hand 0) was played by Alice|Bob, not Alice|Carol"),
        ({"-f": ""}, "(hand 1) was played by Bob|Alice, not Alice|Bob"),
        ({"--t_response": "1000"}, "was played with --t_response 600000, not 1000"),
        ({2: "399"}, f"{PAIR}.tlog line {{}}: hand 399 is beyond the 399 hands of this match"),
    ],
    ids=["seed", "game", "seats", "name", "fixed-seats", "time-limit", "fewer-hands"],
)
@pytest.mark.e2e
def test_a_resume_of_another_match_is_refused(
    tmp_path: Path, vectors: Path, change: dict[int | str, str], why: str
) -> None:
    _earlier_run(vectors, tmp_path, hands=400, logged=398)
    args = list(RESUME)
    for where, value in change.items():
        if isinstance(where, int):
            args[where] = value
        else:
            args += [where, value] if value else [where]
    before = _files(tmp_path)
    error = _refused(_dealer(*args, cwd=tmp_path), before, tmp_path)
    tlog = (tmp_path / f"{PAIR}.tlog").read_text().splitlines()
    first_of_hand_399 = next(n for n, line in enumerate(tlog, 1) if line.split()[1] == "399")
    why = why.format(first_of_hand_399)
    assert error.startswith(f"ERROR: cannot resume {PAIR}: ") and why in error, error


@pytest.mark.e2e
def test_the_cards_of_every_logged_hand_are_checked(tmp_path: Path, vectors: Path) -> None:
    """A log whose header was edited to another seed still has the first seed's cards."""
    _earlier_run(vectors, tmp_path, hands=400, logged=398)
    log = tmp_path / f"{PAIR}.log"
    log.write_bytes(log.read_bytes().replace(b" 1000 42\n", b" 1000 43\n", 1))
    args = [arg if arg != "42" else "43" for arg in RESUME]
    before = _files(tmp_path)
    error = _refused(_dealer(*args, cwd=tmp_path), before, tmp_path)
    assert error.endswith("line 5 (hand 0) has other cards than seed 43 deals"), error


@pytest.mark.parametrize(
    ("cut", "why"),
    [
        ("tlog", f"{PAIR}.log has hands but there is no {PAIR}.tlog"),
        ("hands", f"{PAIR}.log has hands that {PAIR}.tlog does not (line 305)"),
    ],
)
@pytest.mark.e2e
def test_a_log_ahead_of_its_tlog_is_refused(
    tmp_path: Path, vectors: Path, cut: str, why: str
) -> None:
    _earlier_run(vectors, tmp_path, hands=300 if cut == "hands" else 400, logged=398)
    if cut == "tlog":
        (tmp_path / f"{PAIR}.tlog").unlink()
    before = _files(tmp_path)
    assert _refused(_dealer(*RESUME, cwd=tmp_path), before, tmp_path).endswith(why)


def _replace_line(path: Path, number: int, data: bytes) -> None:
    lines = path.read_bytes().split(b"\n")
    lines[number - 1] = data
    path.write_bytes(b"\n".join(lines))


DAMAGED_TLOG = {
    "garbage": (b"garbage", "could not parse transaction 'garbage'"),
    "superscript": ("c ² 1.5 2.0".encode(), r"could not parse transaction 'c \xc2\xb2 1.5 2.0'"),
    "huge-number": (b"c 0 " + b"9" * 40 + b".5 1.0", "could not parse transaction"),
    "binary": (b"\x00\xff\xfe\x80", "could not parse transaction"),
    "long-line": (b"c" * 5000, "longer than 4096 bytes"),
    "size-in-limit": (b"r5 0 1.0 1.0", "unexpected size in transaction"),
    "other-hand": (b"c 7 1.0 1.0", "handId mismatch in transaction log: c 7"),
}


@pytest.mark.parametrize("damage", list(DAMAGED_TLOG), ids=list(DAMAGED_TLOG))
@pytest.mark.e2e
def test_a_damaged_tlog_is_refused_naming_the_line(
    tmp_path: Path, vectors: Path, damage: str
) -> None:
    _earlier_run(vectors, tmp_path, hands=50, logged=48)
    data, why = DAMAGED_TLOG[damage]
    _replace_line(tmp_path / f"{PAIR}.tlog", 5, data)
    before = _files(tmp_path)
    error = _refused(_dealer(*RESUME, cwd=tmp_path), before, tmp_path)
    assert error.startswith(f"ERROR: cannot resume {PAIR}: {PAIR}.tlog line 5: ") and why in error


DAMAGED_LOG = {
    "superscript-hand": (
        6,
        "STATE:²:cc/cc/cc/cc:9h6s|3d3h/5s3s8h/9d/5c:0|0:Bob|Alice".encode(),
        ":6: the hand number '",
    ),
    "garbage": (6, b"garbage", ":6: not a log line (# comment, STATE or SCORE): 'garbage'"),
    "binary": (6, b"\x00\xff\xfe", ":6: not a log line (# comment, STATE or SCORE)"),
    "score-inside": (6, b"SCORE:1|-1:Alice|Bob", ":7: a STATE line after the SCORE line (line 6)"),
    "long-line": (6, b"STATE:" + b"c" * 70000, ":6: a line longer than 65536 bytes"),
    "short-state": (6, b"STATE:1:cc", ":6: a STATE line has 6 fields, this one 3"),
    "header": (1, b"# name/game/hands/seed x", ": bad log header line"),
    "header-digits": (1, f"# name/game/hands/seed {PAIR} {GAME} 1000 4²".encode(), ": bad log"),
    "header-option": (2, "#--t_response ²".encode(), ": bad log header line"),
    "no-header": (1, b"STATE:0:f:7d3d|2hAc:5|-5:Alice|Bob", ": no log header"),
    "betting": (
        5,
        b"STATE:0:rrc/crrrrc/rrc/rrrr:7d3d|2hAc/5sKs7s/9s/6h:170|-170:Alice|Bob",
        "line 5 (hand 0) is not the hand",
    ),
}


@pytest.mark.parametrize("damage", list(DAMAGED_LOG), ids=list(DAMAGED_LOG))
@pytest.mark.e2e
def test_a_damaged_log_is_refused_naming_the_line(
    tmp_path: Path, vectors: Path, damage: str
) -> None:
    _earlier_run(vectors, tmp_path, hands=50, logged=48)
    number, data, why = DAMAGED_LOG[damage]
    _replace_line(tmp_path / f"{PAIR}.log", number, data)
    before = _files(tmp_path)
    error = _refused(_dealer(*RESUME, cwd=tmp_path), before, tmp_path)
    assert error.startswith(f"ERROR: cannot resume {PAIR}: {PAIR}.log") and why in error, error


@pytest.mark.e2e
def test_files_that_are_not_regular_are_refused(tmp_path: Path, vectors: Path) -> None:
    os.mkfifo(tmp_path / f"{PAIR}.tlog")  # reading it would wait for ever
    error = _refused(_dealer(*RESUME, cwd=tmp_path), _files(tmp_path), tmp_path)
    assert error == f"ERROR: transaction file {PAIR}.tlog is not a regular file"


@pytest.mark.e2e
def test_a_tlog_without_a_log_header_is_taken_on_trust(tmp_path: Path, vectors: Path) -> None:
    _earlier_run(vectors, tmp_path, hands=50, logged=48)
    (tmp_path / f"{PAIR}.log").unlink()
    done = _dealer(*RESUME, cwd=tmp_path)  # no player connects: it ends at the start timeout
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert (
        f"WARNING: {PAIR}.log has no header to check {PAIR}.tlog against: its seed, game and "
        "names are taken on trust"
    ) in done.stderr
    rebuilt = (tmp_path / f"{PAIR}.log").read_text().splitlines()
    reference = (vectors / "logs" / "example_player" / f"{PAIR}.log").read_text().splitlines()
    assert rebuilt == reference[:54]  # the header, then every hand the .tlog finished


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    which=st.sampled_from(["log", "tlog"]),
    at=st.floats(0, 1),
    data=st.binary(max_size=12),
    delete=st.integers(0, 12),
)
# A vertical tab in the header's game name once split the refusal over two lines.
@example(which="log", at=0.0625, data=b"\x0b", delete=0)
def test_any_damage_is_refused_in_one_line_or_replayed(
    vectors: Path, which: str, at: float, data: bytes, delete: int
) -> None:
    """Bytes replaced anywhere in either file: never a traceback; a refusal leaves the
    files as they were."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        _earlier_run(vectors, folder, hands=20, logged=19)
        path = folder / f"{PAIR}.{which}"
        original = path.read_bytes()
        cut = int(at * len(original))
        path.write_bytes(original[:cut] + data + original[cut + delete :])
        before = _files(folder)
        stderr = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
        with contextlib.chdir(folder), contextlib.redirect_stderr(stderr):
            status = main([*RESUME[:-1], "1"])
        stderr.flush()
        text = stderr.buffer.getvalue().decode("latin-1")
        assert status == 1  # refused, or no player connected within 1 ms
        assert text.splitlines()[-1].startswith("ERROR: "), text
        if "cannot resume" in text:
            assert _files(folder) == before


# -- our own runs: an extended match logs every hand ---------------------------------------

DETERMINISTIC = "limit2p.seed42.n1000.Alice_hash-Bob_raiser"


async def _play(*args: str, cwd: Path, game: Game) -> tuple[int, str, str]:
    """Run the dealer with the corpus's ``hash`` and ``raiser`` players."""
    process = await asyncio.create_subprocess_exec(
        *DEALER, *args, cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    ports = [int(p) for p in (await process.stdout.readline()).split()]
    clients = [ScriptedClient(game, "hash"), ScriptedClient(game, "raiser")]
    await asyncio.gather(*(c.play(p) for c, p in zip(clients, ports, strict=True)))
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def _log_of(reference: list[str], hands: int) -> str:
    """The corpus log as a run of ``hands`` hands would have written it."""
    header = LogHeader(DETERMINISTIC, GAME, hands, 42).lines()
    states = reference[4 : 4 + hands]
    totals = {"Alice": 0.0, "Bob": 0.0}
    for line in states:
        record = parse_state_line(line)
        for name in totals:
            totals[name] += record.value_of(name)
    score = format_score_line(list(totals.values()), list(totals))
    return "\n".join([*header, *states, score]) + "\n"


@pytest.mark.e2e
async def test_an_extended_match_logs_every_hand_played(
    tmp_path: Path, vectors: Path, limit_game: Game
) -> None:
    """Play 300 hands, cut the files as a kill at hand 150 would, resume as a 600-hand
    match, then resume the finished match as a 1000-hand one: each time the log is what an
    uninterrupted run of that length writes."""
    reference = (vectors / "logs" / "deterministic" / f"{DETERMINISTIC}.log").read_text()
    lines = reference.splitlines()
    log, tlog = tmp_path / f"{DETERMINISTIC}.log", tmp_path / f"{DETERMINISTIC}.tlog"

    async def run(hands: int, *more: str) -> tuple[int, str, str]:
        args = (DETERMINISTIC, GAME, str(hands), "42", "Alice", "Bob", "-q", "-T", *more)
        return await _play(*args, cwd=tmp_path, game=limit_game)

    status, out, err = await run(300)
    assert status == 0 and log.read_text() == _log_of(lines, 300), err
    kept = [
        line for line in tlog.read_text().splitlines(keepends=True) if int(line.split()[1]) < 150
    ]
    tlog.write_text("".join(kept) + "c 150 17")  # killed while writing hand 150's first action
    log.write_text("".join(log.read_text().splitlines(keepends=True)[: 4 + 149]) + "STATE:149:c")

    status, out, err = await run(600, "-a")
    assert status == 0, err
    assert log.read_text() == _log_of(lines, 600)
    assert out.splitlines()[-1] == _log_of(lines, 600).splitlines()[-1]

    status, out, err = await run(1000, "-a")
    assert status == 0, err
    assert log.read_text() == reference
    assert {int(line.split()[1]) for line in tlog.read_text().splitlines()} == set(range(1000))
