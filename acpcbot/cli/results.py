"""Results of finished matches from their ACPC .log files (ours or the reference's).

With one log: the player's winnings in mbb/g with a 95% CI over hands. With the two logs of
a duplicate pair (the same seed, game, hand count and players, the seats reversed), in
either order: the player's in each half and over the pairs (each hand number's two results
averaged into one sample), with the CI over pairs and one pair's standard deviation; two
logs that are not such a pair are an error naming the differences. A log whose totals
disagree with its SCORE line, or whose last line was cut, is a warning (the complete hands
are counted). A match's folder reads as the logs its summary.json names; a tournament's as
--tournament DIR, its results rebuilt from its matches' files (unfinished matches named).

--aivat's estimate takes out the luck of the cards at every deal and board card, and of
known strategies at every decision whose probabilities the .probs file beside its log holds
(acpcbot match --aivat writes them; a log without one gets the first only).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from acpcbot.cli.arguments import add_flag, add_json, path_value
from acpcbot.errors import UsageError
from acpcbot.options import whole_number

HELP = "mbb/g with a 95% CI from one .log, a duplicate pair of .log files, or a tournament"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "log", type=Path, nargs="?", help="a log, or a match's or tournament's folder"
    )
    parser.add_argument("log2", type=Path, nargs="?", help="the other half of a duplicate pair")
    parser.add_argument(
        "--player",
        help="whose results (default: of a duplicate pair, the match's agent A by the "
        "summary.json beside the logs, else the name that sorts first; of one log, seat 1's)",
        metavar="NAME",
    )
    parser.add_argument(
        "--big-blind",
        type=whole_number("a big blind", 1, 2**31 - 1, why="the reference's chips are 32-bit"),
        metavar="CHIPS",
        help="chips in a big blind (default: from the game the log's header names)",
    )
    add_flag(
        parser, "--side-by-side", "two logs that are no duplicate pair: each one's own results"
    )
    add_flag(parser, "--strict", "exit 1 unless each log ends in a SCORE line matching its hands")
    add_json(parser)
    add_flag(parser, "--aivat", "also the unbiased AIVAT estimate (with the logs' .probs, if any)")
    parser.add_argument(
        "--tournament",
        type=path_value,
        metavar="DIR",
        help="instead of logs: the crosstable and rankings of the tournament in DIR",
    )
    add_flag(
        parser,
        "--plot",
        "also draw the bankroll curves (cumulative mbb in each log and over the pairs) with the "
        "running mbb/g and its 95%% CI beside the first log (LOG.bankroll.png, LOG without its "
        ".log), or with --tournament the crosstable (DIR/crosstable.png); the plot extra",
    )
    parser.add_argument(
        "--plot-file",
        type=path_value,
        metavar="FILE",
        help="draw the bankroll curves into FILE (a .png) instead (implies --plot)",
    )


def run(args: argparse.Namespace) -> None:
    from acpcbot.cli.output import show  # not for --help (issue 37)
    from acpcbot.writing import replace_file
    from agents.registry import known_strategies
    from dealer.analysis import ResultsError, logs_png, report_logs
    from dealer.analysis.aivatreport import report_output
    from dealer.analysis.bankrollplot import logs_plot_path
    from dealer.running.tournamentfolder import results_folder

    logs = [path for path in (args.log, args.log2) if path is not None]
    if len(logs) == 1 and logs[0].is_dir():  # a match's folder (its logs), or a tournament's
        logs = results_folder(logs[0]) or []
        args.tournament = args.tournament if logs else args.log
    if args.tournament is not None or not logs:
        _tournament(args, given_logs=bool(logs))
        return
    plot = logs_plot_path(logs[0], args.plot_file) if args.plot or args.plot_file else None
    report = report_logs(
        logs,
        big_blind=args.big_blind,
        player=args.player,
        side_by_side=args.side_by_side,
        strict=args.strict,
    )
    show(args, *report_output(report, args.player, known_strategies, aivat=args.aivat))
    for warning in report.warnings:
        print(f"acpcbot: warning: {warning}", file=sys.stderr)
    if plot is not None:
        replace_file(plot, logs_png(report))
        print(f"acpcbot: bankroll curves in {plot}", file=sys.stderr)
    if args.strict and report.failed:
        failed = "1 log failed its checks" if report.failed == 1 else "2 logs failed their checks"
        raise ResultsError(f"--strict: {failed}")


def _tournament(args: argparse.Namespace, *, given_logs: bool) -> None:
    """``--tournament DIR``: the results rebuilt from DIR's files."""
    from acpcbot.cli.output import show, width  # not for --help (issue 37)
    from acpcbot.extras import need_matplotlib
    from dealer.running import read_tournament, tournament_json, tournament_lines, write_plot

    if args.tournament is None:
        raise UsageError(
            "give a log, the two logs of a duplicate pair, or a match's or tournament's folder"
        )
    if given_logs:
        raise UsageError("give logs or --tournament DIR, not both")
    for option in ("player", "big_blind", "side_by_side", "strict", "plot_file"):
        if getattr(args, option) not in (None, False):
            raise UsageError(f"--{option.replace('_', '-')} is for logs, not for --tournament")
    if args.plot:
        need_matplotlib()
    report = read_tournament(args.tournament)
    show(args, tournament_json(report), tournament_lines(report, width()))
    if args.plot:
        path = write_plot(report, args.tournament)
        print(f"acpcbot: heatmap in {path}", file=sys.stderr)
