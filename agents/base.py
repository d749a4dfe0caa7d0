"""The :class:`Agent` base class: a seeded decision maker that plays any ACPC match.

An agent is constructed with a seed, told the game and its seat when a match starts, asked
for an action on its turn, shown every state it receives and told every finished hand
(with the opponent's cards when they were shown). Every random choice it makes comes from
``self.rng``, seeded from its seed, so a match is reproducible from the seeds.
"""

from __future__ import annotations

import abc
import random
from typing import ClassVar

from acpcbot.actions import Action
from acpcbot.game import Game
from acpcbot.player import BettingView, HandResult, MatchInfo, default_hook
from acpcbot.protocol.matchstate import MatchState


class Agent(abc.ABC):
    """Base class of every agent; implements :class:`acpcbot.player.Player`."""

    name: ClassVar[str]
    """Name used on the command line (``--agent NAME``) and in messages; a subclass that
    sets none (a user's agent, named ``module:Class``) is named after its class."""
    decides_instantly: ClassVar[bool] = False
    """True when :meth:`act` is O(1); the client then skips the worker thread."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if not hasattr(cls, "name"):
            cls.name = cls.__name__

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.match: MatchInfo | None = None

    @property
    def game(self) -> Game:
        if self.match is None:
            raise RuntimeError(f"{self.name}: begin_match has not been called")
        return self.match.game

    def begin_match(self, info: MatchInfo) -> None:
        """A match starts. Agents keep no memory between matches, so the RNG restarts too."""
        self.match = info
        self.rng = random.Random(self.seed)

    @default_hook  # noqa: B027
    def observe(self, state: MatchState, betting: BettingView) -> None:
        """Every state the agent receives (default: ignore)."""

    @abc.abstractmethod
    def act(self, state: MatchState, betting: BettingView) -> Action:
        """The action to take; called only on the agent's turn. Must be legal."""

    @default_hook  # noqa: B027
    def end_hand(self, result: HandResult) -> None:
        """A hand finished (default: ignore)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
