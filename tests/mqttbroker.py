"""A real mosquitto for the telemetry tests, on a free 127.0.0.1 port with its own config.

``./dev.sh test`` installs mosquitto (Debian's package) when it is missing. The config keeps
nothing on disk and queues without limit (``max_queued_messages 0``: with mosquitto's
default of 1000, QoS 1 messages to a slow subscriber are dropped silently). Started as
root, mosquitto would switch to its own user, which cannot read a password file in the
test's private temporary folder: ``user`` keeps it as whoever runs the tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import json
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest

__all__ = ["Heard", "Mosquitto", "Recorder", "broker", "free_port"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Mosquitto:
    """One mosquitto process (started again on the same port by :meth:`start`)."""

    def __init__(self, folder: Path, *, users: dict[str, str] | None = None) -> None:
        executable = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        if not Path(executable).exists():
            raise RuntimeError("mosquitto is not installed (./dev.sh test installs it)")
        self.executable = executable
        self.folder = folder
        self.port = free_port()
        lines = [
            f"listener {self.port} 127.0.0.1",
            "persistence false",
            "max_queued_messages 0",
            f"user {getpass.getuser()}",
        ]
        if users:
            passwords = folder / "passwords"
            passwords.touch(mode=0o600)
            for name, password in users.items():
                subprocess.run(
                    ["mosquitto_passwd", "-b", str(passwords), name, password],
                    check=True,
                    capture_output=True,
                    timeout=30,
                )
            lines += ["allow_anonymous false", f"password_file {passwords}"]
        else:
            lines.append("allow_anonymous true")
        self.config = folder / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}/test"

    def start(self) -> Mosquitto:
        log = (self.folder / "mosquitto.log").open("ab")
        self.process = subprocess.Popen(
            [self.executable, "-c", str(self.config)], stdout=log, stderr=log
        )
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2),
            ):
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        log_text = (self.folder / "mosquitto.log").read_text(errors="replace")
        raise RuntimeError(f"mosquitto did not start on port {self.port}:\n{log_text}")

    def stop(self, how: signal.Signals = signal.SIGTERM) -> None:
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(how)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        self.process = None


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    """A running mosquitto, stopped after the test."""
    folder = tmp_path / "broker"
    folder.mkdir()
    mosquitto = Mosquitto(folder).start()
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
            while not self._stop.is_set():
                try:
                    message = await asyncio.wait_for(anext(messages), 0.1)
                except TimeoutError:
                    continue
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
