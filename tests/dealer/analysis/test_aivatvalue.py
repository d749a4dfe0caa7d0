"""The shipped bets-to-come table of AIVAT was fitted for the agents as they play now, and
never on the test set's matches: an agent that changes without a refit fails here."""

from __future__ import annotations

import pytest

from acpcbot.game import bundled_game
from agents.fingerprint import fingerprint
from agents.registry import parse_agent_spec
from dealer.analysis.aivatvalue import FITTED_FOR, FITTED_ON

REFIT = "fit it again: scripts/fit_aivat_value.py, as docs/evaluation/aivat.md says"


@pytest.mark.parametrize("spec", sorted(FITTED_FOR))
def test_the_table_is_fitted_for_the_agent_as_it_plays(spec: str) -> None:
    now = fingerprint(spec, bundled_game())
    assert now == FITTED_FOR[spec], (
        f"AIVAT's bets-to-come table (dealer/analysis/aivatvalue.py) was fitted on matches of "
        f"{spec} as it played then (fingerprint {FITTED_FOR[spec]}); it plays otherwise now "
        f"({now}): {REFIT}"
    )


def test_the_table_was_fitted_on_matches_apart_from_the_test_set() -> None:
    assert FITTED_ON and FITTED_FOR
    assert all(parse_agent_spec(spec)[0] != "dpp" for spec in FITTED_FOR)
