"""The :class:`Agent` base class: a seeded decision maker that plays any ACPC match.

An agent is constructed with a seed, told the game and its seat when a match starts, asked
for an action on its turn, shown every state it receives and told every finished hand
(with the opponent's cards when they were shown). Every random choice it makes comes from
``self.rng``, seeded from its seed, so a match is reproducible from the seeds.

**What it plays.** An agent that draws its action from a :class:`~agents.triple.Triple` does
it with :meth:`Agent.sample`, which keeps that decision's legal probabilities in
``last_triple`` (and the decision in ``last_triple_at``) for whoever wants to know (the
dealer records them for AIVAT: :func:`acpcbot.player.decision_probabilities`). An agent whose
strategy is fixed — it learns nothing and models nobody — says so with ``fixed_strategy``
and gives its probabilities for every holding at once, at any public state, with
:meth:`Agent.strategy_table` (local best response needs them; see :mod:`agents.known`).
Neither changes the agent's state or draws from its random stream.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from acpcbot.actions import Action
from acpcbot.cards import Card
from acpcbot.errors import UnsupportedGameError
from acpcbot.game import Game
from acpcbot.player import BettingView, HandResult, MatchInfo, decision_key, default_hook
from acpcbot.protocol.matchstate import MatchState
from agents.errors import AgentOptionError, NoFixedStrategyError
from agents.triple import Triple

if TYPE_CHECKING:
    from agents.known import StrategyTable


class Agent(abc.ABC):
    """Base class of every agent; implements :class:`acpcbot.player.Player`."""

    name: ClassVar[str]
    """Name used on the command line (``--agent NAME``) and in messages; a subclass that
    sets none (a user's agent, named ``module:Class``) is named after its class."""
    decides_instantly: ClassVar[bool] = False
    """True when :meth:`act` is O(1); the client then skips the worker thread."""
    fixed_strategy: ClassVar[bool] = False
    """True when the agent plays one strategy whatever happens (it learns nothing and
    models nobody) and :meth:`strategy_table` gives it for every holding."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if not hasattr(cls, "name"):
            cls.name = cls.__name__

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.match: MatchInfo | None = None
        self.last_triple: Triple | None = None
        """The legal probabilities the last decision's action was drawn from (see
        :meth:`sample`); ``None`` before any."""
        self.last_triple_at: tuple[int, int] | None = None
        """The decision :attr:`last_triple` belongs to
        (:func:`acpcbot.player.decision_key`)."""

    @property
    def game(self) -> Game:
        if self.match is None:
            raise RuntimeError(f"{self.name}: begin_match has not been called")
        return self.match.game

    @classmethod
    def check(cls, options: Mapping[str, str], game: Game) -> None:
        """Raise :class:`~agents.errors.AgentOptionError` for ``options`` an agent of this
        class does not take, or :class:`~acpcbot.errors.UnsupportedGameError` for a ``game``
        it does not play: what can be known without making one (a match is checked so,
        before any file is written). By default :meth:`check_options`, then
        :meth:`unsupported`."""
        cls.check_options(options)
        why = cls.unsupported(game)
        if why is not None:
            raise UnsupportedGameError(why)

    @classmethod
    def check_options(cls, options: Mapping[str, str]) -> None:
        """Raise :class:`~agents.errors.AgentOptionError` for ``options`` (``KEY=VALUE`` of
        an agent spec) an agent of this class does not take, without making one. By
        default a class without ``from_options`` takes none, and the options of one with
        it are checked by ``from_options`` as the agent is made: override this to have
        them checked before a match begins."""
        if options and getattr(cls, "from_options", None) is None:
            raise AgentOptionError(f"{cls.name} takes no options (got {dict(options)})")

    @classmethod
    def unsupported(cls, game: Game) -> str | None:
        """Why an agent of this class cannot play ``game``, or ``None`` when it can (by
        default it plays any game); :meth:`begin_match` refuses such a game too."""
        del game
        return None

    def begin_match(self, info: MatchInfo) -> None:
        """A match starts (in a game :meth:`unsupported` does not refuse). Agents keep no
        memory between matches, so the RNG restarts too."""
        why = self.unsupported(info.game)
        if why is not None:
            raise UnsupportedGameError(why)
        self.match = info
        self.rng = random.Random(self.seed)
        self.last_triple = self.last_triple_at = None

    @default_hook  # noqa: B027
    def observe(self, state: MatchState, betting: BettingView) -> None:
        """Every state the agent receives (default: ignore)."""

    @abc.abstractmethod
    def act(self, state: MatchState, betting: BettingView) -> Action:
        """The action to take; called only on the agent's turn. Must be legal."""

    @default_hook  # noqa: B027
    def end_hand(self, result: HandResult) -> None:
        """A hand finished (default: ignore)."""

    def sample(self, triple: Triple, betting: BettingView) -> Action:
        """This decision's action, drawn from ``triple`` with :attr:`rng` (one uniform
        draw: :meth:`Triple.sample`); its legal probabilities are kept in
        :attr:`last_triple`."""
        self.said(triple.legal(betting), betting)
        return triple.sample(betting, self.rng)

    def said(self, legal: Triple, betting: BettingView) -> None:
        """Keep ``legal`` as the probabilities of the decision at ``betting`` (for an agent
        that decides without :meth:`sample`, e.g. deterministically)."""
        self.last_triple = legal
        self.last_triple_at = decision_key(betting)

    def strategy_table(self, betting: BettingView, board: Sequence[Card]) -> StrategyTable:
        """The (fold, call, raise) probabilities, renormalised over the legal actions, with
        which the agent to act at ``betting`` (the public state: its position is
        ``betting.current_player``) plays each holding of the game given the visible
        ``board``: one row per holding of :func:`agents.known.holdings`, rows of holdings
        that meet a board card all zero. Only for agents with :attr:`fixed_strategy`;
        asking changes neither the agent nor its random stream, and needs ``begin_match``
        first."""
        del betting, board
        raise NoFixedStrategyError(
            f"{self.name} has no fixed strategy to query for every holding (it adapts, or "
            "does not say what it plays)"
        )

    def strategy_at(
        self, betting: BettingView, hole: Sequence[Card], board: Sequence[Card]
    ) -> tuple[float, float, float]:
        """One row of :meth:`strategy_table`: the legal probabilities with which the agent
        to act at ``betting`` plays holding ``hole`` with ``board`` visible (a subclass may
        compute it more cheaply than the whole table)."""
        # numpy: only agents asked for one row load the known strategies' tables
        from agents.known import holding_index

        row = self.strategy_table(betting, board)[holding_index(self.game, hole)]
        return (float(row[0]), float(row[1]), float(row[2]))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
