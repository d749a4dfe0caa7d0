"""``river-bluffer``: its base everywhere but with weak river hands, which bet at one rate,
then at another from hand ``at`` (real in-process matches, the log read back)."""

from __future__ import annotations

import pytest

from acpcbot.actions import ActionType
from acpcbot.game import bundled_game
from agents.common.weights import holding_strengths
from agents.errors import AgentSpecError
from agents.registry import create_agent
from tests.agents.matches import Decision, decisions_of, play_match

GAME = bundled_game()
RIVER = 3


def river_decisions(spec: str, hands: int, seed: int = 9) -> list[tuple[Decision, float]]:
    """The trap's river decisions against always-call, each with its hand's strength."""
    lines = play_match(GAME, [create_agent(spec, 3), create_agent("always-call", 4)], hands, seed)
    return [
        (d, float(holding_strengths(d.board)[_index(d)]))
        for d in decisions_of("p0", lines, GAME)
        if d.state.round == RIVER
    ]


def _index(decision: Decision) -> int:
    from acpcbot.handeval.combos import combo_index

    return combo_index(*decision.hole)


def test_weak_river_hands_bet_at_the_rate_then_at_the_jump() -> None:
    seen = river_decisions("river-bluffer:base=always-call,rate=0,jump=1,at=150,weak=0.3", 300)
    before = [d.action for d, s in seen if s < 0.3 and d.hand < 150]
    after = [d.action for d, s in seen if s < 0.3 and d.hand >= 150]
    strong = [d.action for d, s in seen if s >= 0.3]
    assert len(before) > 20 and len(after) > 20
    assert set(before) == {ActionType.CALL}  # checked (always-call never bets into it)
    assert set(after) == {ActionType.RAISE}
    assert set(strong) == {ActionType.CALL}  # the base, always-call, plays the rest


def test_a_rate_between_is_a_frequency() -> None:
    seen = river_decisions("river-bluffer:base=always-call,rate=0.5,at=100000", 600)
    weak = [d.action is ActionType.RAISE for d, s in seen if s < 0.3]
    assert len(weak) > 100
    assert 0.35 < sum(weak) / len(weak) < 0.65


def test_the_same_seeds_play_the_same_match() -> None:
    def lines() -> list[str]:
        players = [create_agent("river-bluffer:at=20", 3), create_agent("example", 4)]
        return play_match(GAME, players, 40, seed=9)

    assert lines() == lines()


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        ("river-bluffer:rate=2", "rate=2: a number from 0 to 1"),
        ("river-bluffer:jump=x", "jump=x: a number from 0 to 1"),
        ("river-bluffer:at=0", "at=0: a number of hands"),
        ("river-bluffer:base=nobody", "unknown agent 'nobody'"),
        ("river-bluffer:colour=red", "unknown river-bluffer option 'colour'"),
    ],
)
def test_bad_options_are_refused(spec: str, error: str) -> None:
    with pytest.raises(AgentSpecError, match=error):
        create_agent(spec, 1)
