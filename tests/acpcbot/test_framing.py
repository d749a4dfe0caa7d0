from __future__ import annotations

import pytest

from acpcbot.framing import LineBuffer, LineTooLongError, is_comment


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
