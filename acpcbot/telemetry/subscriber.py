"""Listening to a broker (``acpcbot watch``): every source's status and progress, as they
come, with the broker's retained values first.

aiomqtt is imported here, when a subscription starts; its errors become
:class:`~acpcbot.telemetry.publisher.TelemetryError` at this one boundary.
"""

from __future__ import annotations

import asyncio
import os
import ssl
from collections.abc import AsyncGenerator, Callable

from acpcbot.telemetry.codec import subscriptions
from acpcbot.telemetry.publisher import TelemetryError
from acpcbot.telemetry.url import BrokerAddress

__all__ = ["QUIET_S", "listen", "snapshot"]

QUIET_S = 0.3
"""A subscription's retained messages have all arrived once none came for this long."""
_CONNECT_TIMEOUT_S = 5.0


async def listen(broker: BrokerAddress) -> AsyncGenerator[tuple[str, bytes] | None, None]:
    """``None`` once subscribed, then ``(topic, payload)`` of every status and progress
    message under the broker's prefix, until the connection ends
    (:class:`TelemetryError`)."""
    import aiomqtt

    client = aiomqtt.Client(
        broker.host,
        broker.port,
        username=broker.username,
        password=broker.password,
        identifier=f"acpcbot-watch-{os.getpid()}-{os.urandom(3).hex()}",
        timeout=_CONNECT_TIMEOUT_S,
        tls_context=ssl.create_default_context() if broker.tls else None,
    )
    try:
        async with client:
            for topic_filter in subscriptions(broker.prefix):
                await client.subscribe(topic_filter, qos=1)
            yield None
            async for message in client.messages:
                payload = message.payload
                if isinstance(payload, bytes | bytearray):
                    yield str(message.topic), bytes(payload)
    except aiomqtt.MqttError as exc:
        raise _error(exc, broker) from None


def _error(exc: Exception, broker: BrokerAddress) -> TelemetryError:
    from aiomqtt.exceptions import MqttConnectError

    if isinstance(exc, MqttConnectError):
        why = str(exc).split("] ", 1)[-1]
        user = f"user {broker.username!r}" if broker.username else "no user"
        return TelemetryError(f"the MQTT broker at {broker} refused the connection: {why} ({user})")
    return TelemetryError(f"cannot listen to the MQTT broker at {broker}: {exc}")


async def snapshot(
    broker: BrokerAddress, take: Callable[[str, bytes], object], *, wait_s: float = 3.0
) -> None:
    """Hand ``take`` what the broker retains (and what comes meanwhile): returns once no
    message came for :data:`QUIET_S` seconds, or after ``wait_s`` seconds at most."""
    messages = listen(broker)
    try:
        await anext(messages)  # subscribed (or a TelemetryError)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait_s
        while (left := deadline - loop.time()) > 0:
            try:
                item = await asyncio.wait_for(anext(messages), min(QUIET_S, left))
            except TimeoutError:
                return
            if item is not None:
                take(*item)
    finally:
        await messages.aclose()
