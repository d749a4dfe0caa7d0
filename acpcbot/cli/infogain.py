"""How much the players' bets reveal about their cards: Saund's information gain, from logs.

At every decision point of every hand (and the showdown), three observers estimate the
chance that the player in position 0 wins: the omniscient one, who sees both hands (p),
and a public one, who sees the board, from the cards alone (q, 1/2 in hold'em) and from
the cards and the bets (weights over each player's 1326 holdings, updated by Bayes' rule
under Saund's factored betting policy, fitted to each player on the earlier hands). Per
street, the report gives the mean KL(p || q) in bits of both public estimates and the
information gain 1 - KL_bet / KL_cards in % with its 95% CI over hands, and each player's
predictability.

The logs must show both players' hole cards in every hand (ours and the reference dealer's
do); several are one sample, read in order (say, a duplicate match's two halves), each
player's policy fitted across them by name. --plot's PNGs are in the manner of Saund's
Fig. 6.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from acpcbot.cli.arguments import add_flag, add_game, add_json, path_value
from acpcbot.game import load_game
from acpcbot.options import add_progress_options, progress_of, whole_number

HELP = "how much the players' bets reveal about their cards (Saund's information gain)"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", metavar="LOG", type=Path, nargs="+", help="match logs (.log)")
    add_json(parser)
    parser.add_argument(
        "--plot",
        type=path_value,
        metavar="DIR",
        help="also draw DIR/infogain-STREET.png for each street (the plot extra)",
    )
    add_flag(parser, "--force", "with --plot: replace PNGs already in DIR")
    parser.add_argument(
        "--flop-runouts",
        type=whole_number("a number of runouts", 1, 1176, word="all"),
        default=100,
        metavar="N",
        help="turn and river cards sampled per hand for the flop's estimate, 1..1176 or "
        "'all' (100; the turn and the river are always exact)",
    )
    add_game(parser, from_logs=True)
    add_progress_options(parser)


def run(args: argparse.Namespace) -> None:
    from acpcbot.cli.output import show  # not for --help (issue 37)
    from acpcbot.progress.display import ProgressDisplay
    from agents.infogain.measure import measure
    from agents.infogain.plot import street_plots, write_street_plots
    from agents.infogain.report import report_json, report_lines
    from dealer.analysis import logged_hands

    plots = street_plots(args.plot, force=args.force) if args.plot is not None else []
    progress = ProgressDisplay("infogain", None, unit="hands read", show=progress_of(args))
    try:
        hands = logged_hands(args.logs, load_game(args.game) if args.game else None)
        gain = measure(hands, args.flop_runouts, read=progress.update)
    finally:
        progress.close()
    report = gain.report(tuple(str(path) for path in args.logs))
    show(args, report_json(report), report_lines(report))
    if plots:
        write_street_plots(report, plots)
        print(f"acpcbot: plots in {', '.join(str(p) for p in plots)}", file=sys.stderr)
