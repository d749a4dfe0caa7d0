from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from acpcbot.errors import GameDefinitionError
from acpcbot.game import (
    LIMIT_HOLDEM,
    NOLIMIT_HOLDEM,
    UNLIMITED_RAISES,
    UNLIMITED_STACK,
    BettingType,
    bundled_game,
    bundled_game_path,
    load_game,
    parse_game,
)


def test_limit_holdem_matches_the_reference_reading(vectors: Path) -> None:
    game = load_game(vectors / "games" / LIMIT_HOLDEM)
    assert game == bundled_game(LIMIT_HOLDEM)
    assert game.betting_type is BettingType.LIMIT
    assert game.num_players == 2 and game.num_rounds == 4
    assert game.blind == (10, 5)
    assert game.raise_size == (10, 10, 20, 20)
    assert game.first_player == (1, 0, 0, 0)
    assert game.max_raises == (3, 4, 4, 4)
    assert game.num_board_cards == (0, 3, 1, 1)
    assert game.stack == (UNLIMITED_STACK, UNLIMITED_STACK)
    assert game.to_text() == (vectors / "games" / LIMIT_HOLDEM).read_text()


def test_nolimit_holdem(vectors: Path) -> None:
    game = load_game(vectors / "games" / NOLIMIT_HOLDEM)
    assert game == bundled_game(NOLIMIT_HOLDEM)
    assert game.betting_type is BettingType.NO_LIMIT
    assert game.stack == (20000, 20000)
    assert game.max_raises == (UNLIMITED_RAISES,) * 4
    assert game.to_text() == (vectors / "games" / NOLIMIT_HOLDEM).read_text()


@pytest.mark.parametrize(
    "name", ["leduc.game", "leduc.limit.2p.game", "kuhn.limit.3p.game", "holdem.limit.3p.game"]
)
def test_every_vector_game_parses_and_prints_back_the_same_game(vectors: Path, name: str) -> None:
    game = load_game(vectors / "games" / name)
    assert parse_game(game.to_text()) == game


def test_bundled_path_and_plain_name_load() -> None:
    assert load_game(bundled_game_path(LIMIT_HOLDEM)) == bundled_game()
    assert load_game(LIMIT_HOLDEM) == bundled_game()


MINIMAL = """\
# a comment
gamedef
LIMIT
NumPlayers 2
numrounds=1
blind = 2 1
raisesize 2
numSuits = 4
numRanks = 13
numHoleCards = 1
numBoardCards = 0
end gamedef
this line is after the end and ignored
"""


def test_keys_are_case_insensitive_and_equals_is_optional() -> None:
    game = parse_game(MINIMAL)
    assert game.num_rounds == 1 and game.blind == (2, 1) and game.raise_size == (2,)
    assert game.first_player == (0,)  # default firstPlayer 1, stored 0-based


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("numBlinds = 3", "unknown key"),
        ("blind = 2 x", "malformed value"),
        ("numRanks = ", "no value"),
        ("numPlayers = 2 3", "at most 1"),
        ("limit please", "unexpected text"),
        ("blind = 1-2", "malformed value"),  # was a ValueError traceback
        ("numRanks = \u0663", "malformed value"),  # an Arabic-Indic 3: not a digit here
        ("blind = 99999999999 1", "'blind' beyond 2147483647"),
        ("blind = " + "9" * 5000, "'blind' beyond 2147483647"),  # was int()'s ValueError
    ],
    ids=lambda value: str(value)[:24],
)
def test_unknown_or_malformed_lines_name_the_line(line: str, message: str) -> None:
    text = MINIMAL.replace("numSuits = 4\n", f"numSuits = 4\n{line}\n")
    with pytest.raises(GameDefinitionError, match=message) as info:
        parse_game(text, source="my.game")
    assert "my.game:9:" in str(info.value)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("numrounds=1", "numrounds=5", "rounds"),
        ("NumPlayers 2", "NumPlayers 1", "players"),
        ("raisesize 2", "", "raisesize"),
        ("numSuits = 4\nnumRanks = 13", "numSuits = 1\nnumRanks = 1", "too many"),
        ("blind = 2 1", "blind = 2", "blind"),
    ],
)
def test_invalid_definitions_are_rejected(old: str, new: str, message: str) -> None:
    with pytest.raises(GameDefinitionError, match=message):
        parse_game(MINIMAL.replace(old, new))


def test_a_long_run_of_digits_is_refused_at_once() -> None:
    """The values pattern once nested a repeat: 26 digits and a stray letter took seconds,
    40 took hours (a game file named by a log's header could stall ``acpcbot results``)."""
    started = time.perf_counter()
    with pytest.raises(GameDefinitionError, match="malformed value"):
        parse_game(MINIMAL.replace("blind = 2 1", "blind = " + "1" * 26 + "x"))
    assert time.perf_counter() - started < 0.5


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(GameDefinitionError, match=r"nope\.game: no such file"):
        load_game(tmp_path / "nope.game")


def test_a_game_path_that_is_no_game_file_is_refused_unread(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.game"
    os.mkfifo(fifo)  # opening it for reading would wait for a writer forever
    huge = tmp_path / "huge.game"
    huge.write_bytes(b"#" * (1 << 20))
    for path, why in (
        ("/dev/zero", "not a regular file"),  # would never end
        (str(fifo), "not a regular file"),
        (str(huge), "larger than 64 KB"),
    ):
        with pytest.raises(GameDefinitionError, match=why):
            load_game(path)
