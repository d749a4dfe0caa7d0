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

import copy
import csv
import random
import sys
from collections.abc import Sequence
from dataclasses import astuple, dataclass, fields
from typing import Any

import numpy as np
import numpy.typing as npt

# this folder, first on sys.path
from plicas_readings import ROUND_NAMES, LastReading, match_arguments, plicas_config

from acpcbot.actions import Action
from acpcbot.game import bundled_game
from acpcbot.handeval import rank_hand
from acpcbot.player import BettingView, MatchInfo, Player
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import CALL, FOLD, RAISE, HandState
from agents.plicas.agent import Plicas
from agents.plicas.config import PlicasConfig
from agents.plicas.situation import Situation
from agents.registry import create_agent
from dealer.config import MatchConfig
from dealer.inprocess import play_in_process
from dealer.referee import Referee
from dealer.views import state_view

ACTIONS = (FOLD, CALL, RAISE)
KINDS = tuple(a.type for a in ACTIONS)
SHARED = ("tables", "reader", "cases", "calibration", "_strategy", "_buckets")
"""Attributes the rollout copies share with the real player (unchanged within a hand)."""
PROBE_ONLY = ("engine", "opponent", "decisions")
"""The probing agent's own attributes, which its copies share rather than copy."""


@dataclass(frozen=True)
class Decision:
    hand_number: int
    round: int
    facing_bet: bool
    num_raises: int
    chosen: int
    """0 fold, 1 call, 2 raise."""
    q_fold: float
    q_call: float
    q_raise: float
    """Chips at the end of the hand after each action (nan where illegal)."""
    strength: float
    strength_called: float


def snapshot(player: Any, rng: random.Random) -> Any:
    """A copy of ``player`` sharing :data:`SHARED`, its decisions reseeded from ``rng``."""
    names = (*SHARED, *PROBE_ONLY)
    memo = {id(getattr(player, n)): getattr(player, n) for n in names if hasattr(player, n)}
    clone = copy.deepcopy(player, memo)
    clone.rng = random.Random(rng.getrandbits(64))
    return clone


class ProbingPlicas(Plicas):
    """A PLICAS agent that values every legal action by rollouts before it decides."""

    def __init__(self, seed: int, config: PlicasConfig, rollouts: int) -> None:
        super().__init__(seed, config)
        self.rollouts = rollouts
        self.decisions: list[Decision] = []
        self.engine: Referee | None = None
        self.opponent: Player | None = None

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        self.reader = LastReading(self.reader)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        assert isinstance(betting, HandState), "in-process play passes the hand itself"
        assert self.engine is not None
        deal = self.engine.deal  # the whole deal, which the dealer knows
        ranks = self.engine.dealt.showdown_ranks or tuple(
            rank_hand(list(hole) + list(deal.board)) for hole in deal.hole_cards
        )
        q_fold, q_call, q_raise = (self._value(state, betting, a, ranks) for a in ACTIONS)
        action = super().act(state, betting)
        reading = self.reader.last if isinstance(self.reader, LastReading) else None
        situation = Situation.of(state, betting)
        self.decisions.append(
            Decision(
                state.hand_number,
                situation.round,
                situation.facing_bet,
                situation.num_raises,
                KINDS.index(action.type),
                q_fold,
                q_call,
                q_raise,
                reading.strength if reading else float("nan"),
                reading.strength_called if reading else float("nan"),
            )
        )
        return action

    def _value(
        self, state: MatchState, hand: HandState, action: Action, ranks: Sequence[int]
    ) -> float:
        """Mean chips at the end of the hand after ``action``, or nan if it is illegal;
        ``ranks`` are the positions' showdown ranks on the full board."""
        if not hand.is_legal(action):
            return float("nan")
        assert self.engine is not None and self.opponent is not None
        deal = self.engine.deal
        me = state.position
        rng = random.Random(
            hand.hand_number * 1009 + hand.num_actions * 31 + KINDS.index(action.type)
        )
        after = hand.copy()
        after.apply(action)
        if after.finished:  # a fold, or a call to the showdown: nothing random is left
            return after.values(ranks if after.is_showdown else None)[me]
        total = 0.0
        for _ in range(self.rollouts):
            rest = after.copy()
            players = {me: snapshot(self, rng), 1 - me: snapshot(self.opponent, rng)}
            while not rest.finished:
                for position, player in players.items():
                    player.observe(state_view(rest, deal, position), rest)
                acting = rest.current_player
                view = state_view(rest, deal, acting)
                player = players[acting]
                # the copy of the agent decides as plain PLICAS (no probing inside a rollout)
                chosen = Plicas.act(player, view, rest) if acting == me else player.act(view, rest)
                rest.apply_coerced(chosen)
            total += rest.values(ranks if rest.is_showdown else None)[me]
        return total / self.rollouts


def mean_ci(values: npt.NDArray[np.float64]) -> str:
    values = values[~np.isnan(values)]
    if len(values) < 2:
        return f"{'':>13}"
    half = 1.96 * float(np.std(values, ddof=1)) / np.sqrt(len(values))
    return f"{float(np.mean(values)):+6.2f} ± {half:4.2f}"


def report(decisions: list[Decision], minimum: int) -> None:
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
                    f"{ROUND_NAMES[round_]:<8}{'bet' if facing else 'no bet':<8}{span:<9}"
                    f"{len(part):>6}  {shares[0]:5.2f}{shares[1]:5.2f}{shares[2]:6.2f}"
                    f"  {mean_ci(raise_call):>18}  {mean_ci(call_fold) if facing else '':>18}"
                )
            print()


def main(argv: list[str] | None = None) -> int:
    parser = match_arguments(__doc__.split("\n\n")[0], hands=2000)
    parser.add_argument("--rollouts", type=int, default=6, help="rollouts per action (6)")
    parser.add_argument("--min-rows", type=int, default=40, help="smallest group shown (40)")
    parser.add_argument("--csv", metavar="FILE", help="also write every decision to FILE")
    args = parser.parse_args(argv)
    if args.rollouts < 1:
        parser.error("--rollouts must be at least 1")
    agent = ProbingPlicas(args.seed, plicas_config(parser, args), args.rollouts)
    agent.opponent = create_agent(args.opponent, args.seed + 1)
    game = bundled_game()
    config = MatchConfig("regret", game, "regret.game", args.hands, args.seed, ("a", "b"))
    agent.engine = Referee(config)
    play_in_process(agent.engine, [agent, agent.opponent])
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow([f.name for f in fields(Decision)])
            writer.writerows(astuple(d) for d in agent.decisions)
    print(
        f"{args.agent} against {args.opponent}: {args.hands} hands, seed {args.seed}, "
        f"{args.rollouts} rollouts per action; Q in chips (a big blind is 10)"
    )
    report(agent.decisions, args.min_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
