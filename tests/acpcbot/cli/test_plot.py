"""``--plot``: the bankroll curves of a match (into its folder) and of logs (beside the first,
or where --plot-file says), a real PNG each; without matplotlib, a one-line error."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from acpcbot.cli import main
from acpcbot.extras import install_hint

PNG = b"\x89PNG\r\n\x1a\n"


def _picture(path: Path) -> tuple[int, int]:
    """The PNG's size, as matplotlib reads it back (a valid PNG or an error)."""
    from matplotlib.image import imread

    data = path.read_bytes()
    assert data.startswith(PNG)
    height, width = imread(path).shape[:2]
    return width, height


def test_a_match_and_its_logs_plotted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m"
    args = ["match", "example", "always-call", "--hands", "300", "--jobs", "1", "--out", str(out)]
    assert main([*args, "--plot"]) == 0
    assert f"bankroll curves in {out / 'bankroll.png'}" in capsys.readouterr().out
    assert _picture(out / "bankroll.png") == (1000, 750)
    # the same match again without --plot: no stale picture of an earlier run
    assert main(args) == 0
    assert not (out / "bankroll.png").exists()
    capsys.readouterr()
    halves = [h["log"] for h in json.loads((out / "summary.json").read_text())["halves"]]
    first, second = (out / name for name in halves)
    assert main(["results", "--plot", str(first), str(second)]) == 0
    beside = out / f"{first.stem}.bankroll.png"
    assert f"acpcbot: bankroll curves in {beside}" in capsys.readouterr().err
    assert _picture(beside) == (1000, 750)
    assert main(["results", str(first), "--plot-file", str(tmp_path / "one.png")]) == 0
    assert _picture(tmp_path / "one.png") == (1000, 750)
    assert main(["results", str(first), "--plot-file", str(tmp_path / "one.txt")]) == 2
    assert "a bankroll picture is a .png file" in capsys.readouterr().err


def test_without_matplotlib_plot_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    assert main(["match", "example", "always-call", "--out", str(tmp_path / "m"), "--plot"]) == 1
    assert capsys.readouterr().err == (
        f"acpcbot: error: --plot needs matplotlib, which is not installed: {install_hint('plot')}\n"
    )
    assert not (tmp_path / "m").exists()  # checked before anything was written
