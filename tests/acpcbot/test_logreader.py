"""The one reader of logs (``acpcbot/logreader.py``): what it gives of a log, compressed logs,
pipes read once, reading a log again, and what it refuses, always in one line naming the
file. (Hostile input through the results' reading: ``tests/dealer/analysis/test_playedlog``.)"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from acpcbot.game import LIMIT_HOLDEM, NOLIMIT_HOLDEM, Game, bundled_game
from acpcbot.logreader import MAX_LINE_BYTES, LogError, LogReader, game_of_log, open_log
from acpcbot.protocol.logfile import LogHeader, parse_state_line
from tests.dealer.analysis.test_playedlog import HEADER, LOG, SCORE, STATES

COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": gzip.compress,
    "xz": lzma.compress,
    "bzip2": bz2.compress,
}


def _reader(data: bytes, **options: object) -> LogReader:
    return LogReader(io.BytesIO(data), "m.log", **options)  # type: ignore[arg-type]


def test_what_the_reader_gives(limit_game: Game) -> None:
    log = _reader(LOG)
    assert log.header is not None and log.header.seed == 7  # read before any hand
    hands = list(log)
    assert [hand.number for hand in hands] == [5, 6, 7, 8, 9, 10]
    assert [hand.line for hand in hands] == STATES
    assert [hand.hand_number for hand in hands] == list(range(6))
    assert hands[1].names == ("B", "A") and hands[1].order == (1, 0)
    assert hands[5].values == (5, -5)
    assert all(hand.record() == parse_state_line(hand.line) for hand in hands)
    assert hands[0].record(limit_game) == hands[0].record()  # replayed under the rules
    assert log.players == ("A", "B") and log.seat_names() == ("A", "B") and log.hands == 6
    assert log.score is not None and log.score.totals == (55, -55) and log.score_line == 11
    assert log.score_bytes == SCORE and log.cut_line is None and log.size == len(LOG)


def test_the_hands_are_read_as_they_are_given() -> None:
    """Iterating reads the log: an error after the first hands comes after them."""
    data = HEADER + STATES[0] + b"\n" + STATES[0] + b"\n"
    hands = iter(_reader(data))
    assert next(hands).hand_number == 0
    with pytest.raises(LogError, match=r"^m.log:6: hand 0 again$"):
        next(hands)


def test_after_the_score_only_comments() -> None:
    fine = _reader(LOG + b"# a comment\n\n").read()
    assert fine.hands == 6 and fine.score is not None
    with pytest.raises(LogError, match=r"^m.log:12: a STATE line after the SCORE line \(line 11\)"):
        _reader(LOG + STATES[5].replace(b":5:", b":6:") + b"\n").read()
    with pytest.raises(LogError, match=r"^m.log:12: a second SCORE line \(the first is line 11\)"):
        _reader(LOG + SCORE + b"\n").read()


def test_a_header_cut_short_and_a_log_without_hands() -> None:
    cut = _reader(HEADER[:-5]).read()
    assert cut.header is None and cut.header_cut and cut.hands == 0
    assert str(cut.no_hands()) == "m.log: the log ends inside its header (no hands)"
    empty = _reader(HEADER).read()
    assert empty.header is not None and not empty.header_cut and empty.hands == 0
    assert str(empty.no_hands()) == "m.log: no hands"
    only_cut = _reader(HEADER + STATES[0][:20]).read()
    assert str(only_cut.no_hands()) == "m.log: no hands (its last line, 5, is cut short)"


def test_whole_lines_only_leaves_out_a_last_line_without_its_newline() -> None:
    """A dealer's own log (a resume) ends every line: one without is a line cut, even one
    that reads whole (a name cut to another name, say)."""
    data = HEADER + b"\n".join(STATES)
    assert _reader(data).read().hands == 6
    strict = _reader(data, whole_lines_only=True).read()
    assert strict.hands == 5 and strict.cut_line == 10


@pytest.mark.parametrize("kind", list(COMPRESSORS))
def test_a_compressed_log_reads_as_the_log(kind: str) -> None:
    plain = _reader(LOG).read()
    packed = _reader(COMPRESSORS[kind](LOG))
    assert [hand.line for hand in packed] == STATES
    assert (packed.size, packed.digest) == (plain.size, plain.digest)  # the same log
    assert packed.score == plain.score


def test_concatenated_gzip_members_are_one_log() -> None:
    middle = LOG.index(STATES[3])
    log = _reader(gzip.compress(LOG[:middle]) + gzip.compress(LOG[middle:])).read()
    assert log.hands == 6 and log.size == len(LOG)


@pytest.mark.parametrize("kind", list(COMPRESSORS))
def test_a_damaged_or_cut_compressed_log_is_one_line(kind: str) -> None:
    packed = COMPRESSORS[kind](LOG * 20)
    with pytest.raises(LogError, match=rf"^m.log: the {kind} data ends early \(cut short\)$"):
        _reader(packed[: len(packed) // 2]).read()
    damaged = packed[:20] + bytes(b ^ 0x55 for b in packed[20:60]) + packed[60:]
    with pytest.raises(LogError, match=rf"^m.log: the {kind} data (is damaged|ends early)"):
        _reader(damaged).read()


def test_a_compressed_log_of_zeros_reads_in_bounded_memory() -> None:
    """A few kilobytes that inflate to 256 MB without a newline: refused after one chunk."""
    bomb = gzip.compress(b"\0" * (256 * 1024 * 1024), compresslevel=9)
    assert len(bomb) < 300_000
    tracemalloc.start()
    try:
        with pytest.raises(LogError, match=rf"m.log:1: a line longer than {MAX_LINE_BYTES}"):
            _reader(bomb).read()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024


def test_reading_a_log_again_reads_what_was_read(tmp_path: Path) -> None:
    path = tmp_path / "m.log"
    path.write_bytes(LOG[: LOG.index(SCORE)])  # a match still running
    with open_log(path) as first:
        first.read()
    path.write_bytes(LOG)  # it went on since
    with open_log(path, read_before=(first.size, first.digest)) as again:
        assert [hand.line for hand in again] == STATES and again.score is None
    path.write_bytes(LOG.replace(b"7d3d", b"7d3c"))
    with (
        open_log(path, read_before=(first.size, first.digest)) as changed,
        pytest.raises(LogError, match=rf"^{path} changed since it was read$"),
    ):
        changed.read()


def test_a_pipe_is_read_once_as_a_stream(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    keep_open = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # holds what is written meanwhile
    try:
        with fifo.open("wb") as writer:
            writer.write(gzip.compress(LOG))  # less than a pipe holds
        with open_log(fifo) as log:
            assert log.read().hands == 6 and log.file_id is None
    finally:
        os.close(keep_open)
    with pytest.raises(LogError, match=r"is a pipe, read once: give the log as a file$"):
        open_log(fifo, read_before=(log.size, log.digest))


@pytest.mark.parametrize("what", ["folder", "device", "missing"])
def test_what_is_not_a_log_file_is_refused(tmp_path: Path, what: str) -> None:
    path = {"folder": tmp_path, "device": Path("/dev/zero"), "missing": tmp_path / "no.log"}[what]
    why = {
        "folder": "is a folder, not a log",
        "device": "is not a regular file or a pipe",
        "missing": "No such file or directory",
    }[what]
    with pytest.raises(LogError, match=why) as caught:
        open_log(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_the_game_of_a_log_is_the_one_its_header_names_by_name_beside_it(tmp_path: Path) -> None:
    """One rule for every reader: no header, limit hold'em; a header, the file of the name
    it gives beside the log, else the bundled game of that name; never where it points."""
    log = tmp_path / "logs" / "m.log"
    log.parent.mkdir()
    assert game_of_log(log, None) == bundled_game(LIMIT_HOLDEM)
    elsewhere = tmp_path / "mine.game"
    elsewhere.write_text(bundled_game().to_text())
    header = LogHeader("m", "../mine.game", 10, 1)  # where the header points: elsewhere
    with pytest.raises(LogError) as caught:
        game_of_log(log, header, advice="give --game")
    assert str(caught.value) == (
        f"cannot read the game '../mine.game' of {log}: no mine.game beside it, nor a "
        "bundled game of that name; give --game"
    )
    (log.parent / "mine.game").write_text(bundled_game(NOLIMIT_HOLDEM).to_text())
    assert game_of_log(log, header) == bundled_game(NOLIMIT_HOLDEM)  # beside the log
    named = LogHeader("m", "/somewhere/else/" + NOLIMIT_HOLDEM, 10, 1)
    assert game_of_log(log, named) == bundled_game(NOLIMIT_HOLDEM)  # bundled, by its name
    for path in ("/", "..", "games/.."):
        with pytest.raises(LogError, match=r"not the name of a file$"):
            game_of_log(log, LogHeader("m", path, 10, 1))
