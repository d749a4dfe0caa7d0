"""``acpcbot infogain`` as a user meets it: the table, JSON, the plots, and one-line errors."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pytest

from acpcbot.cli import main
from acpcbot.game import bundled_game
from agents.registry import create_agent
from tests.agents.matches import write_log

RUNOUTS = ["--flop-runouts", "10"]


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    players = [create_agent("tight-aggressive", 1), create_agent("loose-aggressive", 2)]
    path = tmp_path_factory.mktemp("infogain") / "m.log"
    return write_log(path, bundled_game(), players, 60, seed=4)


def test_the_table_per_street(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["infogain", str(log), *RUNOUTS]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "information gain of bet inference: 60 hands of p0 and p1 (1 log)"
    rows = [line.split()[0] for line in out if line.split()[:1] in (["preflop"], ["all"])]
    assert rows == ["preflop", "all"]
    assert any(line.startswith("street ") and "gain (95% CI)" in line for line in out)
    assert out[-2].startswith("  p0: ") and len(out[-2].split()) == 5  # four rounds


def test_json_and_two_logs_read_as_one_sample(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["infogain", str(log), str(log), "--json", *RUNOUTS]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["hands"] == 120 and report["flop_runouts"] == 10
    assert [s["street"] for s in report["streets"]] == ["preflop", "flop", "turn", "river"]
    keys = {"points", "hands", "entropy_bits", "kl_cards_bits", "kl_bet_bits", "gain_percent"}
    assert keys <= set(report["all"]) and report["all"]["hands"] == 120
    assert sorted(report["predictability"]) == ["p0", "p1"]


def test_plots_one_png_per_street_and_never_overwrite_silently(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plots = tmp_path / "plots"
    assert main(["infogain", str(log), *RUNOUTS, "--plot", str(plots)]) == 0
    names = sorted(p.name for p in plots.iterdir())
    assert names == [f"infogain-{s}.png" for s in ("flop", "preflop", "river", "turn")]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in plots.iterdir())
    capsys.readouterr()
    assert main(["infogain", str(log), *RUNOUTS, "--plot", str(plots)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("acpcbot: error: ") and "--force" in err and err.count("\n") == 1
    assert main(["infogain", str(log), *RUNOUTS, "--plot", str(plots), "--force"]) == 0


def test_a_log_with_hidden_hole_cards_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hidden = tmp_path / "hidden.log"
    hidden.write_text(
        "STATE:0:cc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:10|-10:a|b\nSTATE:1:rf:9h6s|:-10|10:b|a\n"
    )
    assert main(["infogain", str(hidden)]) == 1
    note, err = capsys.readouterr().err.split("\n", 1)  # (a log without a header: limit)
    assert note.startswith(f"acpcbot: {hidden} has no header naming its game: read as ")
    assert err == (
        f"acpcbot: error: {hidden}:2: hand 1 does not show both players' hole cards; "
        "infogain needs every hand's (the logs of acpcbot's dealer and of the reference "
        "dealer show them)\n"
    )


def test_bad_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["infogain", "x.log", "--flop-runouts", "2000"])
    assert "(1 .. 1176 or 'all')" in capsys.readouterr().err
    assert main(["infogain", str(tmp_path / "none.log")]) == 1
    assert capsys.readouterr().err.startswith("acpcbot: error: cannot read ")
    bad = tmp_path / "bad.log"
    bad.write_text("STATE:0:cc/cc/cc/rr:7d3d|2hAc/5sKs7s/9s/6h:-20|20:a|b\n")
    assert main(["infogain", str(bad)]) == 1
    err = capsys.readouterr().err.split("\n", 1)[1]  # after the note that it is limit hold'em
    assert err.startswith(f"acpcbot: error: {bad}:1: ") and err.count("\n") == 1


def test_a_compressed_log_reads_as_the_log(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["infogain", str(log), "--json", *RUNOUTS]) == 0
    plain = json.loads(capsys.readouterr().out)
    packed = tmp_path / "m.log.xz"
    packed.write_bytes(lzma.compress(log.read_bytes()))
    assert main(["infogain", str(packed), "--json", *RUNOUTS]) == 0
    assert json.loads(capsys.readouterr().out) == {**plain, "logs": [str(packed)]}


def test_a_log_of_another_game_than_the_one_given_says_so(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nolimit = "holdem.nolimit.2p.reverse_blinds.game"
    assert main(["infogain", str(log), "--game", nolimit, *RUNOUTS]) == 1
    assert capsys.readouterr().err == (
        f"acpcbot: error: {log} is a log of another game: its header names "
        "'holdem.limit.2p.reverse_blinds.game', not the game given\n"
    )
