"""A user's own agent plugs in without editing the project: the documentation's example plays
real matches as ``module:Class`` and as an installed plug-in; a bad plug-in is a one-line
error."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

from acpcbot.cli import main
from tests.conftest import REPO

ACPCBOT = Path(sys.executable).with_name("acpcbot")
USER_MODULES = ("mybot", "broken", "notagent", "failing", "abstract", "badsyntax")


@pytest.fixture(autouse=True)
def _isolated_imports(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Undo what a test's imports and ``main`` change: sys.path, the user's modules, the
    logging setup."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield
    for name in USER_MODULES:
        sys.modules.pop(name, None)
    structlog.reset_defaults()


def documented_agent() -> str:
    """The first Python block of the documentation's page "Write your own agent"."""
    page = (REPO / "docs" / "agents" / "own-agent.md").read_text()
    return page.split("```python\n")[1].split("```")[0]


def write_distribution(site: Path) -> None:
    """``mybot.py`` and a distribution ``mybot`` that declares it as a plug-in, in ``site``
    (an installed distribution is such a ``.dist-info`` folder on ``sys.path``)."""
    site.mkdir()
    (site / "mybot.py").write_text(documented_agent())
    info = site / "mybot-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mybot\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[acpcbot.agents]\npair-raiser = mybot:PairRaiser\nmissing = nowhere_at_all:Bot\n"
        "dpp = mybot:PairRaiser\n"
    )


@pytest.mark.e2e
def test_the_documented_agent_plays_over_tcp_as_module_and_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "mybot.py").write_text(documented_agent())
    monkeypatch.chdir(tmp_path)  # the docs: "save this as mybot.py in the current folder"
    spec = "mybot:PairRaiser:bluff=0.3"
    args = ["match", spec, "always-call", "--hands", "300", "--seed", "1", "--transport", "tcp"]
    assert main([*args, "--out", "m"]) == 0
    summary = json.loads((tmp_path / "m" / "summary.json").read_text())
    assert summary["names"] == ["mybot.PairRaiser+bluff=0.3", "always-call"]
    assert [half["hands"] for half in summary["halves"]] == [300, 300]
    log = (tmp_path / "m" / summary["halves"][0]["log"]).read_text()
    assert ":r" in log or "|r" in log.replace("STATE:", "|")  # it raised


@pytest.mark.e2e
def test_the_documented_agent_as_an_installed_plug_in(tmp_path: Path) -> None:
    site = tmp_path / "site"
    write_distribution(site)
    env = {**os.environ, "PYTHONPATH": str(site)}
    listing = subprocess.run(
        [ACPCBOT, "agents"], env=env, capture_output=True, text=True, check=True, timeout=60
    ).stdout.splitlines()
    plugin_lines = [" ".join(line.split()) for line in listing if "plug-in" in line]
    assert plugin_lines == [
        "dpp plug-in (mybot:PairRaiser from mybot 0.1), hidden by the built-in agent",
        "missing plug-in (nowhere_at_all:Bot from mybot 0.1), broken: cannot import module "
        "nowhere_at_all: ModuleNotFoundError: No module named 'nowhere_at_all'",
        "pair-raiser plug-in (mybot:PairRaiser from mybot 0.1): Raises with a pair or better "
        "(and bluffs now and then), else checks or calls.",
    ]
    out = tmp_path / "m"
    played = subprocess.run(
        [
            ACPCBOT,
            "match",
            "pair-raiser:bluff=0.2",
            "always-call",
            "--hands",
            "200",
            "--transport",
            "inprocess",
            "--json",
            "--out",
            str(out),
        ],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["names"] == ["pair-raiser+bluff=0.2", "always-call"]
    failed = subprocess.run(
        [ACPCBOT, "match", "missing", "always-call", "--out", str(tmp_path / "x")],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert failed.returncode == 1
    assert failed.stderr.startswith("acpcbot: error: plug-in agent 'missing' (nowhere_at_all:")
    assert failed.stderr.count("\n") == 1


BAD_MODULES = {
    "broken": "import a_dependency_that_is_not_installed\n",
    "notagent": "class Bot:\n    pass\n",
    "failing": "from agents.base import Agent\n\n\nclass Bot(Agent):\n"
    "    def __init__(self, seed: int = 0) -> None:\n"
    "        raise RuntimeError('no GPU\\nfound')\n\n"
    "    def act(self, state, betting):\n"
    "        raise NotImplementedError\n",
    "abstract": "from agents.base import Agent\n\n\nclass Bot(Agent):\n    pass\n",
    "badsyntax": "def (:\n",
}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "broken:Bot",
            "agent broken:Bot: cannot import module broken: ModuleNotFoundError: "
            "No module named 'a_dependency_that_is_not_installed'",
        ),
        ("notagent:Bot", "agent notagent:Bot: notagent:Bot is not a subclass of agents.base.Agent"),
        ("failing:Bot", r"agent failing:Bot: Bot\(seed=\d+\) failed: RuntimeError: no GPU found"),
        (
            "abstract:Bot",
            r"agent abstract:Bot: Bot\(seed=\d+\) failed: TypeError: Can't instantiate",
        ),
        ("badsyntax:Bot", "agent badsyntax:Bot: cannot import module badsyntax: SyntaxError: "),
        ("mybot:PairRaiser:bluff=lots", "agent mybot:PairRaiser: bad options: ValueError: "),
        (
            "mybot:PairRaiser:aggression=2",
            "agent mybot:PairRaiser: bad options: TypeError: .*'aggr",
        ),
        ("mybot:NoSuchClass", "agent mybot:NoSuchClass: module mybot has no attribute"),
    ],
)
def test_a_bad_plug_in_is_one_line_before_the_match(
    spec: str,
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, source in {**BAD_MODULES, "mybot": documented_agent()}.items():
        (tmp_path / f"{name}.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    # the spec's options are wrong (2); the plug-in's code cannot be loaded or built (1)
    status = 2 if "bad options" in message else 1
    assert main(["match", spec, "always-call", "--hands", "10", "--out", "m"]) == status
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("acpcbot: error: ")
    assert re.match(message, err.removeprefix("acpcbot: error: "))
    assert not (tmp_path / "m").exists()


@pytest.mark.e2e
def test_isolated_the_documented_agent_plays_in_its_own_process_with_the_same_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "mybot.py").write_text(documented_agent())
    monkeypatch.chdir(tmp_path)
    args = ["match", "mybot:PairRaiser:bluff=0.3", "example", "--hands", "150", "--aivat"]
    assert main([*args, "--isolate", "--out", "alone", "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert alone["isolated"] == ["mybot.PairRaiser+bluff=0.3"]
    assert main([*args, "--out", "here", "--json"]) == 0
    here = json.loads(capsys.readouterr().out)
    assert alone["decisions"] == here["decisions"] and "isolated" not in here
    files = sorted(f.name for f in (tmp_path / "here").iterdir() if f.suffix in (".log", ".probs"))
    assert len(files) == 4
    for name in files:
        assert (tmp_path / "alone" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()
    # a tournament isolates the plug-ins among its agents
    tournament = ["tournament", "mybot:PairRaiser", "always-call", "--hands", "30", "--jobs", "1"]
    assert main([*tournament, "--isolate", "--out", "t1", "--json"]) == 0
    assert main([*tournament, "--out", "t2", "--json"]) == 0
    capsys.readouterr()
    logs = sorted((tmp_path / "t2").glob("*/*.log"))
    assert len(logs) == 2
    for log in logs:
        assert (tmp_path / "t1" / log.relative_to(tmp_path / "t2")).read_bytes() == log.read_bytes()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["plicas", "dpp"], "--isolate plays agents given as module:Class or as installed"),
        (["mybot:Bot", "dpp", "--transport", "remote"], "--isolate is for agents played here"),
    ],
)
def test_isolate_without_a_plug_in_to_play_here_is_one_line(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", *args, "--isolate", "--out", str(tmp_path / "m")]) == 2  # usage
    err = capsys.readouterr().err
    assert err.startswith(f"acpcbot: error: {message}") and err.count("\n") == 1
    assert not (tmp_path / "m").exists()
    assert main(["tournament", "plicas", "dpp", "--isolate", "--out", str(tmp_path / "t")]) == 2
    assert capsys.readouterr().err.startswith("acpcbot: error: --isolate plays agents given")
