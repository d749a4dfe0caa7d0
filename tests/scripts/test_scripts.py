"""Every script of ``scripts/``: its ``--help``, and a tiny run of it (seconds), so that a
change of the packages a script uses breaks a test, not the next person who runs it.

A Python script runs in this process, its ``main`` called with tiny arguments (the fast
tier), unless it must start processes (a broker, the dealer, a Dask cluster, a browser,
our commands to time them): then it runs as a command, marked ``e2e``. The docker scripts
need a docker daemon (and root): only their ``--help`` runs here.
"""

from __future__ import annotations

import json
import runpy
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from agents.registry import entrant
from dealer.running import MatchRequest, run_match

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
LIBRARIES = {"plicas_instruments"}
"""Modules that scripts import, no command of their own (tested in their own test files)."""
PYTHON = sorted(path.stem for path in SCRIPTS.glob("*.py") if path.stem not in LIBRARIES)
SHELL = sorted(path.name for path in SCRIPTS.iterdir() if path.suffix == "" and path.is_file())

IN_PROCESS = {
    "bench_plicas",
    "build_action_prior",
    "build_flop_squares",
    "build_tables",
    "change_scan",
    "explain_match",
    "field_styles",
    "fit_aivat_value",
    "kendall_learning",
    "learning_curve",
    "loki2_latency",
    "measure_evaluation",
    "plicas_generic",
    "plicas_latency",
    "plicas_readings",
    "plicas_regret",
    "train_dpp",
}
"""The scripts whose tiny run stays in this process (tested below, one test each)."""
AS_COMMANDS = {
    "bench_client",
    "bench_dealer",
    "bench_engine",
    "bench_telemetry",
    "bench_tournament",
    "bench_web",
    "evaluate",
    "load_server",
    "web_screenshots",
}
"""The scripts that start processes: their tiny runs are commands (e2e)."""


def script_main(name: str) -> Callable[[list[str]], int]:
    """The ``main`` of ``scripts/NAME.py``, loaded as the script is (not as ``__main__``)."""
    return runpy.run_path(str(SCRIPTS / f"{name}.py"), run_name=f"script_{name}")["main"]  # type: ignore[no-any-return]


def run_script(name: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``scripts/NAME.py ARGS`` as a command."""
    command = [sys.executable, str(SCRIPTS / f"{name}.py"), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def test_every_script_has_its_tiny_run_here() -> None:
    assert set(PYTHON) == IN_PROCESS | AS_COMMANDS
    assert not IN_PROCESS & AS_COMMANDS
    assert SHELL == ["docker-base", "docker-smoke"]


@pytest.mark.parametrize("name", PYTHON)
def test_help_says_what_the_script_does(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", [str(SCRIPTS / f"{name}.py")])  # argparse's program name
    with pytest.raises(SystemExit) as exited:
        script_main(name)(["--help"])
    assert exited.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith(f"usage: {name}.py ")
    doc = (SCRIPTS / f"{name}.py").read_text().split('"""')[1]
    first = "".join(doc.split("\n\n")[0].split())  # the docstring's first paragraph, ...
    assert first in "".join(shown.split())  # ... as argparse wraps it


@pytest.mark.e2e
@pytest.mark.parametrize("name", SHELL)
def test_the_docker_scripts_help(name: str) -> None:
    done = subprocess.run(
        ["bash", str(SCRIPTS / name), "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and done.stderr == ""
    first = (SCRIPTS / name).read_text().splitlines()[1].removeprefix("# ")
    assert done.stdout.splitlines()[0] == first


# -- a match the log readers read -------------------------------------------------------------


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small duplicate match with every decision's probabilities (``--aivat``)."""
    out = tmp_path_factory.mktemp("scripts") / "match"
    request = MatchRequest(
        entrant("example"), entrant("always-call"), hands=60, seed=3, out=out, jobs=1, aivat=True
    )
    run_match(request)
    return out


def test_explain_match(match: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = tmp_path / "spots.csv"
    assert script_main("explain_match")([str(match), "--top", "3", "--csv", str(csv)]) == 0
    out = capsys.readouterr().out
    assert "example" in out and "always-call" in out
    assert len(csv.read_text().splitlines()) > 3


def test_learning_curve(match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert script_main("learning_curve")([str(match), "--blocks", "2"]) == 0
    out = capsys.readouterr().out
    assert "2 equal blocks" in out and "mbb/g" in out


def test_change_scan(match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    logs = sorted(str(log) for log in match.glob("*.log"))
    player = json.loads((match / "summary.json").read_text())["names"][0]
    assert script_main("change_scan")([*logs[:1], "--player", player]) == 0
    assert capsys.readouterr().out


def test_build_action_prior(tmp_path: Path) -> None:
    out = tmp_path / "prior.npz"
    assert script_main("build_action_prior")(["--hands", "40", "--out", str(out)]) == 0
    assert out.stat().st_size > 0


def test_fit_aivat_value(match: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "aivatvalue.py"
    assert script_main("fit_aivat_value")([str(match), "--out", str(out)]) == 0
    assert "(fitted: example vs always-call, seed 3, 60 pairs): CI ratio" in capsys.readouterr().out
    namespace = runpy.run_path(str(out))
    assert len(namespace["COEFFICIENTS"]) == 4  # a round each
    assert namespace["FITTED_ON"] == ("example vs always-call, seed 3, 60 pairs",)
    assert sorted(namespace["FITTED_FOR"]) == ["always-call", "example"]


def test_fit_aivat_value_refuses_the_test_set(tmp_path: Path) -> None:
    folder = tmp_path / "plicas-vs-dpp"
    folder.mkdir()
    (folder / "summary.json").write_text(json.dumps({"agents": ["plicas", "dpp"], "seed": 1}))
    with pytest.raises(SystemExit, match="a match of dpp, the test set"):
        script_main("fit_aivat_value")([str(folder), "--out", str(tmp_path / "table.py")])
    assert not (tmp_path / "table.py").exists()


# -- matches played here --------------------------------------------------------------------


def test_field_styles(capsys: pytest.CaptureFixture[str]) -> None:
    assert script_main("field_styles")(["--hands", "300"]) == 0
    assert "loose > tight in participation" in capsys.readouterr().out


def test_kendall_learning(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--hands", "100", "--quarters", "2", "--jobs", "1"]
    assert script_main("kendall_learning")(argv) == 0
    out = capsys.readouterr().out
    assert "quarter 2:" in out and "last quarter − first" in out


def test_measure_evaluation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main = script_main("measure_evaluation")
    common = ["--hands", "20", "--jobs", "1", "--out", str(tmp_path)]
    assert main(["aivat", "example", "--vs", "always-call", "--seeds", "1", *common]) == 0
    assert "1 seeds pooled" in capsys.readouterr().out
    assert main(["lbr", "always-call", *common]) == 0
    assert "LBR against always-call" in capsys.readouterr().out


def test_plicas_latency(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--hands", "5", "--baseline", "always-call", "--clock", "cpu"]
    assert script_main("plicas_latency")(argv) == 0
    assert "median ratio plicas / always-call" in capsys.readouterr().out


def test_bench_plicas(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--hands", "5", "--match-hands", "5", "--runs", "1", "--baseline", "always-call"]
    assert script_main("bench_plicas")([*argv, "--match-opponent", "example"]) == 0
    shown = capsys.readouterr().out
    assert "median ratio plicas / always-call" in shown
    assert "hands/s ratio plicas / always-call (wall)" in shown
    assert "./dev.sh match (plicas example --hands 30,000)" in shown


def test_loki2_latency(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--agents", "loki2:trials=20", "--baseline", "always-call", "--hands", "5"]
    assert script_main("loki2_latency")(argv) == 0
    assert "loki2:trials=20: median" in capsys.readouterr().out


def test_plicas_readings(capsys: pytest.CaptureFixture[str]) -> None:
    assert script_main("plicas_readings")(["plicas", "example", "--hands", "10"]) == 0
    assert "plicas against example, 10 hands" in capsys.readouterr().out


def test_plicas_regret(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = tmp_path / "regret.csv"
    argv = ["plicas", "example", "--hands", "5", "--rollouts", "1", "--min-rows", "1"]
    assert script_main("plicas_regret")([*argv, "--csv", str(csv)]) == 0
    assert "plicas against example: 5 hands" in capsys.readouterr().out
    assert len(csv.read_text().splitlines()) > 1


def test_plicas_generic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "generic.npz"
    argv = ["example", "--hands", "20", "--jobs", "1", "--out", str(out), "--no-progress"]
    assert script_main("plicas_generic")(argv) == 0
    assert out.is_file() and capsys.readouterr().out


# -- tables ---------------------------------------------------------------------------------


def test_build_tables_verifies_the_shipped_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert script_main("build_tables")(["--verify", "1"]) == 0
    assert "largest difference: 0" in capsys.readouterr().err


def test_build_flop_squares_verifies_the_shipped_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert script_main("build_flop_squares")(["--verify", "2"]) == 0
    assert "2 of 2 flops as the table holds them" in capsys.readouterr().err


def test_train_dpp_on_leduc(vectors: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = vectors / "games" / "leduc.limit.2p.game"
    argv = ["leduc", "--game", str(game), "--iterations", "20", "--report-every", "10"]
    assert script_main("train_dpp")([*argv, "--no-progress"]) == 0
    assert "game value for position 0" in capsys.readouterr().out


# -- the scripts that start processes -------------------------------------------------------


@pytest.mark.e2e
def test_bench_client() -> None:
    done = run_script("bench_client", "--hands", "50", "--repeats", "1")
    assert done.returncode == 0, done.stderr
    assert "play_match" in done.stdout and "full-decode" in done.stdout


@pytest.mark.e2e
def test_bench_dealer() -> None:
    done = run_script("bench_dealer", "--hands", "50", "--runs", "1")
    assert done.returncode == 0, done.stderr
    assert "in-process, always-call vs always-call" in done.stdout
    assert "TCP, acpc-dealer" in done.stdout and "peak RSS" in done.stdout


@pytest.mark.e2e
def test_bench_engine() -> None:
    done = run_script("bench_engine", "--repeats", "1", "--quick", "--json")
    assert done.returncode == 0, done.stderr
    assert any(row["what"] == "acpcbot --help" for row in json.loads(done.stdout))


@pytest.mark.e2e
def test_bench_telemetry() -> None:
    done = run_script("bench_telemetry", "--hands", "100", "--rounds", "1", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert "one progress redraw" in done.stdout


@pytest.mark.e2e
def test_bench_tournament() -> None:
    args = ("always-call", "example", "--hands", "20", "--seeds", "1", "--rounds", "1")
    done = run_script("bench_tournament", *args)
    assert done.returncode == 0, done.stderr
    assert done.stdout


@pytest.mark.e2e
def test_bench_web() -> None:
    args = ("--hands", "300", "--rate", "5", "--baseline", "0.5", "--limit", "60", "--json")
    done = run_script("bench_web", *args)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)


@pytest.mark.e2e
def test_evaluate(tmp_path: Path) -> None:
    out = tmp_path / "evaluation"
    args = ("example", "always-call", "--hands", "20", "--jobs", "1", "--out", str(out))
    done = run_script("evaluate", *args, "--no-progress")
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "results.json").read_text())
    assert "example" in done.stdout


@pytest.mark.e2e
def test_load_server(tmp_path: Path) -> None:
    report = tmp_path / "load.json"
    args = ["--users", "1", "--duration", "5", "--hands", "20", "--kill", "0", "--drain", "120"]
    done = run_script("load_server", *args, "--json", str(report))
    assert done.returncode == 0, done.stderr
    assert json.loads(report.read_text())


@pytest.mark.e2e
def test_web_screenshots(tmp_path: Path) -> None:
    # Every step of the script, with agents that load and play in a fraction of plicas and
    # dpp's time (what the pictures show of them is the page's, tested in the browser tests).
    args = ("--only", "web", "--out", str(tmp_path), "--hands", "20", "--points", "2")
    done = run_script("web_screenshots", *args, "--agents", "example", "always-call")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "web-live.png",
        "web-play.png",
        "web-replay.png",
    ]
