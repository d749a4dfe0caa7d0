"""``acpcbot results`` as a user meets it: a duplicate pair only when the two logs really are
one, a log cut while being written, damaged and hostile files, and the command's options.

Every user error ends with ``acpcbot: error: <one line>`` and status 1, never a traceback;
nothing hangs or reads without bound (the cases that could are run in a subprocess with a
time and memory limit)."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import lzma
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from acpcbot.cli import main
from tests.dealer.analysis.test_playedlog import LOG, damaged_logs

ACPCBOT = Path(sys.executable).with_name("acpcbot")
SEED42 = "limit2p.seed42.n1000.Alice-Bob.log"
SEED42_TWIN = "limit2p.seed42.n1000.Bob-Alice.log"
SEED1 = "limit2p.seed1.n1000.Alice-Bob.log"

HEADER = (
    "# name/game/hands/seed m holdem.limit.2p.reverse_blinds.game 4 7\n"
    "#--t_response 600000\n#--t_hand 600000\n#--t_per_hand 7000\n"
)
HANDS = "STATE:0:rc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:20|-20:A|B\nSTATE:1:crf:9h6s|3d3h:10|-10:B|A\n"


@pytest.fixture(autouse=True)
def _forget_logging_setup() -> Iterator[None]:
    """``main`` points structlog at the captured stderr of the test; undo that."""
    yield
    structlog.reset_defaults()


@pytest.fixture
def example_logs(vectors: Path) -> Path:
    return vectors / "logs" / "example_player"


def _error_line(err: str) -> str:
    """The one line of an error, checked to be exactly one line."""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("acpcbot: error: "), err
    return lines[0]


def _run(*args: str | Path, limit_mb: int = 1024) -> subprocess.CompletedProcess[str]:
    """``acpcbot`` in a subprocess with a 60 s time limit and an address-space limit, for
    what could hang or read without bound."""

    def limit_memory() -> None:
        size = limit_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return subprocess.run(
        [str(ACPCBOT), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=limit_memory,
    )


# --- defect 3: only a seat-reversed twin is a duplicate pair -----------------------------


def test_a_real_pair_is_combined(example_logs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["results", str(example_logs / SEED42), str(example_logs / SEED42_TWIN)]) == 0
    out, err = capsys.readouterr()
    assert "Alice vs Bob, duplicate over 1,000 pairs: +301.0 mbb/g ± 250.4 (95% CI)" in out
    assert err == ""


@pytest.mark.e2e
def test_a_pair_is_the_same_whatever_order_its_logs_come_in(
    example_logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A shell's DIR/*.log sorts by file name: whose results are shown must not hang on it.
    first, second = str(example_logs / SEED42), str(example_logs / SEED42_TWIN)
    shown = []
    for logs in ([first, second], [second, first]):
        assert main(["results", *logs]) == 0
        shown.append(capsys.readouterr().out.splitlines())
    assert shown[0] == shown[1]
    assert shown[0][2].startswith("Alice vs Bob, duplicate")  # Alice: the name first sorted
    # A match's folder: its agent A (by summary.json), as acpcbot match reports it.
    out = tmp_path / "m"
    assert main(["match", "tight-passive", "example", "--hands", "30", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[3].startswith("  tight-passive: ")
    logs = sorted(str(p) for p in out.glob("*.log"))  # example-... sorts first
    assert main(["results", *logs]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("half 1 (tight-passive-example.seed0.n30.log): tight-passive vs")
    assert lines[2].startswith("tight-passive vs example, duplicate over 30 pairs: ")


@pytest.mark.parametrize(
    ("second", "why"),
    [
        (SEED42, "the same log twice"),
        (SEED1, "seeds differ: 42 in limit2p.seed42.n1000.Alice-Bob.log, 1 in"),
    ],
)
def test_two_logs_that_are_not_a_pair_are_an_error(
    example_logs: Path, second: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["results", str(example_logs / SEED42), str(example_logs / second)]) == 1
    line = _error_line(capsys.readouterr().err)
    assert "not a duplicate pair" in line and why in line and "--side-by-side" in line


def test_a_copy_of_the_same_log_is_not_a_pair(
    example_logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = shutil.copy(example_logs / SEED42, tmp_path / "copy.log")
    assert main(["results", str(example_logs / SEED42), str(copy)]) == 1
    assert "the same log twice" in _error_line(capsys.readouterr().err)


DAMAGED_HANDS = {
    # (a hand that no dealer plays, after a good one; what is wrong with it)
    "a card twice": (
        "STATE:1:crf:7d7d|3d3h:10|-10:B|A",
        "7d is dealt twice: '7d7d|3d3h'",
    ),
    "five raises before the flop (the cap is three)": (
        "STATE:1:rrrrrc/cc/cc/cc:9h6s|3d3h/5sKs7s/9s/6h:-50|50:B|A",
        "illegal betting: hand 1: raise not allowed (cap reached or nobody left to call): r",
    ),
    "values that do not sum to zero": (
        "STATE:1:crf:9h6s|3d3h:10|-5:B|A",
        "the values 10|-5 do not sum to zero",
    ),
    "values the betting does not give": (
        "STATE:1:crf:9h6s|3d3h:-10|10:B|A",
        "the values -10|10, where the betting gives 10|-10",
    ),
    "the loser of a showdown paid": (
        "STATE:1:rc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:-20|20:B|A",
        "the values -20|20, where the cards and the betting give 20|-20",
    ),
    "a betting that does not end the hand": (
        "STATE:1:rc/c:7d3d|2hAc/5sKs7s:0|0:B|A",
        "the betting 'rc/c' does not end the hand",
    ),
}


@pytest.mark.parametrize("command", ["results", "stats"])
@pytest.mark.parametrize("damage", sorted(DAMAGED_HANDS))
def test_a_hand_no_dealer_plays_fails_naming_the_log_and_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, damage: str
) -> None:
    line, why = DAMAGED_HANDS[damage]
    log = tmp_path / "m.log"
    log.write_text(HEADER + HANDS.splitlines()[0] + "\n" + line + "\n")
    assert main([command, str(log)]) == 1
    assert _error_line(capsys.readouterr().err) == f"acpcbot: error: {log}:6: {why}"


def test_the_same_players_in_the_same_seats_are_not_a_pair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Same seed and cards, but seat 1 is A in both: not seat-reversed."""
    first = tmp_path / "a.log"
    first.write_text(HEADER + HANDS)
    second = tmp_path / "b.log"
    second.write_text(HEADER + HANDS.replace(":crf:", ":f:").replace("10|-10", "5|-5"))
    assert main(["results", str(first), str(second), "--big-blind", "10"]) == 1
    line = _error_line(capsys.readouterr().err)
    assert "seats are not reversed: A in seat 1 of both" in line


def test_headerless_logs_pair_by_their_players_and_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = tmp_path / "a.log"
    first.write_text(HANDS)
    second = tmp_path / "b.log"
    second.write_text(HANDS.replace(":A|B", ":X|Y").replace(":B|A", ":A|B").replace(":X|Y", ":B|A"))
    assert main(["results", str(first), str(second), "--big-blind", "10"]) == 0
    assert "A vs B, duplicate over 2 pairs" in capsys.readouterr().out
    other_cards = tmp_path / "c.log"
    other_cards.write_text(second.read_text().replace("9h6s", "9h6d"))
    assert main(["results", str(first), str(other_cards), "--big-blind", "10"]) == 1
    assert "hand 1 was dealt other cards" in _error_line(capsys.readouterr().err)


def test_side_by_side_says_plainly_it_is_not_a_pair(
    example_logs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = [str(example_logs / SEED42), str(example_logs / SEED1)]
    assert main(["results", *logs, "--side-by-side"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        f"log 1 ({SEED42}): Alice vs Bob: 1,000 hands, +2770 chips, +277.0 mbb/g ± 487.6 (95% CI)"
    )
    assert out[1].startswith(f"log 2 ({SEED1}): Alice vs Bob: 1,000 hands, +3230 chips")
    assert out[2].startswith("not a duplicate pair, not combined: seeds differ")
    assert main(["results", *logs, "--side-by-side", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["duplicate"] is False
    assert [log["chips"] for log in data["logs"]] == [2770, 3230]
    assert any("seeds differ" in why for why in data["not_a_pair"])


def test_side_by_side_needs_two_logs(
    example_logs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["results", str(example_logs / SEED42), "--side-by-side"]) == 2
    assert "--side-by-side needs two logs" in _error_line(capsys.readouterr().err)


# --- defect 8: a log cut in the middle of a line ------------------------------------------


def test_a_log_cut_in_a_line_gives_the_complete_hands_and_a_warning(
    example_logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = (example_logs / SEED42).read_bytes()
    lines = data.split(b"\n")
    cut = tmp_path / "cut.log"
    # the header, hands 0 .. 499, and half of hand 500's line
    cut.write_bytes(b"\n".join(lines[:504]) + b"\n" + lines[504][:30])
    assert main(["results", str(cut), "--json"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["hands"] == 500
    assert result["chips"] == sum(
        float(line.split(b":")[4].split(b"|")[line.split(b":")[5].split(b"|").index(b"Alice")])
        for line in lines[4:504]
    )
    assert err.startswith(f"acpcbot: warning: {cut}:505: the last line is cut short")
    assert result["warnings"] == [err.removeprefix("acpcbot: warning: ").strip()]


def test_a_cut_last_line_of_a_pair_still_pairs(
    example_logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = (example_logs / SEED42_TWIN).read_bytes()
    cut = tmp_path / "cut.log"
    cut.write_bytes(data[: len(data) // 2])
    assert main(["results", str(example_logs / SEED42), str(cut)]) == 0
    out, err = capsys.readouterr()
    assert "hands without a partner left out" in out
    assert "the last line is cut short" in err


# --- friction: --big-blind, SCORE disagreements, --strict ----------------------------------


@pytest.mark.parametrize("value", ["0", "-10", "x", "²", "1e3", "99999999999999999999"])
def test_a_bad_big_blind_is_an_error_without_internal_names(
    example_logs: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["results", str(example_logs / SEED42), "--big-blind", value])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "argument --big-blind: not a big blind (1 .. 2147483647, " in err
    assert "_positive" not in err and "invalid" not in err


def test_a_score_line_that_disagrees_warns_and_fails_under_strict(
    example_logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = tmp_path / "wrong.log"
    wrong.write_text(
        (example_logs / SEED42).read_text().replace("SCORE:2770|-2770", "SCORE:2700|-2700")
    )
    assert main(["results", str(wrong)]) == 0
    out, err = capsys.readouterr()
    assert "+2770 chips" in out
    assert err == (
        f"acpcbot: warning: {wrong}: SCORE:2700|-2700:Alice|Bob disagrees with the STATE lines, "
        "which sum to 2770|-2770\n"
    )
    assert main(["results", str(wrong), "--strict"]) == 1
    out, err = capsys.readouterr()
    assert "+2770 chips" in out and "disagrees" in err
    assert err.splitlines()[-1] == "acpcbot: error: --strict: 1 log failed its checks"
    assert main(["results", str(example_logs / SEED42), "--strict"]) == 0


def test_strict_fails_on_a_log_without_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "m.log"
    log.write_text(HEADER + HANDS)
    assert main(["results", str(log)]) == 0
    assert main(["results", str(log), "--strict"]) == 1
    assert "no SCORE line" in capsys.readouterr().err


# --- defect 10: damaged and hostile logs ----------------------------------------------------


def _hostile_logs(tmp_path: Path) -> dict[str, bytes]:
    head = HEADER.encode()
    state = b"STATE:0:rc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:20|-20:A|B\n"
    return {
        "binary garbage": bytes(range(256)) * 8,
        "10,000 values": head + b"STATE:0:cc:7d3d|2hAc:" + b"|".join([b"1"] * 10_000) + b":A|B\n",
        "10,000 fields": head + b"STATE" + b":0" * 10_000 + b"\n",
        "a huge number": head + state.replace(b"20|-20", b"1" + b"0" * 400 + b"|-1"),
        "a number beyond float": head + state.replace(b"20|-20", b"1e999|-1"),
        "a superscript hand number": head + state.replace(b"STATE:0:", b"STATE:\xb2:"),
        "a superscript value": head + state.replace(b"20|-20", b"2\xb2|-20"),
        "a huge hand number": head + state.replace(b"STATE:0:", b"STATE:" + b"9" * 5000 + b":"),
        "a superscript in the header": HEADER.replace("600000", "\xb2", 1).encode("latin-1")
        + state,
        "a huge header seed": head.replace(b" 4 7\n", b" 4 " + b"9" * 5000 + b"\n") + state,
        "control characters in a name": head + state.replace(b"A|B", b"\x1b[31mA|B"),
        "an empty name": head + state.replace(b"A|B", b"|B"),
        "two players of one name": head + state.replace(b"A|B", b"A|A"),
        "other players later": head + state + state.replace(b":0:", b":1:").replace(b"A|B", b"C|D"),
        "a hand twice": head + state + state,
        "hands out of order": head + state.replace(b":0:", b":5:") + state,
        "SCORE names not in the hands": head + state + b"SCORE:20|-20:A|C\n",
        "a second SCORE line": head + state + b"SCORE:20|-20:A|B\n" * 2,
        "a hand after SCORE": head + state + b"SCORE:20|-20:A|B\n" + state.replace(b":0:", b":1:"),
        "a bad cards field": head + state.replace(b"7d3d|2hAc", b"7d3d|2hAc|zz"),
        "a bad betting field": head + state.replace(b"rc/cc", b"r\xff/cc"),
        "a NUL in the game path": head.replace(b"holdem", b"hold\x00em") + state,
        "a header cut short": head[:70],
        "an empty file": b"",
        "only newlines": b"\n" * 1000,
        "a line of 100,000 bytes": head + b"STATE:0:" + b"c" * 100_000 + b"\n",
    }


# 60 pairs a run: each costs two whole commands (their parser built each time), and the
# single damaged logs have their own properties in tests/dealer/analysis.
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_logs(), damaged_logs(), st.sampled_from([[], ["--json"], ["--side-by-side"]]))
def test_damaged_pairs_give_results_or_one_line_errors(
    first: bytes, second: bytes, options: list[str]
) -> None:
    """Whatever two damaged logs hold, the command prints results (status 0) or warnings and
    one error line (status 1; 2 for --side-by-side with one log); a log without a header is
    read as limit hold'em, which a notice says."""
    with tempfile.TemporaryDirectory() as folder:
        paths = [Path(folder) / "a.log", Path(folder) / "b.log"]
        for path, data in zip(paths, (first, second), strict=True):
            path.write_bytes(data)
        for logs in (paths[:1], paths):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = main(["results", *map(str, logs), *options])
            lines = [
                line for line in err.getvalue().splitlines() if "has no header naming" not in line
            ]
            assert all(line.startswith("acpcbot: warning: ") for line in lines[:-1]), lines
            if status in (1, 2):
                assert lines[-1].startswith("acpcbot: error: "), lines
            else:
                assert status == 0 and out.getvalue()
                assert not lines or lines[-1].startswith("acpcbot: warning: ")
    structlog.reset_defaults()


def test_the_log_the_damage_starts_from_is_whole() -> None:
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "m.log"
        log.write_bytes(LOG)
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["results", str(log)]) == 0
    structlog.reset_defaults()


def test_damaged_logs_end_in_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, data in _hostile_logs(tmp_path).items():
        log = tmp_path / "hostile.log"
        log.write_bytes(data)
        status = main(["results", str(log)])
        out, err = capsys.readouterr()
        assert status == 1, (name, out, err)
        line = _error_line(err)
        assert str(log) in line, (name, line)


def test_names_are_read_as_utf8_else_latin1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "m.log"
    log.write_bytes((HEADER + HANDS.replace("A|B", "Ā|β").replace("B|A", "β|Ā")).encode())
    assert main(["results", str(log)]) == 0
    assert capsys.readouterr().out.startswith("Ā vs β: 2 hands, +10 chips")
    log.write_bytes(HEADER.encode() + HANDS.replace("A|B", "\xc5|B").replace("B|A", "B|\xc5")
                    .encode("latin-1"))  # fmt: skip
    assert main(["results", str(log)]) == 0
    assert capsys.readouterr().out.startswith("Å vs B: 2 hands, +10 chips")


def test_a_path_with_a_line_break_gives_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["results", str(tmp_path / "a\nb.log")]) == 1
    assert "a\\nb.log': No such file or directory" in _error_line(capsys.readouterr().err)


@pytest.mark.e2e
def test_names_print_whatever_the_terminal_encoding(tmp_path: Path) -> None:
    log = tmp_path / "m.log"
    log.write_bytes((HEADER + HANDS.replace("A|B", "Ā|B").replace("B|A", "B|Ā")).encode())
    done = subprocess.run(
        [str(ACPCBOT), "results", str(log)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("\\u0100 vs B: 2 hands")


@pytest.mark.e2e
def test_a_reader_that_leaves_early_is_no_error(example_logs: Path) -> None:
    """``acpcbot results ... | head -1``: a broken pipe on stdout was a traceback."""
    done = subprocess.run(
        f"'{ACPCBOT}' results '{example_logs / SEED42}' '{example_logs / SEED42_TWIN}' --json"
        " | head -c 1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout == "{" and done.stderr == ""


@pytest.mark.e2e
def test_a_directory_a_missing_file_and_a_fifo_are_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in (tmp_path, tmp_path / "missing.log"):  # (nothing to hang on: read here)
        assert main(["results", str(path)]) == 1
        assert str(path) in _error_line(capsys.readouterr().err)
    fifo = tmp_path / "fifo.log"
    os.mkfifo(fifo)  # no writer: it reads as empty, it does not hang
    done = _run("results", fifo)
    assert done.returncode == 1
    assert str(fifo) in _error_line(done.stderr)


@pytest.mark.e2e
def test_a_pipe_is_read_as_a_stream(example_logs: Path) -> None:
    done = subprocess.run(
        [str(ACPCBOT), "results", "/dev/stdin"],
        input=(example_logs / SEED42).read_text(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Alice vs Bob: 1,000 hands, +2770 chips")


@pytest.mark.parametrize("kind", ["gz", "xz"])
def test_compressed_logs_are_read_directly(
    example_logs: Path, tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not "not a log line" with the compressed bytes quoted: the logs, read as they are."""
    compress = gzip.compress if kind == "gz" else lzma.compress
    packed = []
    for name in (SEED42, SEED42_TWIN):
        path = tmp_path / f"{name}.{kind}"
        path.write_bytes(compress((example_logs / name).read_bytes()))
        packed.append(str(path))
    assert main(["results", *packed]) == 0
    text = capsys.readouterr().out
    assert main(["results", str(example_logs / SEED42), str(example_logs / SEED42_TWIN)]) == 0
    plain = capsys.readouterr().out
    assert text.replace(f".log.{kind}", ".log").replace(str(tmp_path), str(example_logs)) == plain


@pytest.mark.e2e
def test_a_game_a_log_names_is_never_shown(tmp_path: Path) -> None:
    """A log whose header names /etc/passwd (here: a file like it) as its game: the error
    names the file and the reason, never a line of it."""
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\n")
    log = tmp_path / "m.log"
    log.write_text(HEADER.replace("holdem.limit.2p.reverse_blinds.game", str(passwd)) + HANDS)
    done = _run("results", log)
    assert done.returncode == 1
    assert _error_line(done.stderr) == (
        f"acpcbot: error: cannot read the game {str(passwd)!r} of {log}: passwd beside it is "
        "not a valid game definition; give --big-blind"
    )


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
@pytest.mark.e2e
def test_a_device_as_the_log_is_refused(device: str) -> None:
    done = _run("results", device)
    assert done.returncode == 1
    assert _error_line(done.stderr) == f"acpcbot: error: {device} is not a regular file or a pipe"


@pytest.mark.e2e
def test_a_huge_sparse_log_reads_in_bounded_memory(tmp_path: Path) -> None:
    sparse = tmp_path / "sparse.log"
    with sparse.open("wb") as file:
        file.truncate(2 * 1024**3)
    done = _run("results", sparse, limit_mb=512)
    assert done.returncode == 1
    assert _error_line(done.stderr).endswith(f"{sparse}:1: a line longer than 65536 bytes")


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "link", "sparse", "directory"])
@pytest.mark.e2e
def test_the_game_named_by_a_log_is_read_only_when_a_small_regular_file(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Looked for by its file name beside the log (never at /dev/zero itself), and read only
    if it is a small regular file; with ``--big-blind`` the log is read without its game
    (in this process: the game is not opened then, so there is nothing to hang on)."""
    game = tmp_path / ("zero" if kind.startswith("/") else "named.game")
    if kind == "fifo":
        os.mkfifo(game)
    elif kind == "sparse":
        with game.open("wb") as file:
            file.truncate(2 * 1024**3)
    elif kind == "directory":
        game.mkdir()
    elif kind == "link":
        game.symlink_to("/dev/zero")
    path = kind if kind.startswith("/") else "named.game"
    log = tmp_path / "m.log"
    log.write_text(HEADER.replace("holdem.limit.2p.reverse_blinds.game", path) + HANDS)
    done = _run("results", log, limit_mb=512)
    assert done.returncode == 1, done.stderr
    line = _error_line(done.stderr)
    assert f"cannot read the game {path!r} of {log}" in line and "give --big-blind" in line
    if kind == "/dev/zero":
        assert "no zero beside it, nor a bundled game of that name" in line
    else:
        assert "not a regular file" in line or "larger than 64 KB" in line
    assert main(["results", str(log), "--big-blind", "10"]) == 0
    assert "A vs B: 2 hands, +10 chips" in capsys.readouterr().out


def test_a_game_with_a_huge_big_blind_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "big.game"
    game.write_text(
        "GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 4\nstack = 1" + "0" * 400 + " 1" + "0" * 400
        + "\nblind = 10 1" + "0" * 300 + "\nraiseSize = 10 10 20 20\nfirstPlayer = 2 1 1 1\n"
        "maxRaises = 3 4 4 4\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\n"
        "numBoardCards = 0 3 1 1\nEND GAMEDEF\n"
    )  # fmt: skip
    log = tmp_path / "m.log"
    log.write_text(HEADER.replace("holdem.limit.2p.reverse_blinds.game", "big.game") + HANDS)
    assert main(["results", str(log)]) == 1
    assert "give --big-blind" in _error_line(capsys.readouterr().err)


def test_a_match_folder_reads_as_its_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m"
    match = ["match", "example", "always-call", "--hands", "20", "--jobs", "1", "--out", str(out)]
    assert main([*match, "--no-progress", "--json"]) == 0
    logs = [str(out / half["log"]) for half in json.loads(capsys.readouterr().out)["halves"]]
    assert main(["results", *logs]) == 0
    by_logs = capsys.readouterr().out
    assert main(["results", str(out)]) == 0
    assert capsys.readouterr().out == by_logs


def test_a_folder_of_no_match_says_what_results_takes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("x")
    assert main(["results", str(tmp_path / "notes")]) == 1
    assert capsys.readouterr().err == (
        f"acpcbot: error: {tmp_path / 'notes'} holds no match (no summary.json naming its logs) "
        "and no tournament: results takes a match's .log files, a match's folder or a "
        "tournament's folder\n"
    )


NOTE = (
    "acpcbot: {log} has no header naming its game: read as heads-up limit hold'em "
    "(holdem.limit.2p.reverse_blinds.game); {option} for another\n"
)


def test_a_headerless_log_is_limit_holdem_with_a_note_for_results_and_stats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One rule for both: the game the header names, else the bundled limit game, said."""
    log = tmp_path / "h.log"
    log.write_text(HANDS)
    assert main(["results", str(log), "--big-blind", "10"]) == 0
    given = capsys.readouterr()
    assert given.err == ""
    assert main(["results", str(log)]) == 0
    assumed = capsys.readouterr()
    assert assumed.out == given.out
    assert assumed.err == NOTE.format(log=log, option="--big-blind")
    assert main(["stats", str(log)]) == 0
    assert capsys.readouterr().err == NOTE.format(log=log, option="--game")
    assert main(["stats", str(log), "--game", "holdem.limit.2p.reverse_blinds.game"]) == 0
    assert capsys.readouterr().err == ""
