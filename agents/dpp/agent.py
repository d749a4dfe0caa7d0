"""Agents that play a fixed abstract-game strategy: ``dpp`` and ``dpp-coarse``.

At its turn the agent finds its bucket for the round (once per hand and round), looks up
the information set ``<betting>:<bucket>`` in its strategy and samples an action from that
triple, renormalised over the legal actions (:meth:`agents.triple.Triple.sample`), with its
seeded RNG. It learns nothing: the same seed and the same states give the same actions, and
its strategy for every holding at a public state is a table look-up
(:meth:`StrategyAgent.strategy_table`: every holding's bucket, at once for hold'em).

The shipped strategies and the card abstraction are package data, loaded on the first
``begin_match`` (once per process, shared by every agent using them).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import ClassVar, Protocol

import numpy as np
import numpy.typing as npt

from acpcbot.actions import Action, format_betting
from acpcbot.cards import Card
from acpcbot.errors import AcpcError, UnsupportedGameError
from acpcbot.game import Game
from acpcbot.player import BettingView, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent
from agents.dpp.abstraction import HoldemBuckets
from agents.dpp.strategy import Strategy, StrategyFileError
from agents.known import StrategyTable, dead_holdings, holdings, legal_rows


class Bucketer(Protocol):
    """Maps a player's cards in a round to the bucket its strategy is indexed by."""

    def bucket(self, round_: int, hole: Sequence[Card], board: Sequence[Card]) -> int: ...


class StrategyAgent(Agent):
    """Plays ``strategy`` with ``buckets``; subclasses load packaged ones instead."""

    name = "strategy"
    fixed_strategy = True

    def __init__(
        self, seed: int = 0, strategy: Strategy | None = None, buckets: Bucketer | None = None
    ) -> None:
        super().__init__(seed)
        self._strategy = strategy
        self._buckets = buckets
        self._cached: tuple[int, int, int] = (-1, -1, -1)  # hand, round, bucket
        self._every: tuple[int, tuple[Card, ...], npt.NDArray[np.int64]] | None = None
        """The buckets of every holding on the last board asked about (round, board)."""
        self._one: tuple[tuple[int, tuple[Card, ...], tuple[Card, ...]], int] | None = None
        """The bucket last asked for one holding: (round, hole, board), bucket."""

    def load(self) -> tuple[Strategy, Bucketer]:
        """The strategy and bucket function to play (given ones by default)."""
        if self._strategy is None or self._buckets is None:
            raise AcpcError(f"{self.name}: no strategy given")
        return self._strategy, self._buckets

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        self._strategy, self._buckets = self.load()
        if self._strategy.game != info.game:
            raise UnsupportedGameError(f"{self.name}: its strategy is for another game")
        self._cached = (-1, -1, -1)
        self._every = None

    def bucket(self, state: MatchState) -> int:
        """This player's bucket in the current round (computed once per hand and round)."""
        hand, round_, bucket = self._cached
        if (hand, round_) != (state.hand_number, state.round):
            assert self._buckets is not None
            bucket = self._buckets.bucket(state.round, state.own_cards, state.board_cards)
            self._cached = (state.hand_number, state.round, bucket)
        return bucket

    def act(self, state: MatchState, betting: BettingView) -> Action:
        strategy = self._strategy
        if strategy is None:
            raise AcpcError(f"{self.name}: begin_match has not been called")
        text = state.betting_text()
        expected = (betting.can_fold(), True, betting.can_raise())
        if strategy.legal_at(text) != expected:
            raise StrategyFileError(
                f"{self.name}: the strategy disagrees with the rules at {text!r}"
            )
        return self.sample(strategy.triple(text, self.bucket(state)), betting)

    def strategy_table(self, betting: BettingView, board: Sequence[Card]) -> StrategyTable:
        strategy = self._strategy
        if strategy is None:
            raise AcpcError(f"{self.name}: begin_match has not been called")
        text = format_betting(betting.actions)
        expected = (betting.can_fold(), True, betting.can_raise())
        if strategy.legal_at(text) != expected:
            raise StrategyFileError(
                f"{self.name}: the strategy disagrees with the rules at {text!r}"
            )
        rows = strategy.layout.base[strategy.layout.node_of(text)] + self.every_bucket(
            betting.round, board
        )
        table = legal_rows(strategy.probabilities[rows], betting)
        table[dead_holdings(self.game, board)] = 0.0
        return table

    def strategy_at(
        self, betting: BettingView, hole: Sequence[Card], board: Sequence[Card]
    ) -> tuple[float, float, float]:
        strategy, buckets = self._strategy, self._buckets
        if strategy is None or buckets is None:
            raise AcpcError(f"{self.name}: begin_match has not been called")
        visible = tuple(board[: self.game.board_total(betting.round)])
        key = (betting.round, tuple(hole), visible)
        if self._one is None or self._one[0] != key:
            self._one = (key, buckets.bucket(betting.round, hole, visible))
        text = format_betting(betting.actions)
        t = strategy.triple(text, self._one[1]).legal(betting)
        return (t.fold, t.call, t.raise_)

    def every_bucket(self, round_: int, board: Sequence[Card]) -> npt.NDArray[np.int64]:
        """The bucket of every holding (:func:`agents.known.holdings`) in ``round_`` with
        ``board`` visible (0 for holdings that meet the board), kept for the last board."""
        visible = tuple(board[: self.game.board_total(round_)])
        if self._every is not None and self._every[:2] == (round_, visible):
            return self._every[2]
        assert self._buckets is not None
        dead = dead_holdings(self.game, visible)
        every = getattr(self._buckets, "every_bucket", None)
        if every is not None:
            buckets = np.where(dead, 0, every(round_, visible))
        else:
            buckets = np.array(
                [
                    0 if gone else self._buckets.bucket(round_, tuple(cards), visible)
                    for cards, gone in zip(holdings(self.game).tolist(), dead, strict=True)
                ],
                dtype=np.int64,
            )
        self._every = (round_, visible, buckets)
        return buckets


class Dpp(StrategyAgent):
    """The dpp-like opponent: a static CFR+ strategy on the fine HULHE abstraction."""

    name = "dpp"
    STRATEGY_FILE: ClassVar[str] = "dpp.npz"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)

    @classmethod
    def unsupported(cls, game: Game) -> str | None:
        # (Asked first by begin_match: a cold cache would compile for seconds before
        # saying the game is wrong.)
        if packaged_strategy(cls.STRATEGY_FILE).game != game:
            return f"{cls.name}: its strategy is for another game"
        return None

    def load(self) -> tuple[Strategy, Bucketer]:
        return packaged(self.STRATEGY_FILE)


class DppCoarse(Dpp):
    """A weaker dpp: the same method on a coarse abstraction (4 buckets after the flop)."""

    name = "dpp-coarse"
    STRATEGY_FILE = "dpp-coarse.npz"


@cache
@cache
def packaged_strategy(file_name: str) -> Strategy:
    """A strategy shipped in ``agents/data`` (loaded once)."""
    data = resources.files("agents").joinpath("data").joinpath(file_name)
    with data.open("rb") as stream:
        return Strategy.load(stream)


@cache
def packaged(file_name: str) -> tuple[Strategy, Bucketer]:
    """A strategy shipped in ``agents/data`` and its bucket function, its kernels compiled
    (once per process)."""
    # numba's compile helpers: loaded when a strategy is first packaged
    from acpcbot.handeval.jitcache import compiling

    strategy = packaged_strategy(file_name)
    buckets = HoldemBuckets.for_strategy(strategy)
    with compiling("dpp's hand-strength kernels"):
        buckets.warm_up()
    return strategy, buckets
