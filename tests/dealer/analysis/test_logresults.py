"""What ``acpcbot results`` computes (``dealer/analysis/logresults.py``): single logs, pairs,
side by side, the checks and warnings, the game lookup — and, fed damaged logs and game files, only
one-line :class:`AcpcError` messages."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from acpcbot.errors import AcpcError
from acpcbot.game import INT32_MAX, LIMIT_HOLDEM, bundled_game
from acpcbot.logreader import LogError
from dealer.analysis.logresults import (
    ReportKind,
    big_blind_of,
    report_json,
    report_lines,
    report_logs,
)
from dealer.analysis.playedlog import read_log
from dealer.analysis.results import ResultsError
from tests.dealer.analysis.test_playedlog import HEADER, LOG, damaged_logs

TWIN = LOG.replace(b":A|B", b":X|Y").replace(b":B|A", b":A|B").replace(b":X|Y", b":B|A")
"""The seat-reversed twin of ``LOG`` (same cards and header; the results are made up)."""


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def test_a_pair_and_its_json(tmp_path: Path) -> None:
    logs = [_write(tmp_path, "a.log", LOG), _write(tmp_path, "b.log", TWIN)]
    report = report_logs(logs)
    assert report.kind is ReportKind.PAIR and report.big_blinds == (10, 10)
    assert report.pair is not None and report.pair.pairs == 6
    assert report_lines(report)[2].startswith("A vs B, duplicate over 6 pairs:")
    data = report_json(report)
    assert data["duplicate"] is True and data["big_blind"] == 10 and data["warnings"] == []
    assert {"agents", "pairs", "unpaired", "mbb_per_game", "ci95", "pair_sd_mbb", "halves",
            "checks"} <= data.keys()  # fmt: skip
    bob = report_logs(logs, player="B")
    assert bob.pair is not None and bob.pair.player == "B"
    assert bob.pair.estimate.mbb_per_game == -report.pair.estimate.mbb_per_game


def test_side_by_side_of_a_real_pair_says_it_is_one(tmp_path: Path) -> None:
    logs = [_write(tmp_path, "a.log", LOG), _write(tmp_path, "b.log", TWIN)]
    report = report_logs(logs, side_by_side=True)
    assert report.kind is ReportKind.SIDE_BY_SIDE and report.not_a_pair == ()
    assert report_lines(report)[2] == "a duplicate pair, shown side by side as asked (not combined)"
    assert [h.player for h in report.halves] == ["A", "A"]


def test_the_game_is_looked_up_beside_the_log_first(tmp_path: Path) -> None:
    game = bundled_game(LIMIT_HOLDEM).to_text().replace("blind = 10 5", "blind = 50 25")
    (tmp_path / LIMIT_HOLDEM).write_text(game)
    log = read_log(_write(tmp_path, "a.log", LOG))
    assert big_blind_of(log) == 50
    (tmp_path / LIMIT_HOLDEM).write_text("not a game\n")
    with pytest.raises(LogError, match=r"cannot read the game .* not a valid game definition"):
        big_blind_of(log)
    (tmp_path / LIMIT_HOLDEM).unlink()
    assert big_blind_of(log) == 10  # the bundled one
    no_blinds = game.replace("blind = 50 25", "blind = 0 0")
    (tmp_path / LIMIT_HOLDEM).write_text(no_blinds)
    with pytest.raises(ResultsError, match="has no big blind; give --big-blind"):
        big_blind_of(log)


def test_a_log_without_a_header_is_of_limit_holdem_as_for_every_reader(tmp_path: Path) -> None:
    """acpcbot.logreader.game_of_log's rule, as acpcbot stats and the web page read it."""
    headerless = _write(tmp_path, "a.log", LOG.removeprefix(HEADER))
    assert big_blind_of(read_log(headerless)) == 10
    assert report_logs([headerless]).big_blinds == (10,)


def test_a_game_file_a_log_names_is_never_quoted(tmp_path: Path) -> None:
    """A log is data from elsewhere: its header may name any readable file as its game (say
    /etc/passwd); the error names the file and the reason, never a line of it."""
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\nsecret = 42\n")
    log = read_log(_write(tmp_path, "a.log", LOG.replace(LIMIT_HOLDEM.encode(), bytes(secret))))
    with pytest.raises(LogError) as caught:
        big_blind_of(log)
    message = str(caught.value)
    assert message == (
        f"cannot read the game {str(secret)!r} of {tmp_path / 'a.log'}: passwd beside it is not "
        "a valid game definition; give --big-blind"
    )
    assert "root:" not in message and "secret" not in message


def test_warnings_and_strict_failures(tmp_path: Path) -> None:
    wrong = _write(tmp_path, "w.log", LOG.replace(b"SCORE:55|-55", b"SCORE:1|-1"))
    cut = _write(tmp_path, "c.log", LOG[:-5])
    unfinished = _write(tmp_path, "u.log", LOG[: LOG.index(b"SCORE")])
    report = report_logs([wrong])
    assert report.failed == 1 and report.warnings == (
        f"{wrong}: SCORE:1|-1:A|B disagrees with the STATE lines, which sum to 55|-55",
    )
    report = report_logs([cut])
    assert report.failed == 1 and report.warnings == (
        f"{cut}:11: the last line is cut short (the log was cut while being written); the 6 "
        "complete hands before it are counted",
    )
    assert report_logs([unfinished]).warnings == ()
    strict = report_logs([unfinished], strict=True)
    assert strict.failed == 1
    assert strict.warnings == (f"{unfinished}: no SCORE line (the match did not finish)",)


GAME_TOKENS = [
    b"GAMEDEF\nlimit\n", b"numPlayers = 2\n", b"blind = 10 5\n", b"blind = 99999999999 5\n",
    b"numRounds = 1" + b"1" * 40 + b"x\n", b"stack = 1-2\n", b"END GAMEDEF\n", b"\xff\xfe\x00",
    "numRanks = \u0663\n".encode(), b"\n" * 3,
]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    damaged_logs(),
    st.one_of(st.none(), st.lists(st.sampled_from(GAME_TOKENS), max_size=8).map(b"".join)),
    st.booleans(),
    st.sampled_from([None, 7]),
)
def test_damaged_pairs_and_game_files_end_in_one_line_errors(
    second: bytes, game: bytes | None, side_by_side: bool, big_blind: int | None
) -> None:
    """A valid log beside a damaged one, maybe with a damaged game file beside them."""
    with tempfile.TemporaryDirectory() as folder:
        logs = [_write(Path(folder), "a.log", LOG), _write(Path(folder), "b.log", second)]
        if game is not None:
            _write(Path(folder), LIMIT_HOLDEM, game)
        try:
            report = report_logs(logs, side_by_side=side_by_side, big_blind=big_blind)
        except AcpcError as exc:
            assert "\n" not in str(exc) and len(str(exc)) < 1000, str(exc)
            return
        assert all(1 <= blind <= INT32_MAX for blind in report.big_blinds)
        report_lines(report)
        report_json(report)
