"""How well PLICAS reads its hand: the equity it estimated against the opponent's modelled
range, beside the equity it really had against the opponent's cards.

    python scripts/plicas_readings.py plicas dpp --hands 5000

Plays one in-process match of AGENT (a PLICAS spec) against OPPONENT and records every
postflop reading the agent decides on (its ``strength``: equity against the weighted range,
rolled out to the river). The opponent's cards come from the opponent's own view of each
hand, so every decision counts, not only those that reached a showdown; the real equity is
the exact equity of the two hands on the board as it stood. Rows group the decisions by
round, whether a bet was to be called, and the estimate (in fifths): a well-read opponent
gives estimate ≈ real in every row. A gap that opens only when facing a bet means the
opponent's bets are stronger (or weaker) than the weight table makes them.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from acpcbot.actions import Action
from acpcbot.cards import Card
from acpcbot.engine.equity import hand_vs_hand
from acpcbot.game import bundled_game
from acpcbot.matchstate import MatchState
from acpcbot.player import BettingView, HandResult, MatchInfo, Player
from agents.plicas.agent import Plicas
from agents.plicas.model import OpponentProfile
from agents.plicas.reading import Reading
from agents.plicas.situation import Situation
from agents.plicas.strength import HandReader
from agents.registry import create_agent
from dealer.config import MatchConfig
from dealer.engine import MatchEngine
from dealer.inprocess import play_in_process

ROUND_NAMES = ("preflop", "flop", "turn", "river")


@dataclass(frozen=True)
class Decision:
    hand_number: int
    round: int
    facing_bet: bool
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    estimate: float


class RecordingReader(HandReader):
    """A :class:`HandReader` that keeps every postflop reading it gives."""

    def __init__(self, inner: HandReader, decisions: list[Decision]) -> None:
        super().__init__(inner.tables, inner.samples)
        self.decisions = decisions

    def postflop(
        self,
        situation: Situation,
        weights: npt.NDArray[np.float64],
        profile: OpponentProfile,
        seed: int,
    ) -> Reading:
        reading = super().postflop(situation, weights, profile, seed)
        self.decisions.append(
            Decision(
                situation.hand_number,
                situation.round,
                situation.facing_bet,
                situation.hole,
                situation.board,
                reading.strength,
            )
        )
        return reading


class Recorded:
    """The PLICAS agent with its reader recording."""

    def __init__(self, agent: Plicas) -> None:
        self.agent = agent
        self.decides_instantly = agent.decides_instantly
        self.decisions: list[Decision] = []

    def begin_match(self, info: MatchInfo) -> None:
        self.agent.begin_match(info)
        self.agent.reader = RecordingReader(self.agent.reader, self.decisions)

    def observe(self, state: MatchState, betting: BettingView) -> None:
        self.agent.observe(state, betting)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        return self.agent.act(state, betting)

    def end_hand(self, result: HandResult) -> None:
        self.agent.end_hand(result)


class CardsSeen:
    """The opponent, noting its own hole cards in every hand."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.decides_instantly = inner.decides_instantly
        self.hole: dict[int, tuple[Card, ...]] = {}

    def begin_match(self, info: MatchInfo) -> None:
        self.inner.begin_match(info)

    def observe(self, state: MatchState, betting: BettingView) -> None:
        self.hole[state.hand_number] = state.own_cards
        self.inner.observe(state, betting)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        return self.inner.act(state, betting)

    def end_hand(self, result: HandResult) -> None:
        self.inner.end_hand(result)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", metavar="AGENT", help="a PLICAS spec, e.g. plicas:bluff=off")
    parser.add_argument("opponent", metavar="OPPONENT", help="the opponent's spec")
    parser.add_argument("--hands", type=int, default=3000, help="hands played (3000)")
    parser.add_argument("--seed", type=int, default=1, help="card seed (1)")
    args = parser.parse_args(argv)
    agent = create_agent(args.agent, args.seed)
    if not isinstance(agent, Plicas):
        parser.error(f"{args.agent!r} is not a PLICAS agent")
    recorded = Recorded(agent)
    opponent = CardsSeen(create_agent(args.opponent, args.seed + 1))
    config = MatchConfig(
        "readings", bundled_game(), "readings.game", args.hands, args.seed, ("a", "b")
    )
    play_in_process(MatchEngine(config), [recorded, opponent])

    rows: dict[tuple[int, bool, int], list[tuple[float, float]]] = defaultdict(list)
    for d in recorded.decisions:
        real = hand_vs_hand(d.hole, opponent.hole[d.hand_number], d.board).equity[0]
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
            f"{ROUND_NAMES[round_]:<6} {facing_text:<7} {span:<9} {len(pairs):>6} "
            f"{est:>9.3f} {real:>10.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
