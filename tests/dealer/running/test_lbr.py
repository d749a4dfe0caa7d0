"""LBR's match: an ordinary duplicate match whose summary gains LBR's own figures."""

from __future__ import annotations

import json
from pathlib import Path

from agents.registry import entrant, lbr_against
from dealer.running import MatchRequest
from dealer.running.lbr import run_lbr


def test_the_summary_gains_lbrs_figures_and_the_text_leads_with_its_bound(
    tmp_path: Path,
) -> None:
    out = tmp_path / "lbr"
    request = MatchRequest(
        lbr_against("always-call", "flop"),
        entrant("always-call"),
        hands=20,
        seed=5,
        jobs=1,
        out=out,
        progress=False,
    )
    lbr = run_lbr(request, "always-call", "flop")
    written = json.loads((out / "summary.json").read_text())
    assert written["lbr"] == lbr.summary["lbr"]
    assert {k: v for k, v in written["lbr"].items() if k != "ms_per_hand"} == {
        "opponent": "always-call",
        "from": "flop",
        "range_resets": 0,
    }
    assert written["lbr"]["ms_per_hand"] > 0
    lines = lbr.text()
    assert lines[0].startswith("LBR against always-call: +")
    assert lines[0].endswith("a lower bound on always-call's exploitability")
    assert lines[1].endswith(" ms of one process a hand") and lines[2:] == lbr.match.text()
