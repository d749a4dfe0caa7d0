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
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from acpcbot.actions import Action
from acpcbot.cards import Card
from acpcbot.game import bundled_game
from acpcbot.handeval.equity import hand_vs_hand
from acpcbot.player import BettingView, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from agents.plicas.agent import Plicas
from agents.plicas.config import PlicasConfig
from agents.plicas.model import OpponentProfile
from agents.plicas.reading import Reading
from agents.plicas.situation import Situation
from agents.plicas.strength import HandReader
from agents.registry import create_agent
from dealer.config import MatchConfig
from dealer.dealing import DealStream
from dealer.inprocess import play_in_process
from dealer.referee import Referee

ROUND_NAMES = ("preflop", "flop", "turn", "river")


@dataclass(frozen=True)
class Decision:
    hand_number: int
    round: int
    facing_bet: bool
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    estimate: float


class LastReading(HandReader):
    """A :class:`HandReader` that remembers the last reading it gave (also used by
    ``plicas_regret.py``)."""

    def __init__(self, inner: HandReader) -> None:
        super().__init__(inner.tables, inner.samples)
        self.last: Reading | None = None

    def preflop(
        self, situation: Situation, weights: npt.NDArray[np.float64], profile: OpponentProfile
    ) -> Reading:
        self.last = super().preflop(situation, weights, profile)
        return self.last

    def postflop(
        self,
        situation: Situation,
        weights: npt.NDArray[np.float64],
        profile: OpponentProfile,
        seed: int,
    ) -> Reading:
        self.last = super().postflop(situation, weights, profile, seed)
        return self.last


class RecordingPlicas(Plicas):
    """A PLICAS agent that records the reading behind each of its postflop decisions."""

    def __init__(self, seed: int, config: PlicasConfig) -> None:
        super().__init__(seed, config)
        self.decisions: list[Decision] = []

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        self.reader = LastReading(self.reader)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        action = super().act(state, betting)
        reading = self.reader.last if isinstance(self.reader, LastReading) else None
        if state.round > 0 and reading is not None:
            s = Situation.of(state, betting)
            self.decisions.append(
                Decision(s.hand_number, s.round, s.facing_bet, s.hole, s.board, reading.strength)
            )
        return action


def match_arguments(description: str, hands: int) -> argparse.ArgumentParser:
    """The arguments the PLICAS diagnostics share: AGENT, OPPONENT, --hands, --seed."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("agent", metavar="AGENT", help="a PLICAS spec, e.g. plicas:bluff=off")
    parser.add_argument("opponent", metavar="OPPONENT", help="the opponent's spec")
    parser.add_argument("--hands", type=int, default=hands, help=f"hands played ({hands})")
    parser.add_argument("--seed", type=int, default=1, help="card seed (1)")
    return parser


def plicas_config(parser: argparse.ArgumentParser, args: argparse.Namespace) -> PlicasConfig:
    """The configuration of the AGENT spec; a usage error if it is not a PLICAS agent."""
    spec = create_agent(args.agent, args.seed)
    if not isinstance(spec, Plicas):
        parser.error(f"{args.agent!r} is not a PLICAS agent")
    return spec.config


def main(argv: list[str] | None = None) -> int:
    parser = match_arguments(__doc__.split("\n\n")[0], hands=3000)
    args = parser.parse_args(argv)
    agent = RecordingPlicas(args.seed, plicas_config(parser, args))
    game = bundled_game()
    config = MatchConfig("readings", game, "readings.game", args.hands, args.seed, ("a", "b"))
    play_in_process(Referee(config), [agent, create_agent(args.opponent, args.seed + 1)])

    deals = list(itertools.islice(DealStream(game, args.seed), args.hands))
    rows: dict[tuple[int, bool, int], list[tuple[float, float]]] = defaultdict(list)
    for d in agent.decisions:
        opponent = next(h for h in deals[d.hand_number].hole_cards if h != d.hole)
        real = hand_vs_hand(d.hole, opponent, d.board).equity[0]
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
