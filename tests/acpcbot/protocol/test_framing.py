from __future__ import annotations

import pytest

from acpcbot.protocol.framing import LineBuffer, LineTooLongError, is_comment


def test_several_lines_in_one_read() -> None:
    buffer = LineBuffer()
    assert buffer.feed(b"a\r\nb\nc\r\n") == [b"a", b"b", b"c"]
    assert buffer.pending == b""


def test_one_line_over_many_reads() -> None:
    buffer = LineBuffer()
    line = b"MATCHSTATE:0:0:crrc/:7d3d|/5sKs7s\r\n"
    got: list[bytes] = []
    for byte in line:
        got += buffer.feed(bytes([byte]))
    assert got == [line[:-2]]


def test_cr_alone_is_not_a_terminator() -> None:
    buffer = LineBuffer()
    assert buffer.feed(b"abc\rdef") == []
    assert buffer.feed(b"\n") == [b"abc\rdef"]


def test_a_line_beyond_the_limit_is_refused() -> None:
    buffer = LineBuffer()
    assert buffer.feed(b"x" * 4094 + b"\n") == [b"x" * 4094]
    with pytest.raises(LineTooLongError):
        buffer.feed(b"y" * 4096)
    with pytest.raises(LineTooLongError):
        LineBuffer().feed(b"z" * 5000 + b"\n")


def test_comments() -> None:
    assert is_comment(b"# hi") and is_comment(b";") and not is_comment(b"") and not is_comment(b"M")


def test_split_long_cuts_like_the_reference_getline() -> None:
    buffer = LineBuffer(split_long=True)
    reply = b"MATCHSTATE:1:0::|2hAc:c" + b"x" * 10000 + b"\r\n"
    pieces = buffer.feed(reply[:5000]) + buffer.feed(reply[5000:])
    assert [len(p) for p in pieces] == [4095, 4095, len(reply) - 2 * 4095 - 2]
    assert b"".join(pieces) == reply[:-2]
    assert buffer.pending == b""


def test_split_long_keeps_a_cr_that_is_cut_from_its_lf() -> None:
    buffer = LineBuffer(6, split_long=True)
    assert buffer.feed(b"abcd\r\nab\n") == [b"abcd\r", b"", b"ab"]
    assert buffer.feed(b"abc") == [] and buffer.pending == b"abc"
