"""A tournament's report (:mod:`dealer.running.tournamentreport`) from its matches' checks."""

from __future__ import annotations

import pytest

from dealer.analysis.stats import SampleSums
from dealer.running.tournamentfolder import MatchCheck
from dealer.running.tournamentplan import TournamentPlan
from dealer.running.tournamentreport import tournament_report

PLAN = TournamentPlan(("a", "b", "c"), ("a", "b", "c"), 10)


@pytest.mark.parametrize(("finished", "why"), [(2, "1 has none yet"), (0, "3 have none yet")])
def test_rankings_wait_for_a_finished_match_in_every_pairing(finished: int, why: str) -> None:
    checks = [
        MatchCheck(match, SampleSums.of([10.0, -5.0]) if i < finished else None, "not played")
        for i, match in enumerate(PLAN.matches())
    ]
    report = tournament_report(PLAN, checks)
    assert report.total is None and report.runoff is None
    assert report.no_rankings == f"they need a finished match in every pairing ({why})"
