"""Progress of many matches at once (``acpcbot tournament``): matches ended of the total,
hands/s over every process playing, the ETA of the hands left; on stderr and, with
``--mqtt``, as the tournament's ``progress`` messages.

>>> monitor = PoolMonitor(4, 8000, show=False, clock=iter([0.0, 2.0, 2.0]).__next__)
>>> monitor.update(ended=1, running=2, hands=3000)
>>> monitor.progress()["eta_s"]
3.3
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from acpcbot.progress.display import ProgressDisplay, Show

if TYPE_CHECKING:
    from acpcbot.telemetry.channel import Channel
    from acpcbot.telemetry.publisher import PublisherStats

__all__ = ["PoolMonitor"]


class PoolMonitor:
    """``matches`` matches of ``hands`` hands in all, shown and published as they go."""

    def __init__(
        self,
        matches: int,
        hands: int,
        *,
        show: Show | bool | None,
        channel: Channel | None = None,
        label: str = "tournament",
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.display = ProgressDisplay(label, hands, show=show)
        self.channel = channel
        self._matches = matches
        self._hands = hands
        self._clock = clock
        self._started = clock()
        self._state = (0, 0, 0)

    def update(self, ended: int, running: int, hands: int) -> None:
        """``ended`` matches over, ``running`` being played, ``hands`` played so far in
        all (in the running matches too)."""
        self._state = (ended, running, hands)
        self.display.update(hands, self._note)
        if self.channel is not None:
            self.channel.progress(self.progress)

    def _note(self) -> str:
        ended, running, _ = self._state
        return f"{ended:,}/{self._matches:,} matches ({running} running)"

    def progress(self) -> dict[str, Any]:
        """What a ``progress`` message holds."""
        # the telemetry package loads asyncio: a display without a broker does without
        from acpcbot.telemetry.codec import finite

        ended, running, hands = self._state
        seconds = self._clock() - self._started
        rate = hands / seconds if seconds > 0 else 0.0
        return {
            "matches_done": ended,
            "matches_total": self._matches,
            "running": running,
            "hands": hands,
            "hands_total": self._hands,
            "hands_per_s": finite(rate, 1),
            "elapsed_s": finite(seconds),
            "eta_s": finite((self._hands - hands) / rate, 1) if rate > 0 else None,
        }

    @contextlib.contextmanager
    def suspended(self) -> Iterator[None]:
        """Print a line in the block without garbling the progress bar."""
        with self.display.suspended():
            yield

    def close(self, status: str, body: dict[str, Any]) -> PublisherStats | None:
        """Clear the display; publish the last progress and the final status."""
        self.display.close()
        if self.channel is None:
            return None
        # the telemetry package loads asyncio: a display without a broker does without
        from acpcbot.telemetry.codec import Status

        return self.channel.close(Status(status), body, last_progress=self.progress())
