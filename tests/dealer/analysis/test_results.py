from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from acpcbot.cli import main
from dealer.analysis.playedlog import read_log
from dealer.analysis.results import ResultsError, duplicate_result, log_result

HEADER = (
    "# name/game/hands/seed {name} holdem.limit.2p.reverse_blinds.game 4 7\n"
    "#--t_response 600000\n#--t_hand 600000\n#--t_per_hand 7000\n"
)


def _write(path: Path, name: str, states: list[str], score: str | None) -> Path:
    text = HEADER.format(name=name) + "".join(s + "\n" for s in states)
    path.write_text(text + (score + "\n" if score else ""))
    return path


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    """A made-up duplicate pair: A wins 20, -10, 40, 10 in half 1 (seat 1) and
    -20, 30, -40, 0 in half 2 (seat 2)."""
    first = _write(tmp_path / "h1.log", "h1", [
        "STATE:0:rc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:20|-20:A|B",
        "STATE:1:rf:9h6s|3d3h:10|-10:B|A",
        "STATE:2:rrc/rc/rc/rf:4d6c|QsJh/3c9sJc/2d:40|-40:A|B",
        "STATE:3:rc/cc/cc/cc:Ad3s|8d5d/2cAs8s/Tc/4h:-10|10:B|A",
    ], "SCORE:60|-60:A|B")  # fmt: skip
    second = _write(tmp_path / "h2.log", "h2", [
        "STATE:0:rc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:20|-20:B|A",
        "STATE:1:rrc/cc/cc/cc:9h6s|3d3h/5s3s8h/9d/5c:30|-30:A|B",
        "STATE:2:rrc/rc/rc/rf:4d6c|QsJh/3c9sJc/2d:40|-40:B|A",
        "STATE:3:cc/cc/cc/cc:Ad3s|8d5d/2cAs8s/Tc/4h:0|0:A|B",
    ], "SCORE:30|-30:B|A")  # fmt: skip
    return first, second


def test_means_pairing_and_the_ci_by_hand(pair: tuple[Path, Path]) -> None:
    first, second = (read_log(p) for p in pair)
    assert first.seat_names == ("A", "B") and second.seat_names == ("B", "A")
    assert first.totals() == (60.0, -60.0) and second.totals() == (30.0, -30.0)
    result = duplicate_result(first, second, big_blind=10)
    assert (result.player, result.opponent, result.pairs, result.unpaired) == ("A", "B", 4, 0)
    half1, half2 = result.halves
    assert half1.chips == 60 and half1.estimate.mbb_per_game == 1500.0
    assert half2.chips == -30 and half2.estimate.mbb_per_game == -750.0
    # pairs: (20-20)/2, (-10+30)/2, (40-40)/2, (10+0)/2 = 0, 10, 0, 5 -> mean 3.75 chips
    e = result.estimate
    assert e.mbb_per_game == pytest.approx(375.0)
    sd = math.sqrt(((0 - 3.75) ** 2 * 2 + (10 - 3.75) ** 2 + (5 - 3.75) ** 2) / 3)
    assert e.sd_mbb == pytest.approx(100 * sd)
    assert e.ci95_mbb == pytest.approx(100 * 1.959964 * sd / 2, rel=1e-6)


def test_unpaired_hands_are_left_out(tmp_path: Path, pair: tuple[Path, Path]) -> None:
    first = read_log(pair[0])
    short = read_log(_write(tmp_path / "s.log", "s", [
        "STATE:0:rc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:20|-20:B|A",
        "STATE:1:rrc/cc/cc/cc:9h6s|3d3h/5s3s8h/9d/5c:30|-30:A|B",
    ], None))  # fmt: skip
    assert short.score is None and short.seat_names == ("B", "A")  # from the rotation
    result = duplicate_result(first, short, big_blind=10)
    assert (result.pairs, result.unpaired) == (2, 2)
    assert result.estimate.mbb_per_game == pytest.approx(100 * (0 + 10) / 2)


def test_single_log_and_unknown_player(pair: tuple[Path, Path]) -> None:
    log = read_log(pair[0])
    half = log_result(log, 10)
    assert (half.player, half.hands, half.estimate.mbb_per_game) == ("A", 4, 1500.0)
    assert log_result(log, 10, "B").chips == -60
    with pytest.raises(ResultsError, match="no player 'C'"):
        log_result(log, 10, "C")


def test_results_command_reproduces_the_reference_score_lines(
    vectors: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = vectors / "logs" / "example_player"
    first = folder / "limit2p.seed42.n1000.Alice-Bob.log"
    second = folder / "limit2p.seed42.n1000.Bob-Alice.log"
    assert main(["results", str(first), str(second), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["agents"] == ["Alice", "Bob"] and data["pairs"] == 1000
    assert first.read_text().splitlines()[-1] == "SCORE:2770|-2770:Alice|Bob"
    assert second.read_text().splitlines()[-1] == "SCORE:-3250|3250:Bob|Alice"
    assert [h["chips"] for h in data["halves"]] == [2770, 3250]  # Alice's, both halves
    assert data["mbb_per_game"] == pytest.approx(100 * (2770 + 3250) / 2 / 1000)
    assert all("agrees with the STATE lines" in check for check in data["checks"])
    assert main(["results", str(first)]) == 0
    text = capsys.readouterr().out
    assert "Alice vs Bob: 1,000 hands, +2770 chips, +277.0 mbb/g ± " in text


def test_results_of_a_broken_log_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.log"
    bad.write_text("STATE:0:cc:x\n")
    assert main(["results", str(bad)]) == 1
    assert "bad.log:1" in capsys.readouterr().err
