"""Results of finished matches from their ACPC ``.log`` files (ours or the reference's).

With one log: a player's (seat 1's by default) winnings in mbb/g with a 95% confidence
interval over hands. With the two logs of a duplicate pair (another log of the same seed,
game and hand count, the same two players with the seats reversed): player A (seat 1 of the
first log) in each half and over the pairs, each hand number's two results averaged into one
sample, with the CI over pairs and the per-pair standard deviation. Two logs that are not
such a pair are an error naming the differences, or with --side-by-side each log's results
on its own. Each log's totals are checked against its SCORE line: a disagreement, and a last
line cut while it was being written, are warnings (the complete hands are counted); with
--strict every log must end in a SCORE line that agrees.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "mbb/g with a 95% CI from one .log, or a duplicate pair of .log files"

MAX_BIG_BLIND = 2**31 - 1
"""The reference's chip counts are 32-bit ints."""


def _big_blind(text: str) -> int:
    """A big blind: a whole number of chips, more than none."""
    if not (text.isascii() and text.isdigit() and len(text) <= 10) or not (
        1 <= int(text) <= MAX_BIG_BLIND
    ):
        raise argparse.ArgumentTypeError(
            f"must be a whole number from 1 to {MAX_BIG_BLIND}, not {text!r}"
        )
    return int(text)


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", type=Path, help="a match log (.log)")
    parser.add_argument("log2", type=Path, nargs="?", help="the other half of a duplicate pair")
    parser.add_argument(
        "--player", help="whose results (default: seat 1 of the first log)", metavar="NAME"
    )
    parser.add_argument(
        "--big-blind",
        type=_big_blind,
        metavar="CHIPS",
        help="chips in a big blind (default: from the game the log's header names)",
    )
    parser.add_argument(
        "--side-by-side",
        action="store_true",
        help="two logs that are not a duplicate pair: each one's results, not combined",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 unless every log ends in a SCORE line that agrees with its hands",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run(args: argparse.Namespace) -> int:
    import io
    import json
    import os

    from dealer.logresults import report_json, report_lines, report_logs
    from dealer.results import ResultsError

    report = report_logs(
        [args.log] + ([args.log2] if args.log2 else []),
        big_blind=args.big_blind,
        player=args.player,
        side_by_side=args.side_by_side,
        strict=args.strict,
    )
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors == "strict":
        # Names and paths come from files and the command line: print any of them, whatever
        # the terminal's encoding (as stderr does).
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        if args.json:
            print(json.dumps(report_json(report), indent=2))
        else:
            print("\n".join(report_lines(report)))
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader left (``acpcbot results ... | head -1``): nothing more goes to it, and
        # the interpreter must not fail again flushing stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    for warning in report.warnings:
        print(f"acpcbot: warning: {warning}", file=sys.stderr)
    if args.strict and report.failed:
        logs = "1 log failed its checks" if report.failed == 1 else "2 logs failed their checks"
        raise ResultsError(f"--strict: {logs}")
    return 0
