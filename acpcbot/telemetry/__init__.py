"""Live telemetry over MQTT: a view of matches, players and tournaments next to their logs.

The codec (:mod:`~acpcbot.telemetry.codec`: topics and JSON payloads) is pure; the
publisher (:mod:`~acpcbot.telemetry.publisher`) runs aiomqtt on a thread of its own, fed
through a bounded queue, so that telemetry never slows or breaks what it reports on;
:mod:`~acpcbot.telemetry.channel` is one source's topics; :mod:`~acpcbot.telemetry.url`
reads ``--mqtt``; :mod:`~acpcbot.telemetry.watching` is the subscriber's side (``acpcbot
watch``). aiomqtt and paho-mqtt are only imported once a publisher or a subscriber runs.
"""

from acpcbot.telemetry.channel import Channel
from acpcbot.telemetry.codec import SCHEMA, Kind, Status, Stream, Topic, decode, encode
from acpcbot.telemetry.publisher import Outgoing, Publisher, PublisherStats, TelemetryError
from acpcbot.telemetry.url import BrokerAddress, BrokerUrlError, parse_broker_url

__all__ = [
    "SCHEMA",
    "BrokerAddress",
    "BrokerUrlError",
    "Channel",
    "Kind",
    "Outgoing",
    "Publisher",
    "PublisherStats",
    "Status",
    "Stream",
    "TelemetryError",
    "Topic",
    "decode",
    "encode",
    "parse_broker_url",
]
