"""How well PLICAS reads its hand: the equity it estimated against the opponent's modelled
range, beside the equity it really had against the opponent's cards.

    python scripts/plicas_readings.py plicas dpp --hands 5000

Plays one in-process match of AGENT (a PLICAS spec) against OPPONENT and records every
postflop reading the agent decides on (its ``strength``: equity against the weighted range,
rolled out to the river). The opponent's cards come from the deal (the dealer's seeded
stream, as the match dealt it), so every decision counts, not only those that reached a
showdown; the real equity is the exact equity of the two hands on the board as it stood.
Rows group the decisions by round, whether a bet was to be called, and the estimate (in
fifths): a well-read opponent gives estimate ≈ real in every row. A gap that opens only
when facing a bet means the opponent's bets are stronger (or weaker) than the weight table
makes them.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import defaultdict

import numpy as np

from acpcbot import AcpcError, bundled_game
from acpcbot.game import HOLDEM_ROUNDS
from acpcbot.handeval.equity import hand_vs_hand
from agents.registry import create_agent
from dealer.referee import DealStream, MatchConfig, Referee, play_in_process
from plicas_instruments import RecordingPlicas, plicas_config


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("agent", metavar="AGENT", help="a PLICAS spec, e.g. plicas:bluff=off")
    parser.add_argument("opponent", metavar="OPPONENT", help="the opponent's spec")
    parser.add_argument("--hands", type=int, default=3000, help="hands played (3000)")
    parser.add_argument("--seed", type=int, default=1, help="card seed (1)")
    args = parser.parse_args(argv)
    try:
        agent = RecordingPlicas(args.seed, plicas_config(args.agent))
        opponent = create_agent(args.opponent, args.seed + 1)
    except AcpcError as error:
        parser.error(str(error))
    game = bundled_game()
    config = MatchConfig("readings", game, "readings.game", args.hands, args.seed, ("a", "b"))
    play_in_process(Referee(config), [agent, opponent])

    deals = list(itertools.islice(DealStream(game, args.seed), args.hands))
    rows: dict[tuple[int, bool, int], list[tuple[float, float]]] = defaultdict(list)
    for d in agent.decisions:
        theirs = next(h for h in deals[d.hand_number].hole_cards if h != d.hole)
        real = hand_vs_hand(d.hole, theirs, d.board).equity[0]
        fifth = min(4, int(d.estimate * 5))
        rows[d.round, d.facing_bet, fifth].append((d.estimate, real))
        rows[d.round, d.facing_bet, -1].append((d.estimate, real))
    print(f"{args.agent} against {args.opponent}, {args.hands} hands, seed {args.seed}")
    print(f"{'round':<6} {'facing':<7} {'estimate':<9} {'n':>6} {'mean est':>9} {'mean real':>10}")
    for (round_, facing, fifth), pairs in sorted(rows.items()):
        span = "all" if fifth < 0 else f"{fifth / 5:.1f}-{(fifth + 1) / 5:.1f}"
        est, real = np.mean(pairs, axis=0)
        facing_text = "bet" if facing else "no bet"
        print(
            f"{HOLDEM_ROUNDS[round_]:<6} {facing_text:<7} {span:<9} {len(pairs):>6} "
            f"{est:>9.3f} {real:>10.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
