"""How an agent plays, as one short digest: its decisions in a fixed probe of a few hands.

Something fitted to how agents play (AIVAT's bets-to-come table,
:mod:`dealer.analysis.aivatvalue`) records the fingerprint of each agent it was fitted on,
and a test compares them with the agents as they are: a change of what an agent plays is
then an error until the fit is redone, while a change that plays the same (a faster kernel,
a renamed module) is not. The probe plays :data:`PROBE_HANDS` hands, dealt from
:data:`PROBE_SEED`, against the ACPC example player (fold 6%, call 47%, raise 47%: it
leads the hands down many lines), the agent in each position in turn, and digests each of
the agent's decisions: the hand, the action taken and the probabilities it was drawn from,
rounded to :data:`DIGITS` decimals (so that the last bits of a float computed another way
on another machine do not count). It sees what a short match sees: a change that only shows
after hundreds of hands of learning (PLICAS's case base, its river search), or at a spot the
probe never reaches, passes it.

>>> from acpcbot.game import bundled_game
>>> fingerprint("always-call", bundled_game(), hands=4)
'2267583b16328468'
"""

from __future__ import annotations

import hashlib
import random

from acpcbot.actions import Action
from acpcbot.game import Game
from acpcbot.player import BettingView, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent
from agents.common.handloop import play_hand, random_deal
from agents.delegating import Delegating
from agents.registry import create_agent
from agents.simple import ExamplePlayer

__all__ = ["DIGITS", "PROBE_HANDS", "PROBE_SEED", "fingerprint"]

PROBE_HANDS = 100
"""Hands of the probe: enough to reach every round in both positions many times, few enough
that fingerprinting PLICAS takes about a second."""
PROBE_SEED = 37
"""Seeds the probe's cards, the agent and its opponent: a fingerprint never changes by
itself."""
DIGITS = 4
"""Decimals of each probability that count."""


def fingerprint(spec: str, game: Game, hands: int = PROBE_HANDS) -> str:
    """The fingerprint of the agent ``spec`` names (16 hex digits of a SHA-256), on
    ``game``."""
    probed = _Recorded(create_agent(spec, PROBE_SEED))
    opponent = ExamplePlayer(PROBE_SEED + 1)
    for player in (probed, opponent):
        player.begin_match(MatchInfo(game, hands=hands, name="fingerprint"))
    deals = random.Random(PROBE_SEED)
    for number in range(hands):
        seats = (probed, opponent) if number % 2 == 0 else (opponent, probed)
        play_hand(game, number, random_deal(game, deals), seats)
    return hashlib.sha256("\n".join(probed.decisions).encode()).hexdigest()[:16]


class _Recorded(Delegating):
    """An agent, played through, with each of its decisions written down."""

    name = "fingerprinted"

    def __init__(self, inner: Agent) -> None:
        super().__init__(inner.seed, [inner])
        self.decisions: list[str] = []

    def act(self, state: MatchState, betting: BettingView) -> Action:
        self.playing.last_triple = None  # (an agent that says nothing leaves nothing stale)
        action = self.delegate(state, betting)
        said = self.last_triple
        drawn = (
            "-"
            if said is None
            else "/".join(f"{p:.{DIGITS}f}" for p in (said.fold, said.call, said.raise_))
        )
        self.decisions.append(f"{state.hand_number} {action} {drawn}")
        return action
