"""Command-line options shared by ``acpcbot``'s commands and ``acpc-dealer``: the progress
display (``--progress``/``--no-progress``) and the telemetry (``--mqtt URL``,
``--mqtt-hands``). Cheap to import: nothing of the telemetry is loaded here.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_progress_options(parser); add_mqtt_options(parser, hands=True)
>>> args = parser.parse_args(["--no-progress", "--mqtt", "mqtt://127.0.0.1:1883/lab"])
>>> progress_of(args), args.mqtt.shown(), args.mqtt_hands
(<Show.NEVER: 'never'>, 'mqtt://127.0.0.1:1883/lab', False)
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from acpcbot.progress.display import Show
    from acpcbot.telemetry.url import BrokerAddress

__all__ = ["add_mqtt_options", "add_progress_options", "broker_url", "progress_of"]


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
