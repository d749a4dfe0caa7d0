"""Play a tournament: every pair of agents (or --vs one against the rest), K duplicate matches
each as `acpcbot match` plays them, and their crosstable and rankings.

Every pairing plays on the card seeds S .. S+K-1 (the agents' seeds derived from them), so
on the same deals: `acpcbot match A B --hands N --seed S+k` replays one match byte for byte
(A: the agent given first, or --vs). Each match's files land in DIR/A-vs-B.seedS.nN/ as it
ends. The crosstable gives the row agent's mbb/g against the column agent with a 95% CI
over the duplicate pairs of all its seeds; the rankings are the ACPC's total bankroll and
bankroll instant run-off; both are in DIR/results.json.

The same command again plays only the matches not finished in DIR (each one found checked);
agents or seeds may be added. A match whose process or worker dies is played again, and
reported after 3 failures. Ctrl-C stops at once, keeping every finished match. One
tournament at a time writes DIR.
"""

from __future__ import annotations

import argparse
import sys

from acpcbot.cli import arguments
from acpcbot.options import add_mqtt_options, add_progress_options, count, progress_of

HELP = "every pair of agents over K duplicate matches: crosstable and rankings (local or Dask)"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "agents",
        metavar="AGENT",
        nargs="+",
        help=f"agent specs: {arguments.SPEC} (e.g. plicas:case-threshold=5)",
    )
    arguments.add_match_size(parser, seed="first card seed: the matches use S .. S+K-1 (0)")
    parser.add_argument(
        "--seeds", type=count, default=1, metavar="K", help="matches per pairing (1)"
    )
    arguments.add_out(
        parser, "the tournament's folder (default: ./tournament.seedS.nN)", force=False
    )
    parser.add_argument(
        "--vs", metavar="AGENT", help="play this agent against each AGENT (no other pairing)"
    )
    arguments.add_transport(parser)
    arguments.add_game(parser)
    where = parser.add_mutually_exclusive_group()
    arguments.add_jobs(where, "matches")
    arguments.add_scheduler(where, "the matches")
    arguments.add_isolate(parser)
    arguments.add_json(parser, "results.json on stdout")
    arguments.add_flag(
        parser,
        "--aivat",
        "record decision probabilities in every match (as acpcbot match --aivat) and add each "
        "pairing's AIVAT estimate pooled over its matches: the same mean to expect, usually "
        "with a much narrower CI",
    )
    arguments.add_flag(parser, "--plot", "also draw DIR/crosstable.png (the plot extra)")
    add_progress_options(parser)
    add_mqtt_options(parser)


def run(args: argparse.Namespace) -> int:
    from acpcbot.cli.output import show, width  # not for --help (issue 37)
    from dealer.running import (
        TournamentInterruptedError,
        TournamentRequest,
        Transport,
        run_tournament,
    )

    specs = [*args.agents, *([args.vs] if args.vs is not None else [])]
    players = arguments.entrants(specs, isolate=args.isolate)
    request = TournamentRequest(
        tuple(players[: len(args.agents)]),
        args.out,
        hands=args.hands,
        seeds=args.seeds,
        seed=args.seed,
        vs=players[-1] if args.vs is not None else None,
        game=args.game,
        transport=Transport(args.transport),
        jobs=args.jobs,
        scheduler=args.scheduler,
        plot=args.plot,
        progress=progress_of(args),
        mqtt=args.mqtt,
        aivat=args.aivat,
    )

    try:  # each match's line as it ends, on stderr
        run = run_tournament(request, say=lambda text: print(f"acpcbot: {text}", file=sys.stderr))
    except TournamentInterruptedError as stopped:
        show(args, stopped.run.json(), stopped.run.text(width()))  # every finished match's
        raise
    show(args, run.json(), run.text(width()))
    for name, why in run.failures:
        print(f"acpcbot: error: {name}: {why}", file=sys.stderr)
    return 1 if run.failures else 0
