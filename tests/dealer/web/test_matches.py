"""The live board's folders: a finished match as its summary says, a running one as its logs
grow, one whose process died as aborted, and a tournament's crosstable."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from agents.registry import entrant
from dealer.running import MatchRequest, TournamentRequest, run_match, run_tournament
from dealer.running.duplicate import plan_json, started_json
from dealer.running.matchfolder import MatchFolder
from dealer.web.matches import LiveBoard
from dealer.web.roots import Roots


def _row(board: LiveBoard, name: str) -> dict:  # type: ignore[type-arg]
    return next(r for r in board.sources() if r["name"] == name)


def test_a_finished_match_shows_its_summary_and_its_curve(tmp_path: Path) -> None:
    request = MatchRequest(
        entrant("example"), entrant("always-call"), hands=50, out=tmp_path / "m", jobs=1
    )
    summary = run_match(request).summary
    board = LiveBoard(Roots([tmp_path]), None)
    board.update_folders()
    row = _row(board, "m")
    assert (row["status"], row["hands"], row["hands_total"]) == ("finished", 100, 100)
    assert (row["mbb"], row["ci"]) == (round(summary["mbb_per_game"], 1), round(summary["ci95"], 1))
    assert row["agents"] == ["example", "always-call"] and row["logs"] == [
        h["log"] for h in summary["halves"]
    ]
    detail = board.detail(row["key"])
    assert detail is not None and detail["curve"]["hands"][-1] == 100
    assert board.detail("dir:nothing") is None
    # The match folder itself given, as `acpcbot results m` takes it.
    board = LiveBoard(Roots([tmp_path / "m"]), None)
    board.update_folders()
    (alone,) = board.sources()
    assert {k: alone[k] for k in ("name", "status", "hands", "mbb")} == {
        k: row[k] for k in ("name", "status", "hands", "mbb")
    }
    assert alone["folder"] == {"root": "m", "path": ""}
    detail = board.detail(alone["key"])
    assert detail is not None and detail["curve"]["hands"][-1] == 100


def test_a_running_match_grows_and_one_whose_process_died_is_aborted(tmp_path: Path) -> None:
    finished = tmp_path / "done"
    request = MatchRequest(
        entrant("example"), entrant("always-call"), hands=200, out=finished, jobs=1
    )
    run_match(request)
    plan = request.plan()
    out = tmp_path / "results" / "live"
    files = [plan.log_name(0), plan.log_name(1)]
    with MatchFolder.open(out, plan_json(plan), files) as folder:
        folder.write_summary(started_json(plan, str(out)))
        board = LiveBoard(Roots([tmp_path / "results"]), None)
        logs = [(finished / name).read_bytes() for name in files]
        for cut in (0.2, 0.6):
            for name, data in zip(files, logs, strict=True):
                (out / name).write_bytes(data[: data.index(b"STATE:%d:" % int(200 * cut))])
            board.update_folders()
            row = _row(board, "live")
            assert row["status"] == "running"
            assert row["hands"] == 2 * int(200 * cut) and row["hands_total"] == 400
            assert row["mbb"] is not None
            detail = board.detail(row["key"])
            assert detail is not None and detail["curve"]["hands"][-1] == row["hands"]
    board.update_folders()
    assert _row(board, "live")["status"] == "aborted"  # running, and nobody holds the lock


@pytest.mark.e2e  # the tournament's pool
def test_a_tournament_shows_its_crosstable(tmp_path: Path) -> None:
    out = tmp_path / "t"
    agents = tuple(entrant(name) for name in ("always-call", "always-raise", "example"))
    run_tournament(TournamentRequest(agents, out, hands=20, seeds=1, jobs=1))
    board = LiveBoard(Roots([tmp_path]), None)
    board.update_folders()
    row = _row(board, "t")
    assert (row["kind"], row["status"], row["matches_done"], row["matches_total"]) == (
        "tournament",
        "finished",
        3,
        3,
    )
    detail = board.detail(row["key"])
    assert detail is not None
    table = detail["crosstable"]
    results = json.loads((out / "results.json").read_text())["crosstable"]
    assert table["agents"] == results["agents"] and table["mbb_per_game"] == results["mbb_per_game"]
    # The tournament folder itself given: the tournament, its crosstable, and its matches.
    alone = LiveBoard(Roots([out]), None)
    alone.update_folders()
    rows = alone.sources()
    (itself,) = (r for r in rows if r["kind"] == "tournament")
    assert (itself["name"], itself["matches_done"], itself["folder"]["path"]) == ("t", 3, "")
    assert sum(r["kind"] == "match" for r in rows) == 3
    shown = alone.detail(itself["key"])
    assert shown is not None and shown["crosstable"]["mbb_per_game"] == results["mbb_per_game"]
    shutil.rmtree(out / sorted(p.name for p in out.iterdir() if p.is_dir())[0])
    board.update_folders()
    assert board.detail(row["key"])["crosstable"]["pairs"] != results["pairs"]  # type: ignore[index]
