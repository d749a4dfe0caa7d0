"""The progress display: a tqdm bar on a terminal, plain lines when forced elsewhere, nothing
when turned off; other lines written above the bar."""

from __future__ import annotations

import argparse
import io

from acpcbot.progress.display import ProgressDisplay, Show


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


def test_at_80_columns_the_result_and_the_eta_stay() -> None:
    # the bar goes first, then the label, then the rate: never the CI or the ETA
    stream, clock = _Terminal(), _Clock()
    label = "plicas vs dpp"
    display = ProgressDisplay(label, 80_000, stream=stream, clock=clock, columns=80)
    display.update(0, "")
    clock.now += 10.0
    display.update(4_570, "plicas +97.7 ± 111.0 mbb/g")
    drawn = stream.getvalue().rsplit("\r", 1)[-1]
    assert drawn == "4,570/80,000 hands, 457 hands/s, plicas +97.7 ± 111.0 mbb/g, ETA 2:45"
    wide = ProgressDisplay(label, 80_000, stream=_Terminal(), clock=clock, columns=120)
    assert wide.text(4_570, "x", clock.now).startswith(f"{label}: ")
    narrow = display.text(4_570, "plicas +97.7 ± 111.0 mbb/g", clock.now, width=50)
    assert narrow == "plicas +97.7 ± 111.0 mbb/g, ETA 2:45"


def test_off_a_terminal_a_long_work_says_now_and_then_that_it_is_alive() -> None:
    # By default (Show.AUTO: neither --progress nor --no-progress) a log or a pipe gets a
    # plain line every 30 s, as pip and docker build write: not for work shorter than that.
    for minutes, lines in ((0.2, 0), (2.0, 4)):  # (at 30, 60, 90 and 120 s)
        stream, clock = io.StringIO(), _Clock()
        display = ProgressDisplay("t", 100_000, show=Show.AUTO, stream=stream, clock=clock)
        steps = int(minutes * 60)
        for second in range(steps + 1):
            display.update(second * 100, "n")
            clock.now += 1.0
        display.close()
        written = stream.getvalue().splitlines()
        assert len(written) == lines, written
        assert all(line.startswith("t: ") and "ETA" in line for line in written)


def test_the_commands_default_is_auto_and_acpc_dealer_stays_the_reference() -> None:
    from acpcbot.cli import build_parser
    from acpcbot.game import bundled_game
    from acpcbot.options import progress_of
    from dealer.referee.config import MatchConfig
    from dealer.referee.livematch import LiveMatch
    from dealer.referee.transcript import Transcript

    for command in (["match", "a", "b"], ["tournament", "a", "b", "--out", "t"], ["infogain", "x"]):
        assert progress_of(build_parser().parse_args(command)) is Show.AUTO
    # off a terminal (pytest's stderr), acpc-dealer's stderr is the reference dealer's
    config = MatchConfig("m", bundled_game(), "g.game", 10, 1, ("A", "B"))
    args = argparse.Namespace(progress=None, quiet=False, mqtt=None, mqtt_hands=False)
    assert not LiveMatch.from_args(config, args, Transcript(None)).active
    args.progress = True
    assert LiveMatch.from_args(config, args, Transcript(None)).active
