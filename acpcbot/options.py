r"""Command-line options shared by ``acpcbot``'s commands, ``acpc-dealer`` and the scripts:
the types of their numbers, ports and durations (a word to a value, or an argparse error
naming what is wrong), the progress display (``--progress``/``--no-progress``) and the
telemetry (``--mqtt URL``, ``--mqtt-hands``). Cheap to import: nothing of the telemetry is
loaded here.

>>> hand_count("2000"), seed_value("42"), port_list("18791,0"), tcp_port("40001\n")
(2000, 42, (18791, 0), 40001)
>>> tcp_port("0")
Traceback (most recent call last):
argparse.ArgumentTypeError: not a TCP port (1 .. 65535): '0'
>>> seed_value("-1")
Traceback (most recent call last):
argparse.ArgumentTypeError: not a seed (0 .. 4294967295): '-1'
>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_progress_options(parser); add_mqtt_options(parser, hands=True)
>>> args = parser.parse_args(["--no-progress", "--mqtt", "mqtt://127.0.0.1:1883/lab"])
>>> progress_of(args), args.mqtt.shown(), args.mqtt_hands
(<Show.NEVER: 'never'>, 'mqtt://127.0.0.1:1883/lab', False)
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from acpcbot.protocol.constants import MAX_HANDS

if TYPE_CHECKING:
    from acpcbot.progress.display import Show
    from acpcbot.telemetry.url import BrokerAddress

__all__ = [
    "add_host",
    "add_mqtt_options",
    "add_progress_options",
    "broker_url",
    "count",
    "cut",
    "digits",
    "hand_count",
    "listening_port",
    "number_of",
    "port_list",
    "progress_of",
    "seconds",
    "seed_value",
    "tcp_port",
    "whole_number",
]


def digits(text: str, *, signed: bool = False) -> int | None:
    """The value of a decimal number in ASCII digits (``str.isdigit`` would also take
    ``²`` or Arabic digits), at most 30 of them; ``None`` for anything else.

    >>> digits("42"), digits("²"), digits("-1", signed=True), digits(" 1"), digits("1_0")
    (42, None, -1, None, None)
    """
    body = text[1:] if signed and text.startswith("-") else text
    if not (0 < len(body) <= 30 and body.isascii() and body.isdigit()):
        return None
    return int(text)


def whole_number(
    what: str, low: int | None, high: int | None = None, *, why: str = "", word: str = ""
) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high`` (``None``: no bound; ``why``: whence the bound;
    ``word``: a word for ``high``, such as ``all``).

    >>> whole_number("a count of runouts", 1, 1176, word="all")("x")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: not a count of runouts (1 .. 1176 or 'all'): 'x'
    >>> whole_number("a number of milliseconds", None, 10, why="<0: for ever")("-7")
    -7
    """

    def parse(text: str) -> int:
        text = text.strip()  # as C's atoi (bm_widget starts a bot with "PORT\n")
        if word and text == word and high is not None:
            return high
        value = digits(text, signed=low is None or low < 0)
        top = high if high is not None else 2**63 - 1
        if value is not None and (low is None or low <= value) and value <= top:
            return value
        bounds = f"{low} or more" if high is None else f"{low} .. {high}"
        bounds = f"at most {high}" if low is None else bounds
        bounds += f"{f', {why}' if why else ''}{f' or {word!r}' if word else ''}"
        raise argparse.ArgumentTypeError(f"not {what} ({bounds}): {cut(text)!r}")

    return parse


def cut(text: str) -> str:
    """An argument in a message: as given, cut if long."""
    return text if len(text) <= 40 else f"{text[:40]}..."


count = whole_number("a whole number", 1)
# (a log of more hands than the reference dealer plays could not be read back)
hand_count = whole_number("a number of hands", 1, MAX_HANDS, why="the reference dealer's limit")
seed_value = whole_number("a seed", 0, 2**32 - 1)
tcp_port = whole_number("a TCP port", 1, 65535)
listening_port = whole_number("a TCP port", 0, 65535, why="0: any free one")


def port_list(text: str) -> tuple[int, ...]:
    """Comma-separated TCP ports, each 0 (any) to 65535."""
    return tuple(whole_number("a TCP port", 0, 65535)(port.strip()) for port in text.split(","))


def number_of(what: str, least: float, *, more: bool = False) -> Callable[[str], float]:
    """A number of ``what`` (seconds): ``least`` or more (``more``: more than ``least``), at
    most 2,000,000 (of seconds, about 24 days).

    >>> number_of("seconds", 0, more=True)("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: not a number of seconds (more than 0): '0'
    """

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if (value > least if more else value >= least) and value <= 2_000_000:  # (not nan)
            return value
        bounds = f"more than {least:g}" if more else f"{least:,.0f} .. 2,000,000"
        raise argparse.ArgumentTypeError(f"not a number of {what} ({bounds}): {cut(text)!r}")

    return parse


seconds = number_of("seconds", -2_000_000)  # (negative: for ever)


def add_host(
    parser: argparse._ActionsContainer, note: str, *, default: str | None = None, when: str = ""
) -> None:
    """``--host ADDR``: 127.0.0.1 unless told (``note``: what another means)."""
    what = f"{when}the address to listen on (default 127.0.0.1; {note})"
    parser.add_argument("--host", default=default, metavar="ADDR", help=what)


def add_progress_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="--progress shows the progress line (done, rate, running mbb/g, ETA) on stderr "
        "when it is not a terminal as a plain line every 5 s (for nohup or CI logs); "
        "--no-progress never shows it (default: a progress bar on a terminal, elsewhere a "
        "plain line every 30 s once the work has run that long)",
    )


def progress_of(args: argparse.Namespace) -> Show:
    """What ``--progress``/``--no-progress`` asked for."""
    # `acpcbot --help` reads this module (issue 37): the display only when used
    from acpcbot.progress.display import Show

    return Show.flag(args.progress)


def broker_url(text: str) -> BrokerAddress:
    """``--mqtt``'s value (an argparse type)."""
    # `acpcbot --help` reads this module (issue 37): telemetry loads asyncio
    from acpcbot.telemetry.url import BrokerUrlError, parse_broker_url

    try:
        return parse_broker_url(text)
    except BrokerUrlError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--mqtt ")) from None


BROKER = (
    "mqtt://[USER:PASS@]HOST[:PORT][/PREFIX] or mqtts:// (TLS), default port 1883/8883, default "
    "prefix acpcbot; the user and password may come from $ACPCBOT_MQTT_USERNAME and "
    "$ACPCBOT_MQTT_PASSWORD instead (the mqtt extra)"
)
"""What ``--mqtt`` takes, said by every command that has it."""


def add_mqtt_options(
    parser: argparse.ArgumentParser,
    what: str = "publish live status and progress (as acpcbot watch shows them; it never slows "
    "or stops the work, and the .log files stay the record) to an MQTT broker",
    *,
    hands: bool = False,
    default: str | None = None,
) -> None:
    """``--mqtt URL`` (``what``: what the command does with the broker) and, with
    ``hands``, ``--mqtt-hands``."""
    parser.add_argument(
        "--mqtt", type=broker_url, default=default, metavar="URL", help=f"{what}: {BROKER}"
    )
    if hands:
        parser.add_argument(
            "--mqtt-hands",
            action="store_true",
            help="with --mqtt, also publish every hand (what its .log line holds); when the "
            "broker cannot keep up, the oldest are dropped and counted",
        )
