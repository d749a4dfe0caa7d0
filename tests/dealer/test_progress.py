from __future__ import annotations

import io

from dealer.progress import Progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_drawn_on_a_terminal_and_cleared() -> None:
    stream = _Terminal()
    progress = Progress(total=2048, big_blind=10, stream=stream)
    progress.update(512, chips=512.0, label="half 1")
    assert "half 1: 512/2,048 hands" in stream.getvalue()
    assert "+100.0 mbb/g so far" in stream.getvalue() and "hands/s" in stream.getvalue()
    progress.update(1024, chips=0.0, label="half 1")  # too soon after the last one: skipped
    assert "1,024/" not in stream.getvalue()
    progress.clear()
    assert stream.getvalue().endswith("\r\x1b[K")


def test_no_progress_when_not_a_terminal() -> None:
    stream = io.StringIO()
    progress = Progress(total=1000, big_blind=10, stream=stream)
    progress.update(512, chips=1.0, label="half 1")
    progress.clear()
    assert stream.getvalue() == ""
