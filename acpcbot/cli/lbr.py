"""Local best response against an agent with a fixed strategy: a lower bound on how much it
can lose (its exploitability), in mbb/g with a 95% CI.

LBR (Lisý & Bowling 2017; the `lbr` agent) tracks AGENT's range over every holding by
Bayes' rule from AGENT's own strategy, and at each decision takes the action with the best
check-down value against it (a raise counting the chance that the range folds). It plays a
duplicate match as `acpcbot match lbr:opponent=AGENT AGENT` does (ordinary ACPC logs; the
same seed, the same logs) and reports LBR's winnings: a best response wins at least as much.

AGENT's strategy must be fixed and known for every holding (`acpcbot agents`: always-call,
always-raise, example, hash, dpp, dpp-coarse, the Kendall styles), or plicas frozen from
the first hand: `plicas-static:freeze-after=0`, or after 50,000 hands of dpp-coarse,
`plicas:train=dpp-coarse,train-hands=50000,freeze-after=0` (each process trains it first,
for a few minutes); an agent that adapts is refused. A best response wins about 1163 mbb/g
against always-call and 3698 against always-raise.
"""

from __future__ import annotations

import argparse

from acpcbot.cli.arguments import add_jobs, add_json, add_match_size, add_out
from acpcbot.game import HOLDEM_ROUNDS
from acpcbot.options import add_progress_options, progress_of

HELP = "local best response against a fixed-strategy agent: a lower bound on its exploitability"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", metavar="AGENT", help="the agent to exploit (its strategy fixed)")
    add_match_size(parser)
    parser.add_argument(
        "--from",
        dest="first_round",
        choices=HOLDEM_ROUNDS,
        default="preflop",
        help="the round LBR starts to act greedily in; before it, it checks or calls (preflop)",
    )
    add_jobs(parser)
    add_out(
        parser, "folder for the logs and summary.json (default: ./lbr+opponent=AGENT-vs-AGENT...)"
    )
    add_json(parser, "summary.json on stdout")
    add_progress_options(parser)


def run(args: argparse.Namespace) -> None:
    from acpcbot.cli.output import show  # not for --help (issue 37)
    from agents.registry import entrant, lbr_against
    from dealer.running import MatchRequest
    from dealer.running.lbr import run_lbr

    request = MatchRequest(
        lbr_against(args.agent, args.first_round),
        entrant(args.agent),
        hands=args.hands,
        seed=args.seed,
        out=args.out,
        force=args.force,
        jobs=args.jobs,
        progress=progress_of(args),
    )
    lbr = run_lbr(request, args.agent, args.first_round)  # interrupted: a KeyboardInterrupt
    show(args, lbr.summary, lbr.text())
