"""What each of PLICAS's choices was worth: counterfactual values of fold, call and raise at
every decision, against a given opponent.

    python scripts/plicas_regret.py plicas dpp --hands 6000 --rollouts 6

Plays one in-process match of AGENT (a PLICAS spec) against OPPONENT. At each of the agent's
decisions, before it acts, the script plays the rest of the hand ``--rollouts`` times for
every legal action: the action is taken, then copies of both players go on with their own
policies (fresh seeds for each rollout) on the cards the dealer really dealt, and the chips
the agent ends the hand with are averaged into Q(fold), Q(call), Q(raise). Then the agent
decides as usual; the match is unchanged by the probing.

Against a static opponent this is the one-step policy-improvement signal: where, in some
group of decisions, Q(raise) − Q(call) or Q(call) − Q(fold) is clearly non-zero, moving
probability towards the better action gains that much per decision moved (the rest of the
policy kept). Rows group the decisions by round, whether a bet was to be called, and the
agent's strength in tenths (against the range after the flop when facing a bet or
preflop, against the calling part of it when checked to: what the units decide on). The
shares of fold, call and raise count every decision in a group; each difference only those
where both actions were legal (no raise at the cap), with its 95 % confidence interval.
``--csv`` keeps every decision.

The copies share what does not change within a hand (PLICAS's tables, reader, case base
and showdown calibration; a strategy agent's strategy and buckets); everything else is
copied, so the probing never touches the real players.
"""

from __future__ import annotations

import argparse
import csv
import sys
from dataclasses import astuple, fields

import numpy as np
import numpy.typing as npt

from acpcbot import AcpcError, bundled_game
from acpcbot.game import HOLDEM_ROUNDS
from agents.registry import create_agent
from dealer.referee import MatchConfig, Referee, play_in_process
from plicas_instruments import ActionValues, ProbingPlicas, plicas_config


def mean_ci(values: npt.NDArray[np.float64]) -> str:
    values = values[~np.isnan(values)]
    if len(values) < 2:
        return f"{'':>13}"
    half = 1.96 * float(np.std(values, ddof=1)) / np.sqrt(len(values))
    return f"{float(np.mean(values)):+6.2f} ± {half:4.2f}"


def report(decisions: list[ActionValues], minimum: int) -> None:
    rows = np.array([astuple(d) for d in decisions], dtype=np.float64)
    print(f"{'round':<8}{'facing':<8}{'strength':<9}{'n':>6}  {'fold':>5}{'call':>5}{'raise':>6}"
          f"  {'Q(raise) − Q(call)':>18}  {'Q(call) − Q(fold)':>18}")  # fmt: skip
    for round_ in range(4):
        for facing in (False, True):
            group = rows[(rows[:, 1] == round_) & (rows[:, 2] == facing)]
            if len(group) == 0:
                continue
            # checked to after the flop, the units bet on the strength against the callers
            column = 8 if (facing or round_ == 0) else 9
            for tenth in [*range(10), -1]:
                if tenth < 0:
                    part, span = group, "all"
                else:
                    inside = np.floor(np.minimum(group[:, column], 0.999) * 10) == tenth
                    part, span = group[inside], f"{tenth / 10:.1f}-{(tenth + 1) / 10:.1f}"
                if len(part) < minimum:
                    continue
                shares = [float(np.mean(part[:, 4] == a)) for a in range(3)]
                raise_call = part[:, 7] - part[:, 6]
                call_fold = part[:, 6] - part[:, 5]
                print(
                    f"{HOLDEM_ROUNDS[round_]:<8}{'bet' if facing else 'no bet':<8}{span:<9}"
                    f"{len(part):>6}  {shares[0]:5.2f}{shares[1]:5.2f}{shares[2]:6.2f}"
                    f"  {mean_ci(raise_call):>18}  {mean_ci(call_fold) if facing else '':>18}"
                )
            print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("agent", metavar="AGENT", help="a PLICAS spec, e.g. plicas:bluff=off")
    parser.add_argument("opponent", metavar="OPPONENT", help="the opponent's spec")
    parser.add_argument("--hands", type=int, default=2000, help="hands played (2000)")
    parser.add_argument("--seed", type=int, default=1, help="card seed (1)")
    parser.add_argument("--rollouts", type=int, default=6, help="rollouts per action (6)")
    parser.add_argument("--min-rows", type=int, default=40, help="smallest group shown (40)")
    parser.add_argument("--csv", metavar="FILE", help="also write every decision to FILE")
    args = parser.parse_args(argv)
    if args.rollouts < 1:
        parser.error("--rollouts must be at least 1")
    try:
        agent = ProbingPlicas(args.seed, plicas_config(args.agent), args.rollouts)
        agent.opponent = create_agent(args.opponent, args.seed + 1)
    except AcpcError as error:
        parser.error(str(error))
    game = bundled_game()
    config = MatchConfig("regret", game, "regret.game", args.hands, args.seed, ("a", "b"))
    referee = Referee(config)
    agent.deals = referee
    play_in_process(referee, [agent, agent.opponent])
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow([f.name for f in fields(ActionValues)])
            writer.writerows(astuple(d) for d in agent.decisions)
    print(
        f"{args.agent} against {args.opponent}: {args.hands} hands, seed {args.seed}, "
        f"{args.rollouts} rollouts per action; Q in chips (a big blind is 10)"
    )
    report(agent.decisions, args.min_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
