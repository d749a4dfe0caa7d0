"""A match's output folder (:mod:`dealer.running.matchfolder`) against what may already be in it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer.running.matchfolder import MatchFolder, MatchFolderError

IDENTITY = {"agents": ["a", "b"], "seed": 1}
FILES = ["a-b.seed1.log", "b-a.seed1.log"]


def _open(path: Path, *, force: bool = False) -> MatchFolder:
    return MatchFolder.open(path, IDENTITY, FILES, force=force)


def test_one_run_at_a_time(tmp_path: Path) -> None:
    with _open(tmp_path / "m") as folder:
        with pytest.raises(MatchFolderError, match=r"another match is running in .*/m \(process"):
            _open(tmp_path / "m")
        folder.write_summary({**IDENTITY, "status": "running"})
    with _open(tmp_path / "m") as again:  # unlocked when the first one is done
        assert again.earlier == "running"
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == ["summary.json"]  # no lock


@pytest.mark.parametrize(
    "summary",
    [
        b"[1, 2, 3]",  # JSON, but no match's
        b"{not json",
        b" " * (5 << 20) + b"{}",  # too large to be ours: not read
        json.dumps({**IDENTITY, "seed": 2}).encode(),  # another match
    ],
)
def test_a_summary_json_of_no_match_or_of_another_is_not_replaced(
    tmp_path: Path, summary: bytes
) -> None:
    (tmp_path / "summary.json").write_bytes(summary)
    with pytest.raises(MatchFolderError, match="--force"):
        _open(tmp_path)
    assert (tmp_path / "summary.json").read_bytes() == summary
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.json"]


def test_force_removes_only_the_other_matchs_own_logs(tmp_path: Path) -> None:
    outside = tmp_path / "outside.log"
    outside.write_text("not in the folder\n")
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "old.log").write_text("the other match's log\n")
    (folder / "notes.txt").write_text("mine\n")
    halves = [{"log": "old.log"}, {"log": "../outside.log"}, {"log": "/etc/passwd"}, {"log": 3}]
    other = {**IDENTITY, "seed": 2, "halves": halves}
    (folder / "summary.json").write_text(json.dumps(other))
    with _open(folder, force=True):
        pass
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    assert outside.read_text() == "not in the folder\n"


def test_force_starts_the_same_match_over(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "summary.json").write_text(json.dumps({**IDENTITY, "status": "interrupted"}))
    for name in FILES:
        (folder / name).write_text("the hands played so far\n")
    (folder / ".summary.json.tmp").write_text("half-written by a killed run")
    with _open(folder) as again:  # gone on with, its files kept
        assert again.earlier == "interrupted"
    assert sorted(p.name for p in folder.iterdir()) == sorted(["summary.json", *FILES])
    with _open(folder, force=True) as over:
        assert over.earlier is None
    assert list(folder.iterdir()) == []
