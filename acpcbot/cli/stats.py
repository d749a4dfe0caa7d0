"""Player statistics from ACPC logs (ours or the reference dealer's), per player with the
counts each is made of: VPIP (hands with chips put in voluntarily before the flop: a call
of a bet, not the big blind's check, or a raise); PFR (hands with a raise before the flop);
3-bet (re-raises when facing exactly one raise before the flop, the blinds the first bet,
with a raise legal); per round, the aggression factor (bets and raises over calls of a bet)
and fold to a bet (folds facing a bet or raise; before the flop, a raise); went to showdown
(over hands that saw the flop) and won at showdown (a split counts half).

Players are counted by name over every log, so a duplicate match's two logs add up. Every
hand is replayed under the rules of the game its log's header names (a log naming another
game than --game is refused). Each log is read once: a pipe will do, and a log compressed
with gzip, xz or bzip2 is read as it is.
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
