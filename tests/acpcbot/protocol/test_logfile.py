from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from acpcbot.errors import MatchStateError
from acpcbot.game import Game
from acpcbot.handeval import rank_hand
from acpcbot.protocol import logfile
from acpcbot.protocol.logfile import (
    HandRules,
    format_number,
    parse_header,
    parse_score_line,
    parse_state_line,
    state_fields,
)
from acpcbot.rules import replay


def _logs(vectors: Path) -> list[Path]:
    logs = sorted((vectors / "logs").glob("*/*.log"))
    logs += sorted((vectors / "transcripts").glob("*/dealer.log"))
    assert len(logs) >= 12
    return logs


def test_every_state_line_in_the_reference_logs_parses(
    vectors: Path, limit_game: Game, nolimit_game: Game
) -> None:
    hands = 0
    for log in _logs(vectors):
        game = nolimit_game if "nolimit" in str(log) else limit_game
        lines = log.read_text().splitlines()
        header = parse_header(lines[:4])
        assert header.game_path.endswith(".game") and header.t_per_hand == 7000
        seat_names = parse_score_line(lines[-1]).names
        totals = [0.0, 0.0]
        for line in lines[4:-1]:
            record = parse_state_line(line, game)
            assert str(record) == line
            assert parse_state_line(line) == record  # the syntactic parse agrees
            hand = replay(game, record.betting, record.hand_number)
            ranks = [rank_hand(h + record.board_cards) for h in record.hole_cards]
            assert hand.values(ranks) == record.values, line
            for name, value in zip(record.names, record.values, strict=True):
                totals[seat_names.index(name)] += value
            hands += 1
        score = parse_score_line(lines[-1])
        assert str(score) == lines[-1]
        assert tuple(totals) == score.totals
    assert hands >= 9000


def test_showdowns_are_decided_by_the_reference_then_by_the_engine_alike(
    vectors: Path, limit_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first showdowns of the logs read in a process without numba are ranked by the
    reference evaluator (a small log never waits for numba to load), the next by the numba
    engine: every hand's values agree with the log's either way."""
    monkeypatch.setattr(logfile, "_REFERENCE_SHOWDOWNS", 100)
    monkeypatch.delitem(sys.modules, "numba", raising=False)  # as where it was never imported
    rules = HandRules(limit_game)
    monkeypatch.undo()
    hands = 0
    for log in _logs(vectors):
        if "nolimit" not in str(log):
            for line in log.read_bytes().splitlines()[4:-1]:
                rules.check(state_fields(line))
                hands += 1
    assert hands > 5000 and rules._rank is not None  # (the engine took over)


def test_number_format_matches_printf_trimmed() -> None:
    assert [format_number(v) for v in (40, -40, 0, -7.5, 0.25, 12.000001, -0.0)] == [
        "40",
        "-40",
        "0",
        "-7.5",
        "0.25",
        "12.000001",
        "0",
    ]


def test_whole_numbers_print_as_by_the_general_path() -> None:
    # format_number looks small whole numbers up in a table; printf's %.6f decides.
    for number in [*range(-1200, 1201), 10**6, -(10**9)]:
        for value in (number, float(number)):
            assert format_number(value) == (f"{value:.6f}".rstrip("0").rstrip(".") or "0")
    assert format_number(2.5) == "2.5" and format_number(-1e-7) == "0"


@pytest.mark.parametrize(
    "line",
    [
        "STATE:0:cc/cc/cc/cc:8s2h|Kd5c/7hAdTd/4s/Kc:-10|10",  # no names
        "STATE:x:cc/cc/cc/cc:8s2h|Kd5c/7hAdTd/4s/Kc:-10|10:A|B",
        "STATE:0:cc/cc/cc/cc:8s2h|Kd5c/7hAdTd/4s/Kc:-10|ten:A|B",
        "STATE:0:cc/cc/cc/cc:8s2h|Kd5c/7hAdTd/4s/Kc:-10:A|B",
        "STATE:\xb2:cc/cc/cc/cc:8s2h|Kd5c/7hAdTd/4s/Kc:-10|10:A|B",  # a digit to isdigit, not int
        "STATE:0:cc/cc/cc/cc:8s2h|Kd5c/7hAdTd/4s/Kc:-\u0661\u0660|10:A|B",  # Arabic-Indic 10
    ],
)
def test_bad_state_lines(line: str) -> None:
    with pytest.raises(MatchStateError):
        parse_state_line(line)
    with pytest.raises(MatchStateError):
        state_fields(line.encode())


@pytest.mark.parametrize(
    ("line", "value"),
    [
        (1, "#--t_response \xb2"),
        (1, "#--t_response 9999999999999999999999"),
        (0, "# name/game/hands/seed m g \xb2 42"),
        (0, "# name/game/hands/seed m g 1_000 42"),
        (0, "# name/game/hands/seed m g 1000 " + "9" * 5000),
    ],
)
def test_bad_header_lines(line: int, value: str) -> None:
    lines = [
        "# name/game/hands/seed m g 1000 42",
        "#--t_response 600000",
        "#--t_hand 600000",
        "#--t_per_hand 7000",
    ]
    assert parse_header(lines).seed == 42
    lines[line] = value
    with pytest.raises(MatchStateError, match="bad log header line"):
        parse_header(lines)


def test_bad_score_line() -> None:
    with pytest.raises(MatchStateError):
        parse_score_line("SCORE:1|2:A")


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b"SCORE:1|-1:A|B", "not a STATE line"),
        (b"STATE:0:cc:7d3d|2hAc:5|-5", "a STATE line has 6 fields, this one 5"),
        (b"STATE:\xc2\xb2:cc:7d3d|2hAc:5|-5:A|B", "the hand number '\xc2\xb2' is not 0 .."),
        (b"STATE:4294967296:cc:7d3d|2hAc:5|-5:A|B", "the hand number 4294967296 is not 0 .."),
        (b"STATE:0:cx:7d3d|2hAc:5|-5:A|B", "bad betting 'cx'"),
        (b"STATE:0:cc:7d3d|2hA:5|-5:A|B", "bad cards '7d3d|2hA'"),
        (b"STATE:0:cc:7d3d|2hAc:5:A|B", "1 values (a game has 2 .. 10 players)"),
        (b"STATE:0:cc:7d3d|2hAc:5|1e3:A|B", "the value '1e3' is not a decimal number"),
        (b"STATE:0:cc:7d3d|2hAc:5|-90071992547409930:A|B", "a value beyond 9007199254740992"),
        (b"STATE:0:cc:7d3d|2hAc|Ks:5|-5:A|B", "3 hole-card groups for 2 values"),
        (b"STATE:0:cc:7d3d|2hAc:5|-5:A|B|C", "2 values but 3 names"),
    ],
)
def test_the_state_line_parser_says_what_is_wrong(line: bytes, why: str) -> None:
    with pytest.raises(MatchStateError) as caught:
        state_fields(line)
    assert str(caught.value).startswith(why)
    with pytest.raises(MatchStateError, match="^" + re.escape(why)):
        parse_state_line(line)  # the same parser, and the line quoted after the reason


@pytest.mark.parametrize(
    ("names", "why"),
    [(b"A|", "an empty player name"), (b"A|B\x1b", "a control character"), (b"A|A", "two")],
)
def test_names_are_checked(names: bytes, why: str) -> None:
    with pytest.raises(MatchStateError, match=why):
        parse_state_line(b"STATE:0:cc:7d3d|2hAc:5|-5:" + names)


def test_names_are_utf8_else_latin1_in_text_or_bytes() -> None:
    line = "STATE:0:f:7d3d|2hAc:5|-5:Zoë|Ana"
    assert parse_state_line(line).names == ("Zoë", "Ana")
    assert parse_state_line(line.encode("utf-8")).names == ("Zoë", "Ana")
    assert parse_state_line(line.encode("latin-1")).names == ("Zoë", "Ana")
    assert parse_score_line(b"SCORE:5|-5:Zo\xeb|Ana").names == ("Zoë", "Ana")
