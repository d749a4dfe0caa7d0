"""What ``acpcbot watch`` makes of the messages it hears (the pure part)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from acpcbot.telemetry.live import view
from acpcbot.telemetry.watching import COLUMNS, Board, table


def _message(source: str, **body: Any) -> bytes:
    return json.dumps({"schema": 1, "kind": "match", "id": source, "seq": 1, **body}).encode()


def test_running_then_ended_sources_and_old_ones_left_out() -> None:
    board = Board("acpcbot")
    running = {"name": "a-vs-b", "agents": ["a", "b"], "status": "running", "started": 10,
               "hands_total": 2000}  # fmt: skip
    board.take("acpcbot/match/m1/status", _message("m1", ts=10, **running))
    board.take(
        "acpcbot/match/m1/progress",
        _message("m1", hands=500, hands_total=2000, hands_per_s=250, mbb_per_game=-3.25,
                 ci95=None, eta_s=6),
    )  # fmt: skip
    finished = {**running, "name": "c-vs-d", "agents": ["c", "d"], "status": "finished"}
    result = {"hands": 2000, "mbb_per_game": 41.5, "ci95": 12.25, "hands_per_second": 900}
    board.take("acpcbot/match/m2/status", _message("m2", ts=900, result=result, **finished))
    aborted = {**running, "name": "e-vs-f", "agents": ["e", "f"], "status": "aborted"}
    board.take("acpcbot/match/m3/status", _message("m3", ts=100, **aborted))
    board.take("acpcbot/match/m3/hands", _message("m3", hand=1))  # not shown: ignored
    board.take("elsewhere/match/m4/status", _message("m4", ts=1000, **running))
    rows = board.rows(now=1000.0, recent_s=3600)
    assert [row.cells() for row in rows] == [
        ("match", "a-vs-b", "a vs b", "500/2,000", "250", "-3.2", "0:06", "running"),
        ("match", "c-vs-d", "c vs d", "2,000/2,000", "900", "+41.5 ± 12.2", "-", "finished"),
        ("match", "e-vs-f", "e vs f", "-", "-", "-", "-", "aborted"),
    ]
    lines = table(rows)
    assert lines[0].startswith("KIND   NAME    AGENTS  HANDS        HANDS/S")
    assert lines[2] == "match  c-vs-d  c vs d  2,000/2,000  900      +41.5 ± 12.2    -     finished"
    assert [r.name for r in board.rows(now=4000.0, recent_s=3600)] == ["a-vs-b", "c-vs-d"]
    assert [r.name for r in board.rows(now=1e9, recent_s=None)] == ["a-vs-b", "c-vs-d", "e-vs-f"]
    # an empty retained progress (the end) clears it; a filter keeps what it names
    board.take("acpcbot/match/m1/progress", b"")
    assert board.sources["match/m1"].progress is None
    assert [r.name for r in Board("acpcbot", ("*-vs-b",), board.sources).rows(now=1000.0)] == [
        "a-vs-b"
    ]


def test_a_tournament_and_a_player() -> None:
    board = Board("acpcbot")
    board.take(
        "acpcbot/tournament/t1/status",
        _message("t1", kind="tournament", ts=5, name="t", agents=["a", "b", "c"],
                 status="running"),
    )  # fmt: skip
    board.take(
        "acpcbot/tournament/t1/progress",
        _message("t1", matches_done=1, matches_total=3, hands=2000, hands_total=6000,
                 hands_per_s=1000, eta_s=4),
    )  # fmt: skip
    board.take(
        "acpcbot/player/p1/progress",
        _message("p1", kind="player", hands=70, chips=-35, mbb_per_game=-50, ci95=80),
    )
    rows = {row.kind: row for row in board.rows(now=10.0)}
    assert rows["tournament"].status == "running, 1/3 matches"
    assert rows["tournament"].hands == "2,000/6,000" and rows["tournament"].eta == "0:04"
    assert rows["player"].status == "?" and rows["player"].estimate == "-50.0 ± 80.0"


def test_a_narrow_terminal_shows_fewer_columns_each_readable() -> None:
    # 80 columns used to show every cell as "…": rich shrank all of them
    console = pytest.importorskip("rich.console")
    board = Board("acpcbot")
    running = {"name": "plicas-vs-dpp.seed9.n40000", "agents": ["plicas", "dpp"],
               "status": "running", "started": 10, "hands_total": 80000}  # fmt: skip
    board.take("acpcbot/match/m1/status", _message("m1", ts=10, **running))
    board.take(
        "acpcbot/match/m1/progress",
        _message("m1", hands=20000, hands_total=80000, hands_per_s=457, mbb_per_game=97.7,
                 ci95=111.0, eta_s=132),
    )  # fmt: skip
    for width, header in ((80, "AGENTS"), (140, "KIND")):
        screen = console.Console(width=width, file=io.StringIO(), color_system=None)
        screen.print(view(board, "watching", None, width=width, now=20.0))
        lines = screen.file.getvalue().splitlines()
        assert lines[0].startswith(header), lines
        assert "…" not in "".join(lines) and all(len(line) <= width for line in lines)
        assert "plicas vs dpp" in lines[1] and "+97.7 ± 111.0" in lines[1], lines
        assert "2:12" in lines[1] and "running" in lines[1]


def test_a_table_too_wide_is_one_paragraph_a_source_with_every_cell() -> None:
    board = Board("acpcbot")
    running = {"name": "plicas-static-vs-dpp-coarse.seed7.n30000", "started": 10,
               "agents": ["plicas-static", "dpp-coarse"], "status": "running",
               "hands_total": 60000}  # fmt: skip
    board.take("acpcbot/match/m1/status", _message("m1", ts=10, **running))
    board.take(
        "acpcbot/match/m1/progress",
        _message("m1", hands=7872, hands_total=60000, hands_per_s=302, mbb_per_game=111.9,
                 ci95=53.6, eta_s=173),
    )  # fmt: skip
    rows = board.rows(now=20.0)
    assert max(len(line) for line in table(rows)) > 80
    assert table(rows, width=200) == table(rows)
    narrow = table(rows, width=80)
    assert all(len(line) <= 80 for line in narrow), narrow
    assert narrow[0] == (
        "plicas-static-vs-dpp-coarse.seed7.n30000 (match): plicas-static vs dpp-coarse"
    )
    text = " ".join(narrow)
    for column, cell in zip(COLUMNS, rows[0].cells(), strict=True):
        assert cell in text and (column in ("KIND", "NAME", "AGENTS") or column in text)
