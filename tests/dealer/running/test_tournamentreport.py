"""A tournament's report (:mod:`dealer.running.tournamentreport`) from its matches' checks."""

from __future__ import annotations

import pytest

from dealer.analysis.stats import SampleSums
from dealer.running.tournamentfolder import MatchCheck
from dealer.running.tournamentplan import TournamentPlan
from dealer.running.tournamentreport import tournament_lines, tournament_report

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


def test_a_crosstable_too_wide_comes_in_blocks_of_columns_with_every_cell() -> None:
    names = ("plicas", "plicas-static", "dpp", "dpp-coarse", "always-raise")
    plan = TournamentPlan(names, names, 10)
    checks = [
        MatchCheck(match, SampleSums.of([1234.0 * (i + 1), -987.0, 55.5]), "")
        for i, match in enumerate(plan.matches())
    ]
    report = tournament_report(plan, checks)
    whole = tournament_lines(report)
    assert max(len(line) for line in whole) > 80
    assert tournament_lines(report, width=500) == whole
    fitted = tournament_lines(report, width=80)
    table = [line for line in fitted if line[:1].isdigit()]
    assert all(len(line) <= 80 for line in table), fitted
    blocks, rest = divmod(len(table), len(names))  # each row in each block, its name first
    assert blocks > 1 and rest == 0

    def cells(lines: list[str]) -> list[str]:
        return sorted(
            c.strip() for line in lines if line[:1].isdigit() for c in line.split("  ")[1:]
        )

    assert [c for c in cells(table) if c] == [c for c in cells(whole) if c]
