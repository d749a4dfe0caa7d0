"""Play a duplicate match between two agents with acpcbot's own ACPC dealer.

Half 1 seats AGENT_A in seat 1, half 2 reverses the seats; both halves use the same card
seed and the same agent seeds, and the agents start fresh in each half. Prints agent A's
mbb/g in each half and over the duplicate pairs, with a 95% confidence interval over the
pairs and the standard deviation of one pair, and each agent's decisions (with the
fallbacks made for it). Writes both .log files (ACPC format) and summary.json to --out.

The halves are independent and run side by side, one process each (--jobs). In-process
(the default transport) the dealer calls the agents directly; with --transport tcp it
talks to them over real sockets on 127.0.0.1 through the acpcbot client, as against any
ACPC dealer. Deterministic agents give byte-identical logs either way, and with any --jobs.

With --aivat the dealer also records every decision's probabilities (as the agents report
them) in a .probs file beside each .log (the .log is the same), and the summary adds agent
A's AIVAT estimate: its winnings with the luck of the cards and of the known strategies
taken out (unbiased, with a much narrower CI; see `acpcbot results --aivat`).

--out must be empty or hold this same match (a rerun replaces it); another match there is
refused unless --force. The folder is locked while the match runs. Ctrl-C stops after the
current hand, writes summary.json with "status": "interrupted" and the results so far,
and exits with status 130.
"""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "a duplicate match between two agents on acpcbot's dealer: mbb/g with a 95% CI"


def hand_count(text: str) -> int:
    """A positive whole number of hands."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text}")
    return value


def job_count(text: str) -> int:
    """A positive number of processes."""
    return hand_count(text)


def seed_value(text: str) -> int:
    """A seed, 0 .. 2**32 - 1 like the dealer's."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= value < 2**32:
        raise argparse.ArgumentTypeError(f"seeds are 0 .. 4294967295: {text}")
    return value


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "agent_a",
        metavar="AGENT_A",
        help="the agent results are given for: NAME or NAME:KEY=VALUE,... (e.g. plicas:dprc=off)",
    )
    parser.add_argument("agent_b", metavar="AGENT_B", help="its opponent (see: acpcbot agents)")
    parser.add_argument(
        "--hands", type=hand_count, default=1000, metavar="N", help="hands per half (1000)"
    )
    parser.add_argument(
        "--seed", type=seed_value, default=0, metavar="S", help="card seed, as the dealer's (0)"
    )
    parser.add_argument(
        "--seed-a",
        type=seed_value,
        metavar="N",
        help="AGENT_A's seed (default: derived from --seed)",
    )
    parser.add_argument(
        "--seed-b",
        type=seed_value,
        metavar="N",
        help="AGENT_B's seed (default: derived from --seed)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="folder for the logs and summary.json (default: ./A-vs-B.seedS.nN)",
    )
    parser.add_argument("--force", action="store_true", help="replace another match found in --out")
    parser.add_argument(
        "--transport",
        choices=["inprocess", "tcp"],
        default="inprocess",
        help="inprocess (default): the dealer calls the agents; tcp: over loopback sockets",
    )
    parser.add_argument(
        "--jobs",
        type=job_count,
        metavar="N",
        help="halves played at once, one process each (default: the cores)",
    )
    parser.add_argument(
        "--no-duplicate", action="store_true", help="play only half 1 (no reversed seats)"
    )
    parser.add_argument(
        "--game",
        default="holdem.limit.2p.reverse_blinds.game",
        help="game file or bundled game name (heads-up limit hold'em)",
    )
    parser.add_argument(
        "--aivat",
        action="store_true",
        help="record decision probabilities beside the logs and add the AIVAT estimate",
    )
    parser.add_argument("--json", action="store_true", help="print summary.json on stdout")


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from acpcbot.cli.matchrun import MatchInterruptedError, MatchRequest, run_match
    from acpcbot.logconfig import configure_logging
    from dealer.duplicate import Transport

    if args.log_level == "info":  # the clients' connect/finish lines are noise here
        configure_logging(json=args.log_json, level="warning")
    request = MatchRequest(
        args.agent_a,
        args.agent_b,
        hands=args.hands,
        seed=args.seed,
        seed_a=args.seed_a,
        seed_b=args.seed_b,
        game=args.game,
        transport=Transport(args.transport),
        duplicate=not args.no_duplicate,
        out=args.out,
        force=args.force,
        jobs=args.jobs,
        progress=True,
        aivat=args.aivat,
    )
    try:
        match = run_match(request)
    except MatchInterruptedError as stopped:
        print(f"acpcbot: {stopped}", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(match.summary, indent=2))
    else:
        print("\n".join(match.text()))
    return 0
