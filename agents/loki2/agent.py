"""``loki2``: a Loki-2-style simulation player (Billings, Peña, Schaeffer & Szafron 1999).

* **Opponent modelling.** A weight table over the opponent's 1326 holdings
  (:class:`agents.common.weights.WeightTable`) starts uniform each hand, loses the holdings
  that meet our cards and the board, and after each opponent action is multiplied by that
  action's probability for every holding under the opponent's fitted policy
  (:class:`agents.common.betpolicy.PolicyFit`: Saund's factored policy over the holding's
  strength, mixed with the opponent's observed frequencies by how predictable its showdowns
  have shown it to be) and normalised — Loki-2 §4, Saund eq. 4.
* **Deciding.** Selective-sampling simulation (:mod:`agents.loki2.simulation`): trials draw
  the opponent's holding from the weights, play the hand out after a call and after a
  raise with triples for every later decision of both players, and give the EV of each;
  folding is worth 0. The best EV is played, a tie going to the more aggressive action;
  an obvious move ends the simulation early.

The choice is a :class:`~agents.triple.Triple` (all on the chosen action), sampled with the
agent's seeded RNG like every agent's; the simulation's own random numbers come from that
RNG too, so a seed repeats every decision. Everything the agent learns lives for one match.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from acpcbot.actions import Action, format_betting
from acpcbot.game import Game
from acpcbot.handeval.combos import COMBO_CARDS, combo_index
from acpcbot.player import BettingView, HandResult, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent
from agents.common.betpolicy import DEFAULT, PolicyFit
from agents.common.bettingtree import betting_tree
from agents.common.decisions import Decision, DecisionTracker, later_bets
from agents.common.rehearsal import rehearse_once, rehearses
from agents.common.weights import WeightTable, holding_strengths
from agents.loki2.config import Loki2Config
from agents.triple import Triple

__all__ = ["Loki2"]

_PARAMS = DEFAULT.array()


class Loki2(Agent):
    """Selective-sampling simulation over a Bayesian weight table."""

    name = "loki2"
    CONFIG: ClassVar[Loki2Config] = Loki2Config()

    def __init__(self, seed: int = 0, config: Loki2Config | None = None) -> None:
        super().__init__(seed)
        self.config = self.CONFIG if config is None else config
        self.last_trials = 0
        """Trials the last decision's simulation played (fewer than ``trials`` after an
        obvious move)."""
        self.last_evs = np.zeros(6)
        """EVs of fold, call and raise of the last decision and their standard deviations,
        in chips."""

    @classmethod
    def from_options(cls, seed: int, options: Mapping[str, str]) -> Loki2:
        """The agent with ``options`` (``KEY=VALUE`` of the agent spec) applied."""
        return cls(seed, cls.CONFIG.with_options(options))

    @classmethod
    def check_options(cls, options: Mapping[str, str]) -> None:
        cls.CONFIG.with_options(options)

    @classmethod
    def unsupported(cls, game: Game) -> str | None:
        return None if rehearses(game) else f"{cls.name} plays heads-up limit hold'em only"

    # -- match and hands ----------------------------------------------------------------

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        # numba: compiled and loaded when first used
        from agents.loki2 import simulation

        self._simulation = simulation
        game = info.game
        self._tree = betting_tree(game)
        self._later = np.array([later_bets(game, r) for r in range(game.num_rounds)], np.int64)
        c = self.config
        self._limits = np.array(
            [c.trials, c.min_trials, c.check_every, c.strength_samples, int(c.cutoff)],
            dtype=np.int64,
        )
        self.fit = PolicyFit(shapes=True, folds_revealed=False, fold_edges=True)
        self.weights = WeightTable()
        self._hand_number = -1
        self._tracker = DecisionTracker(game)
        self._opponent_turns: list[tuple[Decision, int]] = []
        rehearse_once("loki2's kernels", lambda: [Loki2(0)], game)

    def observe(self, state: MatchState, betting: BettingView) -> None:
        if state.hand_number != self._hand_number:
            self._hand_number = state.hand_number
            self.weights.reset(state.own_cards)
            self._opponent_turns = []
        self._read_actions(state)

    def _read_actions(self, state: MatchState) -> None:
        """Re-weight the opponent's table by each of its actions not seen before."""
        game = self.game
        opponent = 1 - state.position
        board = state.board_cards
        for turn in self._tracker.new(state.hand_number, state.betting):
            if turn.actor != opponent:
                continue
            shown = board[: game.board_total(turn.round)]
            self.fit.reweight(self.weights, turn, shown)
            self._opponent_turns.append((turn, len(shown)))

    def end_hand(self, result: HandResult) -> None:
        state = result.state
        self._read_actions(state)
        shown = state.hole_cards[1 - state.position]
        board = state.board_cards
        for turn, cards in self._opponent_turns:
            strength = None
            if shown:  # its cards say how far its actions followed them
                strength = float(holding_strengths(board[:cards])[combo_index(*shown)])
            self.fit.learn(turn, strength)

    # -- deciding -----------------------------------------------------------------------

    def _shapes(self) -> npt.NDArray[np.float64]:
        shapes = self.fit.shapes
        return shapes if shapes is not None else np.zeros((4, 2, 3, 1, 3))

    def act(self, state: MatchState, betting: BettingView) -> Action:
        board = state.board_cards
        self.weights.remove(board)
        weights = self.weights.normalise()
        strengths = holding_strengths(board)
        hole = state.own_cards
        own = float(strengths[combo_index(*hole)])
        tree = self._tree
        simulation = self._simulation
        prob, alias = simulation.alias_table(weights)
        out = np.zeros(6)
        self.last_trials = simulation.simulate(
            np.asarray(hole, dtype=np.int64),
            np.asarray(board, dtype=np.int64),
            (prob * 2.0**32).astype(np.int64),
            alias,
            COMBO_CARDS,
            own,
            strengths,
            tree.table,
            tree.decision_node(format_betting(betting.actions)),
            self._later,
            _PARAMS,
            self.fit.frequency_table(),
            self.fit.predictabilities(),
            self._shapes(),
            self.fit.SHAPE_PRIOR if self.fit.shapes is not None else 0.0,
            *self.fit.edge_table(),
            self._limits,
            self.rng.getrandbits(63),
            out,
        )
        self.last_evs = out
        legal = np.array([betting.can_fold(), True, betting.can_raise()])
        choice = int(simulation.best_action(out[:3], legal))
        # All on the action the EVs chose; kept as the decision's probabilities.
        return self.sample(Triple.of(*(float(choice == action) for action in range(3))), betting)
