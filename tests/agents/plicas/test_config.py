"""Options: the config dataclass and the ``NAME:KEY=VALUE`` agent specs."""

from __future__ import annotations

import pytest

from agents.plicas.config import DYNAMIC, STATIC, PlicasConfig
from agents.registry import AgentOptionError, create_agent


def test_named_variants() -> None:
    assert DYNAMIC.dynamic_units() == (
        "dprc",
        "dpac",
        "case-base",
        "bluff",
        "fold-equity",
        "model",
        "exploit",
        "fitted-prior",
        "detect",
    )
    # The static bot: no unit that learns, and the readings come from the frozen opponent.
    assert STATIC.dynamic_units() == ("fold-equity",)
    assert not STATIC.model


def test_options_switch_units_and_set_knobs() -> None:
    config = PlicasConfig().with_options(
        {"dprc": "off", "DPAC": "no", "case-base": "1", "case_threshold": "5", "case-weight": ".25"}
    )
    assert config.dynamic_units() == (
        "case-base",
        "bluff",
        "fold-equity",
        "model",
        "exploit",
        "fitted-prior",
        "detect",
    )
    assert config.case_threshold == 5 and config.case_weight == 0.25
    searching = PlicasConfig().with_options({"river-search": "on"})
    assert "river-search" in searching.dynamic_units()
    assert not PlicasConfig().river_search  # measured worse against dpp: off unless asked


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dprcx": "on"}, "unknown PLICAS option"),
        ({"dprc": "maybe"}, "dprc is on or off"),
        ({"samples": "many"}, "samples=many: samples is an integer"),
        ({"case-weight": "-1"}, "case-weight=-1: case-weight is a number from 0"),
        ({"samples": "٣"}, "samples='٣': samples is an integer"),
        ({"samples": "10", "SAMPLES": "20"}, "samples is given twice"),
    ],
)
def test_bad_options_are_errors_that_say_why(options: dict[str, str], message: str) -> None:
    with pytest.raises(AgentOptionError, match=message):
        PlicasConfig().with_options(options)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        # Once a numba typing dump in-process, and every decision a fallback over TCP.
        (
            "samples=99999999999999999999",
            "samples=99999999999999999999: samples is an integer from 1 to 1000000",
        ),
        ("samples=0", "samples=0: samples is an integer from 1 to 1000000"),
        ("samples=-5", "samples=-5: samples is an integer"),
        ("samples=1e3", "samples=1e3: samples is an integer"),
        ("samples=1_000", "samples=1_000: samples is an integer"),
        ("static-range=2", "static-range=2: static-range is a number from 0.01 to 1"),
        ("static-range=0", "static-range=0: static-range is a number from 0.01 to 1"),
        ("case-weight=nan", "case-weight=nan: case-weight is a number from 0 to 100"),
        ("case-weight=inf", "case-weight=inf: case-weight is a number"),
        ("case-weight=-inf", "case-weight=-inf: case-weight is a number"),
        ("case-weight=1e999", "case-weight=1e999: case-weight is a number"),
        ("case-weight=-0.5", "case-weight=-0.5: case-weight is a number"),
        ("case-threshold=0", "case-threshold=0: case-threshold is an integer from 1 to"),
        ("dprc-hands=-1", "dprc-hands=-1: dprc-hands is an integer from 0 to 1000000000"),
        ("dprc-hands=" + "9" * 5000, "dprc-hands=9999.*: dprc-hands is an integer"),
        ("dprc=maybe", "dprc=maybe: dprc is on or off"),
    ],
)
def test_out_of_range_options_are_refused_when_the_spec_is_read(spec: str, message: str) -> None:
    with pytest.raises(AgentOptionError, match=message):
        create_agent(f"plicas:{spec}")


@pytest.mark.parametrize(
    "spec",
    [
        "samples=1",
        "samples=1000000",
        "static-range=0.01",
        "static-range=1",
        "case-weight=0",
        "case-weight=100",
        "case-threshold=1",
        "dprc-hands=0",
        "dprc-hands=1000000000",
    ],
)
def test_options_at_the_ends_of_their_ranges_are_taken(spec: str) -> None:
    create_agent(f"plicas:{spec}")


def test_the_agents_listing_shows_the_ranges() -> None:
    from agents.plicas.config import options_help
    from agents.registry import AGENTS

    assert AGENTS["plicas"].options == options_help()
