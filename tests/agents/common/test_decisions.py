"""The decisions of a hand's betting and the context a betting policy reads."""

from __future__ import annotations

import pytest

from agents.common.decisions import effective_odds


def test_effective_odds_of_a_river_call() -> None:
    assert effective_odds(20, 100, ()) == pytest.approx(20 / 120)
