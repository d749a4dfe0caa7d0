"""Play a duplicate match between two agents with acpcbot's own ACPC dealer.

Half 1 seats AGENT_A in seat 1, half 2 reverses the seats; both halves use the same card
seed and the same agent seeds, and the agents start fresh in each half. Prints agent A's
mbb/g in each half and over the duplicate pairs, with a 95% confidence interval over the
pairs and the standard deviation of one pair, and each agent's decisions (with the
fallbacks made for it). Writes both .log files (ACPC format) and summary.json to --out.

The halves are independent and run side by side, one process each (--jobs). In-process
(the default transport) the dealer calls the agents directly; with --transport tcp it
talks to them over real sockets on 127.0.0.1 through the acpcbot client, as against any
ACPC dealer. With --transport remote the agents do not run here: both halves listen at
once (--host, --ports: half 1's seats 1 and 2, then half 2's) for players that connect from
elsewhere, e.g. `acpcbot play HOST PORT1 PORT4 --agent AGENT_A --match-seed S --as a` and
`acpcbot play HOST PORT2 PORT3 --agent AGENT_B --match-seed S --as b` (the ports and agent
seeds are also printed as each half starts listening). Deterministic agents give
byte-identical logs over any transport, and with any --jobs.

With --aivat the dealer also records every decision's probabilities (as the agents report
them) in a .probs file beside each .log (the .log is the same), and the summary adds agent
A's AIVAT estimate: its winnings with the luck of the cards and of the known strategies
taken out (unbiased, with a much narrower CI; see `acpcbot results --aivat`).

--out must be empty or hold this same match; another match there is refused unless --force.
The folder is locked while the match runs. Ctrl-C (or SIGTERM, as from docker stop) stops
after the current hand, writes summary.json with "status": "interrupted" and the results so
far, and exits with status 130. The same command then goes on where it stopped (after
SIGKILL too): the hands played are played again first, checked against the logs, so that
the agents learn what they had learned, and the files end as an uninterrupted run's; --force
starts over.

On a terminal a progress bar shows the hands played, hands/s, agent A's running mbb/g with
its 95% CI and the ETA (--progress: also as plain lines in logs; --no-progress: never).
--plot draws the bankroll curves into the folder (bankroll.png). --mqtt URL publishes the
match's status, progress (and with --mqtt-hands every hand) to an MQTT broker, as
`acpcbot watch` shows it; telemetry never slows or stops the match.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator

from acpcbot.cli.arguments import (
    hand_count,
    job_count,
    path_value,
    port_list,
    seconds,
    seed_value,
)
from acpcbot.options import add_mqtt_options, add_progress_options, progress_of

HELP = "a duplicate match between two agents on acpcbot's dealer: mbb/g with a 95% CI"
NOTHING_TO_ISOLATE = (
    "--isolate plays agents given as module:Class or as installed plug-ins in a process of "
    "their own; the agents given are built in"
)


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "agent_a",
        metavar="AGENT_A",
        help="the agent results are given for: NAME or NAME:KEY=VALUE,... (e.g. plicas:dprc=off)",
    )
    parser.add_argument("agent_b", metavar="AGENT_B", help="its opponent (see: acpcbot agents)")
    parser.add_argument(
        "--hands", type=hand_count, default=1000, metavar="N", help="hands per half (1000)"
    )
    parser.add_argument(
        "--seed", type=seed_value, default=0, metavar="S", help="card seed, as the dealer's (0)"
    )
    parser.add_argument(
        "--seed-a",
        type=seed_value,
        metavar="N",
        help="AGENT_A's seed (default: derived from --seed)",
    )
    parser.add_argument(
        "--seed-b",
        type=seed_value,
        metavar="N",
        help="AGENT_B's seed (default: derived from --seed)",
    )
    parser.add_argument(
        "--out",
        type=path_value,
        metavar="DIR",
        help="folder for the logs and summary.json (default: ./A-vs-B.seedS.nN)",
    )
    parser.add_argument("--force", action="store_true", help="replace another match found in --out")
    parser.add_argument(
        "--transport",
        choices=["inprocess", "tcp", "remote"],
        default="inprocess",
        help="inprocess (default): the dealer calls the agents; tcp: over loopback sockets; "
        "remote: the dealer listens for players that connect from elsewhere (acpcbot play)",
    )
    parser.add_argument(
        "--host",
        metavar="ADDR",
        help="remote: the address to listen on (default 127.0.0.1; 0.0.0.0 for every "
        "interface, e.g. in a container)",
    )
    parser.add_argument(
        "--ports",
        type=port_list,
        metavar="P1,P2,P3,P4",
        help="remote: the ports of half 1's seats 1 and 2, then of half 2's (0 or missing: "
        "chosen by the system; every port is printed as its half listens)",
    )
    parser.add_argument(
        "--start-timeout",
        type=seconds,
        metavar="S",
        help="remote: seconds to wait for the players to connect (default 600; <0: for ever)",
    )
    parser.add_argument(
        "--jobs",
        type=job_count,
        metavar="N",
        help="halves played at once, one process each (default: the cores)",
    )
    parser.add_argument(
        "--no-duplicate", action="store_true", help="play only half 1 (no reversed seats)"
    )
    parser.add_argument(
        "--game",
        default="holdem.limit.2p.reverse_blinds.game",
        help="game file or bundled game name (heads-up limit hold'em)",
    )
    parser.add_argument(
        "--aivat",
        action="store_true",
        help="record decision probabilities beside the logs and add the AIVAT estimate",
    )
    parser.add_argument(
        "--isolate",
        action="store_true",
        help="play an agent given as module:Class or as an installed plug-in in a process of "
        "its own (code you do not trust; in-process code can reach the dealer)",
    )
    parser.add_argument("--json", action="store_true", help="print summary.json on stdout")
    parser.add_argument(
        "--plot",
        action="store_true",
        help="draw the bankroll curves and the running mbb/g with its 95%% CI into "
        "DIR/bankroll.png (the plot extra)",
    )
    add_progress_options(parser)
    add_mqtt_options(parser, hands=True)


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from acpcbot.errors import AcpcError
    from acpcbot.logconfig import configure_logging
    from acpcbot.player import Entrant
    from agents.registry import entrant, is_plugin
    from dealer.running import (
        DEFAULT_START_TIMEOUT_MS,
        Listening,
        MatchInterruptedError,
        MatchRequest,
        Transport,
        isolated,
        run_match,
    )

    if args.log_level == "info":  # the clients' connect/finish lines are noise here
        configure_logging(json=args.log_json, level="warning")
    transport = Transport(args.transport)
    listening = None
    remote_only = {
        "--host": args.host,
        "--ports": args.ports,
        "--start-timeout": args.start_timeout,
    }
    if transport is Transport.REMOTE:
        timeout_ms = DEFAULT_START_TIMEOUT_MS
        if args.start_timeout is not None:
            timeout_ms = -1 if args.start_timeout < 0 else round(args.start_timeout * 1000)
        listening = Listening(args.host or "127.0.0.1", args.ports or (), timeout_ms)
    elif given := [option for option, value in remote_only.items() if value is not None]:
        raise AcpcError(f"{', '.join(given)}: for --transport remote only")
    agents: list[Entrant] = [entrant(args.agent_a), entrant(args.agent_b)]
    if args.isolate:
        if transport is Transport.REMOTE:
            raise AcpcError("--isolate is for agents played here, not --transport remote")
        plugins = [is_plugin(spec) for spec in (args.agent_a, args.agent_b)]
        if not any(plugins):
            raise AcpcError(NOTHING_TO_ISOLATE)
        agents = [isolated(a) if plugin else a for a, plugin in zip(agents, plugins, strict=True)]
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
        progress=progress_of(args),
        mqtt=args.mqtt,
        mqtt_hands=args.mqtt_hands,
        plot=args.plot,
        listening=listening,
        aivat=args.aivat,
    )
    try:
        match = run_match(request)
    except MatchInterruptedError as stopped:
        print(f"acpcbot: {stopped}", file=sys.stderr)
        return 130
    with _sigterm_ignored():
        if args.json:
            print(json.dumps(match.summary, indent=2))
        else:
            print("\n".join(match.text()))
    return 0


@contextlib.contextmanager
def _sigterm_ignored() -> Iterator[None]:
    """The hands are played: what is left (the summary, a plot) is written whatever comes,
    as when docker stops every container once a player's has ended (run_match stops the
    hands on SIGTERM and writes summary.json; this covers what follows)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
