"""Play one match against an ACPC dealer (protocol 2.0.0): the University of Alberta
reference server or any compatible one.

Connects to HOST:PORT (the port the dealer printed for your seat), plays the agent until the
dealer ends the match, and prints a summary: hands, chips won, mbb/g, decisions and the
fallbacks made for the agent (--json adds the agent and the dealer's address). The exit
status is 0 when the match ended cleanly between hands and 1, with a one-line message, when
the dealer or the connection failed (bad state, closed mid-hand, silent past
--read-timeout, the match ended before its first hand, ...). An agent that is late
(--budget-ms), fails or picks an illegal action never breaks the connection: the client
checks or calls instead, logs the first of each kind in full and counts the rest.

--mqtt URL publishes the bot's own view of the match as it goes (hands, chips, running mbb/g,
decisions, fallbacks) to an MQTT broker, as `acpcbot watch` shows it.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from acpcbot.options import add_mqtt_options

if TYPE_CHECKING:
    from acpcbot.telemetry.player import PlayerTelemetry

HELP = "play a match against an ACPC dealer at HOST PORT"


def register(parser: argparse.ArgumentParser) -> None:
    from acpcbot.client.defaults import (
        DEFAULT_BUDGET_MS,
        DEFAULT_CONNECT_TIMEOUT,
        DEFAULT_READ_TIMEOUT,
    )
    from acpcbot.game import LIMIT_HOLDEM

    parser.add_argument("host", metavar="HOST", help="the dealer's host name or address")
    parser.add_argument(
        "port", metavar="PORT", type=tcp_port, help="the dealer's port for this seat"
    )
    parser.add_argument(
        "--agent",
        required=True,
        metavar="SPEC",
        help="the agent to play: NAME or NAME:KEY=VALUE,... with options, e.g. "
        "plicas:dprc=off (see: acpcbot agents)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the agent's random choices (default: 0)"
    )
    parser.add_argument(
        "--game",
        default=LIMIT_HOLDEM,
        metavar="FILE",
        help=f"a .game file, or the name of a bundled game (default: {LIMIT_HOLDEM})",
    )
    parser.add_argument(
        "--budget-ms",
        type=zero_or_more,
        default=DEFAULT_BUDGET_MS,
        metavar="N",
        help="time per decision before the client checks/calls for a slow agent; 0 means "
        f"no limit (default: {DEFAULT_BUDGET_MS:g}, well inside the reference's 7 s per "
        "hand; agents that decide instantly are not timed)",
    )
    parser.add_argument(
        "--read-timeout",
        type=zero_or_more,
        default=DEFAULT_READ_TIMEOUT,
        metavar="S",
        help="give up when the dealer sends nothing for S seconds; 0 means wait forever "
        f"(default: {DEFAULT_READ_TIMEOUT:g}, longer than the reference's 600 s per action)",
    )
    parser.add_argument(
        "--connect-timeout",
        type=more_than_zero,
        default=DEFAULT_CONNECT_TIMEOUT,
        metavar="S",
        help=f"seconds to wait for the connection (default: {DEFAULT_CONNECT_TIMEOUT:g})",
    )
    parser.add_argument("--name", help="the player's name, passed to the agent")
    parser.add_argument(
        "--json", action="store_true", help="print the summary as one JSON object on stdout"
    )
    parser.add_argument(
        "--uvloop",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="use uvloop (default: when installed, from the 'fast' extra)",
    )
    add_mqtt_options(parser)


def run(args: argparse.Namespace) -> int:
    import dataclasses
    import json

    from acpcbot.client import play_match
    from acpcbot.eventloop import run as run_async
    from acpcbot.game import load_game
    from agents.registry import create_agent

    game = load_game(args.game)
    agent = create_agent(args.agent, seed=args.seed)
    where = {"agent": args.agent, "seed": args.seed, "dealer": f"{args.host}:{args.port}"}
    telemetry = _telemetry(args, where, game.big_blind) if args.mqtt is not None else None
    try:
        summary = run_async(
            play_match(
                args.host,
                args.port,
                agent,
                game=game,
                budget_ms=args.budget_ms or None,
                connect_timeout=args.connect_timeout,
                read_timeout=args.read_timeout or None,
                name=args.name,
                on_hand=telemetry.on_hand if telemetry is not None else None,
            ),
            uvloop=args.uvloop,
        )
    except BaseException as exc:
        if telemetry is not None:
            _close(telemetry, exc)
        raise
    counts = _close(telemetry, None, dataclasses.asdict(summary)) if telemetry else None
    if args.json:
        print(json.dumps({**where, **dataclasses.asdict(summary), **(counts or {})}))
    else:
        print(f"{args.agent}: {summary}")
        if counts is not None:
            from acpcbot.telemetry.channel import told_text

            print(told_text(counts["telemetry"]))
    return 0


def _telemetry(
    args: argparse.Namespace, where: dict[str, object], big_blind: int
) -> PlayerTelemetry:
    """The player's channel (``--mqtt``): ``running`` is published at once."""
    from acpcbot.extras import need_mqtt
    from acpcbot.logconfig import get_logger
    from acpcbot.telemetry.player import PlayerTelemetry

    need_mqtt()
    log = get_logger("telemetry")
    name = args.name or args.agent
    describe = {"source": "acpcbot play", **where, "agents": [args.agent], "game": args.game}
    return PlayerTelemetry(args.mqtt, name, describe, big_blind, warn=log.warning)


def _close(
    telemetry: PlayerTelemetry, failure: BaseException | None, result: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The final status: ``finished`` with the summary, ``interrupted`` or ``failed``."""
    from acpcbot.telemetry.codec import Status

    body: dict[str, Any]
    if failure is None:
        status, body = Status.FINISHED, {"result": result}
    elif isinstance(failure, KeyboardInterrupt):
        status, body = Status.INTERRUPTED, {}
    else:
        status, body = Status.FAILED, {"error": str(failure) or type(failure).__name__}
    return {"telemetry": telemetry.channel.told(telemetry.close(status, body))}


def tcp_port(text: str) -> int:
    """A TCP port, 1 .. 65535."""
    port = int(text) if text.isascii() and text.isdigit() else -1
    if not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"not a TCP port: {text!r}")
    return port


def zero_or_more(text: str) -> float:
    """A number of seconds or milliseconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {text!r}")
    return value


def more_than_zero(text: str) -> float:
    """A number of seconds, more than 0."""
    value = zero_or_more(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    return value
