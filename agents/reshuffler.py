"""A trap: an opponent that keeps how often it folds, calls and raises but, from one hand on,
takes each action with other hands.

``reshuffler:base=dpp-coarse,at=10000,shift=0.5`` plays ``base`` (an agent with a fixed
strategy, whose probabilities for every holding it can ask: :meth:`agents.base.Agent.
strategy_table`) exactly for its first ``at`` hands. From then on, at every decision it
places its holding among all the live holdings by strength in the round
(:func:`agents.common.weights.holding_strengths`: the class's equity against a random hand
before the flop, the hand's strength with its chance to improve after it), moves that place
by ``shift`` round the circle (the ``i``-th of ``n`` becomes the ``(i + shift n) mod n``-th) and
plays what ``base`` plays with the holding found there. Moving every place by the same amount
maps the holdings one to one, so at the first decision of a hand the frequencies of fold,
call and raise are exactly the base's, and later ones stay close to them (they are measured
in the tests); but with ``shift=0.5`` its weakest hands bet like middling ones, and its
best half plays like the worst half. A learner that reads its bets by what it showed before
hand ``at`` reads them wrong after it, while every frequency it counts stays where it was.

>>> from agents.registry import create_agent
>>> trap = create_agent("reshuffler:at=3", 5)
>>> trap.base.name, trap.at, trap.shift
('dpp-coarse', 3, 0.5)
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from acpcbot.actions import Action
from acpcbot.errors import UnsupportedGameError
from acpcbot.player import BettingView, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent
from agents.common.weights import holding_strengths
from agents.delegating import (
    Delegating,
    hand_count,
    inner_agent,
    options_of,
    probability,
    warm_strengths,
)
from agents.errors import AgentOptionError
from agents.known import dead_holdings, holding_index
from agents.triple import Triple

__all__ = ["Reshuffler"]

BASE, AT, SHIFT = "dpp-coarse", 10_000, 0.5
"""The defaults of the options ``base``, ``at`` and ``shift``."""


class Reshuffler(Delegating):
    """``base`` for ``at`` hands, then ``base``'s play of another holding (see the module's
    docstring)."""

    name = "reshuffler"

    def __init__(
        self, seed: int, base: Agent | None = None, at: int = AT, shift: float = SHIFT
    ) -> None:
        if base is None:  # by its name alone: its defaults
            base = inner_agent(self.name, "base", BASE, seed)
        super().__init__(seed, [base])
        if not base.fixed_strategy:
            raise AgentOptionError(
                f"reshuffler option base={base.name}: an agent with a fixed strategy (it asks "
                "what the base plays with every holding)"
            )
        self.base = base
        self.at = at
        self.shift = shift

    @classmethod
    def from_options(cls, seed: int, options: Mapping[str, str]) -> Reshuffler:
        """``base``, ``at`` and ``shift``, each with its default."""
        unknown = sorted(set(options) - {"base", "at", "shift"})
        if unknown:
            raise AgentOptionError(
                f"unknown reshuffler option {unknown[0]!r}; it takes: {options_of(cls.name)}"
            )
        shift = probability(cls.name, "shift", options.get("shift", str(SHIFT)))
        base = inner_agent(cls.name, "base", options.get("base", BASE), seed)
        return cls(seed, base, hand_count(cls.name, "at", options.get("at", str(AT))), shift)

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        if info.game.num_rounds != 4 or info.game.num_hole_cards != 2:
            raise UnsupportedGameError(f"{self.name} plays hold'em only")
        warm_strengths()
        self._warm_tables()

    def _warm_tables(self) -> None:
        """Ask the base's table once in every round before the match, so that whatever it
        compiles to give one (dpp's every-holding buckets) is compiled now."""
        # numba: the base's kernels, compiled or loaded only for a trap that plays
        from acpcbot.cards import parse_cards
        from acpcbot.handeval.jitcache import compiling
        from acpcbot.rules import CALL, HandState

        board = parse_cards("2c7d9sKhAs")
        hand = HandState(self.game)
        with compiling(f"{self.base.name}'s strategy tables"):
            while not hand.finished:
                self.base.strategy_table(hand, board[: self.game.board_total(hand.round)])
                hand.apply(CALL)

    def stand_in(self, hole: tuple[int, ...], board: tuple[int, ...]) -> int:
        """The holding whose play stands in for ``hole``'s on ``board`` now: its place by
        strength among the live holdings moved by ``shift`` (ties in strength ordered by
        the holdings' order)."""
        game = self.game
        own = holding_index(game, hole)
        if self.hands < self.at:
            return own
        strengths = holding_strengths(board)
        live = np.flatnonzero(~dead_holdings(game, board))
        order = live[np.lexsort((live, strengths[live]))]
        place = int(np.flatnonzero(order == own)[0])
        count = len(order)
        return int(order[(place + int(self.shift * count + 0.5)) % count])

    def act(self, state: MatchState, betting: BettingView) -> Action:
        if self.hands < self.at:
            return self.delegate(state, betting)
        board = state.board_cards
        row = self.base.strategy_table(betting, board)[self.stand_in(state.own_cards, board)]
        return self.sample(Triple(float(row[0]), float(row[1]), float(row[2])), betting)
