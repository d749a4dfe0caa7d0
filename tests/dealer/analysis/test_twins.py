"""Whether two logs are a duplicate pair (``dealer/analysis/twins.py``): the reference's pairs and
ours are; another seed, the same log twice, unreversed seats or other cards are not."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from acpcbot.cli import main
from acpcbot.game import bundled_game
from dealer.analysis.playedlog import read_log
from dealer.analysis.twins import twin_differences

SEED42 = "limit2p.seed42.n1000.Alice-Bob.log"
SEED42_TWIN = "limit2p.seed42.n1000.Bob-Alice.log"


def test_the_reference_pairs_are_twins(vectors: Path) -> None:
    logs = vectors / "logs"
    example = logs / "example_player"
    assert twin_differences(read_log(example / SEED42), read_log(example / SEED42_TWIN)) == []
    deterministic = logs / "deterministic"
    first = read_log(deterministic / "limit2p.seed42.n1000.Alice_hash-Bob_raiser.log")
    second = read_log(deterministic / "limit2p.seed42.n1000.Bob_raiser-Alice_hash.log")
    assert twin_differences(first, second) == []


def test_other_seeds_and_the_same_log_are_not(vectors: Path, tmp_path: Path) -> None:
    example = vectors / "logs" / "example_player"
    first = read_log(example / SEED42)
    other = read_log(example / "limit2p.seed1.n1000.Alice-Bob.log")
    assert twin_differences(first, other) == [
        "seeds differ: 42 in limit2p.seed42.n1000.Alice-Bob.log, 1 in "
        "limit2p.seed1.n1000.Alice-Bob.log",
        "seats are not reversed: Alice in seat 1 of both",
        "hand 0 was dealt other cards (not the same seed)",
    ]
    assert twin_differences(first, first) == ["the same log twice (the same file)"]
    copy = read_log(Path(shutil.copy(example / SEED42, tmp_path / "copy.log")))
    assert twin_differences(first, copy) == ["the same log twice (the same content)"]


def test_a_header_naming_the_game_another_way_agrees_when_the_games_do(
    vectors: Path, tmp_path: Path
) -> None:
    example = vectors / "logs" / "example_player"
    moved = tmp_path / "twin.log"
    text = (example / SEED42_TWIN).read_text()
    moved.write_text(text.replace(" holdem.limit", " ../games/holdem.limit", 1))
    first = read_log(example / SEED42)
    assert twin_differences(first, read_log(moved)) == []  # both the bundled game
    moved.write_text(text.replace(" holdem.limit.2p.reverse_blinds.game", " mine.game", 1))
    (tmp_path / "mine.game").write_text(bundled_game().to_text().replace("10 10 20", "10 20 20"))
    assert twin_differences(first, read_log(moved)) == [
        f"games differ: 'holdem.limit.2p.reverse_blinds.game' in {SEED42}, 'mine.game' in twin.log"
    ]
    (tmp_path / "mine.game").write_text(bundled_game().to_text())
    assert twin_differences(first, read_log(moved)) == []  # another name, the same game


def test_other_players_and_hand_counts_are_named(vectors: Path, tmp_path: Path) -> None:
    example = vectors / "logs" / "example_player"
    text = (example / SEED42_TWIN).read_text()
    other = tmp_path / "other.log"
    other.write_text(text.replace("Alice", "Carol").replace(" 1000 42", " 2000 42", 1))
    assert twin_differences(read_log(example / SEED42), read_log(other)) == [
        f"hand counts differ: 1000 in {SEED42}, 2000 in other.log",
        "players differ: Alice and Bob in limit2p.seed42.n1000.Alice-Bob.log, Bob and Carol in "
        "other.log",
    ]


@pytest.mark.e2e
def test_our_own_match_logs_are_twins(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m"
    args = ["match", "example", "always-call", "--hands", "100", "--seed", "3", "--out", str(out)]
    assert main([*args, "--transport", "inprocess"]) == 0
    capsys.readouterr()
    halves = sorted(out.glob("*.log"))
    assert len(halves) == 2
    assert twin_differences(read_log(halves[0]), read_log(halves[1])) == []


def test_logs_of_one_file_name_are_named_by_their_paths(vectors: Path, tmp_path: Path) -> None:
    example = vectors / "logs" / "example_player"
    (tmp_path / "x").mkdir()
    (tmp_path / "y").mkdir()
    first = shutil.copy(example / SEED42, tmp_path / "x" / "m.log")
    second = shutil.copy(example / "limit2p.seed1.n1000.Alice-Bob.log", tmp_path / "y" / "m.log")
    why = twin_differences(read_log(Path(first)), read_log(Path(second)))
    assert why[0] == f"seeds differ: 42 in {first}, 1 in {second}"
