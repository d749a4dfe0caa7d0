"""Connect to a benchmark server (acpcbot serve, or the ACPC reference's bm_server) and play
your bot in the matches you ask for, as the reference's bm_widget does.

It logs on, passes on the commands given with --run or typed (HELP, GAMES, QSTAT,
RUNMATCHES game #runs tag rngSeed player ..., LOCAL for your bot, DUPLICATE for duplicate
pairs on acpcbot serve), and prints what the server says. For each RUN HOST PORT line it
starts your bot: `acpcbot play HOST PORT --agent SPEC --seed N`, or PROGRAM HOST PORT. With
--run it ends when every run it asked for has ended and its bots have exited, with status 0
when all of them finished and 1 when one was refused, failed or was stopped.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from acpcbot.cli.arguments import add_agent, add_seed
from acpcbot.errors import UsageError
from acpcbot.options import tcp_port

HELP = "play your bot on a benchmark server (acpcbot serve or bm_server), as bm_widget"

PASSWORD_VARIABLE = "ACPCBOT_PASSWORD"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("host", metavar="HOST", help="the server's host name or address")
    parser.add_argument(
        "port",
        metavar="PORT",
        type=tcp_port,
        nargs="?",
        default=54000,
        help="the server's port (default 54000)",
    )
    bot = parser.add_mutually_exclusive_group(required=True)
    add_agent(bot, "the agent to play in each run, by acpcbot play (see: acpcbot agents)")
    bot.add_argument(
        "--command",
        metavar="PROGRAM",
        help="a program to run with HOST PORT for each run instead (bm_widget's bot_command)",
    )
    add_seed(parser, "the agent's seed in every run (default 0)", metavar=None)
    parser.add_argument(
        "--user", metavar="NAME", help="log on as NAME (else the first line typed is the logon)"
    )
    parser.add_argument(
        "--password-file",
        type=Path,
        metavar="FILE",
        help=f"read the password from FILE's first line (default ${PASSWORD_VARIABLE})",
    )
    parser.add_argument(
        "--run",
        dest="commands",  # (args.run is the command's function)
        action="append",
        default=[],
        metavar="COMMAND",
        help="a command to send once logged on (repeatable), e.g. 'RUNMATCHES "
        "holdem.limit.2p.reverse_blinds.game 2 t1 7 LOCAL dpp'; then standard input is "
        "not read, and it ends when the runs have (acpcbot serve's # QUEUED, # ENDED lines)",
    )


def run(args: argparse.Namespace) -> None:
    import sys

    from dealer.benchmark import connect, logon_line  # not for --help (issue 37)

    if args.user is None and args.commands:
        raise UsageError("--run needs --user (the logon cannot be typed then)")
    logon = logon_line(args.user, args.password_file, PASSWORD_VARIABLE)
    bot = [args.command]
    if args.agent is not None:  # acpcbot play, by this interpreter
        bot = [sys.executable, "-m", "acpcbot", "play", "--agent", args.agent]
        bot += ["--seed", str(args.seed)]
    connect(args.host, args.port, bot, logon=logon, commands=args.commands)
