"""Options: the config dataclass and the ``NAME:KEY=VALUE`` agent specs."""

from __future__ import annotations

import pytest

from agents.plicas.config import DYNAMIC, STATIC, PlicasConfig
from agents.registry import AgentOptionError, create_agent, parse_agent_spec


def test_named_variants() -> None:
    assert DYNAMIC.dynamic_units() == (
        "dprc",
        "dpac",
        "case-base",
        "bluff",
        "fold-equity",
        "model",
    )
    # The static bot: no unit that learns, and the readings come from the frozen opponent.
    assert STATIC.dynamic_units() == ("fold-equity",)
    assert not STATIC.model


def test_options_switch_units_and_set_knobs() -> None:
    config = PlicasConfig().with_options(
        {"dprc": "off", "DPAC": "no", "case-base": "1", "case_threshold": "5", "case-weight": ".25"}
    )
    assert config.dynamic_units() == ("case-base", "bluff", "fold-equity", "model")
    assert config.case_threshold == 5 and config.case_weight == 0.25
    searching = PlicasConfig().with_options({"river-search": "on"})
    assert searching.dynamic_units()[-1] == "river-search"
    assert not PlicasConfig().river_search  # measured worse against dpp: off unless asked


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dprcx": "on"}, "unknown PLICAS option"),
        ({"dprc": "maybe"}, "expected on/off"),
        ({"samples": "many"}, "expected an integer"),
        ({"case-weight": "-1"}, "must not be negative"),
    ],
)
def test_bad_options_are_errors_that_say_why(options: dict[str, str], message: str) -> None:
    with pytest.raises(AgentOptionError, match=message):
        PlicasConfig().with_options(options)


def test_agent_specs() -> None:
    assert parse_agent_spec("plicas") == ("plicas", {})
    assert parse_agent_spec(" plicas : dprc = off ,bluff=on,") == (
        "plicas",
        {"dprc": "off", "bluff": "on"},
    )
    with pytest.raises(AgentOptionError, match="not KEY=VALUE"):
        parse_agent_spec("plicas:dprc")
    with pytest.raises(AgentOptionError, match="takes no options"):
        create_agent("always-call:x=1")


def test_the_agents_listing_names_every_option() -> None:
    from dataclasses import fields

    from agents.registry import _PLICAS_OPTIONS

    for field in fields(PlicasConfig):
        assert field.name.replace("_", "-") in _PLICAS_OPTIONS
