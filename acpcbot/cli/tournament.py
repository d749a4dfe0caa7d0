"""Play a tournament: every pair of agents (or --vs one against the rest), K duplicate matches
each, and their crosstable and rankings.

Each match is a duplicate match exactly as `acpcbot match` plays it. Pairing A-B (A is the
agent given first, or the --vs agent) plays on card seeds S, S+1, ..., S+K-1 (the same for
every pairing, so every pairing plays the same deals; `acpcbot match A B --hands N --seed
S+k` replays one match byte for byte); the agents' seeds are derived from the card seed.

The matches run on a pool of local processes, one match each (--jobs, default the cores),
or on a Dask cluster (--scheduler tcp://HOST:PORT; the cluster extra). Each match's logs
and summary.json land in DIR/A-vs-B.seedS.nN/ as soon as it ends (DIR: --out, by default
./tournament.seedS.nN). The crosstable gives the row agent's mbb/g against the column agent
with a 95% CI over the duplicate pairs of all its seeds; the rankings are the ACPC's total
bankroll and bankroll instant run-off. Both are in DIR/results.json; --plot also draws
DIR/crosstable.png. Progress (matches ended, hands/s, ETA) is shown on a terminal, and now
and then elsewhere (--progress, --no-progress);
--mqtt URL also publishes it with the tournament's status, as `acpcbot watch` shows it.

With --aivat every match also records its decisions' probabilities beside its logs (as
`acpcbot match --aivat`) and each pairing gets its AIVAT estimate, pooled over its matches:
the same mean to expect, usually with a much narrower CI.

Running the same command again plays only the matches not finished in DIR (each match found
is checked: its summary and both logs complete); more agents or seeds may be added to the
command, and the finished matches are kept. A match whose process or worker dies is played
again, and reported after 3 failures. Ctrl-C stops at once, keeping every finished match.
One tournament at a time writes DIR.
"""

from __future__ import annotations

import argparse
import sys

from acpcbot.cli.arguments import count, hand_count, job_count, path_value, seed_value
from acpcbot.options import add_mqtt_options, add_progress_options, progress_of

HELP = "every pair of agents over K duplicate matches: crosstable and rankings (local or Dask)"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "agents",
        metavar="AGENT",
        nargs="+",
        help="agent specs: NAME or NAME:KEY=VALUE,... (e.g. plicas:case-threshold=5)",
    )
    parser.add_argument(
        "--hands", type=hand_count, default=1000, metavar="N", help="hands per half (1000)"
    )
    parser.add_argument(
        "--seeds", type=count, default=1, metavar="K", help="matches per pairing (1)"
    )
    parser.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        metavar="S",
        help="first card seed: the matches use S .. S+K-1 (0)",
    )
    parser.add_argument(
        "--out",
        type=path_value,
        metavar="DIR",
        help="the tournament's folder (default: ./tournament.seedS.nN)",
    )
    parser.add_argument(
        "--vs", metavar="AGENT", help="play this agent against each AGENT (no other pairing)"
    )
    parser.add_argument(
        "--transport",
        choices=["inprocess", "tcp"],
        default="inprocess",
        help="inprocess (default): the dealer calls the agents; tcp: over loopback sockets",
    )
    parser.add_argument(
        "--game",
        default="holdem.limit.2p.reverse_blinds.game",
        help="game file or bundled game name (heads-up limit hold'em)",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs",
        type=job_count,
        metavar="J",
        help="matches played at once by local processes (default: the cores)",
    )
    where.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="play on this Dask scheduler's workers instead (the cluster extra)",
    )
    parser.add_argument(
        "--isolate",
        action="store_true",
        help="play each agent given as module:Class or as an installed plug-in in a process "
        "of its own (code you do not trust; in-process code can reach the dealer)",
    )
    parser.add_argument("--json", action="store_true", help="print results.json on stdout")
    parser.add_argument(
        "--aivat",
        action="store_true",
        help="record decision probabilities in every match and add each pairing's AIVAT estimate",
    )
    parser.add_argument(
        "--plot", action="store_true", help="also draw DIR/crosstable.png (the plot extra)"
    )
    add_progress_options(parser)
    add_mqtt_options(parser)


def run(args: argparse.Namespace) -> int:
    import json

    from acpcbot.cli.match import NOTHING_TO_ISOLATE
    from acpcbot.errors import AcpcError
    from acpcbot.logconfig import configure_logging
    from acpcbot.player import Entrant
    from agents.registry import entrant, is_plugin
    from dealer.running import (
        TournamentInterruptedError,
        TournamentRequest,
        TournamentRun,
        Transport,
        isolated,
        run_tournament,
    )

    if args.log_level == "info":  # the clients' connect/finish lines are noise here
        configure_logging(json=args.log_json, level="warning")
    specs = [*args.agents, *([args.vs] if args.vs is not None else [])]
    if args.isolate and not any(map(is_plugin, specs)):
        raise AcpcError(NOTHING_TO_ISOLATE)

    def played(spec: str) -> Entrant:
        agent = entrant(spec)
        return isolated(agent) if args.isolate and is_plugin(spec) else agent

    request = TournamentRequest(
        tuple(played(spec) for spec in args.agents),
        args.out,
        hands=args.hands,
        seeds=args.seeds,
        seed=args.seed,
        vs=played(args.vs) if args.vs is not None else None,
        game=args.game,
        transport=Transport(args.transport),
        jobs=args.jobs,
        scheduler=args.scheduler,
        plot=args.plot,
        progress=progress_of(args),
        mqtt=args.mqtt,
        aivat=args.aivat,
    )

    def say(text: str) -> None:
        print(f"acpcbot: {text}", file=sys.stderr, flush=True)

    def show(run: TournamentRun) -> None:
        print(json.dumps(run.json(), indent=2) if args.json else "\n".join(run.text()))

    try:
        run = run_tournament(request, say=say)
    except TournamentInterruptedError as stopped:
        show(stopped.run)
        print(f"acpcbot: {stopped}", file=sys.stderr)
        return 130
    show(run)
    for name, why in run.failures:
        print(f"acpcbot: error: {name}: {why}", file=sys.stderr)
    return 1 if run.failures else 0


def show_folder(args: argparse.Namespace) -> int:
    """``acpcbot results --tournament DIR``: the results rebuilt from DIR's files."""
    import json

    from acpcbot.errors import AcpcError
    from acpcbot.extras import need_matplotlib
    from dealer.running import read_tournament, tournament_json, tournament_lines, write_plot

    if args.tournament is None:
        raise AcpcError("give a log, the two logs of a duplicate pair, or --tournament DIR")
    if args.log is not None:
        raise AcpcError("give logs or --tournament DIR, not both")
    for flag, given in (
        ("--player", args.player is not None),
        ("--big-blind", args.big_blind is not None),
        ("--side-by-side", args.side_by_side),
        ("--strict", args.strict),
    ):
        if given:
            raise AcpcError(f"{flag} is for logs, not for --tournament")
    if args.plot:
        need_matplotlib()
    report = read_tournament(args.tournament)
    if args.json:
        print(json.dumps(tournament_json(report), indent=2))
    else:
        print("\n".join(tournament_lines(report)))
    if args.plot:
        path = write_plot(report, args.tournament)
        print(f"acpcbot: heatmap in {path}", file=sys.stderr)
    return 0
