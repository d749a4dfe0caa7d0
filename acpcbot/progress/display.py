"""The progress display of long work on stderr: a tqdm bar on a terminal, plain lines in logs.

``show`` (a :class:`Show`) decides: :attr:`Show.AUTO` (the default of every command) draws
a bar when the stream is a terminal, and elsewhere (``| tee``, a CI log) writes a plain line
every :data:`QUIET_INTERVAL_S` seconds once the work has run that long (so that a long match
shows it is alive, and a short one stays quiet), as pip and docker build do;
:attr:`Show.ALWAYS` (``--progress``) writes a plain line every :data:`PLAIN_INTERVAL_S`
seconds there, and one at the end; :attr:`Show.TERMINAL` the bar alone; :attr:`Show.NEVER`
(``--no-progress``) nothing. (``True``, ``None`` and ``False`` are ``ALWAYS``, ``TERMINAL``
and ``NEVER``.) Updates are cheap when nothing is due
(a clock read), so the work may report as often as it likes; the bar is redrawn at most
every :data:`BAR_INTERVAL_S` seconds.

The bar's line fits the terminal: when it is narrow, the bar itself goes first, then the
label, then the rate, so that the counts, the running result with its CI and the ETA stay
(80 columns hold them).

tqdm (rather than rich, or terminal code of our own): one small package without
dependencies, whose redraw costs a fraction of rich's (``scripts/bench_telemetry.py``
measures both; the figures are in docs/commands/match.md, "Progress"); it writes other
lines above the bar (:meth:`ProgressDisplay.write`, :meth:`ProgressDisplay.suspended`).

>>> import io
>>> out = io.StringIO()
>>> display = ProgressDisplay("a vs b", 1000, show=True, stream=out, clock=iter([0, 10]).__next__)
>>> display.update(10, "a +9.0 mbb/g"); display.update(510, "a +12.0 mbb/g")
>>> display.close()
>>> print(out.getvalue(), end="")
a vs b: 510/1,000 hands, 50 hands/s, a +12.0 mbb/g, ETA 0:10
>>> display.text(510, "a +12.0 ± 3.0 mbb/g", 10, width=50)
'510/1,000 hands, a +12.0 ± 3.0 mbb/g, ETA 0:10'
"""

from __future__ import annotations

import contextlib
import enum
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Never, TextIO

from acpcbot.durations import eta_text

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = [
    "BAR_INTERVAL_S",
    "PLAIN_INTERVAL_S",
    "QUIET_INTERVAL_S",
    "Note",
    "ProgressDisplay",
    "Show",
]

Note = str | Callable[[], str]
"""What follows the counts: a text, or a function that makes it only when it is shown."""

BAR_INTERVAL_S = 0.25
"""Least time between two drawings of the bar."""
PLAIN_INTERVAL_S = 5.0
"""Least time between two plain lines (``--progress``)."""
QUIET_INTERVAL_S = 30.0
"""Least time between two plain lines by default, off a terminal."""
_FALLBACK_COLUMNS = 100
_BAR_FORMAT = "{percentage:3.0f}%|{bar:10}| {desc}"
_BAR_COLUMNS = len("100%|          | ")
"""What the bar takes before the text."""


class Show(enum.Enum):
    """When progress is shown: ``--no-progress``, the default, ``--progress``.

    >>> Show.of(True), Show.flag(None), Show.flag(True), Show.flag(False)
    (<Show.AUTO: 'auto'>, <Show.AUTO: 'auto'>, <Show.ALWAYS: 'always'>, <Show.NEVER: 'never'>)
    """

    NEVER = "never"
    TERMINAL = "terminal"
    """A bar on a terminal, nothing elsewhere (``acpc-dealer``'s default: off a terminal its
    output is the reference dealer's)."""
    AUTO = "auto"
    """A bar on a terminal; elsewhere a plain line every :data:`QUIET_INTERVAL_S` seconds
    once the work has run that long (the commands' default)."""
    ALWAYS = "always"
    """Also as plain lines every :data:`PLAIN_INTERVAL_S` seconds when stderr is not a
    terminal."""

    @classmethod
    def of(cls, value: bool | Show) -> Show:
        """``True`` is :attr:`AUTO` and ``False`` :attr:`NEVER` (what callers that want the
        usual progress line pass)."""
        if isinstance(value, Show):
            return value
        return cls.AUTO if value else cls.NEVER

    @classmethod
    def flag(cls, value: bool | None) -> Show:
        """From ``--progress``/``--no-progress`` (``None``: neither given)."""
        return cls.AUTO if value is None else cls.ALWAYS if value else cls.NEVER


class ProgressDisplay:
    """Progress of ``total`` units of work (hands, say) labelled ``label`` (see the
    module's description). ``total`` ``None``: unknown (no percentage, no ETA)."""

    def __init__(
        self,
        label: str,
        total: int | None,
        *,
        unit: str = "hands",
        show: Show | bool | None = None,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.perf_counter,
        columns: int | None = None,
    ) -> None:
        self._stream = stream if stream is not None else sys.stderr
        self._label = label
        self._total = total
        self._unit = unit
        self._clock = clock
        self._started = 0.0
        """Set by the first update: the rate is that of the work, not of its setting up."""
        self._counted_from = 0
        self._columns = columns
        """The terminal's width, if not the stream's."""
        terminal = _is_terminal(self._stream)
        if not isinstance(show, Show):  # (True: always; None: on a terminal)
            show = Show.NEVER if show is False else Show.ALWAYS if show else Show.TERMINAL
        self.enabled = show is not Show.NEVER and (terminal or show is not Show.TERMINAL)
        self._bar: tqdm[Never] | None = None
        self._plain = self.enabled and not terminal
        self._quiet = show is Show.AUTO
        """Plain lines only once the work is long, and no last line for short work."""
        self._interval = (
            BAR_INTERVAL_S
            if not self._plain
            else QUIET_INTERVAL_S
            if self._quiet
            else PLAIN_INTERVAL_S
        )
        self._next_at: float | None = None
        self._last: tuple[int, Note] | None = None
        self._written_last: int | None = None

    def update(self, done: int, note: Note = "") -> None:
        """``done`` units so far; ``note`` follows the counts (say, the running mbb/g): a
        text, or a function that makes it when it is shown."""
        if not self.enabled:
            return
        self._last = (done, note)
        now = self._clock()
        if self._next_at is None:  # the first update
            self._started = now
            self._counted_from = done
            self._next_at = now + self._interval
        if now < self._next_at:
            return
        self._next_at = now + self._interval
        text = note() if callable(note) else note
        if self._plain:
            self._line(done, text, now)
        else:
            self._draw(done, text, now)

    def text(self, done: int, note: str, now: float, *, width: int | None = None) -> str:
        """``label: done/total unit (pct%), rate unit/s, note, ETA m:ss``, or the longest
        shorter form that fits ``width`` (without the label, then without the rate)."""
        seconds = max(now - self._started, 1e-9)
        rate = (done - self._counted_from) / seconds
        unit = self._unit
        count = f"{done:,}/{self._total:,} {unit}" if self._total else f"{done:,} {unit}"
        eta = ""
        if self._total:
            eta = f"ETA {eta_text((self._total - done) / rate if rate > 0 else None)}"
        forms = [
            [count, f"{rate:,.0f} {unit}/s", note, eta],
            [count, note, eta],
            [note, eta],
        ]
        texts = [", ".join(part for part in form if part) for form in forms]
        texts.insert(0, f"{self._label}: {texts[0]}")
        for text in texts:
            if width is None or len(text) <= width:
                return text
        return texts[-1][:width]

    def _line(self, done: int, note: str, now: float) -> None:
        self._written_last = done
        with contextlib.suppress(OSError, ValueError):  # a closed or broken stderr
            self._stream.write(self.text(done, note, now) + "\n")
            self._stream.flush()

    def _draw(self, done: int, note: str, now: float) -> None:
        columns = self._columns or _columns(self._stream)
        text = self.text(done, note, now)
        # The bar goes first when the line is too long; the text is then fitted (a
        # terminal's last column is left free, where some wrap the line).
        with_bar = bool(self._total) and len(text) + _BAR_COLUMNS < columns
        if not with_bar:
            text = self.text(done, note, now, width=columns - 1)
        count = min(done, self._total) if self._total else done
        with contextlib.suppress(OSError, ValueError):  # a closed or broken stderr
            bar = self._bar
            if bar is None:  # drawn as it is made
                self._bar = _new_bar(
                    self._total, self._stream, text, count, columns=columns, with_bar=with_bar
                )
                return
            bar.n = count
            bar.ncols = columns
            bar.bar_format = _BAR_FORMAT if with_bar else "{desc}"
            bar.set_description_str(text, refresh=False)
            bar.refresh()

    def write(self, line: str) -> None:
        """A line above the bar (or among the plain lines)."""
        if self._bar is not None:
            self._bar.write(line, file=self._stream)
            return
        with contextlib.suppress(OSError, ValueError):
            self._stream.write(line + "\n")
            self._stream.flush()

    @contextlib.contextmanager
    def suspended(self) -> Iterator[None]:
        """Write to the stream in the block without garbling the bar: it is cleared first,
        and drawn again by the next update that is due (so that a stream of writes, say the
        dealer's transcript, costs a clear each, not a redraw)."""
        bar = self._bar
        if bar is None:
            yield
            return
        with bar.get_lock():  # type: ignore[no-untyped-call]  # (types-tqdm)
            with contextlib.suppress(OSError, ValueError):
                bar.clear(nolock=True)
            yield

    def close(self) -> None:
        """Clear the bar; in plain lines, write the last state if it was not written."""
        if self._bar is not None:
            with contextlib.suppress(OSError, ValueError):
                self._bar.close()
            self._bar = None
        elif (
            self._plain
            and self._last is not None
            and self._last[0] != self._written_last
            and not (self._quiet and self._written_last is None)  # short work: quiet
        ):
            done, note = self._last
            self._line(done, note() if callable(note) else note, self._clock())
        self.enabled = False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def _columns(stream: TextIO) -> int:
    """The terminal's width (a pseudo-terminal may say 0: then 100)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns or _FALLBACK_COLUMNS
    except (AttributeError, OSError, ValueError):
        return _FALLBACK_COLUMNS


def _new_bar(
    total: int | None, stream: TextIO, text: str, done: int, *, columns: int, with_bar: bool
) -> tqdm[Never]:
    """tqdm draws a short bar before our text (``with_bar``), cuts the line to the terminal's
    width and clears it at the end."""
    from tqdm import tqdm

    tqdm.monitor_interval = 0  # no monitor thread: we redraw when we have news
    bar: tqdm[Never] = tqdm(
        total=total,
        initial=done,
        desc=text,
        file=stream,
        leave=False,
        mininterval=0,
        ncols=columns,
        nrows=24,  # else taken from the terminal, where a pseudo-terminal may say 0
        bar_format=_BAR_FORMAT if with_bar else "{desc}",
    )
    return bar
