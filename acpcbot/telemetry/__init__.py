"""Live telemetry over MQTT: a view of matches, players and tournaments next to their logs.

The codec (:mod:`~acpcbot.telemetry.codec`: topics and JSON payloads) is pure; the
publisher (:mod:`~acpcbot.telemetry.publisher`) runs aiomqtt on a thread of its own, fed
through a bounded queue, so that telemetry never slows or breaks what it reports on;
:mod:`~acpcbot.telemetry.channel` is one source's topics; :mod:`~acpcbot.telemetry.url`
reads ``--mqtt``; :mod:`~acpcbot.telemetry.watching` is the subscriber's side (``acpcbot
watch``). aiomqtt and paho-mqtt are only imported once a publisher or a subscriber runs.
"""

from acpcbot.telemetry.channel import Channel as Channel
from acpcbot.telemetry.codec import SCHEMA as SCHEMA
from acpcbot.telemetry.codec import Kind as Kind
from acpcbot.telemetry.codec import Status as Status
from acpcbot.telemetry.codec import Stream as Stream
from acpcbot.telemetry.codec import Topic as Topic
from acpcbot.telemetry.codec import decode as decode
from acpcbot.telemetry.codec import encode as encode
from acpcbot.telemetry.publisher import Outgoing as Outgoing
from acpcbot.telemetry.publisher import Publisher as Publisher
from acpcbot.telemetry.publisher import PublisherStats as PublisherStats
from acpcbot.telemetry.publisher import TelemetryError as TelemetryError
from acpcbot.telemetry.url import BrokerAddress as BrokerAddress
from acpcbot.telemetry.url import BrokerUrlError as BrokerUrlError
from acpcbot.telemetry.url import parse_broker_url as parse_broker_url
