"""``acpcbot play --mqtt``: the bot's own view of its match, as its client counts it.

The dealer alone knows the whole match (``acpc-dealer --mqtt`` publishes it); the player
publishes what it sees: hands, chips, its running mbb/g with a 95% CI over hands, hands/s,
its decisions and the fallbacks (check/call) made for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from acpcbot.progress.running import RunningSums
from acpcbot.telemetry.channel import Channel
from acpcbot.telemetry.codec import Kind, Status, finite
from acpcbot.telemetry.publisher import PublisherStats
from acpcbot.telemetry.url import BrokerAddress

__all__ = ["PlayerTelemetry"]


class PlayerTelemetry:
    """A player's channel, fed by the client at the end of every hand (:meth:`on_hand`)."""

    def __init__(
        self,
        broker: BrokerAddress,
        name: str,
        describe: Mapping[str, Any],
        big_blind: int,
        *,
        warn: Callable[[str], None],
    ) -> None:
        self._mbb = 1000.0 / big_blind
        self._sums = RunningSums()
        self._decisions = 0
        self._fallbacks = 0
        self._started = time.perf_counter()
        self.channel = Channel(broker, Kind.PLAYER, name, describe, warn=warn).start()

    def on_hand(self, chips: float, decisions: int, fallbacks: int) -> None:
        """The client's :data:`~acpcbot.client.session.HandWatcher`."""
        self._sums.add(chips)
        self._decisions = decisions
        self._fallbacks = fallbacks
        self.channel.progress(self.progress)

    def progress(self) -> dict[str, Any]:
        """What a ``progress`` message holds."""
        sums = self._sums
        seconds = time.perf_counter() - self._started
        return {
            "hands": sums.count,
            "chips": sums.total,
            "mbb_per_game": finite(sums.mean * self._mbb),
            "ci95": finite(sums.ci95 * self._mbb),
            "samples": sums.count,
            "over": "hands",
            "hands_per_s": finite(sums.count / seconds if seconds > 0 else 0.0, 1),
            "elapsed_s": finite(seconds),
            "decisions": self._decisions,
            "fallbacks": self._fallbacks,
        }

    def close(self, status: Status, body: Mapping[str, Any]) -> PublisherStats:
        """The last progress and the final status."""
        return self.channel.close(status, body, last_progress=self.progress())

    def end(
        self, failure: BaseException | None, result: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """Publish how the match ended: ``finished`` with ``result``, ``interrupted``
        (Ctrl-C) or ``failed`` (``failure``); what became of the messages
        (:meth:`~acpcbot.telemetry.channel.Channel.told`)."""
        body: dict[str, Any]
        if failure is None:
            status, body = Status.FINISHED, {"result": result}
        elif isinstance(failure, KeyboardInterrupt):
            status, body = Status.INTERRUPTED, {}
        else:
            status, body = Status.FAILED, {"error": str(failure) or type(failure).__name__}
        return self.channel.told(self.close(status, body))
