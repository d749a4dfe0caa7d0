"""Play one match against an ACPC dealer (protocol 2.0.0): the University of Alberta
reference server or any compatible one.

Plays the agent until the dealer ends the match and prints a summary: hands, chips won,
mbb/g, decisions and the fallbacks made for the agent. Exits 0 when the match ended cleanly
between hands, else 1 with a one-line message (a bad state, a connection closed mid-hand or
silent past --read-timeout, a match ended before its first hand, ...). An agent that is
late (--budget-ms), fails or picks an illegal action never breaks the connection: the
client checks or calls instead, logs the first of each kind in full and counts the rest.
--mqtt publishes the bot's own view of each match.
"""

from __future__ import annotations

import argparse

from acpcbot.cli import arguments
from acpcbot.client.defaults import DEFAULT_BUDGET_MS, DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT
from acpcbot.errors import AcpcError, UsageError
from acpcbot.game import load_game
from acpcbot.options import add_mqtt_options, number_of, seed_value, tcp_port

HELP = "play a match against an ACPC dealer at HOST PORT"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("host", metavar="HOST", help="the dealer's host name or address")
    parser.add_argument(
        "ports",
        metavar="PORT",
        type=tcp_port,
        nargs="+",
        help="the dealer's port for this seat; several: a match on each at once (one "
        "agent's seats in both halves of a duplicate match, as acpcbot match --transport "
        "remote deals it), each with a fresh agent and the same seed",
    )
    arguments.add_agent(
        parser,
        f"the agent to play: {arguments.SPEC} with options, e.g. plicas:dprc=off (see: "
        "acpcbot agents)",
        required=True,
    )
    seeds = parser.add_mutually_exclusive_group()
    arguments.add_seed(seeds, "seed of the agent's random choices (0)", metavar="N", default=None)
    seeds.add_argument(
        "--match-seed",
        type=seed_value,
        metavar="S",
        help="instead of --seed: the seed acpcbot match --seed S gives agent A or B (--as)",
    )
    parser.add_argument(
        "--as",
        dest="agent_letter",
        choices=["a", "b"],
        help="with --match-seed: which of the match's agents this one is (AGENT_A or AGENT_B)",
    )
    arguments.add_game(parser)
    parser.add_argument(
        "--budget-ms",
        type=number_of("milliseconds", 0),
        default=DEFAULT_BUDGET_MS,
        metavar="N",
        help="time per decision before the client checks/calls for a slow agent; 0 means "
        f"no limit (default: {DEFAULT_BUDGET_MS:g}, well inside the reference's 7 s per "
        "hand; agents that decide instantly are not timed)",
    )
    parser.add_argument(
        "--read-timeout",
        type=number_of("seconds", 0),
        default=DEFAULT_READ_TIMEOUT,
        metavar="S",
        help="give up when the dealer sends nothing for S seconds; 0 means wait forever "
        f"(default: {DEFAULT_READ_TIMEOUT:g}, longer than the reference's 600 s per action)",
    )
    parser.add_argument(
        "--connect-timeout",
        type=number_of("seconds", 0, more=True),
        default=DEFAULT_CONNECT_TIMEOUT,
        metavar="S",
        help=f"seconds to wait for the connection (default: {DEFAULT_CONNECT_TIMEOUT:g})",
    )
    parser.add_argument("--name", help="the player's name, passed to the agent")
    arguments.add_json(
        parser, "each summary as one JSON object a line (with the agent, seed, dealer)"
    )
    parser.add_argument(
        "--uvloop",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="use uvloop (default: when installed, from the 'fast' extra)",
    )
    add_mqtt_options(parser)


def run(args: argparse.Namespace) -> None:
    import json

    from acpcbot.cli.output import show  # not for --help (issue 37)
    from acpcbot.client.seats import play_seats, seat_lines
    from agents.registry import create_agent
    from dealer.running import derived_seed

    if (args.match_seed is None) != (args.agent_letter is None):
        raise UsageError("--match-seed and --as go together: --match-seed S --as a|b")
    seed = args.seed or 0
    if args.match_seed is not None:
        seed = derived_seed(args.match_seed, "ab".index(args.agent_letter))
    game = load_game(args.game)
    where = {"agent": args.agent, "seed": seed}
    seats = play_seats(
        args.host,
        args.ports,
        [create_agent(args.agent, seed=seed) for _ in args.ports],
        game=game,
        name=args.name,
        mqtt=args.mqtt,
        label=args.agent,
        describe={"source": "acpcbot play", **where, "agents": [args.agent], "game": args.game},
        budget_ms=args.budget_ms or None,
        connect_timeout=args.connect_timeout,
        read_timeout=args.read_timeout or None,
        uvloop=args.uvloop,
    )
    if args.json:  # one object a line
        for seat in seats:
            if seat.summary is not None:
                print(json.dumps({**where, **seat.json()}))
    elif lines := seat_lines(seats, args.ports, args.agent):
        show(args, None, lines)
    if errors := [seat.failure for seat in seats if seat.summary is None]:
        raise AcpcError("; ".join(errors))
