"""Results of finished matches from their ACPC ``.log`` files (ours or the reference's).

With one log: seat 1's winnings in mbb/g with a 95% confidence interval over hands. With
two logs of a duplicate pair (the same seed, the seats reversed): player A (seat 1 of the
first log) in each half and over the pairs, each hand number's two results averaged into
one sample, with the CI over pairs and the per-pair standard deviation. Each log's totals
are checked against its SCORE line.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

HELP = "mbb/g with a 95% CI from one .log, or a duplicate pair of .log files"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", type=Path, help="a match log (.log)")
    parser.add_argument("log2", type=Path, nargs="?", help="the other half of a duplicate pair")
    parser.add_argument(
        "--player", help="whose results (default: seat 1 of the first log; one log only)"
    )
    parser.add_argument(
        "--big-blind", type=int, help="chips in a big blind (default: from the log's game)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run(args: argparse.Namespace) -> int:
    from acpcbot.errors import AcpcError
    from acpcbot.protocol.logfile import format_number
    from dealer.results import big_blind_of, duplicate_result, log_result, read_log
    from dealer.summary import half_json, half_line, pair_json, pair_line

    logs = [read_log(args.log)] + ([read_log(args.log2)] if args.log2 else [])
    big_blind = args.big_blind or big_blind_of(logs[0])
    if big_blind <= 0:
        raise AcpcError("the big blind must be positive")
    checks = []
    for log in logs:
        totals = log.totals()
        if log.score is None:
            checks.append(f"{log.path}: no SCORE line (the match did not finish)")
        elif totals != log.score.totals:
            shown = "|".join(format_number(t) for t in totals)
            checks.append(f"{log.path}: STATE lines sum to {shown}, SCORE says otherwise")
        else:
            checks.append(f"{log.path}: {log.score} agrees with the STATE lines")
    if args.log2 is not None:
        if args.player:
            raise AcpcError("--player works with one log; a pair is seen from seat 1 of LOG")
        pair = duplicate_result(logs[0], logs[1], big_blind)
        data = pair_json(pair)
        text = [f"half {i} ({log.path.name}): {half_line(h)}"
                for i, (h, log) in enumerate(zip(pair.halves, logs, strict=True), 1)]  # fmt: skip
        text.append(pair_line(pair))
    else:
        half = log_result(logs[0], big_blind, args.player)
        data = half_json(half)
        text = [half_line(half)]
    data["big_blind"] = big_blind
    data["checks"] = checks
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print("\n".join(text + checks))
    return 0
