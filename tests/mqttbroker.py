"""A real mosquitto for the telemetry tests (:mod:`acpcbot.telemetry.localbroker`: a free
127.0.0.1 port, its own config; ``./dev.sh test`` installs mosquitto when it is missing),
and an aiomqtt subscriber that records what the tests' matches publish."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest

from acpcbot.telemetry.localbroker import Mosquitto, free_port
from tests.tiers import starts_processes

__all__ = ["Heard", "Mosquitto", "Recorder", "broker", "free_port", "statuses"]


@pytest.fixture
@starts_processes
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    """A running mosquitto, stopped after the test."""
    folder = tmp_path / "broker"
    folder.mkdir()
    mosquitto = Mosquitto(folder, prefix="test").start()
    try:
        yield mosquitto
    finally:
        mosquitto.stop()


@dataclass(frozen=True)
class Heard:
    """A message a :class:`Recorder` received."""

    topic: str
    payload: bytes
    retain: bool

    @property
    def json(self) -> dict[str, Any]:
        message = json.loads(self.payload)
        assert isinstance(message, dict)
        return message

    @property
    def stream(self) -> str:
        return self.topic.rsplit("/", 1)[-1]


class Recorder:
    """An aiomqtt subscriber on a thread of its own, recording every message on
    ``filters`` (QoS 1) while the test runs matches."""

    def __init__(
        self,
        port: int,
        filters: list[str],
        *,
        username: str | None = None,
        password: str | None = None,
    ) -> None:
        self.port = port
        self.filters = filters
        self.auth = {"username": username, "password": password}
        self.heard: list[Heard] = []
        self._lock = threading.Lock()
        self._subscribed = threading.Event()
        self._stop = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Recorder:
        self._thread.start()
        if not self._subscribed.wait(10):
            raise RuntimeError(f"the test's subscriber could not subscribe: {self._error}")
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:
            self._error = exc
            self._subscribed.set()

    async def _main(self) -> None:
        import aiomqtt

        async with aiomqtt.Client("127.0.0.1", self.port, **self.auth) as client:  # type: ignore[arg-type]
            for topic_filter in self.filters:
                await client.subscribe(topic_filter, qos=1)
            self._subscribed.set()
            messages = aiter(client.messages)
            # One read stays pending across the looks at the stop flag: cancelling a read
            # (as wait_for does on a timeout) can lose the message aiomqtt's inner task had
            # already taken off its queue, which happened under load.
            reading: asyncio.Future[aiomqtt.Message] | None = None
            while not self._stop.is_set():
                if reading is None:
                    reading = asyncio.ensure_future(anext(messages))
                done, _ = await asyncio.wait({reading}, timeout=0.1)
                if not done:
                    continue
                message = reading.result()
                reading = None
                payload = message.payload
                assert isinstance(payload, bytes)
                with self._lock:
                    self.heard.append(Heard(str(message.topic), payload, message.retain))

    def messages(self) -> list[Heard]:
        with self._lock:
            return list(self.heard)

    def wait_for(self, done: Callable[[list[Heard]], bool], timeout: float = 30.0) -> list[Heard]:
        """The messages so far once ``done`` says so (an assertion error after
        ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while True:
            heard = self.messages()
            if done(heard):
                return heard
            if time.monotonic() > deadline or self._error is not None:
                shown = [(h.topic, h.payload[:200]) for h in heard[-5:]]
                raise AssertionError(f"not heard in {timeout} s (last: {shown}; {self._error})")
            time.sleep(0.02)


def statuses(heard: list[Heard]) -> list[str]:
    """The statuses heard, in order."""
    return [h.json["status"] for h in heard if h.stream == "status" and h.payload]
