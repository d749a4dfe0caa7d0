"""``--mqtt URL``: what it names, where the credentials come from, and one-line errors that
never show the password."""

from __future__ import annotations

import pytest

from acpcbot.cli import main
from acpcbot.telemetry.url import BrokerAddress, BrokerUrlError, parse_broker_url


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("mqtt://broker", BrokerAddress("broker", 1883)),
        ("mqtt://broker:1884/lab", BrokerAddress("broker", 1884, "lab")),
        ("mqtts://broker/a/b/", BrokerAddress("broker", 8883, "a/b", tls=True)),
        ("MQTT://u:p%3Aq@broker", BrokerAddress("broker", 1883, username="u", password="p:q")),
        ("mqtt://[::1]:1999", BrokerAddress("::1", 1999)),
    ],
)
def test_what_a_url_names(url: str, expected: BrokerAddress) -> None:
    broker = parse_broker_url(url, environ={})
    assert (broker, broker.password) == (expected, expected.password)


def test_credentials_from_the_environment_unless_the_url_gives_them() -> None:
    env = {"ACPCBOT_MQTT_USERNAME": "bot", "ACPCBOT_MQTT_PASSWORD": "pw"}
    broker = parse_broker_url("mqtt://host", environ=env)
    assert (broker.username, broker.password) == ("bot", "pw")
    broker = parse_broker_url("mqtt://me@host", environ=env)
    assert (broker.username, broker.password) == ("me", "pw")
    broker = parse_broker_url("mqtt://me:mine@host", environ=env)
    assert (broker.username, broker.password) == ("me", "mine")
    assert "pw" not in repr(broker) and "mine" not in broker.shown()


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("tcp://host", "the scheme must be mqtt:// or mqtts://"),
        ("mqtt://", "no host"),
        ("mqtt://host:99999", "Port out of range"),
        ("mqtt://host:0", "the port must be"),
        ("mqtt://host/a/+/b", "may not hold +, #"),
        ("mqtt://host/x?y=1", "no ?query"),
    ],
)
def test_a_bad_url_is_a_one_line_error(url: str, why: str) -> None:
    with pytest.raises(BrokerUrlError) as raised:
        parse_broker_url(url, environ={})
    message = str(raised.value)
    assert message.startswith(f"--mqtt {url}: ") and why in message and "\n" not in message


def test_the_password_is_never_shown(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["match", "a", "b", "--mqtt", "tcp://bob:hunter2@host"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "hunter2" not in err
    assert "argument --mqtt: tcp://bob:***@host: the scheme must be mqtt:// or mqtts://" in err
