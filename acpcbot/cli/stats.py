"""Player statistics from ACPC logs (ours or the reference dealer's): per player, VPIP,
PFR, 3-bet, the aggression factor and fold to a bet per round, went to showdown and won at
showdown, each with the counts it is made of.

VPIP: hands with chips put in voluntarily before the flop (a call of a bet, not the big
blind's check, or a raise); PFR: hands with a raise before the flop; 3-bet: re-raises when
facing exactly one raise before the flop (the blinds are the first bet) with a raise legal;
aggression factor: bets and raises over calls of a bet; went to showdown: showdowns over
hands that saw the flop; won at showdown: showdowns won (a split counts half); fold to a
bet: folds when facing a bet or raise (before the flop, a raise). Players are counted by
name over every log given, so the two logs of a duplicate match add up. Every hand is
replayed under the rules of the game its log's header names (--game for logs whose header
names none, or a game file not at hand; a log whose header names another game is refused).
Each log is read once: a pipe will do, and a log compressed with gzip, xz or bzip2 is read
as it is.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from acpcbot.cli.arguments import add_game, add_json
from acpcbot.game import load_game

HELP = "player statistics from logs: VPIP, PFR, 3-bet, aggression, showdowns, fold to a bet"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", metavar="LOG", type=Path, nargs="+", help="match logs (.log)")
    add_game(parser, from_logs=True)
    add_json(parser)


def run(args: argparse.Namespace) -> None:
    from acpcbot.cli.output import show  # not for --help (issue 37)
    from dealer.analysis import log_stats, stats_json, stats_lines

    stats = log_stats(args.logs, load_game(args.game) if args.game else None)
    show(args, stats_json(stats), stats_lines(stats))
