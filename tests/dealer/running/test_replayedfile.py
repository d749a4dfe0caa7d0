"""A file a replay writes again (:mod:`dealer.running.replayedfile`): checked as far as it
goes, written after that, never changed by a replay that differs."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer.running.replayedfile import ReplayedFile, ReplayError

HELD = b"# header\nSTATE:0:cc\nSTATE:1:rf\n"


@pytest.mark.parametrize("cut", [b"", b"STATE:2:r", b"STATE:2:rc/c"])
def test_what_follows_the_complete_lines_is_written_whole(tmp_path: Path, cut: bytes) -> None:
    path = tmp_path / "a.log"
    path.write_bytes(HELD + cut)  # a last line the earlier run was killed writing
    with ReplayedFile(path) as file:
        assert file.held == 3
        file.write(b"# header\nSTATE:0:")  # in pieces of any size
        file.write(b"cc\nSTATE:1:rf\nSTATE:2:rr")
        file.write(b"c/c\nSTATE:3:f\n")
    assert path.read_bytes() == HELD + b"STATE:2:rrc/c\nSTATE:3:f\n"


def test_a_replay_that_stops_early_leaves_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_bytes(HELD + b"STATE:2:r")
    with ReplayedFile(path) as file:
        file.write(b"# header\n")
    assert path.read_bytes() == HELD + b"STATE:2:r"  # stopped again: nothing lost


def test_an_empty_or_cut_file_is_written_from_its_start(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_bytes(b"# hea")
    with ReplayedFile(path) as file:
        assert file.held == 0
        file.write(b"# header\n")
    assert path.read_bytes() == b"# header\n"


def test_a_difference_names_the_line_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_bytes(HELD)
    with ReplayedFile(path) as file:
        file.write(b"# header\n")
        with pytest.raises(ReplayError, match=r"^line 3 of .*a\.log is not what the agents play"):
            file.write(b"STATE:0:cc\nSTATE:1:rc\nSTATE:2:f\n")
        # a writer flushing its lines once more gets the same error, and writes nothing
        with pytest.raises(ReplayError, match="line 3 of"):
            file.write(b"STATE:0:cc\nSTATE:1:rc\nSTATE:2:f\n")
    assert path.read_bytes() == HELD
