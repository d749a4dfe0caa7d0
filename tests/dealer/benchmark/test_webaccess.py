"""Who is asking over HTTP: tokens read from their headers, the verified secrets remembered
(bounded, forgotten on a new hash or with time), the page's sessions (bounded per user and in
all, over after idling or in all)."""

from __future__ import annotations

import base64

from dealer.benchmark.webaccess import (
    SESSION_IDLE_S,
    SESSION_LIFE_S,
    VerifiedSecrets,
    WebSessions,
    credentials,
)


def test_a_token_is_a_name_and_a_secret_by_bearer_or_basic() -> None:
    basic = base64.b64encode(b"ann:s3:cret").decode()
    assert credentials(f"Basic {basic}") is not None
    found = credentials(f"Basic {basic}")
    assert found is not None and (found.name, found.secret) == ("ann", "s3:cret")
    found = credentials("bearer  ann:s3cret ")
    assert found is not None and (found.name, found.secret) == ("ann", "s3cret")
    assert "s3cret" not in repr(found)  # never in a log line by accident
    for bad in (
        "Bearer s3cret",
        "Bearer :s3cret",
        "Bearer ann:",
        "Basic not-base-64!",
        "Basic " + base64.b64encode(b"\xff\xfe:x").decode(),
        "Bearer ann:" + "x" * 600,
        "Digest ann:s3cret",
        "",
    ):
        assert credentials(bad) is None, bad


def test_verified_secrets_are_bounded_and_forgotten_on_a_new_hash_or_in_time() -> None:
    remembered = VerifiedSecrets(capacity=3, lifetime_s=60.0)
    for n in range(5):
        remembered.remember(f"user{n}", "s", "h", now=0.0)
    assert len(remembered) == 3
    assert not remembered.known("user0", "s", "h", now=1.0)  # the least recently seen went
    assert remembered.known("user4", "s", "h", now=1.0)
    assert not remembered.known("user4", "wrong", "h", now=1.0)
    assert not remembered.known("user4", "s", "h2", now=1.0)  # reset: a new hash
    assert not remembered.known("user4", "s", "h", now=1.0)  # and forgotten
    remembered.remember("user4", "s", "h", now=0.0)
    assert not remembered.known("user4", "s", "h", now=61.0)  # too long ago
    other = VerifiedSecrets()
    other.remember("user1", "s", "h", now=0.0)
    assert other._entries["user1"][0] != remembered._mac("s")  # a key of each process's


def test_sessions_are_bounded_per_user_and_in_all_and_end() -> None:
    sessions = WebSessions(capacity=5, per_user=2)
    first = sessions.start(1, "ann", "h", now=0.0)
    second = sessions.start(1, "ann", "h", now=1.0)
    third = sessions.start(1, "ann", "h", now=2.0)
    assert sessions.get(first, now=3.0) is None  # her oldest ended
    assert sessions.get(second, now=3.0) is not None and sessions.get(third, now=3.0) is not None
    others = [sessions.start(n, f"u{n}", "h", now=4.0) for n in range(2, 6)]
    assert len(sessions) == 5 and sessions.get(others[-1], now=5.0) is not None
    assert sessions.get(second, now=5.0) is None  # the least recently used went
    busy = WebSessions()
    key = busy.start(1, "ann", "h", now=0.0)
    for hour in range(1, 7 * 24):  # used every hour: it lasts a week, no more
        assert busy.get(key, now=hour * 3600.0) is not None, hour
    assert busy.get(key, now=SESSION_LIFE_S + 1) is None
    idle = WebSessions()
    key = idle.start(1, "ann", "h", now=0.0)
    assert idle.get(key, now=SESSION_IDLE_S + 1) is None
    idle.end("no-such-key")
    assert len(idle) == 0
