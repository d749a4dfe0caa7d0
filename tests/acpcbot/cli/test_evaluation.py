"""The evaluation commands end to end: match --aivat, results --aivat, lbr and stats."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import lzma
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from acpcbot.cli import main

EXAMPLE = Path("logs") / "example_player"


@pytest.fixture(scope="module")
def aivat_match(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    """A short match with --aivat: its folder and its AIVAT estimate (one match for the
    tests that read AIVAT again from its logs)."""
    out = tmp_path_factory.mktemp("aivat") / "m"
    command = ["match", "example", "tight-passive", "--hands", "60", "--seed", "5", "--aivat"]
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        assert main([*command, "--out", str(out), "--jobs", "1", "--json"]) == 0
    return out, json.loads(stdout.getvalue())["aivat"]


SHARES_THE_MATCH = pytest.mark.xdist_group("evaluation-aivat-match")
"""The tests that read :func:`aivat_match` run in one test process (``--dist loadgroup``),
which plays it once."""


@SHARES_THE_MATCH
@pytest.mark.e2e
def test_match_and_results_give_the_same_aivat(
    aivat_match: tuple[Path, dict[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    out, aivat = aivat_match
    assert aivat["samples"] == "pairs" and aivat["count"] == 60
    assert aivat["actions_known"] == aivat["actions"] > 0  # type: ignore[operator]
    logs = sorted(str(p) for p in out.glob("*.log"))
    assert main(["results", *logs, "--aivat", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)["aivat"]
    assert (again["mbb_per_game"], again["ci95"]) == (aivat["mbb_per_game"], aivat["ci95"])
    assert main(["results", *logs, "--aivat"]) == 0
    text = capsys.readouterr().out
    known = f"action corrections at {aivat['actions']:,} of {aivat['actions']:,} actions (100%)"
    assert "AIVAT: " in text and known in text
    assert main(["results", *logs, "--aivat", "--side-by-side"]) == 2
    assert "--aivat needs one log" in capsys.readouterr().err


@pytest.mark.e2e
def test_lbr_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "lbr"
    args = ["lbr", "always-call", "--hands", "40", "--seed", "2", "--from", "flop"]
    assert main([*args, "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["agents"] == ["lbr+opponent=always-call+from=flop", "always-call"]
    assert summary["lbr"]["from"] == "flop" and summary["lbr"]["range_resets"] == 0
    assert {"mbb_per_game", "ci95", "pair_sd_mbb", "halves"} <= set(summary)
    assert len(list(out.glob("*.log"))) == 2
    assert main([*args, "--out", str(tmp_path / "again")]) == 0
    text = capsys.readouterr().out
    assert text.startswith("LBR against always-call: ")
    assert len(re.findall(r" in \d+\.\d s", text)) == 1  # one run, one time

    for log in out.glob("*.log"):  # the same seed, the same play
        assert (tmp_path / "again" / log.name).read_bytes() == log.read_bytes()


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        ("plicas", "plicas has no fixed strategy LBR can query"),
        ("dpp:x=1", "agent 'dpp' takes no options"),
        ("nobody", "unknown agent 'nobody'"),
        ("lbr", "against itself"),
    ],
)
def test_lbr_refuses_what_it_cannot_exploit(
    agent: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["lbr", agent, "--hands", "10"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_stats_of_the_reference_logs(vectors: Path, capsys: pytest.CaptureFixture[str]) -> None:
    logs = sorted(str(p) for p in (vectors / EXAMPLE).glob("limit2p.seed42.*.log"))
    assert main(["stats", *logs, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 2000 and set(data["players"]) == {"Alice", "Bob"}
    alice = data["players"]["Alice"]
    assert alice["hands"] == 2000
    assert alice["counts"]["showdowns"] == data["players"]["Bob"]["counts"]["showdowns"]
    assert main(["stats", *logs]) == 0
    text = capsys.readouterr().out
    assert text.startswith("2,000 hands from 2 logs") and "fold to a bet river" in text
    nolimit = str(vectors / EXAMPLE / "nolimit2p.seed42.n1000.Alice-Bob.log")
    assert main(["stats", logs[0], nolimit]) == 1
    assert "another game" in capsys.readouterr().err
    assert main(["stats", str(vectors / "nothing.log")]) == 1


@pytest.mark.e2e
def test_stats_of_a_pipe(vectors: Path) -> None:
    """Each log is read once, so a pipe will do."""
    log = vectors / EXAMPLE / "limit2p.seed42.n1000.Alice-Bob.log"
    done = subprocess.run(
        [str(Path(sys.executable).with_name("acpcbot")), "stats", "/dev/stdin", "--json"],
        input=log.read_bytes(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands"] == 1000


def test_stats_of_compressed_logs(
    vectors: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = sorted((vectors / EXAMPLE).glob("limit2p.seed42.*.log"))
    assert main(["stats", *map(str, logs), "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    packed = [tmp_path / f"{logs[0].name}.gz", tmp_path / f"{logs[1].name}.xz"]
    packed[0].write_bytes(gzip.compress(logs[0].read_bytes()))
    packed[1].write_bytes(lzma.compress(logs[1].read_bytes()))
    assert main(["stats", *map(str, packed), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {**plain, "logs": list(map(str, packed))}


def test_stats_of_a_log_of_another_game_says_so(
    vectors: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not "raise to 0 outside [200, 20000]" of the first hand: the log is of another game."""
    log = vectors / EXAMPLE / "limit2p.seed42.n1000.Alice-Bob.log"
    nolimit = "holdem.nolimit.2p.reverse_blinds.game"
    assert main(["stats", str(log), "--game", nolimit]) == 1
    assert capsys.readouterr().err == (
        f"acpcbot: error: {log} is a log of another game: its header names "
        "'holdem.limit.2p.reverse_blinds.game', not the game given\n"
    )
    assert main(["stats", str(log), "--game", "holdem.limit.2p.reverse_blinds.game"]) == 0
    capsys.readouterr()
    headerless = tmp_path / "h.log"
    headerless.write_text("".join(log.read_text().splitlines(keepends=True)[4:]))
    assert main(["stats", str(headerless), "--game", nolimit]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"acpcbot: error: {headerless}:1: ") and err.count("\n") == 1
    assert err.endswith("(not a hand of the game given: is the log of another game?)\n")


@SHARES_THE_MATCH
@pytest.mark.e2e
def test_results_aivat_of_a_pipe_is_refused(aivat_match: tuple[Path, dict[str, object]]) -> None:
    """AIVAT reads each log again, after the results: a pipe cannot be, and says so in one
    line (instead of finding no hands the second time)."""
    out, _ = aivat_match
    done = subprocess.run(
        [str(Path(sys.executable).with_name("acpcbot")), "results", "/dev/stdin", "--aivat"],
        input=next(out.glob("*.log")).read_bytes(),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.decode() == (
        "acpcbot: error: /dev/stdin is a pipe, read once: give the log as a file\n"
    )


@SHARES_THE_MATCH
def test_results_aivat_of_compressed_logs(
    aivat_match: tuple[Path, dict[str, object]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A compressed log is read again as it is, and X.log.gz's decisions are X.probs."""
    out, aivat = aivat_match
    for log in sorted(out.glob("*.log")):
        (tmp_path / f"{log.name}.gz").write_bytes(gzip.compress(log.read_bytes()))
        shutil.copy(log.with_suffix(".probs"), tmp_path)
    packed = sorted(str(p) for p in tmp_path.glob("*.log.gz"))
    assert main(["results", *packed, "--aivat", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)["aivat"]
    assert (again["mbb_per_game"], again["ci95"]) == (aivat["mbb_per_game"], aivat["ci95"])
    assert again["actions_known"] == again["actions"] > 0


@pytest.mark.e2e
def test_tournament_pools_aivat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t"
    args = ["tournament", "always-call", "--vs", "example", "--hands", "60", "--seeds", "2"]
    assert main([*args, "--aivat", "--out", str(out), "--jobs", "1", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    (pooled,) = results["aivat"]
    assert pooled["agents"] == ["example", "always-call"] and pooled["matches"] == 2
    assert pooled["pairs"] == 120 and pooled["ci95"] is not None
    assert len(list(out.glob("*/*.probs"))) == 4
