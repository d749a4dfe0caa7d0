"""Play a duplicate match between two agents with acpcbot's own ACPC dealer.

Half 1 seats AGENT_A in seat 1, half 2 reverses the seats; both halves use the same card
seed and the same agent seeds, and the agents start fresh in each half. Prints agent A's
mbb/g in each half and over the duplicate pairs, with a 95% confidence interval over the
pairs and the standard deviation of one pair. Writes both .log files (ACPC format) and
summary.json to --out. With --transport tcp (the default) the dealer and both agents talk
over real sockets on 127.0.0.1 through the acpcbot client, as against any ACPC dealer;
--transport inprocess runs the same dealer without sockets, much faster. Deterministic
agents give byte-identical logs either way.
"""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "a duplicate match between two agents on acpcbot's dealer: mbb/g with a 95% CI"


def _positive(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text}")
    return value


def _seed(text: str) -> int:
    value = int(text)
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
    parser.add_argument("--hands", type=_positive, default=1000, help="hands per half (1000)")
    parser.add_argument("--seed", type=_seed, default=0, help="card seed, as the dealer's (0)")
    parser.add_argument(
        "--seed-a", type=_seed, help="AGENT_A's seed (default: derived from --seed)"
    )
    parser.add_argument(
        "--seed-b", type=_seed, help="AGENT_B's seed (default: derived from --seed)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="folder for the logs and summary.json (default: ./A-vs-B.seedS.nN)",
    )
    parser.add_argument(
        "--transport", choices=["tcp", "inprocess"], default="tcp", help="how to play (tcp)"
    )
    parser.add_argument(
        "--no-duplicate", action="store_true", help="play only half 1 (no reversed seats)"
    )
    parser.add_argument(
        "--game",
        default="holdem.limit.2p.reverse_blinds.game",
        help="game file or bundled game name (heads-up limit hold'em)",
    )
    parser.add_argument("--json", action="store_true", help="print summary.json on stdout")


def run(args: argparse.Namespace) -> int:
    import json

    from acpcbot.logconfig import configure_logging
    from acpcbot.player import Player
    from agents.registry import create_agent, player_name
    from dealer.duplicate import DuplicatePlan, Transport, derived_seed, run_duplicate
    from dealer.summary import duplicate_json, duplicate_text

    if args.log_level == "info":  # the clients' connect/finish lines are noise here
        configure_logging(json=args.log_json, level="warning")
    names = (args.agent_a, args.agent_b)
    for name in names:
        create_agent(name)  # an unknown name fails here, before any file is written
    seeds = (
        args.seed_a if args.seed_a is not None else derived_seed(args.seed, 0),
        args.seed_b if args.seed_b is not None else derived_seed(args.seed, 1),
    )
    plan = DuplicatePlan(
        agents=(player_name(names[0]), player_name(names[1])),  # specs as log names
        hands=args.hands,
        seed=args.seed,
        agent_seeds=seeds,
        out_dir=Path("."),
        transport=Transport(args.transport),
        duplicate=not args.no_duplicate,
        game_path=args.game,
    )
    out = args.out if args.out is not None else Path(plan.match_name)
    plan = DuplicatePlan(**{**plan.__dict__, "out_dir": out})

    def make_player(which: int, seed: int) -> Player:
        return create_agent(names[which], seed)

    result = run_duplicate(plan, make_player)
    summary = duplicate_json(result)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print("\n".join(duplicate_text(result)))
    return 0
