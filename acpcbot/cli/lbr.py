"""Local best response against an agent with a fixed strategy: a lower bound on how much it
can lose (its exploitability), in mbb/g with a 95% CI.

LBR (Lisý & Bowling 2017; the `lbr` agent) tracks AGENT's range over every holding by
Bayes' rule from AGENT's own strategy, queried for every holding at once, and at each of its
decisions takes the action with the best check-down value against that range: fold, call,
or raise with the chance that the range folds to it. It plays AGENT in a duplicate match
exactly as `acpcbot match lbr:opponent=AGENT AGENT` does (both seats on the same cards;
ordinary ACPC logs and summary.json in --out) and reports LBR's winnings: a best response
wins at least as much, so AGENT is at least that exploitable. With --from flop (or turn,
river) LBR only checks and calls before that round.

AGENT is an agent (a spec) whose strategy is fixed and known for every holding (`acpcbot
agents`: always-call, always-raise, example, hash, dpp, dpp-coarse and the Kendall styles),
or plicas / plicas-static frozen from the first hand: `plicas-static:freeze-after=0`, or
what plicas converged to after 50,000 hands of dpp-coarse,
`plicas:train=dpp-coarse,train-hands=50000,freeze-after=0` (each process of the match trains
it first, for a few minutes). An agent that adapts (plicas) is refused. LBR is
deterministic: the same seed gives the same logs. A best response wins about 1163 mbb/g
against always-call and 3698 against always-raise.
"""

from __future__ import annotations

import argparse

from acpcbot.cli.arguments import hand_count, job_count, path_value, seed_value

HELP = "local best response against a fixed-strategy agent: a lower bound on its exploitability"

ROUNDS = ("preflop", "flop", "turn", "river")


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "agent",
        metavar="AGENT",
        help="the agent to exploit: a spec of an agent with a fixed strategy",
    )
    parser.add_argument(
        "--hands", type=hand_count, default=1000, metavar="N", help="hands per half (1000)"
    )
    parser.add_argument(
        "--seed", type=seed_value, default=0, metavar="S", help="card seed, as the dealer's (0)"
    )
    parser.add_argument(
        "--from",
        dest="first_round",
        choices=ROUNDS,
        default="preflop",
        help="the round LBR starts to act greedily in; before it, it checks or calls (preflop)",
    )
    parser.add_argument(
        "--jobs",
        type=job_count,
        metavar="J",
        help="halves played at once, one process each (default: the cores)",
    )
    parser.add_argument(
        "--out",
        type=path_value,
        metavar="DIR",
        help="folder for the logs and summary.json (default: ./lbr+opponent=AGENT-vs-AGENT...)",
    )
    parser.add_argument("--force", action="store_true", help="replace another match found in --out")
    parser.add_argument("--json", action="store_true", help="print summary.json on stdout")


def run(args: argparse.Namespace) -> int:
    import json
    import sys
    from collections.abc import Sequence

    from acpcbot.logconfig import configure_logging
    from acpcbot.player import Player
    from agents.registry import entrant, lbr_against
    from dealer.running import SUMMARY, MatchInterruptedError, MatchRequest, run_match, write_json

    if args.log_level == "info":
        configure_logging(json=args.log_json, level="warning")
    request = MatchRequest(
        lbr_against(args.agent, args.first_round),
        entrant(args.agent),
        hands=args.hands,
        seed=args.seed,
        out=args.out,
        force=args.force,
        jobs=args.jobs,
        progress=True,
    )

    def range_resets(half: int, players: Sequence[Player]) -> int:
        del half
        return int(getattr(players[0], "range_resets", 0))

    try:
        match = run_match(request, after_half=range_resets)
    except MatchInterruptedError as stopped:
        print(f"acpcbot: {stopped}", file=sys.stderr)
        return 130
    summary = match.summary
    played = max(match.run.hands, 1)
    resets = sum(r for r in match.collected if r is not None)
    summary["lbr"] = {
        "opponent": args.agent,
        "from": args.first_round,
        "range_resets": resets,
        "ms_per_hand": round(1000 * sum(h.seconds for h in match.run.halves) / played, 3),
    }
    write_json(match.run.out_dir / SUMMARY, summary)
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    estimate = match.run.pair.estimate if match.run.pair else match.run.halves[0].result.estimate
    print(
        f"LBR against {args.agent}: {estimate.mbb_per_game:+.1f} mbb/g ± "
        f"{estimate.ci95_mbb:.1f} (95% CI) over {estimate.samples:,} duplicate pairs, a "
        f"lower bound on {args.agent}'s exploitability"
    )
    # (the time of the run, hands/s included, is the match's line below)
    print(f"  {summary['lbr']['ms_per_hand']:.2f} ms of one process a hand")
    if resets:
        print(
            f"  {resets} hands in which {args.agent} did what its own strategy gives no "
            "holding in its range (the range was reset)"
        )
    print("\n".join(match.text()))
    return 0
