from __future__ import annotations

import io

from dealer.progress import Progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_hands_rate_mbb_and_eta_on_a_terminal_and_is_cleared() -> None:
    stream = _Terminal()
    progress = Progress(total=2048, big_blind=10, label="A vs B", stream=stream)
    progress.update(512, chips=512.0)
    shown = stream.getvalue()
    assert "A vs B: 512/2,048 hands" in shown and "hands/s" in shown
    assert "+100.0 mbb/g" in shown and "ETA " in shown
    progress.update(1024, chips=0.0)  # too soon after the last one: skipped
    assert "1,024/" not in stream.getvalue()
    progress.clear()
    assert stream.getvalue().endswith("\r\x1b[K")


def test_no_progress_when_not_a_terminal_or_disabled() -> None:
    for stream, enabled in ((io.StringIO(), None), (_Terminal(), False)):
        progress = Progress(total=1000, big_blind=10, stream=stream, enabled=enabled)
        progress.update(512, chips=1.0)
        progress.clear()
        assert stream.getvalue() == ""
