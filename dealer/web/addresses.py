"""Where a server can be opened: a wildcard address (``0.0.0.0``, ``::``) is where it
listens, not an address anyone can open, so the page's URL names this machine's loopback
instead, and :func:`machine_addresses` the addresses others may reach it at.

>>> local_address("0.0.0.0"), local_address("::"), local_address("192.0.2.7")
('127.0.0.1', '::1', '192.0.2.7')
>>> all(not ipaddress.ip_address(found).is_loopback for found in machine_addresses())
True
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import sys

__all__ = ["is_wildcard", "local_address", "machine_addresses"]

_WILDCARDS = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}
_SIOCGIFADDR = 0x8915
"""Linux's ioctl for an interface's IPv4 address."""


def is_wildcard(host: str) -> bool:
    """Whether listening on ``host`` is listening on every address of this machine."""
    return host.strip("[]") in _WILDCARDS


def local_address(host: str) -> str:
    """The address to open on this machine for a server listening on ``host``."""
    return _WILDCARDS.get(host.strip("[]"), host)


def machine_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, as its interfaces have them
    (Linux), or as its host name resolves (elsewhere); none found: an empty list."""
    found: list[str] = []
    if sys.platform == "linux":
        import fcntl

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            for _, name in socket.if_nameindex():
                with contextlib.suppress(OSError):  # an interface without an IPv4 address
                    asked = struct.pack("256s", name.encode()[:15])
                    answer = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR, asked)
                    found.append(socket.inet_ntoa(answer[20:24]))
    else:
        with contextlib.suppress(OSError):
            infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
            found = [str(info[4][0]) for info in infos]
    return [a for a in dict.fromkeys(found) if not ipaddress.ip_address(a).is_loopback]
