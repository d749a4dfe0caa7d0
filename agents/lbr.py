"""Local best response (LBR; Lisý & Bowling 2017) in limit poker: a lower bound on how much
an agent with a fixed strategy can lose.

LBR plays against an opponent whose strategy it can query for every holding at once
(:meth:`agents.base.Agent.strategy_table`; ``opponent=NAME`` names it, and LBR keeps a copy of
it, its *model*). It never learns and never searches; at each of its decisions it

1. **tracks the opponent's range**: a weight per holding, uniform over the holdings that do
   not meet LBR's cards at the start of the hand; at every opponent action, each holding's
   weight is multiplied by the probability the model gives that action with that holding
   (Bayes' rule), and holdings that meet a new board card are dropped;
2. **values its actions greedily**, as if nobody bet again after them (the check-down values
   of PokerRL's limit LBR): with ``wp`` its chance of winning a showdown against the range
   (ties half; exact over every runout on the flop, turn and river), ``m`` the chips each
   player has in after a call and ``b`` the round's bet,

   * fold: ``−(LBR's chips in)``;
   * call: ``(2 wp − 1) m``;
   * raise: the model says with what probability ``fp`` the range folds to the raise; it
     wins the opponent's chips then, and otherwise ``(2 wp' − 1)(m + b)`` with ``wp'``
     against the range that does not fold: ``fp · m + (1 − fp)(2 wp' − 1)(m + b)``;

3. **takes the best** (call, then raise, then fold on ties); before ``from`` (a round:
   preflop, flop, turn or river) it only checks or calls.

Whatever it plays, what LBR wins against the opponent is a lower bound on the opponent's
exploitability (a best response wins at least as much). Before the flop in hold'em ``wp``
comes from the starting-hand classes' equity matrix (:func:`agents.common.tables.
class_equity_matrix`: exact per class pair, card removal between the classes averaged);
every other equity is exact. LBR is deterministic: the same cards and the same opponent give
the same play, and it reports each decision (probability 1) like any agent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from acpcbot.actions import CALL, FOLD, RAISE, Action, ActionType
from acpcbot.cards import Card
from acpcbot.game import HOLDEM_ROUNDS, Game
from acpcbot.player import BettingView, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import HandState
from agents.base import Agent
from agents.common.showdowns import showdown_equities
from agents.errors import AgentOptionError, NoFixedStrategyError
from agents.known import dead_holdings, holdings
from agents.triple import CALL_ONLY, Triple

__all__ = ["LocalBestResponse", "round_of"]

FloatArray = npt.NDArray[np.float64]
_SMALL_GAME_KEPT = 4096
"""Equity tables kept by the exact enumeration of a small game."""
_COLUMN = {ActionType.FOLD: 0, ActionType.CALL: 1, ActionType.RAISE: 2}
_ONE_HOT = {
    ActionType.FOLD: Triple(1.0, 0.0, 0.0),
    ActionType.CALL: CALL_ONLY,
    ActionType.RAISE: Triple(0.0, 0.0, 1.0),
}


def round_of(name: str) -> int:
    """The round ``from`` names.

    >>> round_of("flop")
    1
    """
    if name not in HOLDEM_ROUNDS:
        raise AgentOptionError(
            f"lbr option from={name!r}: one of {', '.join(HOLDEM_ROUNDS)} (where LBR starts to "
            "act greedily; before it, it only checks or calls)"
        )
    return HOLDEM_ROUNDS.index(name)


def _fixed(opponent: type[Agent]) -> None:
    """Raise :class:`NoFixedStrategyError` unless agents of class ``opponent`` have a fixed
    strategy LBR can query."""
    if not opponent.fixed_strategy:
        raise NoFixedStrategyError(
            f"{opponent.name} has no fixed strategy LBR can query for every holding "
            "(it adapts, or does not say what it plays); LBR needs one"
        )


class LocalBestResponse(Agent):
    """Local best response against a fixed strategy (see the module's docstring)."""

    name = "lbr"
    OPTIONS = (
        "opponent = the agent to exploit (with options as a log names it: NAME+KEY=VALUE); "
        "from = preflop|flop|turn|river"
    )

    def __init__(
        self,
        seed: int = 0,
        opponent: str | None = None,
        first_round: int = 0,
        *,
        model: Agent | None = None,
    ) -> None:
        super().__init__(seed)
        self.opponent = opponent
        self.first_round = first_round
        self.model = model
        """The opponent's copy LBR queries (made from ``opponent`` at ``begin_match``)."""
        self.range_resets = 0
        """Hands in which the opponent took an action its model gives no holding in the
        range (its range is then reset to every live holding)."""
        self._hand = -1
        self._range: FloatArray = np.zeros(0)
        self._replay: HandState | None = None
        self._applied = 0
        self._board: tuple[Card, ...] = ()
        self._own: tuple[Card, ...] = ()
        self._equity: tuple[int, tuple[Card, ...], FloatArray] | None = None
        self._small_game: dict[tuple[tuple[Card, ...], tuple[Card, ...]], FloatArray] = {}

    @classmethod
    def from_options(cls, seed: int, options: Mapping[str, str]) -> LocalBestResponse:
        """``opponent=NAME`` (required) and ``from=ROUND`` (default preflop)."""
        cls.check_options(options)
        return cls(seed, options["opponent"], round_of(options.get("from", "preflop")))

    @classmethod
    def check_options(cls, options: Mapping[str, str]) -> None:
        unknown = sorted(set(options) - {"opponent", "from"})
        if unknown:
            raise AgentOptionError(f"unknown lbr option {unknown[0]!r}; it takes: {cls.OPTIONS}")
        opponent = options.get("opponent")
        if opponent is None:
            raise AgentOptionError(f"lbr needs opponent=NAME ({cls.OPTIONS})")
        # the registry reads the plug-ins' entry points (importlib.metadata): only here
        from agents.registry import nested_spec

        if nested_spec(opponent).partition(":")[0] == cls.name:
            raise AgentOptionError("lbr cannot be its own opponent")
        round_of(options.get("from", "preflop"))

    @classmethod
    def check(cls, options: Mapping[str, str], game: Game) -> None:
        """Also the opponent: it plays ``game``, with a fixed strategy."""
        super().check(options, game)
        # the registry reads the plug-ins' entry points (importlib.metadata): only here
        from agents.registry import check_agent, create_agent, nested_spec

        spec = nested_spec(options["opponent"])
        check_agent(spec, game)
        # Made, never begun: whether it plays a fixed strategy may follow from its options
        # (plicas+freeze-after=0).
        _fixed(type(create_agent(spec, 0)))

    @classmethod
    def unsupported(cls, game: Game) -> str | None:
        if not game.is_limit or game.num_players != 2:
            return f"{cls.name} plays heads-up limit games only"
        return None

    # -- the match ----------------------------------------------------------------------

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        game = info.game
        if self.opponent is not None:
            # the registry reads the plug-ins' entry points; a rehearsal plays a match: only here
            from agents.registry import create_agent, nested_spec

            self.check_options({"opponent": self.opponent})
            self.model = create_agent(nested_spec(self.opponent), 0)
        if self.model is None:
            raise AgentOptionError(f"lbr needs opponent=NAME ({self.OPTIONS})")
        _fixed(type(self.model))
        self.model.begin_match(MatchInfo(game, name=f"{self.name}'s model"))
        self._holdings = holdings(game)
        self._hand = -1
        self.range_resets = 0
        self._equity = None
        self._holdem = (game.num_ranks, game.num_suits, game.num_hole_cards) == (13, 4, 2)
        opponent = self.opponent
        if opponent is not None:
            # Compile every kernel LBR's decisions and its model's tables reach, now.
            from agents.common.rehearsal import rehearse_once

            rehearse_once(
                f"local best response's kernels (against {opponent})",
                lambda: [LocalBestResponse(0, opponent)],
                game,
            )

    def act(self, state: MatchState, betting: BettingView) -> Action:
        hand = self._follow(state, betting)
        if betting.round < self.first_round:
            self.said(CALL_ONLY, betting)
            return CALL
        choice = self._best(state, hand)
        self.said(_ONE_HOT[choice.type], betting)
        return choice

    # -- the range ----------------------------------------------------------------------

    def _follow(self, state: MatchState, betting: BettingView) -> HandState:
        """Bring the opponent's range up to ``betting``; the hand replayed so far."""
        game = self.game
        if state.hand_number != self._hand or self._replay is None:
            self._hand = state.hand_number
            self._range = np.where(dead_holdings(game, state.own_cards), 0.0, 1.0)
            self._replay = HandState(game, state.hand_number)
            self._applied = 0
            self._board = ()
            self._own = tuple(state.own_cards)
        replay = self._replay
        board = state.board_cards
        actions = [a for round_actions in betting.actions for a in round_actions]
        for action in actions[self._applied :]:
            self._see_board(board[: game.board_total(replay.round)])
            if replay.current_player != state.position:
                visible = board[: game.board_total(replay.round)]
                table = self.model_table(replay, visible)
                self._reweight(table[:, _COLUMN[action.type]])
            replay.apply(action)
        self._applied = len(actions)
        self._see_board(board[: game.board_total(replay.round)])
        return replay

    def model_table(self, betting: BettingView, board: Sequence[Card]) -> FloatArray:
        """The model's strategy table at ``betting`` (its action) with ``board`` visible."""
        assert self.model is not None
        return self.model.strategy_table(betting, board)

    def _see_board(self, board: Sequence[Card]) -> None:
        if len(board) > len(self._board):
            new = tuple(board[len(self._board) :])
            self._reweight(np.where(dead_holdings(self.game, new), 0.0, 1.0))
            self._board = tuple(board)

    def _reweight(self, likelihood: FloatArray) -> None:
        weights = self._range * likelihood
        total = weights.sum()
        if total <= 0:
            # The model gives this action no chance with any holding left: the model is not
            # the opponent, or the range was wrong. Start again from every live holding.
            self.range_resets += 1
            weights = np.where(dead_holdings(self.game, self._live_cards()), 0.0, 1.0)
            total = weights.sum()
        self._range = weights / total

    def _live_cards(self) -> tuple[Card, ...]:
        return (*self._own, *self._board)

    # -- deciding -----------------------------------------------------------------------

    def _best(self, state: MatchState, hand: HandState) -> Action:
        equity = self._equities(state)
        weights = self._range
        total = weights.sum()
        wp = float(weights @ equity / total) if total > 0 else 0.5
        me, other = hand.current_player, 1 - hand.current_player
        level = hand.max_spent
        values: list[tuple[float, Action]] = [((2 * wp - 1) * level, CALL)]
        if hand.can_raise():
            after = hand.child(RAISE)
            board = state.board_cards
            table = self.model_table(after, board)
            fold = table[:, 0]
            fp = float(weights @ fold / total) if total > 0 else 0.0
            staying = weights * (1.0 - fold)
            left = staying.sum()
            wp_after = float(staying @ equity / left) if left > 0 else wp
            raised = after.spent[me]
            values.append((fp * hand.spent[other] + (1 - fp) * (2 * wp_after - 1) * raised, RAISE))
        if hand.can_fold():
            values.append((-float(hand.spent[me]), FOLD))
        best = max(value for value, _ in values)
        return next(action for value, action in values if value == best)

    def _equities(self, state: MatchState) -> FloatArray:
        """LBR's showdown equity against each holding (0 for dead ones), on the board it
        sees (kept for the round)."""
        board = state.board_cards
        key = (state.hand_number, board)
        if self._equity is not None and self._equity[:2] == key:
            return self._equity[2]
        if self._holdem and len(board) in (0, 3, 4, 5) and self.game.num_rounds == 4:
            equity = showdown_equities(state.own_cards, board)
        else:
            equity = self._enumerated(state.own_cards, board)
        self._equity = (state.hand_number, board, equity)
        return equity

    def _enumerated(self, own: Sequence[Card], board: Sequence[Card]) -> FloatArray:
        """Exact equities by enumerating every runout (games with few cards, e.g. Leduc;
        the last few thousand kept, as such games repeat their cards often)."""
        key = (tuple(own), tuple(board))
        known = self._small_game.get(key)
        if known is not None:
            return known
        if len(self._small_game) >= _SMALL_GAME_KEPT:
            self._small_game.clear()
        equity = self._small_game[key] = self._enumerate(own, board)
        return equity

    def _enumerate(self, own: Sequence[Card], board: Sequence[Card]) -> FloatArray:
        # numba: compiled and loaded when first used
        from acpcbot.handeval.equity import enumerated_equity

        game = self.game
        board_size = game.board_total(game.num_rounds - 1)
        out = np.zeros(len(self._holdings))
        for index, cards in enumerate(self._holdings.tolist()):
            if not set(cards) & {*own, *board}:
                out[index] = enumerated_equity(game.deck(), board_size, own, cards, board)
        return out

    def __repr__(self) -> str:
        return f"LocalBestResponse(seed={self.seed}, opponent={self.opponent!r})"
