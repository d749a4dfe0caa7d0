"""Connect to a benchmark server (acpcbot serve, or the ACPC reference's bm_server) and play
your bot in the matches you ask for, as the reference's bm_widget does.

It logs on (--user NAME, the password from $ACPCBOT_PASSWORD or --password-file; without
--user, the first line typed is the logon, as with bm_widget), passes on the commands given
with --run (or typed on standard input: HELP, GAMES, QSTAT, RUNMATCHES game #runs tag
rngSeed player ..., with LOCAL for your bot and DUPLICATE for duplicate pairs on acpcbot
serve), and prints what the server says. For each RUN HOST PORT line it starts your bot:
`acpcbot play HOST PORT --agent SPEC --seed N` (--agent), or PROGRAM HOST PORT (--command,
as bm_widget runs its bot_command).

With --run, it ends when every run it asked for has ended and its bots have exited (acpcbot
serve says both: # QUEUED and # ENDED lines), with status 0 when all of them finished and 1
when one was refused, failed or was stopped.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from acpcbot.cli.arguments import seed_value, tcp_port

HELP = "play your bot on a benchmark server (acpcbot serve or bm_server), as bm_widget"

PASSWORD_VARIABLE = "ACPCBOT_PASSWORD"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("host", metavar="HOST", help="the server's host name or address")
    parser.add_argument(
        "port", metavar="PORT", type=tcp_port, nargs="?", default=54000,
        help="the server's port (default 54000)",
    )  # fmt: skip
    bot = parser.add_mutually_exclusive_group(required=True)
    bot.add_argument(
        "--agent",
        metavar="SPEC",
        help="the agent to play in each run, by acpcbot play (see: acpcbot agents)",
    )
    bot.add_argument(
        "--command",
        metavar="PROGRAM",
        help="a program to run with HOST PORT for each run instead (bm_widget's bot_command)",
    )
    parser.add_argument(
        "--seed", type=seed_value, default=0, help="the agent's seed in every run (default 0)"
    )
    parser.add_argument("--user", metavar="NAME", help="log on as NAME")
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
        "not read, and it ends when the runs have",
    )


def run(args: argparse.Namespace) -> int:
    import asyncio
    import os
    import sys
    import threading

    # the command's modules: --help loads none of them
    from acpcbot.errors import AcpcError, UsageError
    from acpcbot.eventloop import run as run_async
    from dealer.benchmark import converse

    logon = None
    if args.user is not None:
        if args.password_file is not None:
            try:
                password = args.password_file.read_text().splitlines()[0].strip()
            except (OSError, IndexError, UnicodeDecodeError) as exc:
                why = f"cannot read a password from {args.password_file}: {exc}"
                raise AcpcError(why) from None
        else:
            password = os.environ.get(PASSWORD_VARIABLE, "")
            if not password:
                raise UsageError(
                    f"--user needs a password: ${PASSWORD_VARIABLE} or --password-file"
                )
        logon = f"{args.user} {password}"
    elif args.commands:
        raise UsageError("--run needs --user (the logon cannot be typed then)")
    if args.agent is not None:
        bot = [
            sys.executable, "-c", "import sys; from acpcbot.cli import main; sys.exit(main())",
            "play", "--agent", args.agent, "--seed", str(args.seed),
        ]  # fmt: skip
    else:
        bot = [args.command]

    async def talk() -> int:
        stdin = None
        if not args.commands:
            stdin = asyncio.StreamReader()
            loop = asyncio.get_running_loop()

            def pump() -> None:  # any standard input (a terminal, a pipe, a file)
                for line in sys.stdin.buffer:
                    loop.call_soon_threadsafe(stdin.feed_data, line)
                loop.call_soon_threadsafe(stdin.feed_eof)

            threading.Thread(target=pump, daemon=True).start()
        report = await converse(args.host, args.port, bot, logon=logon, commands=args.commands,
                                stdin=stdin)  # fmt: skip
        if args.commands and not report.ok:
            failed = [f"{run} {how}" for run, how in report.ended.items() if how != "finished"]
            if report.refused:
                failed.insert(0, f"{report.refused} request(s) refused")
            raise AcpcError("; ".join(failed))
        return 0

    return run_async(talk(), uvloop=False)
