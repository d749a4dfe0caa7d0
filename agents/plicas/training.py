"""PLICAS's training: hands against an opponent before the match, learning as in one.

``plicas:train=dpp-coarse,train-hands=50000,freeze-after=0`` plays 50,000 hands against
``dpp-coarse`` in ``begin_match`` (in this process, :mod:`agents.common.handloop`), then
freezes: the strategy it converged to, fixed, which ``acpcbot lbr`` can measure. The
training's cards and PLICAS's choices in it come from ``train-seed``, not from the agent's
seed, so every copy of the configuration (both seats of a duplicate match, LBR's model of
it) learns the same. It takes about as long as playing those hands in a match, and says so.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from acpcbot.game import Game
from acpcbot.logconfig import notice
from acpcbot.player import MatchInfo
from agents.common.handloop import play_hand, random_deal

if TYPE_CHECKING:
    from agents.plicas.agent import Learned, Plicas

__all__ = ["train_against"]


def train_against(agent: Plicas, game: Game) -> Learned:
    """Play ``agent`` (begun on ``game``) through its configuration's training, the seats
    alternating hand by hand; what it learned (:meth:`Plicas.learners`)."""
    from agents.registry import create_agent, nested_spec

    config = agent.config
    opponent = create_agent(nested_spec(config.train), config.train_seed)
    opponent.begin_match(MatchInfo(game, name="training"))
    notice(
        f"training PLICAS against {config.train} for {config.train_hands:,} hands",
        event="training",
        opponent=config.train,
        hands=config.train_hands,
    )
    started = time.perf_counter()
    deals = random.Random(config.train_seed)
    agent.rng = random.Random(config.train_seed + 1)
    agent.training = True
    try:
        for number in range(config.train_hands):
            seats = (agent, opponent) if number % 2 == 0 else (opponent, agent)
            play_hand(game, number, random_deal(game, deals), seats)
    finally:
        agent.training = False
    agent.start_match_anew()
    seconds = time.perf_counter() - started
    notice(f"trained PLICAS in {seconds:.1f} s", event="trained", seconds=round(seconds, 1))
    return agent.learners()
