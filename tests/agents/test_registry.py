"""Agent specs: the grammar, the errors every bad spec ends in, and any text is safe."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.base import Agent
from agents.registry import (
    AGENTS,
    AgentOptionError,
    AgentPluginError,
    AgentSpecError,
    UnknownAgentError,
    create_agent,
    parse_agent_spec,
    player_name,
)
from agents.simple import AlwaysCall

LOG_NAME_FORBIDDEN = set(":|/ \t\r\n")  # /: the name is in the log file's name too


def test_names_options_and_classes() -> None:
    assert parse_agent_spec("plicas") == ("plicas", {})
    assert parse_agent_spec(" plicas : dprc = off ,bluff=on") == (
        "plicas",
        {"dprc": "off", "bluff": "on"},
    )
    assert parse_agent_spec("agents.simple:AlwaysCall") == ("agents.simple:AlwaysCall", {})
    assert parse_agent_spec("mybot:MyBot:level=2") == ("mybot:MyBot", {"level": "2"})
    # A known agent's name is never a module: what follows it are options.
    with pytest.raises(AgentOptionError, match="not KEY=VALUE"):
        parse_agent_spec("plicas:dprc")
    assert isinstance(create_agent("agents.simple:AlwaysCall", seed=4), AlwaysCall)
    assert player_name("agents.simple:AlwaysCall") == "agents.simple.AlwaysCall"


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        ("", AgentSpecError, "empty"),
        ("   ", AgentSpecError, "empty"),
        ("nobody", UnknownAgentError, "unknown agent 'nobody'; known agents: always-call"),
        ("nobody:x=1", UnknownAgentError, "unknown agent 'nobody'"),
        ("always-call:x=1", AgentOptionError, "takes no options"),
        ("plicas:samples=1:bluff=on", AgentSpecError, "one ':' comes before the options"),
        ("plicas:=3", AgentOptionError, "not KEY=VALUE"),
        ("plicas:samples", AgentOptionError, "not KEY=VALUE"),
        ("plicas:samples=", AgentOptionError, "samples in 'plicas:samples=' has no value"),
        ("plicas:", AgentOptionError, "'plicas:': no options after ':'"),
        ("plicas: ", AgentOptionError, "no options after ':'"),
        ("agents.simple:AlwaysCall:", AgentOptionError, "no options after ':'"),
        ("plicas:dprc=off,", AgentOptionError, "'plicas:dprc=off,' has an empty option"),
        ("plicas:dprc=off,,bluff=on", AgentOptionError, "empty option"),
        ("plicas:,dprc=off", AgentOptionError, "empty option"),
        ("plicas:samples=10,samples=20", AgentOptionError, "samples is given twice"),
        ("plicas:samples=10,SAMPLES=20", AgentOptionError, "samples is given twice"),
        ("plicas:samples=10,case_weight=1,case-weight=2", AgentOptionError, "twice"),
        ("plicas:sampels=10", AgentOptionError, "unknown PLICAS option 'sampels'"),
        ("plicas:samples=٣", AgentOptionError, "samples='٣'.*ASCII"),
        ("plicas:samples=²", AgentOptionError, "samples='²'"),
        ("plicas:sämples=3", AgentOptionError, "'sämples'.*ASCII"),
        ("plicas|x", AgentSpecError, "neither an agent's name nor module:Class"),
        ("pli cas", AgentSpecError, "neither"),
        ("nomodule_here:Bot", AgentPluginError, "cannot import module nomodule_here"),
        ("agents.simple:Nothing", AgentPluginError, "has no attribute 'Nothing'"),
        ("agents.triple:Triple", AgentPluginError, "not a subclass of agents.base.Agent"),
        ("agents.base:Agent", AgentPluginError, r"Agent\(seed=0\) failed: TypeError"),
        ("agents.simple:AlwaysCall:x=1", AgentOptionError, "takes no options"),
        ("agents.plicas.agent:Plicas:samples=0", AgentOptionError, "samples is an integer"),
    ],
)
def test_every_bad_spec_is_a_one_line_error(
    spec: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message) as raised:
        create_agent(spec)
    assert "\n" not in str(raised.value)


OPTION_TEXT = st.text(
    alphabet=st.sampled_from("samples=,:-_.+/0123456789eE bluffonOFFnanif²٣ｏ|\t"), max_size=30
)


def agent_or_spec_error(spec: str) -> None:
    """``spec`` gives an agent whose log name an ACPC log can hold, or a one-line
    :class:`AgentSpecError` (or :class:`AgentPluginError`); never another exception."""
    try:
        agent = create_agent(spec)
    except (AgentSpecError, AgentPluginError) as error:
        assert "\n" not in str(error)
        return
    assert isinstance(agent, Agent)
    name = player_name(spec)
    assert name.isascii() and not LOG_NAME_FORBIDDEN & set(name)


@settings(max_examples=400, deadline=None)
@given(name=st.sampled_from(sorted(AGENTS)), options=OPTION_TEXT)
def test_any_options_give_an_agent_or_an_agent_spec_error(name: str, options: str) -> None:
    agent_or_spec_error(f"{name}:{options}")


@settings(max_examples=300, deadline=None)
@given(spec=st.text(max_size=40))
def test_any_text_gives_an_agent_or_an_agent_spec_error(spec: str) -> None:
    agent_or_spec_error(spec)


def test_an_agent_class_without_a_name_is_named_after_itself() -> None:
    from acpcbot.actions import CALL, Action
    from acpcbot.player import BettingView
    from acpcbot.protocol.matchstate import MatchState

    class Nameless(Agent):
        def act(self, state: MatchState, betting: BettingView) -> Action:
            return CALL

    assert Nameless.name == "Nameless"
    assert AlwaysCall.name == "always-call"


@pytest.mark.parametrize(
    ("name", "suggested"),
    [("plicass", "plicas"), ("always-cal", "always-call"), ("lok2", "loki2"), ("dp", "dpp")],
)
def test_an_unknown_name_suggests_the_close_ones(name: str, suggested: str) -> None:
    with pytest.raises(UnknownAgentError) as raised:
        create_agent(name)
    message = str(raised.value)
    assert message.startswith(f"unknown agent {name!r}; did you mean {suggested}")
    assert "\n" not in message and "known agents:" not in message


def test_a_name_close_to_none_lists_every_agent() -> None:
    with pytest.raises(UnknownAgentError, match="unknown agent 'zzz'; known agents: always-call"):
        create_agent("zzz")
