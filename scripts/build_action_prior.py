#!/usr/bin/env python3
"""Fit the prior PLICAS's action model starts from, on the field, and write it.

    python scripts/build_action_prior.py --hands 4000 --seed 3000

Plays every pair of the field — ``dpp-coarse`` and the four Kendall styles, never ``dpp``
(PLICAS's test set) — against each other for ``--hands`` hands in this process (the seats
alternating, the cards from ``--seed``), and counts every decision of every player: per
local history (the round, who acts, the pot, this round's betting) and per coarse context
(the round, who acts, whether it faces a bet, the raises so far), by the coarse bucket of
the player's hand in that round, the probabilities it drew its action from. Written to the
shipped ``agents/data/plicas-action-prior.npz`` by default (its line in
``agents/data/SHA256SUMS`` updated too); :mod:`agents.plicas.actionprior` reads it.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import numpy.typing as npt

from acpcbot.actions import Action
from acpcbot.game import bundled_game
from acpcbot.handeval.combos import combo_index
from acpcbot.player import BettingView, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent
from agents.common.handloop import play_hand, random_deal
from agents.common.manifest import DATA_DIR, update_manifest
from agents.delegating import Delegating
from agents.plicas.actionprior import ACTION_PRIOR_FILE, coarse_key, local_key, save
from agents.plicas.holdingbuckets import COARSE, coarse_map, fine_buckets
from agents.registry import create_agent

FIELD = ("dpp-coarse", "loose-passive", "loose-aggressive", "tight-passive", "tight-aggressive")
"""The players the prior is fitted on."""

Counts = dict[object, npt.NDArray[np.float64]]


class Counted(Delegating):
    """Plays its agent and counts each of its decisions into ``local`` and ``coarse``."""

    def __init__(self, agent: Agent, local: Counts, coarse: Counts) -> None:
        super().__init__(0, [agent])
        self.local, self.coarse = local, coarse

    def act(self, state: MatchState, betting: BettingView) -> Action:
        action = self.delegate(state, betting)
        triple = self.last_triple
        assert triple is not None
        round_ = betting.round
        fine = int(fine_buckets(state.board_cards)[combo_index(*state.own_cards)])
        bucket = int(coarse_map(round_)[fine])
        here = format_round(betting)
        drawn = np.array([triple.fold, triple.call, triple.raise_])
        actor = betting.current_player
        facing = betting.amount_to_call() > 0
        for counts, key in (
            (self.local, local_key(round_, actor, betting.pot, here)),
            (self.coarse, coarse_key(round_, actor, facing, betting.num_raises)),
        ):
            counts[key][bucket] += drawn
        return action


def format_round(betting: BettingView) -> str:
    """This round's betting as the log writes it."""
    from acpcbot.actions import format_betting

    return format_betting(betting.actions).rsplit("/", 1)[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=4_000, help="hands per pair (4000)")
    parser.add_argument("--seed", type=int, default=3000, help="card seed (3000)")
    parser.add_argument(
        "--out", type=Path, default=DATA_DIR / ACTION_PRIOR_FILE, help="where to write it"
    )
    args = parser.parse_args(argv)
    game = bundled_game()
    local: Counts = defaultdict(lambda: np.zeros((COARSE, 3)))
    coarse: Counts = defaultdict(lambda: np.zeros((COARSE, 3)))
    for number, (a, b) in enumerate(itertools.combinations(FIELD, 2)):
        players = [
            Counted(create_agent(name, args.seed + number), local, coarse) for name in (a, b)
        ]
        for player in players:
            player.begin_match(MatchInfo(game, name="prior"))
        deals = random.Random(args.seed + number)
        for hand in range(args.hands):
            seats = players if hand % 2 == 0 else players[::-1]
            play_hand(game, hand, random_deal(game, deals), seats)
        print(f"{a} against {b}: {args.hands:,} hands", file=sys.stderr)
    with args.out.open("wb") as stream:
        save(stream, dict(local), dict(coarse))  # type: ignore[arg-type]
    if args.out.parent == DATA_DIR:
        update_manifest(args.out)
    print(f"wrote {args.out}: {len(local):,} local histories, {len(coarse)} coarse contexts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
