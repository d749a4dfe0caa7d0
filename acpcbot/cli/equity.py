"""Showdown equity of two or more hands, exact when enumerating every board is cheap.

Each HAND is two cards such as AhKh, or "random" for a hand drawn uniformly from the unseen
cards. Known hands are enumerated over every board that completes --board; with one random
hand every combo it may hold is enumerated too, when that is at most --max-exact showdowns
(on the flop and later). Otherwise the equity is estimated from --trials seeded Monte Carlo
deals (at most 1,000,000,000: the standard error of an equity is then under 0.002%, below
the 0.01% shown). Equity is each hand's expected share of the pot, ties split. A long Monte
Carlo run shows its progress on a terminal; Ctrl-C stops it (status 130).

examples:
  acpcbot equity AsAc KdKh                 exact: 81.26% / 18.74%
  acpcbot equity AhKh random --trials 1000000 --seed 7
  acpcbot equity AhKh QsQd --board Qh7h2c --json
"""

from __future__ import annotations

import argparse

from acpcbot.cards import parse_cards
from acpcbot.cli.arguments import add_json, add_seed
from acpcbot.errors import UsageError
from acpcbot.options import whole_number

HELP = "equity of two or more hands (exact or Monte Carlo)"

MAX_TRIALS = 1_000_000_000
"""The most Monte Carlo deals: the standard error of an equity is at most 0.5/sqrt(trials),
under 0.002% here, five times finer than the 0.01% printed, so more deals only take longer
(minutes more, for digits nobody sees); a number past it is most likely mistyped."""


def register(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("hands", nargs="+", metavar="HAND", help='two cards, or "random"')
    parser.add_argument("--board", default="", help="0 to 5 board cards, e.g. Qh7h2c")
    parser.add_argument(
        "--trials",
        type=whole_number(
            "a number of deals",
            1,
            MAX_TRIALS,
            why="the standard error of an equity is then under 0.002%, below the 0.01% shown",
        ),
        default=100_000,
        help="Monte Carlo deals, 1 .. 10^9 (default: 100000)",
    )
    add_seed(parser, "Monte Carlo seed (default: 0)")
    parser.add_argument(
        "--max-exact",
        type=whole_number("a number of showdowns", 0),
        default=5_000_000,
        help="enumerate when at most this many showdowns (default: 5000000)",
    )
    add_json(parser, "one JSON object")


def run(args: argparse.Namespace) -> None:
    from acpcbot.cli.output import show  # not for --help (issue 37)
    from acpcbot.handeval.equity import equity, equity_report, given_hands
    from acpcbot.progress.display import ProgressDisplay, Show

    # A bar on a terminal, for runs long enough to draw it (a quarter of a second).
    display = ProgressDisplay("equity", args.trials, unit="deals", show=Show.TERMINAL)
    try:  # every error here is in the cards given
        hands, board = given_hands(args.hands), parse_cards(args.board)
        result = equity(
            hands,
            board,
            trials=args.trials,
            seed=args.seed,
            max_exact=args.max_exact,
            on_progress=display.update,
        )
    except ValueError as exc:  # (a CardError too) cards that cannot be dealt as given
        raise UsageError(str(exc)) from None
    finally:
        display.close()
    data, lines = equity_report(hands, board, result, args.seed)
    show(args, data, lines, indent=None)
