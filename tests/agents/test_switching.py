"""``switch``: one agent for the first hands, then another (and another), in a real
in-process match."""

from __future__ import annotations

import pytest

from acpcbot.actions import ActionType
from acpcbot.game import bundled_game
from agents.errors import AgentOptionError
from agents.registry import create_agent
from tests.agents.matches import decisions_of, play_match

GAME = bundled_game()


def raised_by_hand(name: str, lines: list[str], hands: int) -> list[bool]:
    """Whether ``name`` raised in each hand of a log."""
    raised = [False] * hands
    for decision in decisions_of(name, lines, GAME):
        raised[decision.hand] |= decision.action is ActionType.RAISE
    return raised


def test_it_plays_the_first_agent_then_the_second() -> None:
    switcher = create_agent("switch:first=always-call,then=always-raise,after=30", 3)
    lines = play_match(GAME, [switcher, create_agent("always-call", 4)], 60, seed=9)
    raised = raised_by_hand("p0", lines, 60)
    assert not any(raised[:30])  # always-call never raises
    assert all(raised[30:])  # always-raise always can, against a caller


def test_three_phases_whose_agents_carry_options() -> None:
    spec = "switch:phases=always-call/river-bluffer+base=always-raise+at=1000/always-call,at=20/40"
    lines = play_match(GAME, [create_agent(spec, 3), create_agent("always-call", 4)], 60, seed=9)
    raised = raised_by_hand("p0", lines, 60)
    assert not any(raised[:20])
    assert all(raised[20:40])  # the river-bluffer's base is always-raise, as its option says
    assert not any(raised[40:])


def test_the_same_seeds_play_the_same_match() -> None:
    spec = "switch:phases=example/always-call/example,at=10/20"

    def lines() -> list[str]:
        return play_match(GAME, [create_agent(spec, 3), create_agent("example", 4)], 30, seed=9)

    assert lines() == lines()


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        ("switch:first=always-call,then=always-raise", "switch needs after="),
        ("switch:first=switch,then=always-raise,after=5", "a switch cannot be inside another"),
        ("switch:first=always-call,then=always-raise,after=0", "a number of hands"),
        ("switch:first=always-call,then=always-raise,after=5,x=1", "option 'x' does not go"),
        ("switch:phases=always-call/always-raise", "switch needs at="),
        ("switch:phases=always-call,at=5", "1 phases need 1 start"),
        ("switch:phases=always-call/example/always-raise,at=5", "3 phases need 2 start"),
        ("switch:phases=always-call/example/always-raise,at=9/5", "starts must increase"),
        ("switch:phases=always-call/plicas+dprc,at=5", r"\+KEY=VALUE"),
        ("switch:phases=always-call/plicas+dprc=maybe,at=5", "dprc is on or off"),
        ("switch:phases=a/b,at=5,y=2", "unknown switch option 'y'"),
    ],
)
def test_bad_options_are_refused(spec: str, error: str) -> None:
    with pytest.raises(AgentOptionError, match=error):
        create_agent(spec, 1)
