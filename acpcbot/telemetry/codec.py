"""The telemetry's topics and JSON payloads: a pure codec (no I/O).

Every publisher of telemetry is one *source*: a match (``acpcbot match``, ``acpc-dealer``),
a player (``acpcbot play``) or a tournament, named by an id unique to that run. Its topics
are ``PREFIX/KIND/ID/STREAM``:

* ``status`` (retained): ``running`` with what the source is, then ``finished`` (or
  ``interrupted``, ``failed``) with its result; ``aborted`` is the broker's last will when
  the process dies;
* ``progress`` (retained, at most once a second): hands, hands/s, mbb/g with its 95% CI, ETA;
* ``hands`` (matches, opt-in): one message per finished hand, what its ``.log`` line holds.

Every payload is one JSON object with ``schema`` (:data:`SCHEMA`), ``kind``, ``id``, ``seq``
(counting that topic's messages from 1: a gap means messages were dropped) and ``ts``
(seconds since the Unix epoch, UTC, when the event happened).

>>> topic = Topic("acpcbot", Kind.MATCH, "a-vs-b.seed1.n10.20260101T000000Z.0a1b2c", Stream.HANDS)
>>> str(topic)
'acpcbot/match/a-vs-b.seed1.n10.20260101T000000Z.0a1b2c/hands'
>>> parse_topic("acpcbot", str(topic)) == topic
True
>>> hand = hand_body(1, "a-b.seed1.n10.log", "STATE:3:cc/r:Ah2c|9d9h/4s5s6s:-10|10:a|b")
>>> hand["hand"], hand["values"], hand["players"]
(3, [-10.0, 10.0], ['a', 'b'])
>>> message = encode(Kind.MATCH, "m1", 7, 1767225600.0, hand)
>>> decode(message)["seq"], decode(message)["betting"]
(7, 'cc/r')
"""

from __future__ import annotations

import contextlib
import enum
import json
import math
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from acpcbot.errors import MatchStateError

__all__ = [
    "SCHEMA",
    "Kind",
    "Status",
    "Stream",
    "Topic",
    "decode",
    "encode",
    "finite",
    "hand_body",
    "new_id",
    "parse_topic",
    "subscriptions",
    "topic_level",
]

SCHEMA = 1
"""The version of the payloads; a change that removes or renames a key raises it."""


class Kind(enum.Enum):
    """What publishes."""

    MATCH = "match"
    PLAYER = "player"
    TOURNAMENT = "tournament"


class Stream(enum.Enum):
    """A source's topics."""

    STATUS = "status"
    PROGRESS = "progress"
    HANDS = "hands"


class Status(enum.Enum):
    """The ``status`` of a ``status`` message."""

    RUNNING = "running"
    FINISHED = "finished"
    INTERRUPTED = "interrupted"
    FAILED = "failed"
    ABORTED = "aborted"
    """The last will: the process died without saying how it ended."""

    @property
    def over(self) -> bool:
        return self is not Status.RUNNING


@dataclass(frozen=True, slots=True)
class Topic:
    """``PREFIX/KIND/ID/STREAM``."""

    prefix: str
    kind: Kind
    id: str
    stream: Stream

    def __str__(self) -> str:
        return f"{self.prefix}/{self.kind.value}/{self.id}/{self.stream.value}"


def subscriptions(prefix: str) -> list[str]:
    """The topic filters of every source's status and progress (not the hands).

    >>> subscriptions("lab")
    ['lab/+/+/status', 'lab/+/+/progress']
    """
    return [f"{prefix}/+/+/{Stream.STATUS.value}", f"{prefix}/+/+/{Stream.PROGRESS.value}"]


def parse_topic(prefix: str, topic: str) -> Topic | None:
    """The topic ``topic`` as ours under ``prefix``, or ``None`` for anything else."""
    head = f"{prefix}/"
    if not topic.startswith(head):
        return None
    parts = topic[len(head) :].split("/")
    if len(parts) != 3:
        return None
    kind, source, stream = parts
    try:
        return Topic(prefix, Kind(kind), source, Stream(stream))
    except ValueError:
        return None


_NOT_IN_A_LEVEL = re.compile(r"[/+#\s\x00-\x1f\x7f]")


def topic_level(text: str) -> str:
    """``text`` as one topic level: ``/``, the wildcards ``+`` and ``#``, white space and
    control characters become ``_`` (a spec's ``plicas+dpac=off`` reads
    ``plicas_dpac=off``); at most 120 characters.

    >>> topic_level("plicas+dpac=off-vs-dpp.seed3.n100")
    'plicas_dpac=off-vs-dpp.seed3.n100'
    """
    return _NOT_IN_A_LEVEL.sub("_", text)[:120] or "_"


def new_id(name: str, now: float | None = None, token: str | None = None) -> str:
    """An id for one run of ``name`` (a match's name, say): the name, the UTC start time and
    six random hex digits, so that two runs of the same match never share their topics.

    >>> new_id("a-vs-b.seed1.n10", now=1767225600.0, token="0a1b2c")
    'a-vs-b.seed1.n10.20260101T000000Z.0a1b2c'
    """
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now is None else now))
    return f"{topic_level(name)[:80]}.{stamp}.{token or os.urandom(3).hex()}"


def finite(value: float | None, digits: int = 3) -> float | None:
    """A number as JSON can hold it: rounded, and ``None`` for an infinity or NaN (an
    interval over fewer than two samples is unknown).

    >>> finite(1.23456), finite(math.inf)
    (1.235, None)
    """
    if value is None or math.isinf(value) or math.isnan(value):
        return None
    return round(value, digits)


def encode(kind: Kind, source: str, seq: int, ts: float, body: Mapping[str, Any]) -> bytes:
    """One message: the envelope (``schema``, ``kind``, ``id``, ``seq``, ``ts``) and
    ``body``, as compact UTF-8 JSON."""
    message = {"schema": SCHEMA, "kind": kind.value, "id": source, "seq": seq, "ts": round(ts, 3)}
    message.update(body)
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()


def decode(payload: bytes) -> dict[str, Any] | None:
    """A message's JSON object, or ``None`` for a payload that is not one of ours (an empty
    payload clears a retained message)."""
    try:
        message = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(message, dict) or not isinstance(message.get("schema"), int):
        return None
    return message


def hand_body(half: int, log: str, line: str) -> dict[str, Any]:
    """A ``hands`` message's body: the half (1 or 2), its log's name and the hand as its
    ``STATE`` line holds it (read by :func:`~acpcbot.protocol.logfile.state_fields`):
    ``hand`` (number), ``betting``, ``cards``, ``values`` (chips by position) and
    ``players`` (names by position), and the ``line`` itself."""
    # the log file's codec (compression modules): only a hand's message needs it
    from acpcbot.protocol.logfile import state_fields, state_names

    body: dict[str, Any] = {"half": half, "log": log}
    with contextlib.suppress(MatchStateError):  # if not, the line is still sent as it is
        fields = state_fields(line.encode("utf-8", "surrogateescape"))
        body.update(
            hand=fields.hand_number,
            betting=fields.betting.decode("ascii"),
            cards=fields.cards.decode("ascii"),
            values=list(fields.values),
            players=list(state_names(fields.names)),
        )
    body["line"] = line
    return body
