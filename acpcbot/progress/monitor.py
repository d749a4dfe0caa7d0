"""What a running match's reports feed: its running results, its progress display and its
telemetry (the ``progress`` messages and, with ``--mqtt-hands``, the ``hands``).

The match (``acpcbot match``'s halves, wherever they run, or ``acpc-dealer``) reports agent
A's (seat 1's) chips hand by hand in batches; the display and the telemetry are each
updated when they are due, from one snapshot of :class:`RunningMatch`.

>>> import io
>>> from acpcbot.progress.display import ProgressDisplay
>>> monitor = MatchMonitor(RunningMatch(4, 10), ProgressDisplay("a vs b", 4, show=False), "a")
>>> monitor.report(0, [10.0, -10.0]); monitor.report(1, [-10.0, 30.0])
>>> monitor.snapshot().estimate_text()
'+500.0 ± 980.0 mbb/g'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from acpcbot.progress.display import ProgressDisplay
from acpcbot.progress.running import MatchProgress, RunningMatch

if TYPE_CHECKING:
    from acpcbot.telemetry.channel import Channel
    from acpcbot.telemetry.publisher import PublisherStats

__all__ = ["MatchMonitor"]


class MatchMonitor:
    """A match's reports, shown (``display``) and published (``channel``, if any)."""

    def __init__(
        self,
        running: RunningMatch,
        display: ProgressDisplay,
        agent: str,
        channel: Channel | None = None,
        *,
        hands: bool = False,
        replaying: Sequence[int] = (),
    ) -> None:
        self.running = running
        self.display = display
        self.channel = channel
        self.hands_wanted = channel is not None and hands
        """Every hand is to be published (``--mqtt-hands``)."""
        self.replaying = tuple(replaying)
        """The hands of each half that an earlier run of the match played, which a resumed
        match plays again first (empty: none)."""
        self._played = [0] * len(self.replaying)
        self._agent = agent
        self._snapshot: MatchProgress | None = None
        self._shows = display.enabled or channel is not None

    def snapshot(self) -> MatchProgress:
        """The match so far (computed once per report)."""
        if self._snapshot is None:
            self._snapshot = self.running.snapshot()
        return self._snapshot

    def _note(self) -> str:
        note = f"{self._agent} {self.snapshot().estimate_text()}"
        replay = self.replay_text()
        return f"{replay}, {note}" if replay else note

    def replay_text(self) -> str:
        """How far a resumed match has played again the hands of its earlier run, while it
        does (else ``""``).

        >>> from acpcbot.progress.display import ProgressDisplay
        >>> display = ProgressDisplay("a vs b", 8, show=False)
        >>> monitor = MatchMonitor(RunningMatch(8, 10), display, "a", replaying=(3, 2))
        >>> monitor.report(0, [10.0, -10.0]); monitor.replay_text()
        'replaying 2/5 hands played before'
        >>> monitor.report(0, [5.0, 5.0]); monitor.report(1, [0.0, 0.0]); monitor.replay_text()
        ''
        """
        total = sum(self.replaying)
        done = sum(map(min, self._played, self.replaying))
        return f"replaying {done:,}/{total:,} hands played before" if done < total else ""

    def _progress(self) -> dict[str, Any]:
        return self.snapshot().json()

    def report(self, half: int, values: Sequence[float]) -> None:
        """Agent A's chips in the next hands of ``half`` (0 or 1)."""
        self.running.add(half, values)
        if self._played:
            self._played[half] += len(values)
        if not self._shows:
            return
        self._snapshot = None
        self.display.update(self.running.hands.count, self._note)
        if self.channel is not None:
            self.channel.progress(self._progress)

    def hands(self, half: int, log: str, lines: Sequence[str]) -> None:
        """``STATE`` lines of ``half`` to publish (``--mqtt-hands``)."""
        channel = self.channel
        if channel is None:
            return
        # the telemetry package loads asyncio: a display without a broker does without
        from acpcbot.telemetry.codec import hand_body

        number = half + 1
        for line in lines:
            channel.hand(_body(hand_body, number, log, line))

    def close_display(self) -> None:
        self.display.close()

    def close(
        self, status: str, body: dict[str, Any], *, timeout: float = 10.0
    ) -> PublisherStats | None:
        """Clear the display; send the last progress and the final ``status`` with
        ``body`` and close the telemetry (``None`` without it)."""
        self.display.close()
        if self.channel is None:
            return None
        # the telemetry package loads asyncio: a display without a broker does without
        from acpcbot.telemetry.codec import Status

        self._snapshot = None
        return self.channel.close(
            Status(status), body, last_progress=self._progress(), timeout=timeout
        )


def _body(
    make: Callable[[int, str, str], dict[str, Any]], half: int, log: str, line: str
) -> Callable[[], dict[str, Any]]:
    """``make(half, log, line)`` later (on the publisher's thread)."""
    return lambda: make(half, log, line)
