"""The progress display: a tqdm bar on a terminal, plain lines when forced elsewhere, nothing
when turned off; other lines written above the bar."""

from __future__ import annotations

import io

from acpcbot.progress.display import ProgressDisplay


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bar_on_a_terminal_rewritten_in_place_and_cleared() -> None:
    stream, clock = _Terminal(), _Clock()
    display = ProgressDisplay("A vs B", 2048, stream=stream, clock=clock)
    display.update(64, "A +5.0 mbb/g")  # starts the clock
    clock.now += 1.0
    display.update(512, lambda: "A +100.0 ± 20.0 mbb/g")
    shown = stream.getvalue()
    assert "\r" in shown and "%|" in shown
    assert "A vs B: 512/2,048 hands, 448 hands/s, A +100.0 ± 20.0 mbb/g, ETA 0:03" in shown
    display.update(1024, "skipped: too soon")
    assert "1,024/" not in stream.getvalue()
    display.write("acpcbot: a line above")
    with display.suspended():
        stream.write("written meanwhile\n")
    assert "acpcbot: a line above\n" in stream.getvalue()
    display.close()
    assert stream.getvalue().endswith("\r")
    assert not stream.getvalue().rsplit("\r", 2)[-2].strip()  # the bar is wiped


def test_plain_lines_every_few_seconds_when_forced_and_not_a_terminal() -> None:
    stream, clock = io.StringIO(), _Clock()
    display = ProgressDisplay("t", 1000, unit="hands", show=True, stream=stream, clock=clock)
    for done in range(0, 1000, 100):
        display.update(done, "n")
        clock.now += 1.0
    display.close()
    assert stream.getvalue().splitlines() == [
        "t: 500/1,000 hands, 100 hands/s, n, ETA 0:05",
        "t: 900/1,000 hands, 90 hands/s, n, ETA 0:01",  # the last, at the end
    ]


def test_nothing_when_off_or_not_a_terminal_by_default() -> None:
    for stream, show in ((io.StringIO(), None), (_Terminal(), False)):
        display = ProgressDisplay("t", 10, show=show, stream=stream)
        display.update(5, "x")
        display.write("a line")  # still written: it is not progress
        display.close()
        assert stream.getvalue() == "a line\n"
