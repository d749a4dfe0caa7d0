"""Noticing a change and forgetting what is stale: PLICAS's detector flags a switch from
calling to raising within 300 hands and a fixed bot never over 50,000 hands, and every unit
that learns forgets through the one memory."""

from __future__ import annotations

import random

import pytest

from acpcbot.actions import Action
from acpcbot.game import bundled_game
from acpcbot.handeval.combos import class_of, combo_index
from acpcbot.player import BettingView, HandResult, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import HandState
from agents.base import Agent
from agents.common.handloop import play_hand, random_deal
from agents.common.tables import class_top_share, preflop_equity
from agents.kendall import (
    TIGHT_AGGRESSIVE,
    TIGHT_PASSIVE,
    Style,
    preflop_style_triple,
    style_triple,
)
from agents.plicas.agent import Plicas
from agents.plicas.change import ChangeDetector
from agents.plicas.memory import Memory
from agents.registry import create_agent
from tests.agents.matches import play_match

GAME = bundled_game()


@pytest.mark.slow
def test_a_switch_from_calling_to_raising_is_noticed_within_300_hands() -> None:
    plicas = create_agent("plicas", 3)
    assert isinstance(plicas, Plicas)
    switch = create_agent("switch:phases=always-call/always-raise,at=1000", 4)
    play_match(GAME, [plicas, switch], 1300, seed=5)
    assert plicas.detector is not None
    changes = plicas.detector.changes
    assert changes, "no change noticed"
    assert 1000 <= changes[0] < 1300  # not before the switch, within 300 hands of it
    assert plicas.memory.changes == len(changes)


class Watcher(Agent):
    """An agent that plays ``inner`` and watches its opponent with PLICAS's memory and
    change detector, as PLICAS does (what it sees, hand by hand)."""

    def __init__(self, inner: Agent) -> None:
        super().__init__(0)
        self.inner = inner
        self.memory = Memory(10_000)
        self.detector = ChangeDetector(self.memory)
        self.showdowns = 0

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        self.inner.begin_match(info)

    def observe(self, state: MatchState, betting: BettingView) -> None:
        self.inner.observe(state, betting)
        self.detector.follow(state, betting)

    def act(self, state: MatchState, betting: BettingView):  # type: ignore[no-untyped-def]
        return self.inner.act(state, betting)

    def end_hand(self, result: HandResult) -> None:
        self.inner.end_hand(result)
        state = result.state
        shown = state.hole_cards[1 - state.position]
        self.showdowns += bool(shown)
        self.memory.next_hand()
        self.detector.end_hand(combo_index(*shown) if shown else None, state.board_cards)


class HoleCardStyle(Agent):
    """A fixed bot as cheap as a table lookup: one of Kendall's styles
    (:mod:`agents.kendall`), its strength after the flop the equity of its starting hand
    against a random one instead of the styles' Monte-Carlo estimate on the board. Its
    play still depends on its cards (which hands fold, call, raise or bluff) and draws its
    raises and bluffs from its seeded stream, and it never changes: what a fixed opponent
    is to the change detector, without the estimate that is most of a style's cost."""

    def __init__(self, style: Style, seed: int) -> None:
        super().__init__(seed)
        self.style = style
        self.top_share = class_top_share()
        self.equity = preflop_equity()

    def act(self, state: MatchState, betting: BettingView) -> Action:
        k = class_of(*state.own_cards)
        facing, can_raise = betting.amount_to_call() > 0, betting.can_raise()
        if betting.round == 0:
            share = float(self.top_share[k])
            triple = preflop_style_triple(self.style, share, facing, can_raise, betting.pot)
        else:
            strength = float(self.equity[k])
            triple = style_triple(self.style, strength, facing, can_raise, betting.pot)
        return self.sample(triple, betting)


@pytest.mark.slow
def test_a_fixed_bot_is_never_flagged_over_50000_hands() -> None:
    """The false alarms of a long stationary stretch: 50,000 hands (five times the memory's
    10,000) of a bot that never changes, which shows its hand at more than 10,000 of them,
    and the CUSUM never comes within half of its threshold. The bots read their strength
    from a table, so that the hands cost little besides what the detector costs (what it
    follows of every action, and the buckets of every hand shown on its real boards); what
    it watches is what it watches in a match: every decision of an opponent whose play
    depends on its cards and on its random stream, and the hands it shows — as many as the
    Monte-Carlo styles showed, at half the time."""
    watcher = Watcher(HoleCardStyle(TIGHT_PASSIVE, 1))
    bot = HoleCardStyle(TIGHT_AGGRESSIVE, 2)
    for agent in (watcher, bot):
        agent.begin_match(MatchInfo(GAME))
    deals = random.Random(7)
    for number in range(50_000):
        seats = (watcher, bot) if number % 2 == 0 else (bot, watcher)
        play_hand(GAME, number, random_deal(GAME, deals), seats)
    assert watcher.showdowns > 10_000  # the view of what it holds is fed, not only its actions
    assert watcher.detector.changes == []
    assert watcher.detector.peak < watcher.detector.threshold / 2  # by a wide margin


def test_every_unit_that_learns_forgets_through_the_one_memory() -> None:
    plicas = create_agent("plicas:memory=200", 3)
    assert isinstance(plicas, Plicas)
    play_match(GAME, [plicas, create_agent("always-raise", 4)], 120, seed=5)
    memory = plicas.memory
    detector = plicas.detector
    assert detector is not None
    root = HandState(GAME)

    def counts() -> list[float]:
        """What each unit has seen, as it weighs it now."""
        model = plicas.model
        return [
            float(model.total("counts").sum()),  # the opponent model (DPRC, DPAC read it)
            float(model.total("preflop_decisions")),
            float(plicas.calibration.counts.sum()) / memory.scale,  # the showdown calibration
            float(sum(h.sum() for h in plicas.cases._index.values())) / memory.scale,
            plicas.exploitation.model.evidence(root),  # the action model
            float(sum(v.sum() for v in detector.long[0].counts.values())) / memory.scale,
        ]

    before = counts()
    assert all(value > 0 for value in before), before  # every unit has learned something
    memory.next_hand()  # a hand passes with nothing seen: every count fades
    assert counts() == pytest.approx([v * (1 - 1 / 200) for v in before])
    memory.discount()  # a change: every count keeps `forget` of its weight
    kept = [v * (1 - 1 / 200) * plicas.config.forget for v in before]
    assert counts() == pytest.approx(kept)
    memory.fold()  # the scale folded into every unit's stored counts: nothing changes
    assert counts() == pytest.approx(kept)
