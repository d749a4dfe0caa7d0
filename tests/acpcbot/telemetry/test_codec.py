"""The telemetry's topics and payloads (the pure codec)."""

from __future__ import annotations

import json

from acpcbot.telemetry.codec import (
    SCHEMA,
    Kind,
    Stream,
    Topic,
    decode,
    encode,
    hand_body,
    new_id,
    parse_topic,
    topic_level,
)


def test_topics_round_trip_and_others_are_not_ours() -> None:
    for kind in Kind:
        for stream in Stream:
            topic = Topic("lab/acpc", kind, "x.1", stream)
            assert parse_topic("lab/acpc", str(topic)) == topic
    assert parse_topic("acpcbot", "acpcbot/match/x/other") is None
    assert parse_topic("acpcbot", "acpcbot/robot/x/status") is None
    assert parse_topic("acpcbot", "elsewhere/match/x/status") is None
    assert parse_topic("acpcbot", "acpcbot/match/x/y/status") is None


def test_a_level_never_holds_a_wildcard_or_a_separator() -> None:
    for text in ("a+b", "a#b", "a/b", "a b", "a\x00b", "a\nb"):
        assert topic_level(text) == "a_b"
    assert topic_level("") == "_" and len(topic_level("x" * 500)) == 120


def test_ids_differ_from_run_to_run_of_the_same_match() -> None:
    ids = {new_id("plicas+dpac=off-vs-dpp.seed1.n10") for _ in range(50)}
    assert len(ids) == 50
    assert all(i.startswith("plicas_dpac=off-vs-dpp.seed1.n10.") for i in ids)


def test_every_payload_has_its_envelope() -> None:
    message = json.loads(encode(Kind.PLAYER, "p1", 3, 12.34567, {"hands": 5}))
    assert message == {"schema": SCHEMA, "kind": "player", "id": "p1", "seq": 3, "ts": 12.346,
                       "hands": 5}  # fmt: skip
    assert decode(b"") is None and decode(b"not json") is None and decode(b"[1]") is None
    assert decode(b'{"no": "schema"}') is None


def test_a_hand_is_what_its_log_line_holds() -> None:
    line = "STATE:17:r9rc/cr10c:AsKs|2c2d/3h4h5h:-20.5|20.5:Alice|Bob"
    body = hand_body(2, "m.log", line)
    assert body == {
        "half": 2,
        "log": "m.log",
        "hand": 17,
        "betting": "r9rc/cr10c",
        "cards": "AsKs|2c2d/3h4h5h",
        "values": [-20.5, 20.5],
        "players": ["Alice", "Bob"],
        "line": line,
    }
    assert hand_body(1, "m.log", "garbage") == {"half": 1, "log": "m.log", "line": "garbage"}
