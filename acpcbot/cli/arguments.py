"""The argument types of the commands: each turns a command-line word into a value or an
argparse error naming what is wrong.

>>> hand_count("2000"), seed_value("42"), port_list("18791,0"), path_value("m")
(2000, 42, (18791, 0), PosixPath('m'))
>>> tcp_port("0")
Traceback (most recent call last):
argparse.ArgumentTypeError: not a TCP port: '0'
>>> hand_count("4294967296")
Traceback (most recent call last):
argparse.ArgumentTypeError: at most 4,294,967,295 hands (the reference dealer's limit): 4294967296
"""

from __future__ import annotations

import argparse
from pathlib import Path

from acpcbot.protocol.constants import MAX_HANDS

__all__ = [
    "count",
    "hand_count",
    "job_count",
    "more_than_zero",
    "path_value",
    "port_list",
    "seconds",
    "seed_value",
    "tcp_port",
    "zero_or_more",
]


def count(text: str) -> int:
    """A positive whole number (of matches, processes)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {_cut(text)!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {_cut(text)}")
    return value


def _cut(text: str) -> str:
    """An argument in a message: as given, cut if long."""
    return text if len(text) <= 40 else f"{text[:40]}..."


def hand_count(text: str) -> int:
    """A positive whole number of hands, at most what the reference dealer plays (a log of
    more could not be read back)."""
    value = count(text)
    if value > MAX_HANDS:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_HANDS:,} hands (the reference dealer's limit): {_cut(text)}"
        )
    return value


def job_count(text: str) -> int:
    """A positive number of processes."""
    return count(text)


def path_value(text: str) -> Path:
    """A file or folder named on the command line: not empty (``''`` would be the current
    folder)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path")
    return Path(text)


def seed_value(text: str) -> int:
    """A seed, 0 .. 2**32 - 1 like the dealer's."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= value < 2**32:
        raise argparse.ArgumentTypeError(f"seeds are 0 .. 4294967295: {text}")
    return value


def port_list(text: str) -> tuple[int, ...]:
    """Comma-separated TCP ports, each 0 (any) to 65535."""
    ports = []
    for part in text.split(","):
        port = part.strip()
        if not (port.isascii() and port.isdigit() and int(port) < 65536):
            raise argparse.ArgumentTypeError(f"not a TCP port: {port!r}")
        ports.append(int(port))
    return tuple(ports)


def tcp_port(text: str) -> int:
    r"""A TCP port, 1 .. 65535; white space around it is ignored, as the reference's
    ``atoi`` ignores it (its ``bm_widget`` starts a bot with ``PORT\n``: the line's end).

    >>> tcp_port("40001\n")
    40001
    """
    text = text.strip()
    port = int(text) if text.isascii() and text.isdigit() else -1
    if not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"not a TCP port: {text!r}")
    return port


def listening_port(text: str) -> int:
    """A TCP port to listen on, 0 (any free one, chosen by the system) .. 65535.

    >>> listening_port("0"), listening_port("8000")
    (0, 8000)
    """
    port = int(text) if text.isascii() and text.isdigit() and len(text) <= 5 else -1
    if not 0 <= port < 65536:
        raise argparse.ArgumentTypeError(f"not a TCP port: {text!r}")
    return port


def seconds(text: str) -> float:
    """A number of seconds (negative: for ever), up to about 24 days."""
    value = _number(text)
    if not abs(value) <= 2_000_000:  # also refuses nan
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}")
    return value


def zero_or_more(text: str) -> float:
    """A number of seconds or milliseconds, 0 or more."""
    value = _number(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {text!r}")
    return value


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def more_than_zero(text: str) -> float:
    """A number of seconds, more than 0."""
    value = zero_or_more(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    return value
