"""Where telemetry goes: ``--mqtt mqtt://[USER:PASS@]HOST[:PORT][/PREFIX]`` (or ``mqtts://``).

The user and password may instead come from the environment (:data:`USERNAME_VARIABLE`,
:data:`PASSWORD_VARIABLE`) so that they stay out of ``ps``; what the URL gives wins. The
password is never shown: :meth:`BrokerAddress.shown` leaves it out.

>>> broker = parse_broker_url("mqtt://alice:s%40cret@mq.example:1884/lab/acpc", environ={})
>>> broker.host, broker.port, broker.username, broker.password, broker.prefix, broker.tls
('mq.example', 1884, 'alice', 's@cret', 'lab/acpc', False)
>>> broker.shown()
'mqtt://alice@mq.example:1884/lab/acpc'
>>> parse_broker_url("mqtts://[::1]", environ={"ACPCBOT_MQTT_PASSWORD": "pw"}).shown()
'mqtts://[::1]:8883/acpcbot'
>>> parse_broker_url("http://host", environ={})
Traceback (most recent call last):
acpcbot.telemetry.url.BrokerUrlError: --mqtt http://host: the scheme must be mqtt:// or mqtts://
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from acpcbot.errors import AcpcError

__all__ = [
    "DEFAULT_PREFIX",
    "PASSWORD_VARIABLE",
    "USERNAME_VARIABLE",
    "BrokerAddress",
    "BrokerUrlError",
    "parse_broker_url",
]

DEFAULT_PREFIX = "acpcbot"
"""The first topic level(s) when the URL names none."""
USERNAME_VARIABLE = "ACPCBOT_MQTT_USERNAME"
PASSWORD_VARIABLE = "ACPCBOT_MQTT_PASSWORD"
_PORTS = {"mqtt": 1883, "mqtts": 8883}
_TOPIC_WILDCARDS = frozenset("+#\0")


class BrokerUrlError(AcpcError):
    """A ``--mqtt`` URL that cannot be used (the message shows it without its password)."""


@dataclass(frozen=True)
class BrokerAddress:
    """An MQTT broker and the topic prefix to publish under."""

    host: str
    port: int
    prefix: str = DEFAULT_PREFIX
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: bool = False
    """``mqtts://``: TLS, the server checked against the system's CA store."""

    def shown(self) -> str:
        """The URL for people and logs: the password left out."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        user = f"{self.username}@" if self.username else ""
        scheme = "mqtts" if self.tls else "mqtt"
        return f"{scheme}://{user}{host}:{self.port}/{self.prefix}"

    def __str__(self) -> str:
        return self.shown()


def parse_broker_url(text: str, *, environ: Mapping[str, str] | None = None) -> BrokerAddress:
    """The broker ``text`` names; credentials missing from it come from ``environ``
    (default: the process's environment)."""
    env = os.environ if environ is None else environ
    shown = _without_password(text)

    def error(why: str) -> BrokerUrlError:
        return BrokerUrlError(f"--mqtt {shown}: {why}")

    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise error(str(exc)) from None
    scheme = parts.scheme.lower()
    if scheme not in _PORTS:
        raise error("the scheme must be mqtt:// or mqtts://")
    if not parts.hostname:
        raise error("no host (mqtt://HOST[:PORT][/PREFIX])")
    if parts.query or parts.fragment:
        raise error("a broker URL has no ?query or #fragment")
    if port == 0:
        raise error("the port must be 1 .. 65535")
    prefix = unquote(parts.path).strip("/") or DEFAULT_PREFIX
    if any(ch in _TOPIC_WILDCARDS for ch in prefix) or "//" in prefix:
        raise error(f"the topic prefix {prefix!r} may not hold +, # or an empty level")
    username = unquote(parts.username) if parts.username else env.get(USERNAME_VARIABLE) or None
    password = unquote(parts.password) if parts.password is not None else None
    if password is None:
        password = env.get(PASSWORD_VARIABLE) or None
    return BrokerAddress(
        host=parts.hostname,
        port=port if port is not None else _PORTS[scheme],
        prefix=prefix,
        username=username,
        password=password,
        tls=scheme == "mqtts",
    )


def _without_password(text: str) -> str:
    """``text`` with the password of its user part (if any) replaced by ``***``.

    >>> _without_password("mqtt://bob:pw@host/x"), _without_password("mqtt://host")
    ('mqtt://bob:***@host/x', 'mqtt://host')
    """
    scheme, sep, rest = text.partition("://")
    if not sep:
        return text
    authority, slash, path = rest.partition("/")
    user, at, host = authority.rpartition("@")
    if not at or ":" not in user:
        return text
    return f"{scheme}://{user.split(':', 1)[0]}:***@{host}{slash}{path}"
