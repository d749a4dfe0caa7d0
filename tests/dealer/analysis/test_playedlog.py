"""Reading logs for results (``dealer/analysis/playedlog.py``): what a log says, a cut last line,
and hostile input — every file either reads into a consistent :class:`PlayedLog` or is refused
with a one-line :class:`LogError` naming the file."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from acpcbot.logreader import MAX_LINE_BYTES, LogError
from acpcbot.protocol.logfile import MAX_CHIPS
from dealer.analysis.playedlog import PlayedLog, read_log_stream

HEADER = (
    b"# name/game/hands/seed m holdem.limit.2p.reverse_blinds.game 6 7\n"
    b"#--t_response 600000\n#--t_hand 600000\n#--t_per_hand 7000\n"
)
STATES = [
    b"STATE:0:rc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:20|-20:A|B",
    b"STATE:1:crf:9h6s|3d3h:10|-10:B|A",
    b"STATE:2:rrc/rc/rf:4d6c|QsJh/3c9sJc/2d:40|-40:A|B",
    b"STATE:3:rf:Ad3s|8d5d:-10|10:B|A",
    b"STATE:4:cc/cc/cc/cc:2c3d|2d3c/TsJdQh/Kc/Ah:0|0:A|B",
    b"STATE:5:f:Ad3s|8d5d:5|-5:B|A",
]
"""Hands as the rules of the game the header names play them (values included)."""
SCORE = b"SCORE:55|-55:A|B"
LOG = HEADER + b"\n".join([*STATES, SCORE]) + b"\n"


def _read(data: bytes) -> PlayedLog:
    return read_log_stream(Path("m.log"), io.BytesIO(data))


def _read_or_refuse(data: bytes) -> PlayedLog | None:
    """The log, checked to be consistent, or ``None`` after a one-line error."""
    try:
        log = _read(data)
    except LogError as exc:
        message = str(exc)
        assert "\n" not in message and "\r" not in message, message
        assert message.startswith("m.log"), message
        assert len(message) < 600, message
        return None
    assert log.hands == len(log.deals) > 0
    assert all(a < b for a, b in zip(log.hand_numbers, log.hand_numbers[1:], strict=False))
    assert set(log.seat_names) == set(log.chips) and len(set(log.seat_names)) >= 2
    for chips in log.chips.values():
        assert len(chips) == log.hands
        assert all(math.isfinite(c) and abs(c) <= MAX_CHIPS for c in chips)
    assert all(name and name.isprintable() for name in log.seat_names)
    log.score_agrees()
    log.totals_text()
    return log


def test_what_a_log_says() -> None:
    log = _read(LOG)
    assert log.seat_names == ("A", "B") and log.hands == 6
    assert log.totals() == (55, -55) and log.score_agrees() is True
    assert log.header is not None and log.header.seed == 7 and log.cut_line is None
    assert list(log.chips["A"]) == [20, -10, 40, 10, 0, -5]


def test_crlf_comments_and_blank_lines_are_read() -> None:
    log = _read(LOG.replace(b"\n", b"\r\n").replace(STATES[2], b"# a comment\r\n\r\n" + STATES[2]))
    assert log.hands == 6 and log.score_agrees() is True


def test_a_byte_order_mark_is_skipped() -> None:
    log = _read(b"\xef\xbb\xbf" + LOG)
    assert log.header is not None and log.hands == 6


def test_a_score_that_disagrees_is_read_and_said() -> None:
    log = _read(LOG.replace(SCORE, b"SCORE:50|-50:A|B"))
    assert log.score_agrees() is False and log.totals_text() == "55|-55"


@pytest.mark.parametrize("cut", [1, 9, 20, len(STATES[5]) - 1])
def test_a_line_cut_short_is_left_out(cut: int) -> None:
    data = HEADER + b"\n".join(STATES[:5]) + b"\n" + STATES[5][:cut]
    log = _read(data)
    assert log.hands == 5 and log.cut_line == 10 and log.score is None


def test_a_last_line_without_its_newline_but_whole_is_kept() -> None:
    log = _read(LOG.removesuffix(b"\n"))
    assert log.cut_line is None and log.score is not None
    cut_in_a_name = _read(LOG.removesuffix(b"B\n"))
    assert cut_in_a_name.cut_line == 11 and cut_in_a_name.score is None


def test_a_cut_line_before_the_end_is_an_error() -> None:
    with pytest.raises(LogError, match=r"m.log:6: a STATE line has 6 fields, this one 4"):
        _read(HEADER + STATES[0] + b"\n" + STATES[1][:12] + b"\n" + STATES[2] + b"\n")


def test_seats_without_score_come_from_the_rotation() -> None:
    """Hands 1 and 3 have the same order in a rotating log: hand 4 decides."""
    data = b"\n".join([STATES[1], STATES[3], STATES[4]]) + b"\n"
    assert _read(data).seat_names == ("A", "B")
    fixed = b"\n".join(s.replace(b":B|A", b":A|B").replace(b"10|-10", b"-10|10") for s in STATES)
    assert _read(fixed).seat_names == ("A", "B")
    assert _read(STATES[1]).seat_names == ("B", "A")  # one hand: no way to tell


def test_a_line_too_long_is_an_error_naming_it() -> None:
    with pytest.raises(LogError, match=rf"m.log:5: a line longer than {MAX_LINE_BYTES} bytes"):
        _read(HEADER + b"STATE:0:" + b"c" * MAX_LINE_BYTES)


HOSTILE_TOKENS = [
    b"", b"\xb2", "\u0663".encode(), b"1e9", b"nan", b"inf", b"-", b"9" * 30, b"\x00", b"\xff",
    "\u0100".encode(), b"|", b":", b"\r", b"#", b"STATE", b"SCORE:", b"\x1b[2J", b" ", b"0.5",
    b"-0", b"4294967296", b"9007199254740993", b"A|A", b"A|B|C", b"10|-10|0", b"//", b"rrrr",
    b"r99999999999", b"7d3d|2hAc|Ks", b"\xc3\xa9", b"\xe2\x80\xae", b"1.", b".5", b"+5",
    b"1_000", b"\xef\xbb\xbf",
]  # fmt: skip
"""Text that broke parsers before: other digits, huge and odd numbers, separators, control
and bidi characters, UTF-8 and Latin-1 bytes, a byte-order mark."""


@st.composite
def damaged_logs(draw: st.DrawFn) -> bytes:
    """A valid log, damaged a few times: a field replaced, a line dropped, doubled, moved or
    added, and maybe cut anywhere."""
    lines = [*HEADER.splitlines(), *STATES, SCORE]
    text = st.one_of(st.sampled_from(HOSTILE_TOKENS), st.binary(max_size=12))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["field", "drop", "double", "move", "add", "separator"]))
        if kind == "field":
            fields = lines[at].split(b":")
            fields[draw(st.integers(0, len(fields) - 1))] = draw(text)
            lines[at] = b":".join(fields)
        elif kind == "drop" and len(lines) > 1:
            del lines[at]
        elif kind == "double":
            lines.insert(at, lines[at])
        elif kind == "move":
            lines.insert(draw(st.integers(0, len(lines))), lines.pop(at))
        elif kind == "add":
            lines.insert(at, draw(text) + draw(st.sampled_from([b"", b":", b"|"])) + draw(text))
        else:
            lines[at] = lines[at].replace(b"|", draw(st.sampled_from([b":", b"||", b"/", b""])), 1)
    data = b"\n".join(lines) + b"\n"
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]
    return data


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=3000))
def test_any_bytes_read_or_are_refused_in_one_line(data: bytes) -> None:
    _read_or_refuse(data)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_logs())
def test_damaged_logs_read_consistently_or_are_refused_in_one_line(data: bytes) -> None:
    _read_or_refuse(data)
