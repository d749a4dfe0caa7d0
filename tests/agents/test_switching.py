"""``switch``: one agent for the first hands, then another, in a real in-process match."""

from __future__ import annotations

import pytest

from acpcbot.game import bundled_game
from acpcbot.protocol.logfile import parse_state_line
from agents.errors import AgentOptionError
from agents.registry import create_agent
from tests.agents.matches import play_match

GAME = bundled_game()


def raised_by(name: str, line: str) -> bool:
    """Whether ``name`` raised in the hand of a STATE line (positions alternate by hand)."""
    record = parse_state_line(line)
    position = record.names.index(name)
    first = GAME.first_player
    for round_, actions in enumerate(record.betting):
        actor = first[round_]
        for action in actions:
            if actor == position and action.type.name == "RAISE":
                return True
            actor = 1 - actor if action.type.name != "FOLD" else actor
    return False


def test_it_plays_the_first_agent_then_the_second() -> None:
    switcher = create_agent("switch:first=always-call,then=always-raise,after=30", 3)
    lines = play_match(GAME, [switcher, create_agent("always-call", 4)], 60, seed=9)
    raised = [raised_by("p0", line) for line in lines if line.startswith("STATE:")]
    assert len(raised) == 60
    assert not any(raised[:30])  # always-call never raises
    assert all(raised[30:])  # always-raise always can, against a caller


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        ("switch:first=always-call,then=always-raise", "switch needs after="),
        ("switch:first=switch,then=always-raise,after=5", "an agent's name, no options"),
        ("switch:first=always-call,then=always-raise,after=0", "a number of hands"),
        ("switch:first=always-call,then=always-raise,after=5,x=1", "unknown switch option 'x'"),
    ],
)
def test_bad_options_are_refused(spec: str, error: str) -> None:
    with pytest.raises(AgentOptionError, match=error):
        create_agent(spec, 1)
