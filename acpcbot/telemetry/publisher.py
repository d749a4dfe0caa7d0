"""Publishing to an MQTT broker without ever holding up the caller.

:class:`Publisher` runs aiomqtt on a thread of its own with its own event loop (the
in-process dealer is synchronous: nothing it does waits for the network). Callers hand it
messages, which costs them a lock and an append:

* :meth:`Publisher.send` queues a message on a bounded queue: when it is full the oldest
  message is dropped (hands, say: the ``.log`` is the record, MQTT a view);
* :meth:`Publisher.put_latest` sets the current value of a retained topic (a status, the
  latest progress): a newer value replaces one not sent yet, and after every reconnection
  the current values are sent again (a broker that restarted without persistence has
  forgotten them). These go before the queue.

The connection is made, and remade, by the thread: aiomqtt does not reconnect by itself,
so a broker that is missing, refuses the credentials or dies gives one warning (through
``warn``) and is tried again with a growing pause (up to :data:`MAX_BACKOFF_S`); publishing
resumes once it is back. :meth:`Publisher.close` sends what is left (within a time limit),
then the final messages, and disconnects cleanly; a process that dies instead leaves its
last will (``Will``) on the broker. Every message handed over is either published
(acknowledged, QoS 1) or counted in :attr:`PublisherStats.dropped`.

aiomqtt (and paho-mqtt) are imported by the thread, not by this module: nothing is loaded
unless a command is told ``--mqtt``. Their errors become :class:`TelemetryError`'s text
here, at the one place they are caught.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import ssl
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from acpcbot.errors import AcpcError
from acpcbot.telemetry.url import BrokerAddress

if TYPE_CHECKING:
    import aiomqtt

__all__ = [
    "DEFAULT_CAPACITY",
    "MAX_BACKOFF_S",
    "Outgoing",
    "Publisher",
    "PublisherStats",
    "TelemetryError",
]

DEFAULT_CAPACITY = 10_000
"""Messages the queue holds before the oldest is dropped (a few MB at most)."""
MAX_BACKOFF_S = 2.0
"""The longest pause between two connection attempts."""
_FIRST_BACKOFF_S = 0.25
_NETWORK_TIMEOUT_S = 5.0
"""How long a connection attempt or one publication may take."""
_KEEPALIVE_S = 15
_FIRST_ATTEMPT_S = 2.0
"""How long :meth:`Publisher.start` waits for the first connection attempt."""
_FINAL_GRACE_S = 2.0
"""Time past :meth:`Publisher.close`'s limit for the final messages, the queue dropped."""


class TelemetryError(AcpcError):
    """What went wrong with the broker, in one line (never raised into a match: warned)."""


Payload = bytes | Callable[[], bytes]
"""A payload, or a function that makes it (called on the publisher's thread, off the
caller's path, only if the message is sent)."""


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A message to publish (at QoS 1)."""

    topic: str
    payload: Payload
    retain: bool = False

    def data(self) -> bytes:
        payload = self.payload
        return payload if isinstance(payload, bytes) else payload()


@dataclass(frozen=True, slots=True)
class PublisherStats:
    """What became of the messages handed to a publisher."""

    published: int
    """Acknowledged by the broker (a value sent again after a reconnection counts once)."""
    dropped: int
    """Never published: pushed out of the full queue, replaced by a newer value before it
    went out, or left when the publisher closed without a broker."""


class _Slot:
    """A retained topic's current value."""

    __slots__ = ("message", "sent")

    def __init__(self, message: Outgoing) -> None:
        self.message = message
        self.sent = False


_LIVE: weakref.WeakSet[Publisher] = weakref.WeakSet()
"""Publishers of this process, whose sockets a forked child lets go of."""


def _forget_sockets_in_child() -> None:
    # A forked child (a half played in a process of its own) inherits the broker
    # connection's socket. Held open there, it would keep the broker from seeing this
    # process die (no last will) until the child exits. The descriptor is pointed at
    # /dev/null rather than closed, so that nothing reuses its number.
    for publisher in list(_LIVE):
        fd = publisher._socket_fd
        if fd is not None:
            with contextlib.suppress(OSError):
                null = os.open(os.devnull, os.O_RDWR)
                os.dup2(null, fd)
                os.close(null)
        publisher._socket_fd = None
        publisher._thread_alive = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_sockets_in_child)


class Publisher:
    """Publishes to ``broker`` from a thread of its own (see the module's description)."""

    def __init__(
        self,
        broker: BrokerAddress,
        *,
        client_id: str,
        will: Outgoing | None = None,
        capacity: int = DEFAULT_CAPACITY,
        warn: Callable[[str], None],
        note: Callable[[str], None] | None = None,
    ) -> None:
        self.broker = broker
        self._client_id = client_id
        self._will = will
        self._capacity = max(1, capacity)
        self._warn = warn
        self._note = note
        self._lock = threading.Lock()
        self._queue: collections.deque[Outgoing] = collections.deque()
        self._latest: dict[str, _Slot] = {}
        self._dirty: dict[str, None] = {}
        """Retained topics whose current value is to be sent, oldest change first."""
        self._final: list[Outgoing] | None = None
        self._closing = False
        self._deadline = float("inf")
        self._stall_s = 0.0
        """Once closing: how long the broker may acknowledge nothing before the rest goes."""
        self._submitted = 0
        self._published = 0
        self._in_flight = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._idle = False
        self._socket_fd: int | None = None
        self._thread_alive = False
        self._thread = threading.Thread(target=self._serve, name="acpcbot-telemetry", daemon=True)
        self._ready = threading.Event()
        """Set once the first connection attempt is over (or the thread is gone)."""

    # -- the caller's side (any thread) ---------------------------------------------

    def start(self) -> Publisher:
        """Start the thread and wait (up to :data:`_FIRST_ATTEMPT_S`) for its first
        connection attempt: a process forked after that (a half of the match) knows which
        socket it must let go of; a broker that is slow or missing is not waited for."""
        _LIVE.add(self)
        self._thread_alive = True
        self._thread.start()
        self._ready.wait(_FIRST_ATTEMPT_S)
        return self

    def send(self, message: Outgoing) -> None:
        """Queue ``message``; when the queue is full its oldest message is dropped."""
        with self._lock:
            self._submitted += 1
            queue = self._queue
            if len(queue) >= self._capacity:
                queue.popleft()
            queue.append(message)
            idle = self._idle
            self._idle = False
        if idle:
            self._wake_up()

    def put_latest(self, message: Outgoing) -> None:
        """Make ``message`` its topic's current value (sent before the queue)."""
        with self._lock:
            self._submitted += 1
            self._latest[message.topic] = _Slot(message)
            self._dirty.pop(message.topic, None)
            self._dirty[message.topic] = None
            idle = self._idle
            self._idle = False
        if idle:
            self._wake_up()

    @property
    def stats(self) -> PublisherStats:
        """The counts so far (``dropped`` counts what is still waiting to go out as well,
        until :meth:`close` has run)."""
        with self._lock:
            return PublisherStats(self._published, self._submitted - self._published)

    def dropped_so_far(self) -> int:
        """Messages that will never be published (those still waiting are not counted)."""
        with self._lock:
            waiting = len(self._queue) + len(self._dirty) + len(self._final or ()) + self._in_flight
            return max(0, self._submitted - self._published - waiting)

    def close(self, final: Sequence[Outgoing] = (), *, timeout: float = 10.0) -> PublisherStats:
        """Send what is queued, then ``final`` (current values of retained topics, in
        order), and disconnect; give up on what is left once the broker has acknowledged
        nothing for ``timeout`` seconds (a slow broker that keeps up gets every message, a
        stalled one costs ``timeout``), or at once when no broker can be reached."""
        with self._lock:
            self._submitted += len(final)
            self._final = list(final)
            self._closing = True
            self._deadline = time.monotonic() + timeout
            self._stall_s = timeout
            self._idle = False
        self._wake_up()
        while self._thread_alive:
            with self._lock:
                give_up = self._deadline + _FINAL_GRACE_S + _NETWORK_TIMEOUT_S
            left = give_up - time.monotonic()
            if left <= 0:
                break
            self._thread.join(min(left, 0.5))
        _LIVE.discard(self)
        return self.stats

    def _wake_up(self) -> None:
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(wake.set)

    # -- the thread's side ----------------------------------------------------------

    def _serve(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception as exc:  # a bug must not take the match down: say it, stop
            self._warn(f"telemetry stopped: {type(exc).__name__}: {exc}")
        finally:
            self._thread_alive = False
            self._ready.set()

    async def _main(self) -> None:
        import aiomqtt

        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        backoff = _FIRST_BACKOFF_S
        down_since: float | None = None
        while True:
            try:
                client = self._client()
                self._track_socket(client)
                async with client:
                    self._connected(client)
                    self._ready.set()
                    if down_since is not None and self._note is not None:
                        lost = self.dropped_so_far()
                        self._note(
                            f"telemetry: publishing again to {self.broker} after "
                            f"{time.monotonic() - down_since:.0f} s ({lost:,} messages "
                            "dropped so far)"
                        )
                    down_since = None
                    backoff = _FIRST_BACKOFF_S
                    await self._pump(client)
                    return  # closed: leaving the block disconnects (no last will)
            except aiomqtt.MqttError as exc:
                self._socket_fd = None
                self._ready.set()
                if down_since is None:
                    down_since = time.monotonic()
                    self._warn(_describe(exc, self.broker))
                if self._closing:
                    return  # no broker at the end: what is left is dropped
                await self._pause(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF_S)

    def _client(self) -> aiomqtt.Client:
        """A new client (aiomqtt's is not reentrant: one per connection attempt)."""
        import aiomqtt

        broker = self.broker
        will = None
        if self._will is not None:
            will = aiomqtt.Will(self._will.topic, self._will.data(), qos=1, retain=True)
        quiet = logging.getLogger("acpcbot.telemetry.mqtt")
        quiet.propagate = False  # aiomqtt's and paho's own chatter: our warning says it all
        quiet.addHandler(logging.NullHandler())
        return aiomqtt.Client(
            broker.host,
            broker.port,
            username=broker.username,
            password=broker.password,
            identifier=self._client_id,
            will=will,
            timeout=_NETWORK_TIMEOUT_S,
            keepalive=_KEEPALIVE_S,
            tls_context=ssl.create_default_context() if broker.tls else None,
            logger=quiet,
        )

    def _track_socket(self, client: aiomqtt.Client) -> None:
        """Know the connection's socket from the moment paho opens it (in the thread that
        connects), for :func:`_forget_sockets_in_child`."""
        paho = client._client
        opened = paho.on_socket_open

        def on_socket_open(*args: Any) -> None:
            sock = args[-1]
            self._socket_fd = sock.fileno()
            if opened is not None:
                opened(*args)

        paho.on_socket_open = on_socket_open

    def _connected(self, client: aiomqtt.Client) -> None:
        """Every current value goes out again on a new connection."""
        sock = client._client.socket()
        self._socket_fd = sock.fileno() if sock is not None else None
        with self._lock:
            for topic in self._latest:
                self._dirty.setdefault(topic, None)

    async def _pause(self, seconds: float) -> None:
        """Sleep, but wake for :meth:`close`."""
        assert self._wake is not None
        self._wake.clear()
        if self._closing:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)

    def _next(self) -> tuple[Outgoing, _Slot | None, bool] | None:
        """The next message to send (with its slot, and whether it is a final one), or
        ``None`` (then the thread is marked idle, to be woken by the next message).
        Current values go first, then the queue; once closing, the final messages last,
        and when the time is up they go at once, the rest of the queue dropped."""
        item: tuple[Outgoing, _Slot | None, bool]
        with self._lock:
            if self._closing and time.monotonic() >= self._deadline:
                self._queue.clear()
            if self._dirty:
                topic = next(iter(self._dirty))
                del self._dirty[topic]
                slot = self._latest[topic]
                item = (slot.message, slot, False)
            elif self._queue:
                item = (self._queue.popleft(), None, False)
            elif self._closing and self._final:
                item = (self._final.pop(0), None, True)
            else:
                self._idle = True
                return None
            self._in_flight = 1
            return item

    async def _pump(self, client: aiomqtt.Client) -> None:
        """Publish until closed and everything went out (or the time is up)."""
        assert self._wake is not None
        wake = self._wake
        while True:
            wake.clear()
            item = self._next()
            if item is None:
                if self._closing:
                    return
                await wake.wait()
                continue
            message, slot, final = item
            left = self._deadline + _FINAL_GRACE_S - time.monotonic()
            if left <= 0:
                return  # out of time: the rest is dropped
            timeout = min(_NETWORK_TIMEOUT_S, max(0.1, left))
            try:
                await client.publish(
                    message.topic, message.data(), qos=1, retain=message.retain, timeout=timeout
                )
            except BaseException:
                with self._lock:  # a current value or a final one is tried again
                    self._in_flight = 0
                    if slot is not None and self._latest.get(message.topic) is slot:
                        self._dirty.setdefault(message.topic, None)
                    elif final and self._final is not None:
                        self._final.insert(0, message)
                raise
            with self._lock:
                self._in_flight = 0
                if self._closing:  # acknowledged: the broker keeps up, more time
                    self._deadline = max(self._deadline, time.monotonic() + self._stall_s)
                if slot is None:
                    self._published += 1
                elif not slot.sent:
                    slot.sent = True
                    self._published += 1


def _describe(exc: Exception, broker: BrokerAddress) -> str:
    """One line for a failure to reach or use the broker (aiomqtt's error, ours)."""
    from aiomqtt.exceptions import MqttConnectError

    text = str(exc)
    if isinstance(exc, MqttConnectError):
        code = getattr(exc.rc, "value", exc.rc)
        why = f"refused the connection ({text.split('] ', 1)[-1]})"
        if code in (4, 5, 134, 135):
            user = f"user {broker.username!r}" if broker.username else "no user"
            why += f": wrong or missing credentials ({user})"
        message = f"the MQTT broker at {broker} {why}"
    else:
        message = f"cannot publish to the MQTT broker at {broker}: {text}"
    return str(TelemetryError(f"{message}; going on without it, publishing again when it is back"))
