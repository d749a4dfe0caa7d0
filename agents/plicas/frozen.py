"""A frozen PLICAS's strategy: its probabilities at a public state, for every holding at once.

``plicas:freeze-after=N`` stops learning after ``N`` hands of the match: its opponent model,
showdown calibration, case base, DPRC range and action model stay as they are, and from then
on it plays :class:`FrozenPolicy` — one fixed strategy, which (as
:meth:`agents.base.Agent.strategy_table`) it gives for all 1326 holdings at any public
state, so that local best response (``acpcbot lbr``) can measure it. Its play is PLICAS's
with three changes that make the strategy a function of the public state and the holding
alone:

* **no sampling noise** — the hand readings are exact equities (every fourth runout on the
  flop, every runout after it: :func:`agents.common.showdowns.showdown_equities_all`), not
  600 sampled showdowns;
* **DPAC's draw averaged** — the rule units' triple is the mixture over DPAC's shifts of the
  own bucket, each with its probability, instead of one drawn shift;
* **card removal at the end** — the opponent's ranges (the rule units' weight table and
  the exploitation unit's range) are followed from the public betting alone and the
  holdings that meet our cards are dropped at the decision, not at the start of the hand
  (a few holdings' weight in the percentiles the likelihoods read).

Everything else is PLICAS's own code: the rule units' triples per holding (the same
functions), the exploitation unit's walk of the betting round with every holding's values
at once (:class:`_Walk`: the opponent's splits are the same for every holding; the
check-down equities of all holdings against each range left come from one sweep per
runout), its confidence, the merge. A table takes tens of milliseconds (most on the flop);
the last few are kept, since local best response asks the same state more than once.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from acpcbot.actions import Action, ActionType
from acpcbot.cards import Card
from acpcbot.game import Game
from acpcbot.handeval.combos import COMBO_CLASS, NUM_COMBOS
from acpcbot.player import BettingView
from acpcbot.rules import CALL, FOLD, RAISE, HandState
from agents.common.showdowns import disjoint_sums, showdown_equities_all
from agents.common.weights import COMBOS_WITH_CARD
from agents.known import StrategyTable, dead_holdings, legal_rows
from agents.plicas.buckets import bucket_of
from agents.plicas.calibration import Calibration
from agents.plicas.config import PlicasConfig
from agents.plicas.dpac import shift_probabilities
from agents.plicas.exploitation import (
    FLOP_STRIDE,
    RIVER,
    TURN,
    ExploitationUnit,
    river_cards,
)
from agents.plicas.holdingbuckets import fine_buckets
from agents.plicas.merge import merge
from agents.plicas.model import OpponentAction, OpponentProfile, context_level
from agents.plicas.preflop import preflop_triple
from agents.plicas.reading import Reading
from agents.plicas.situation import Situation
from agents.plicas.strength import HandReader
from agents.plicas.tables import PlicasTables
from agents.plicas.weights import RangeWeights
from agents.triple import Triple

if TYPE_CHECKING:
    from agents.plicas.actionmodel import ActionModel

__all__ = ["FrozenPolicy"]

FloatArray = npt.NDArray[np.float64]
_KEPT = 32
"""Tables kept (by public state)."""


class _Public:
    """What every holding of a frozen PLICAS has in common at a public state: the betting
    replayed, the rule units' weight table and the exploitation unit's range followed
    through the opponent's actions (our cards removed at the decision, not before)."""

    def __init__(self, policy: FrozenPolicy, me: int) -> None:
        self.policy = policy
        self.me = me
        self.hand = HandState(policy.game)
        self.actions: list[Action] = []
        self.board: tuple[Card, ...] = ()
        self.weights = RangeWeights(policy.agent.tables)
        self.weights.reset(())
        self.unit = ExploitationUnit(policy.actions, policy.agent.config.exploit_evidence)
        self.unit.start(())

    def extends_to(self, me: int, actions: Sequence[Action], board: Sequence[Card]) -> bool:
        """Whether the state after ``actions`` with ``board``, ``me`` to act, follows on from
        this one."""
        done = len(self.actions)
        return (
            me == self.me
            and len(actions) >= done
            and list(actions[:done]) == self.actions
            and tuple(board[: len(self.board)]) == self.board
        )

    def advance(self, actions: Sequence[Action], board: Sequence[Card]) -> None:
        """Replay the rest of ``actions`` (the opponent's re-weight both ranges)."""
        game = self.policy.game
        profile, calibration = self.policy.profile, self.policy.calibration
        for action in actions[len(self.actions) :]:
            hand = self.hand
            visible = tuple(board[: game.board_total(hand.round)])
            if hand.current_player != self.me:
                event = OpponentAction(
                    round=hand.round,
                    position=hand.current_player,
                    facing=hand.amount_to_call() > 0,
                    level=context_level(hand.num_raises),
                    action=action.type,
                    board=visible,
                )
                self.weights.update(event, profile, calibration)
                self.unit.opponent_acted(hand, action.type, visible)
            hand.apply(action)
            self.actions.append(action)
        self.board = tuple(board[: game.board_total(self.hand.round)])
        self.unit.see_board(self.board)


class FrozenAgent(Protocol):
    """What a policy reads of the PLICAS it freezes (:class:`agents.plicas.agent.Plicas`,
    which imports this module)."""

    config: PlicasConfig
    tables: PlicasTables
    reader: HandReader
    exploitation: ExploitationUnit

    @property
    def game(self) -> Game: ...

    def reading_profile(self) -> OpponentProfile: ...

    def reading_calibration(self) -> Calibration: ...

    def current_range(self) -> float: ...

    def postflop_weighted(
        self,
        situation: Situation,
        betting: BettingView,
        reading: Reading,
        profile: OpponentProfile,
        shift: Callable[[], int],
    ) -> list[tuple[Triple, float]]: ...


class FrozenPolicy:
    """The strategy of a PLICAS that learns no more (see the module's docstring)."""

    def __init__(self, agent: FrozenAgent) -> None:
        self.agent = agent
        self.game = agent.game
        self.profile = agent.reading_profile()
        self.calibration = agent.reading_calibration()
        self.actions: ActionModel = agent.exploitation.model
        self.own_range = agent.current_range()
        self._public: _Public | None = None
        self._tables: OrderedDict[tuple[object, ...], StrategyTable] = OrderedDict()

    def table(self, betting: BettingView, board: Sequence[Card]) -> StrategyTable:
        """The probabilities (fold, call, raise) with which the player to act at
        ``betting`` plays each holding with ``board`` visible (0 for dead holdings)."""
        game = self.game
        visible = tuple(board[: game.board_total(betting.round)])
        flat = tuple(a for round_actions in betting.actions for a in round_actions)
        key = (flat, visible)
        known = self._tables.get(key)
        if known is not None:
            self._tables.move_to_end(key)
            return known
        me = betting.current_player
        public = self._public
        if public is None or not public.extends_to(me, flat, visible):
            public = self._public = _Public(self, me)
        public.advance(flat, visible)
        table = self._compute(public, betting, visible)
        table.setflags(write=False)
        self._tables[key] = table
        if len(self._tables) > _KEPT:
            self._tables.popitem(last=False)
        return table

    # -- one public state ---------------------------------------------------------------

    def _compute(
        self, public: _Public, betting: BettingView, board: tuple[Card, ...]
    ) -> StrategyTable:
        agent = self.agent
        hand = public.hand
        situation = Situation.at(betting, (), board)
        weights = public.weights.weights
        live = ~dead_holdings(self.game, board)
        ranges: Ends = []
        if situation.round > 0:
            read = agent.reader.postflop_ranges(situation, weights, self.profile)
            ranges.extend((board, w) for w in read)
        config = agent.config
        ahead = config.ahead if hand.amount_to_call() == 0 else 0  # as the unit looks ahead
        walk = _Walk(self.actions, board, hand.current_player, hand.round, ahead)
        exploit = config.exploit
        walked = np.where(live, public.unit.range.weights, 0.0)
        ours = [hand.child(CALL)] + ([hand.child(RAISE)] if hand.can_raise() else [])
        if exploit:
            for child in ours:
                ranges.extend(walk.ends(child, walked))
        equities = iter(equities_at(ranges))
        if situation.round == 0:
            readings = agent.reader.preflop_by_class(situation, weights, self.profile)
            steal_fold = self.profile.fold_to_bet(0, situation.opponent, 1)
            by_class = [
                preflop_triple(situation, reading, self.own_range, steal_fold)
                for reading in readings
            ]
            baseline = np.array([_row(t) for t in by_class])[COMBO_CLASS]
        else:
            strength, called = next(equities), next(equities)
            baseline = self._postflop(situation, betting, strength, called, live)
        if exploit:  # merged by confidence, as Plicas._decide merges the two
            values = [walk.value(child, walked, equities) for child in ours]
            advice, confidence = self._advice(public, values)
            baseline = (1.0 - confidence)[:, None] * baseline + confidence[:, None] * advice
        table = legal_rows(baseline, betting)
        table[~live] = 0.0
        return table

    def _postflop(
        self,
        situation: Situation,
        betting: BettingView,
        strength: FloatArray,
        called: FloatArray,
        live: npt.NDArray[np.bool_],
    ) -> FloatArray:
        """The rule units' merged triple of every holding, one row each (dead ones: 0)."""
        from acpcbot.handeval.holdings import holdings_against_random  # numba: when first used

        agent = self.agent
        profile = self.profile
        wins, ties, played = holdings_against_random(situation.board)
        random_hand = np.divide(wins + ties / 2, played, out=np.zeros_like(wins), where=played > 0)
        strength = np.clip(strength, 0.0, 1.0)
        called = np.clip(called, 0.0, 1.0)
        shifts = self._shifts()
        out = np.zeros((NUM_COMBOS, 3))
        for h in np.flatnonzero(live).tolist():
            hs = float(random_hand[h])
            reading = Reading(float(strength[h]), float(called[h]), hs, bucket_of(hs))
            mixed: list[tuple[Triple, float]] = []
            for s, p in shifts:
                shift = _Shift(s)
                weighted = agent.postflop_weighted(situation, betting, reading, profile, shift)
                if not shift.asked:  # no shift was read: every shift gives these triples
                    mixed = weighted
                    break
                mixed.extend((t, p * w) for t, w in weighted)  # the weights sum alike
            out[h] = _row(merge(mixed, betting))
        return out

    def _shifts(self) -> list[tuple[int, float]]:
        """DPAC's shifts of the own bucket with their probabilities."""
        if not self.agent.config.dpac:
            return [(0, 1.0)]
        up, down = shift_probabilities(self.profile.postflop_aggression, self.profile.range)
        shifts = [(0, 1.0 - up - down), (1, up), (-1, down)]
        return [(s, p) for s, p in shifts if p > 0]

    def _advice(self, public: _Public, values: list[FloatArray]) -> tuple[FloatArray, FloatArray]:
        """The exploitation unit's pure triple (a row each) and confidence for every
        holding, from the values of a call and (when legal) a raise."""
        hand = public.hand
        unit = public.unit
        best = values[0]
        choice = np.full(NUM_COMBOS, 1)
        if len(values) > 1:
            choice = np.where(values[1] > best, 2, choice)
            best = np.maximum(best, values[1])
        if hand.can_fold():
            choice = np.where(-float(hand.spent[hand.current_player]) > best, 0, choice)
        passive = unit.confidence(hand, ActionType.CALL)
        raising = unit.confidence(hand, ActionType.RAISE) if hand.can_raise() else 0.0
        confidence = np.asarray((passive, passive, raising))[choice]
        return np.eye(3)[choice], confidence


def _row(triple: Triple) -> tuple[float, float, float]:
    return (triple.fold, triple.call, triple.raise_)


class _Shift:
    """DPAC's shift, fixed, that remembers whether the rules read it."""

    def __init__(self, shift: int) -> None:
        self.shift = shift
        self.asked = False

    def __call__(self) -> int:
        self.asked = True
        return self.shift


Ends = list[tuple[tuple[Card, ...], FloatArray]]
"""The ranges a walk reaches a check-down with, each with the board it is on."""


def equities_at(ends: Ends) -> list[FloatArray]:
    """Every holding's chance against each range of ``ends`` on its board, in order (one
    sweep per board)."""
    by_board: dict[tuple[Card, ...], list[int]] = {}
    for number, (board, _) in enumerate(ends):
        by_board.setdefault(board, []).append(number)
    found: list[FloatArray] = [np.zeros(0)] * len(ends)
    for board, numbers in by_board.items():
        ranges = np.stack([ends[n][1] for n in numbers])
        for n, equity in zip(
            numbers, showdown_equities_all(board, ranges, FLOP_STRIDE), strict=True
        ):
            found[n] = equity
    return found


class _Walk:
    """The exploitation unit's walk of the rest of the betting round
    (:class:`agents.plicas.exploitation._RoundWalk`) with every holding's values at once:
    the opponent's range splits the same way whatever our holding; only the share of each
    part (our cards' holdings left out) and the check-down equities differ, and those come
    from one computation for every range the walk reaches (it walks twice: once to find the
    ranges at its check-downs, once to value them). From the turn it looks into the river's
    betting over the same river cards the unit does (:func:`river_cards`)."""

    def __init__(
        self,
        actions: ActionModel,
        board: tuple[Card, ...],
        me: int,
        round_: int,
        ahead: int = 0,
    ) -> None:
        self.actions = actions
        self.board = board
        buckets = fine_buckets(board)
        self.live = buckets >= 0
        self.index = np.maximum(buckets, 0)
        self.me = me
        self.last_round = round_
        self.rivers: list[tuple[Card, _Walk]] = []
        if ahead and round_ == TURN:
            for card in river_cards(board, ahead):
                self.rivers.append((card, _Walk(actions, (*board, card), me, RIVER)))

    def ends(self, hand: HandState, weights: FloatArray) -> Ends:
        """The ranges (with their boards) the walk from ``hand`` checks down with, in order."""
        found: Ends = []

        def collect(board: tuple[Card, ...], range_left: FloatArray) -> FloatArray:
            found.append((board, range_left))
            return np.zeros(NUM_COMBOS)

        self._walk(hand, weights, collect)
        return found

    def value(
        self, hand: HandState, weights: FloatArray, equities: Iterator[FloatArray]
    ) -> FloatArray:
        """Every holding's value of ``hand`` (our action just taken) against ``weights``,
        with ``equities`` every holding's chance against each range :meth:`ends` gave, in
        its order."""
        return self._walk(hand, weights, lambda _board, _range: next(equities))

    def _walk(
        self,
        hand: HandState,
        weights: FloatArray,
        end: Callable[[tuple[Card, ...], FloatArray], FloatArray],
    ) -> FloatArray:
        me = self.me
        if hand.folded[me]:
            return np.full(NUM_COMBOS, -float(hand.spent[me]))
        if hand.folded[1 - me]:
            return np.full(NUM_COMBOS, float(hand.spent[1 - me]))
        if self.rivers and not hand.finished and hand.round > self.last_round:
            return self._river(hand, weights, end)
        if hand.finished or hand.round > self.last_round:
            wp = end(self.board, weights)
            return (2 * wp - 1) * hand.spent[me]
        if hand.current_player == me:
            best = self._walk(hand.child(CALL), weights, end)
            if hand.can_raise():
                best = np.maximum(best, self._walk(hand.child(RAISE), weights, end))
            if hand.can_fold():
                best = np.maximum(best, -float(hand.spent[me]))
            return best
        table = self.actions.probabilities(hand)
        total = disjoint_sums(weights)[0]
        value = np.zeros(NUM_COMBOS)
        for action, column in ((FOLD, 0), (CALL, 1), (RAISE, 2)):
            if (column == 0 and not hand.can_fold()) or (column == 2 and not hand.can_raise()):
                continue
            likelihood = np.where(self.live, table[self.index, column], 0.0)
            taken = weights * likelihood
            if float(taken.sum()) <= 0:
                continue
            share = np.divide(
                disjoint_sums(taken)[0], total, out=np.zeros(NUM_COMBOS), where=total > 0
            )
            value += share * self._walk(hand.child(action), taken, end)
        return value

    def _river(
        self,
        hand: HandState,
        weights: FloatArray,
        end: Callable[[tuple[Card, ...], FloatArray], FloatArray],
    ) -> FloatArray:
        """The river walked from the end of the turn over the river cards, each holding's
        values averaged over the cards it does not hold, weighted by the range's mass that
        does not hold them either."""
        total = np.zeros(NUM_COMBOS)
        mass = np.zeros(NUM_COMBOS)
        for card, walk in self.rivers:
            kept = weights.copy()
            kept[COMBOS_WITH_CARD[card]] = 0.0
            if float(kept.sum()) <= 0:
                continue
            share = disjoint_sums(kept)[0]
            share[COMBOS_WITH_CARD[card]] = 0.0  # our holdings that hold the card
            total += share * walk._walk(hand, kept, end)
            mass += share
        return np.divide(total, mass, out=np.zeros(NUM_COMBOS), where=mass > 0)
