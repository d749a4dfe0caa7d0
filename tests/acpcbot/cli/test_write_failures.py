"""Every command that writes, against a read-only folder, an immutable file and a full file
system: one line naming the file and the reason, a non-zero exit, no traceback and no
temporary file left (:mod:`acpcbot.writing`; how the failures are made: :mod:`tests.writefaults`).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.writefaults import HOW, Faults, faults, one_error_line, run, temporary_files

pytestmark = pytest.mark.e2e  # every test here runs acpcbot's commands as processes

MATCH = ["match", "example", "always-call", "--seed", "3"]
TOURNAMENT = ["tournament", "example", "always-call", "--jobs", "1"]
LBR = ["lbr", "always-call", "--jobs", "1"]
LONG = ["--hands", "20000"]
"""Enough hands that the logs outgrow a full file system's room."""
if HOW == "nobody":  # a file size limit: every log file outgrows it
    LONG = ["--hands", "2000"]


@pytest.fixture
def places(tmp_path: Path) -> Iterator[Faults]:
    with faults(tmp_path) as made:
        yield made


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    """A small match's two logs (their players' cards shown: infogain reads them)."""
    root = tmp_path_factory.mktemp("logs")
    root.chmod(0o777)  # (the nobody user may be the one writing)
    done = run([*MATCH, "--hands", "300", "--out", "m"], root)
    assert done.returncode == 0, done.stderr
    first, second = sorted((root / "m").glob("*.log"))
    return first.read_bytes(), second.read_bytes()


@pytest.fixture
def logs(tmp_path: Path, played: tuple[bytes, bytes]) -> tuple[str, str]:
    """The logs in the test's folder, by the names the command is given."""
    for name, data in zip(("a.log", "b.log"), played, strict=True):
        (tmp_path / name).write_bytes(data)
        (tmp_path / name).chmod(0o644)
    return "a.log", "b.log"


def _failed(done: subprocess.CompletedProcess[str], root: Path, *names: str) -> str:
    """The one error line of a command that failed writing, which names ``names``."""
    assert done.returncode == 1, done
    line = one_error_line(done.stderr)
    for name in names:
        assert name in line, line
    assert temporary_files(root) == []
    return line


# -- a read-only folder --------------------------------------------------------------------


def _reason_read_only() -> str:
    return "on a read-only file system" if HOW == "mounts" else "not writable"


@pytest.mark.parametrize("command", [MATCH, TOURNAMENT, LBR], ids=["match", "tournament", "lbr"])
def test_a_read_only_out_folder(places: Faults, tmp_path: Path, command: list[str]) -> None:
    ro = places.read_only("ro")
    done = run([*command, "--hands", "50", "--out", "ro/x"], tmp_path)
    line = _failed(done, tmp_path, "ro/x", _reason_read_only())
    assert line == f"acpcbot: error: cannot create --out ro/x: ro is {_reason_read_only()}"
    assert list(ro.iterdir()) == []


def test_results_plot_beside_a_log_in_a_read_only_folder(
    places: Faults, tmp_path: Path, logs: tuple[str, str]
) -> None:
    places.read_only("ro", lambda folder: shutil.copy(tmp_path / logs[0], folder / "a.log"))
    done = run(["results", "ro/a.log", "--plot"], tmp_path)
    line = _failed(done, tmp_path)
    assert line == f"acpcbot: error: cannot write ro/a.bankroll.png: ro is {_reason_read_only()}"
    assert done.stdout == ""  # checked before the log was read


def test_infogain_plot_into_a_read_only_folder_before_any_work(
    places: Faults, tmp_path: Path, logs: tuple[str, str]
) -> None:
    places.read_only("ro")
    done = run(["infogain", logs[0], "--plot", "ro/plots", "--no-progress"], tmp_path)
    line = _failed(done, tmp_path)
    assert line == (
        f"acpcbot: error: cannot write ro/plots/infogain-preflop.png: ro is {_reason_read_only()}"
    )
    assert done.stdout == ""


# -- an immutable file ---------------------------------------------------------------------


def _not_writable(path: str) -> str:
    return f"acpcbot: error: cannot write {path}: the file is not writable"


@pytest.mark.parametrize(
    ("command", "summary"),
    [(MATCH, "summary.json"), (TOURNAMENT, "tournament.json"), (LBR, "summary.json")],
    ids=["match", "tournament", "lbr"],
)
def test_an_immutable_file_in_the_out_folder(
    places: Faults, tmp_path: Path, command: list[str], summary: str
) -> None:
    args = [*command, "--hands", "30", "--out", "x"]
    assert run(args, tmp_path).returncode == 0
    before = (tmp_path / "x" / summary).read_bytes()
    places.immutable(tmp_path / "x" / summary)
    done = run(args, tmp_path)
    assert _failed(done, tmp_path) == _not_writable(f"x/{summary}")
    assert (tmp_path / "x" / summary).read_bytes() == before


def test_results_plot_over_an_immutable_picture(
    places: Faults, tmp_path: Path, logs: tuple[str, str]
) -> None:
    picture = tmp_path / "p.png"
    picture.write_bytes(b"an earlier picture")
    places.immutable(picture)
    done = run(["results", logs[0], "--plot-file", "p.png"], tmp_path)
    assert _failed(done, tmp_path) == _not_writable("p.png")
    assert picture.read_bytes() == b"an earlier picture"


def test_infogain_plot_over_an_immutable_picture(
    places: Faults, tmp_path: Path, logs: tuple[str, str]
) -> None:
    (tmp_path / "plots").mkdir()
    picture = tmp_path / "plots" / "infogain-flop.png"
    picture.write_bytes(b"an earlier picture")
    places.immutable(picture)
    # (One flop runout a hand: the plots are written after the work, whatever it found.)
    args = ["infogain", logs[0], "--flop-runouts", "1", "--plot", "plots", "--force"]
    done = run([*args, "--no-progress"], tmp_path)
    assert _failed(done, tmp_path) == _not_writable("plots/infogain-flop.png")
    assert done.stdout == ""


# -- a full file system --------------------------------------------------------------------


def _full_reason() -> str:
    return "No space left on device" if HOW == "mounts" else "File too large"


@pytest.mark.parametrize("command", [MATCH, LBR], ids=["match", "lbr"])
def test_a_match_that_fills_the_disk(places: Faults, tmp_path: Path, command: list[str]) -> None:
    places.full("full")
    done = run([*command, *LONG, "--out", "full/x"], tmp_path, full=True)
    line = _failed(done, tmp_path, "full/x/", _full_reason())
    assert ".log" in line
    summary = json.loads((tmp_path / "full" / "x" / "summary.json").read_text())
    if "not updated" not in line:  # marked failed when that could still be written
        assert summary["status"] == "failed" and summary["error"] in line


def test_a_tournament_that_fills_the_disk(places: Faults, tmp_path: Path) -> None:
    places.full("full")
    done = run([*TOURNAMENT, *LONG, "--out", "full/t"], tmp_path, full=True)
    line = _failed(done, tmp_path, "full/t/", _full_reason())
    assert "the same command plays the others" in line
    status = json.loads((tmp_path / "full" / "t" / "tournament.json").read_text())["status"]
    assert status in {"running", "failed"}  # failed, when that could still be written


PLOTS_SKIPPED = pytest.mark.skipif(
    HOW == "nobody",
    reason="a file size limit (no tmpfs can be mounted here) also stops the caches numba and "
    "matplotlib write as they start",
)


@PLOTS_SKIPPED
def test_results_plot_onto_a_full_disk(
    places: Faults, tmp_path: Path, logs: tuple[str, str]
) -> None:
    places.full("full")
    done = run(["results", *logs, "--plot-file", "full/p.png"], tmp_path, full=True)
    assert _failed(done, tmp_path) == f"acpcbot: error: cannot write full/p.png: {_full_reason()}"
    assert not (tmp_path / "full" / "p.png").exists()


@PLOTS_SKIPPED
def test_infogain_plots_onto_a_full_disk(
    places: Faults, tmp_path: Path, logs: tuple[str, str]
) -> None:
    places.full("full")
    # No progress lines (infogain prints them after a while: a loaded machine gets there).
    # One log and one flop runout a hand: the plots are written after all the work, and
    # what the test asks is what happens then, not what they show.
    args = ["infogain", logs[0], "--flop-runouts", "1", "--plot", "full/p", "--no-progress"]
    done = run(args, tmp_path, full=True)
    line = _failed(done, tmp_path, "full/p/infogain-", _full_reason())
    assert line.endswith(f".png: {_full_reason()}")
