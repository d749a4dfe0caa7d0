"""One source's telemetry: its status, its progress and its hands, on a :class:`Publisher`.

A :class:`Channel` is opened for a match, a player or a tournament: it starts a publisher
whose last will is the source's ``aborted`` status, publishes ``running`` (with what the
source is), then progress at most once a second and, when asked, every hand; closing it
sends the last progress, clears the retained progress and sends the final status, whose
``dropped`` counts the messages that never went out. Each topic's messages are numbered
(``seq``) as they are handed over, so a subscriber sees a gap where one was dropped.
"""

from __future__ import annotations

import itertools
import os
import socket
import time
from collections.abc import Callable, Mapping
from typing import Any

from acpcbot.telemetry.codec import Kind, Status, Stream, Topic, encode, new_id
from acpcbot.telemetry.publisher import (
    DEFAULT_CAPACITY,
    Outgoing,
    Publisher,
    PublisherStats,
)
from acpcbot.telemetry.url import BrokerAddress

__all__ = ["PROGRESS_INTERVAL_S", "Channel", "told_text"]

PROGRESS_INTERVAL_S = 1.0
"""Least time between two progress messages."""

Body = Mapping[str, Any]


class Channel:
    """A source's topics on its own publisher (see the module's description)."""

    def __init__(
        self,
        broker: BrokerAddress,
        kind: Kind,
        name: str,
        describe: Body,
        *,
        warn: Callable[[str], None],
        note: Callable[[str], None] | None = None,
        capacity: int = DEFAULT_CAPACITY,
        source_id: str | None = None,
    ) -> None:
        self.kind = kind
        self.id = source_id or new_id(name)
        self.broker = broker
        self.describe: dict[str, Any] = {
            "name": name,
            **describe,
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "started": round(time.time(), 3),
        }
        self._topics = {
            stream: str(Topic(broker.prefix, kind, self.id, stream)) for stream in Stream
        }
        self._seq = {stream: itertools.count(1) for stream in Stream}
        self._last_progress = float("-inf")
        will = self._status_message(Status.ABORTED, {}, seq=0)
        self.publisher = Publisher(
            broker,
            client_id=f"acpcbot-{os.getpid()}-{self.id[-6:]}",
            will=will,
            capacity=capacity,
            warn=warn,
            note=note,
        )

    def topic(self, stream: Stream) -> str:
        """The full name of one of this source's topics."""
        return self._topics[stream]

    def start(self, running: Body | None = None) -> Channel:
        """Connect (in the background) and publish ``running``."""
        self.publisher.start()
        self.status(Status.RUNNING, running or {})
        return self

    def _status_message(self, status: Status, body: Body, *, seq: int | None = None) -> Outgoing:
        number = next(self._seq[Stream.STATUS]) if seq is None else seq
        ts = time.time()
        full = {**self.describe, "status": status.value, **body}
        if status.over and status is not Status.ABORTED:

            def payload() -> bytes:  # the drops known when it goes out
                return encode(
                    self.kind,
                    self.id,
                    number,
                    ts,
                    {**full, "dropped": self.publisher.dropped_so_far()},
                )

            return Outgoing(self._topics[Stream.STATUS], payload, retain=True)
        return Outgoing(
            self._topics[Stream.STATUS], encode(self.kind, self.id, number, ts, full), retain=True
        )

    def status(self, status: Status, body: Body) -> None:
        """Publish the status (retained)."""
        self.publisher.put_latest(self._status_message(status, body))

    def progress(self, body: Body | Callable[[], Body], *, force: bool = False) -> bool:
        """Publish progress (retained) unless the last was less than a second ago (or
        ``force``); ``body`` may be a function, called only when it is published."""
        now = time.monotonic()
        if not force and now - self._last_progress < PROGRESS_INTERVAL_S:
            return False
        self._last_progress = now
        made = body() if callable(body) else body
        self.publisher.put_latest(self._message(Stream.PROGRESS, made, retain=True))
        return True

    def hand(self, body: Callable[[], Body]) -> None:
        """Queue a ``hands`` message (made on the publisher's thread)."""
        number = next(self._seq[Stream.HANDS])
        ts = time.time()
        kind, source = self.kind, self.id

        def payload() -> bytes:
            return encode(kind, source, number, ts, body())

        self.publisher.send(Outgoing(self._topics[Stream.HANDS], payload))

    def _message(self, stream: Stream, body: Body, *, retain: bool = False) -> Outgoing:
        number = next(self._seq[stream])
        return Outgoing(
            self._topics[stream], encode(self.kind, self.id, number, time.time(), body), retain
        )

    def close(
        self,
        status: Status,
        body: Body,
        *,
        last_progress: Body | None = None,
        timeout: float = 10.0,
    ) -> PublisherStats:
        """Send what is waiting, the last progress (if given), clear the retained progress,
        send the final status (with ``dropped``) and disconnect: what became of every
        message."""
        final = []
        if last_progress is not None:
            final.append(self._message(Stream.PROGRESS, last_progress, retain=True))
        final.append(Outgoing(self._topics[Stream.PROGRESS], b"", retain=True))
        final.append(self._status_message(status, body))
        return self.publisher.close(final, timeout=timeout)

    def told(self, stats: PublisherStats) -> dict[str, Any]:
        """What became of the messages, as a summary holds it (``telemetry``)."""
        return {
            "broker": str(self.broker),
            "id": self.id,
            "published": stats.published,
            "dropped": stats.dropped,
        }


def told_text(told: Mapping[str, Any]) -> str:
    """:meth:`Channel.told` for people.

    >>> told_text({"broker": "mqtt://h:1883/acpcbot", "id": "m1", "published": 2005, "dropped": 0})
    'telemetry: 2,005 messages published to mqtt://h:1883/acpcbot as m1, 0 dropped'
    """
    return (
        f"telemetry: {told['published']:,} messages published to {told['broker']} as "
        f"{told['id']}, {told['dropped']:,} dropped"
    )
