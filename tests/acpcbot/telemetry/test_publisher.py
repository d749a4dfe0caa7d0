"""The publisher against a real mosquitto: the bounded queue drops its oldest messages and
counts them, current values go first and the final ones last, and a missing broker costs one
warning and no waiting."""

from __future__ import annotations

import time

from acpcbot.telemetry.publisher import Outgoing, Publisher
from acpcbot.telemetry.url import parse_broker_url
from tests.mqttbroker import Mosquitto, Recorder, free_port


def test_a_full_queue_drops_its_oldest_messages_and_counts_them(broker: Mosquitto) -> None:
    warnings: list[str] = []
    publisher = Publisher(
        parse_broker_url(broker.url), client_id="t1", capacity=10, warn=warnings.append
    )
    for number in range(26):  # before the thread runs: nothing goes out yet
        publisher.send(Outgoing("test/q", b"%d" % number))
    publisher.put_latest(Outgoing("test/status", b"old", retain=True))
    publisher.put_latest(Outgoing("test/status", b"running", retain=True))
    with Recorder(broker.port, ["test/#"]) as recorder:
        publisher.start()
        stats = publisher.close([Outgoing("test/status", b"finished", retain=True)])
        heard = recorder.wait_for(lambda h: b"finished" in [m.payload for m in h])
    payloads = [(m.topic, m.payload) for m in heard]
    assert payloads[0] == ("test/status", b"running")  # current values before the queue
    assert [p for t, p in payloads if t == "test/q"] == [b"%d" % n for n in range(16, 26)]
    assert payloads[-1] == ("test/status", b"finished")  # the final message last
    assert (stats.published, stats.dropped) == (12, 17)  # 16 pushed out, 1 value replaced
    assert warnings == []


def test_no_broker_costs_one_warning_and_no_waiting() -> None:
    warnings: list[str] = []
    broker = parse_broker_url(f"mqtt://127.0.0.1:{free_port()}/test")
    publisher = Publisher(broker, client_id="t2", warn=warnings.append).start()
    for number in range(5):
        publisher.send(Outgoing("test/q", b"%d" % number))
    time.sleep(1.0)  # a few attempts to connect
    started = time.perf_counter()
    stats = publisher.close([Outgoing("test/status", b"finished", retain=True)])
    assert time.perf_counter() - started < 3
    assert (stats.published, stats.dropped) == (0, 6)
    assert len(warnings) == 1 and "Connection refused" in warnings[0]
    assert warnings[0].endswith("going on without it, publishing again when it is back")
