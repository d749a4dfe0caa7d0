"""Play a duplicate match between two agents with acpcbot's own ACPC dealer: half 2 deals
half 1's cards with the seats reversed, the agents fresh in each half with the same seeds.

Prints agent A's mbb/g in each half and over the duplicate pairs with a 95% CI and one
pair's standard deviation, and each agent's decisions and fallbacks; writes both .log files
(ACPC format) and summary.json to --out. Deterministic agents give byte-identical logs over
any transport and with any --jobs. Remote players connect as `acpcbot play HOST PORT1 PORT4
--agent AGENT_A --match-seed S --as a` and `acpcbot play HOST PORT2 PORT3 --agent AGENT_B
--match-seed S --as b` (the agent seeds are printed too).

--out must be empty or hold this same match, and is locked while it runs. Ctrl-C (or
SIGTERM) stops after the current hand, writes summary.json ("status": "interrupted") and
exits 130; the same command then goes on where it stopped, after SIGKILL too (the hands
played are replayed through the agents, checked against the logs, and the files end as an
uninterrupted run's); --force starts over.
"""

from __future__ import annotations

import argparse

from acpcbot import options
from acpcbot.cli import arguments

HELP = "a duplicate match between two agents on acpcbot's dealer: mbb/g with a 95% CI"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "agent_a",
        metavar="AGENT_A",
        help=f"the agent results are given for: {arguments.SPEC} (e.g. plicas:dprc=off)",
    )
    parser.add_argument("agent_b", metavar="AGENT_B", help="its opponent (see: acpcbot agents)")
    arguments.add_match_size(parser)
    for seat in "ab":
        parser.add_argument(
            f"--seed-{seat}",
            type=options.seed_value,
            metavar="N",
            help=f"AGENT_{seat.upper()}'s seed (default: derived from --seed)",
        )
    arguments.add_out(parser, "folder for the logs and summary.json (default: ./A-vs-B.seedS.nN)")
    arguments.add_transport(parser, remote=True)
    options.add_host(parser, "0.0.0.0 for every interface, e.g. in a container", when="remote: ")
    parser.add_argument(
        "--ports",
        type=options.port_list,
        metavar="P1,P2,P3,P4",
        help="remote: the ports of half 1's seats 1 and 2, then of half 2's (0 or missing: "
        "chosen by the system; every port is printed as its half listens)",
    )
    parser.add_argument(
        "--start-timeout",
        type=options.seconds,
        metavar="S",
        help="remote: seconds to wait for the players to connect (default 600; <0: for ever)",
    )
    arguments.add_jobs(parser)
    arguments.add_flag(parser, "--no-duplicate", "play only half 1 (no reversed seats)")
    arguments.add_game(parser)
    arguments.add_flag(
        parser,
        "--aivat",
        "record every decision's probabilities (as the agents report them) in a .probs file "
        "beside each .log, which is the same, and add agent A's AIVAT estimate: its winnings "
        "with the luck of the cards and of known strategies taken out (unbiased, a much "
        "narrower CI; see acpcbot results --aivat)",
    )
    arguments.add_isolate(parser)
    arguments.add_json(parser, "summary.json on stdout")
    arguments.add_flag(
        parser,
        "--plot",
        "draw the bankroll curves and the running mbb/g with its 95%% CI into "
        "DIR/bankroll.png (the plot extra)",
    )
    options.add_progress_options(parser)
    options.add_mqtt_options(parser, hands=True)


def run(args: argparse.Namespace) -> None:
    from acpcbot.cli.output import show  # not for --help (issue 37)
    from dealer.running import MatchRequest, Transport, run_match, sigterm_ignored
    from dealer.running.duplicate import listening_for

    transport = Transport(args.transport)
    listening = listening_for(transport, args.host, args.ports, args.start_timeout)
    agents = arguments.entrants([args.agent_a, args.agent_b], isolate=args.isolate)
    request = MatchRequest(
        agents[0],
        agents[1],
        hands=args.hands,
        seed=args.seed,
        seed_a=args.seed_a,
        seed_b=args.seed_b,
        game=args.game,
        transport=transport,
        duplicate=not args.no_duplicate,
        out=args.out,
        force=args.force,
        jobs=args.jobs,
        progress=options.progress_of(args),
        mqtt=args.mqtt,
        mqtt_hands=args.mqtt_hands,
        plot=args.plot,
        listening=listening,
        aivat=args.aivat,
    )
    match = run_match(request)  # interrupted: a KeyboardInterrupt saying where it stopped
    with sigterm_ignored():
        show(args, match.summary, match.text())
