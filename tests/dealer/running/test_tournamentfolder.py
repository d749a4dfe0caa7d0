"""A tournament's folder: locked, claimed only when it holds a tournament of the same series,
and a match counted as finished only when its files say so completely."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from acpcbot.errors import AcpcError
from agents.registry import entrant
from dealer.running import MatchRequest, run_match
from dealer.running.tournamentfolder import LOCK, PARTIAL, TOURNAMENT, TournamentFolder, check_match
from dealer.running.tournamentplan import PlannedMatch, TournamentError, TournamentPlan

PLAN = TournamentPlan(("example", "always-call"), ("example", "always-call"), hands=60, seed=3)
MATCH = PLAN.matches()[0]


def play(folder: Path, match: PlannedMatch = MATCH) -> dict[str, object]:
    """``match`` played into its folder of ``folder`` as a tournament plays it."""
    request = MatchRequest(
        entrant(PLAN.specs[match.a]),
        entrant(PLAN.specs[match.b]),
        hands=PLAN.hands,
        seed=match.seed,
        out=folder / match.name,
        jobs=1,
    )
    return run_match(request).summary


def test_a_finished_match_is_read_back_with_its_pair_samples(tmp_path: Path) -> None:
    summary = play(tmp_path)
    check = check_match(tmp_path, MATCH)
    assert check.finished and check.why is None and check.sums is not None
    e = check.sums.estimate(PLAN.big_blind)
    assert e.samples == 60
    assert e.mbb_per_game == pytest.approx(summary["mbb_per_game"], abs=1e-3)
    assert e.ci95_mbb == pytest.approx(summary["ci95"], abs=1e-3)


def _edit_summary(key: str, value: object) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / "summary.json"
        summary = json.loads(path.read_text())
        summary[key] = value
        path.write_text(json.dumps(summary))

    return edit


def _edit_log(half: int, edit: Callable[[bytes], bytes]) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        path = folder / MATCH.plan.log_name(half)
        path.write_bytes(edit(path.read_bytes()))

    return change


def _without_last_hand(data: bytes) -> bytes:
    lines = data.splitlines(keepends=True)
    return b"".join(lines[:-2])  # the last STATE line and the SCORE line


DAMAGE: dict[str, tuple[Callable[[Path], object], str]] = {
    "still running": (_edit_summary("status", "running"), "status 'running'"),
    "interrupted": (_edit_summary("status", "interrupted"), "status 'interrupted'"),
    "another match's summary": (_edit_summary("seed", 4), "describes another match"),
    "no summary": (lambda f: (f / "summary.json").unlink(), "no readable summary.json"),
    "summary not JSON": (
        lambda f: (f / "summary.json").write_text("{"),
        "no readable summary.json",
    ),
    "a log missing": (lambda f: (f / MATCH.plan.log_name(1)).unlink(), "cannot read"),
    "a log cut mid-line": (_edit_log(0, lambda d: d[:-30]), "cut short"),
    "a log short of hands": (_edit_log(1, _without_last_hand), "59 of 60 hands"),
    "a SCORE line that disagrees": (
        _edit_log(0, lambda d: d.replace(b"\nSCORE:", b"\nSCORE:1")),
        "no SCORE line agreeing",
    ),
    "a header of another match": (
        _edit_log(1, lambda d: d.replace(b" 60 3\n", b" 60 4\n", 1)),
        "header is another match's",
    ),
    "garbage in a log": (
        _edit_log(0, lambda d: d.replace(b"STATE:7:", b"STATE:x:")),
        ".log:12: the hand",
    ),
}


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_a_damaged_or_unfinished_match_does_not_count(tmp_path: Path, case: str) -> None:
    damage, why = DAMAGE[case]
    play(tmp_path)
    damage(tmp_path / MATCH.name)
    check = check_match(tmp_path, MATCH)
    assert not check.finished and check.sums is None
    assert check.why is not None and why in check.why


def test_a_match_never_played_is_not_played(tmp_path: Path) -> None:
    assert check_match(tmp_path, MATCH).why == "not played"


def test_one_tournament_at_a_time(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    with TournamentFolder.open(folder, PLAN):
        assert json.loads((folder / TOURNAMENT).read_text())["status"] == "running"
        with pytest.raises(TournamentError, match=r"another tournament is running in .*/t \("):
            TournamentFolder.open(folder, PLAN)
    with TournamentFolder.open(folder, PLAN):  # the lock went with the first
        pass


def test_a_folder_of_something_else_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(TournamentError, match=r"files that are not a tournament's \(notes.txt\)"):
        TournamentFolder.open(tmp_path, PLAN)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    file = tmp_path / "notes.txt"
    with pytest.raises(AcpcError, match="is a file"):
        TournamentFolder.open(file, PLAN)


def test_a_tournament_of_another_series_is_refused_but_one_that_grows_is_not(
    tmp_path: Path,
) -> None:
    with TournamentFolder.open(tmp_path, PLAN):
        pass
    longer = TournamentPlan(PLAN.specs, PLAN.names, hands=61, seed=3)
    with pytest.raises(TournamentError, match=r"another tournament \(hands 60, not 61\)"):
        TournamentFolder.open(tmp_path, longer)
    grown = TournamentPlan((*PLAN.specs, "hash"), (*PLAN.names, "hash"), hands=60, seed=3, seeds=2)
    with TournamentFolder.open(tmp_path, grown):
        pass
    (tmp_path / TOURNAMENT).write_text("[]")
    with pytest.raises(TournamentError, match="is not a tournament's plan"):
        TournamentFolder.open(tmp_path, PLAN)


def test_a_match_moves_in_whole_replacing_an_unfinished_one(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    play(scratch)
    files = {p.name: p.read_bytes() for p in (scratch / MATCH.name).iterdir() if p.name != LOCK}
    folder = tmp_path / "t"
    with TournamentFolder.open(folder, PLAN) as tournament:
        (folder / MATCH.name).mkdir()
        (folder / MATCH.name / "summary.json").write_text('{"status": "running"}')
        tournament.install(MATCH, files)
        assert sorted(p.name for p in (folder / MATCH.name).iterdir()) == sorted(files)
        assert check_match(folder, MATCH).finished
        with pytest.raises(TournamentError, match="expected the files"):
            tournament.install(MATCH, {**files, "other.txt": b""})
    assert not (folder / PARTIAL).exists()
