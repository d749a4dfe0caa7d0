"""``acpcbot match`` goes on with an interrupted run of itself: the same command, after
Ctrl-C, SIGTERM or SIGKILL, ends with the files of a run that was never stopped."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.dealer.running.test_match import ACPCBOT, _acpcbot, _on_a_terminal

pytestmark = pytest.mark.e2e  # every test here runs acpcbot's commands as processes

PLICAS_DPP = ["match", "plicas", "dpp", "--hands", "120", "--seed", "9", "--out", "m"]
"""The issue's match, shorter: a learning agent (plicas) against a fixed strategy (dpp),
both drawing from their random streams. Short is enough: every decision draws from the
seeded streams, so a replay that left an agent anywhere else shows within a few hands of the
stop, and 120 hands a half, stopped after 30, leave 90 after it."""
LEARNER_EXAMPLE = [
    *("match", "kendall-learner", "example", "--hands", "1000", "--seed", "9", "--out", "m")
]
"""A cheaper learning agent (a value per starting hand, moved by each hand's result) against
a random one, for the claims about resuming that are not about PLICAS: it starts in a
fraction of PLICAS's time, and its 1,000 hands a half take about a second, so that a stop
after 50 hands lands well before the end."""
OVER_TCP = [
    *("match", "kendall-learner", "example", "--hands", "200", "--seed", "4", "--out", "m"),
    *("--transport", "tcp", "--aivat"),
]
"""A learning agent over TCP, each decision's probabilities recorded (``.probs``): the
SIGTERM stop's match, so that one stop and one resume show going on over TCP, with the
``.probs`` files, too. 200 hands a half: each hand's AIVAT correction is most of the match's
time, and a stop after 30 hands a half leaves 170 after it."""
HEADER_LINES = 4
TIMES = {"seconds", "hands_per_second"}


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name != "summary.json"}


def _timeless(value: Any) -> Any:
    """A summary without its times (they differ from run to run)."""
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k not in TIMES}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


def _summary(folder: Path) -> Any:
    return json.loads((folder / "summary.json").read_text())


def _each_played(folder: Path) -> list[int]:
    """Hands in each of the folder's two logs so far (complete lines after the headers; none
    before both are there)."""
    lines = [p.read_bytes().count(b"\n") - HEADER_LINES for p in folder.glob("*.log")]
    return [max(0, n) for n in lines] if len(lines) == 2 else [0, 0]


def _played(folder: Path) -> int:
    """Hands in the folder's logs so far."""
    return sum(_each_played(folder))


def _whole(args: list[str], cwd: Path) -> Path:
    done = _acpcbot(*args, "--no-progress", cwd=cwd, timeout=600)
    assert done.returncode == 0, done.stderr
    return cwd / "m"


@pytest.fixture(scope="module")
def plicas_dpp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The match played without a stop."""
    return _whole(PLICAS_DPP, tmp_path_factory.mktemp("whole"))


@pytest.fixture(scope="module")
def learner_example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """:data:`LEARNER_EXAMPLE` played without a stop."""
    return _whole(LEARNER_EXAMPLE, tmp_path_factory.mktemp("whole-learner"))


@pytest.fixture(scope="module")
def learner_over_tcp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """:data:`OVER_TCP` played without a stop (its ``.probs`` files among the logs)."""
    folder = _whole(OVER_TCP, tmp_path_factory.mktemp("whole-tcp"))
    assert len(list(folder.glob("*.probs"))) == 2
    return folder


SHARES_THE_WHOLE_MATCH = pytest.mark.xdist_group("plicas-dpp-whole")
"""The tests that compare with :func:`plicas_dpp`, :func:`learner_example` or
:func:`learner_over_tcp` run in one test process (``--dist loadgroup``), which plays each
once."""


def _stopped(args: list[str], cwd: Path, how: signal.Signals, after: int) -> subprocess.Popen[str]:
    """``acpcbot`` with ``args``, stopped with ``how`` once each of its two logs holds half
    of ``after`` hands (on a busy machine one half may run far ahead of the other: a test
    once found 6 hands in the log it edits)."""
    match = subprocess.Popen(
        [str(ACPCBOT), *args, "--no-progress"],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while min(_each_played(cwd / "m")) < after / 2:
            assert match.poll() is None, match.communicate()
            assert time.monotonic() < deadline, "the match did not start"
            time.sleep(0.02)
        match.send_signal(how)
        match.communicate(timeout=120)
    finally:
        match.kill()
    return match


@SHARES_THE_WHOLE_MATCH
@pytest.mark.parametrize(
    ("how", "args", "whole"),
    [
        # Ctrl-C, the stop, on the match: PLICAS, whose every unit learns,
        # replays to where it was.
        (signal.SIGINT, PLICAS_DPP, "plicas_dpp"),
        # The other two stops differ in what the stopped run leaves (a summary or not, the
        # lock), not in the agents: a cheaper learner shows the same going on; SIGTERM's
        # over TCP with each decision's probabilities recorded, which go on too (one stop
        # and one resume show both).
        (signal.SIGTERM, OVER_TCP, "learner_over_tcp"),
        (signal.SIGKILL, LEARNER_EXAMPLE, "learner_example"),
    ],
    ids=["SIGINT-plicas", "SIGTERM-learner-tcp", "SIGKILL-learner"],
)
def test_the_same_command_goes_on_with_a_stopped_match(
    tmp_path: Path, how: signal.Signals, args: list[str], whole: str, request: pytest.FixtureRequest
) -> None:
    done: Path = request.getfixturevalue(whole)
    # (Each hand is in the log as it ends: stopped anywhere, here after 30 hands a half.)
    match = _stopped(args, tmp_path, how, after=2 * 30)
    folder = tmp_path / "m"
    summary = _summary(folder)
    if how is signal.SIGKILL:  # no summary written: the one of the start is left
        assert match.returncode == -signal.SIGKILL and summary["status"] == "running"
    else:
        assert match.returncode == 130 and summary["status"] == "interrupted"
    before = {name: data for name, data in _files(folder).items() if name != ".lock"}
    assert (folder / ".lock").exists() == (how is signal.SIGKILL)  # (its process is gone)
    assert 0 < _played(folder) < _played(done), "stopped too late to show anything"

    again = _acpcbot(*args, "--no-progress", cwd=tmp_path, timeout=600)
    assert again.returncode == 0, again.stderr
    assert again.stderr.startswith("acpcbot: going on with the earlier run of this match in m")
    assert _files(folder) == _files(done)  # the logs, byte for byte
    assert _timeless(_summary(folder)) == _timeless(_summary(done))
    for name, data in before.items():  # the hands played before were kept as they were
        assert _files(folder)[name].startswith(data[: data.rfind(b"\n") + 1])
    assert sorted(p.name for p in folder.iterdir()) == sorted(["summary.json", *before])


@SHARES_THE_WHOLE_MATCH
def test_a_log_the_agents_do_not_replay_is_refused_and_force_starts_over(
    tmp_path: Path, learner_example: Path
) -> None:
    # (Any agent that replays its log: a cheap learner, which the check must replay too.)
    match = _stopped(LEARNER_EXAMPLE, tmp_path, signal.SIGTERM, after=2 * 50)
    assert match.returncode == 130
    folder = tmp_path / "m"
    log = next(folder.glob("kendall-learner-example.*.log"))
    lines = log.read_bytes().split(b"\n")
    lines[10] = lines[10].replace(b"STATE:6:", b"STATE:6:r")  # not what was played
    log.write_bytes(b"\n".join(lines))
    edited = log.read_bytes()

    again = _acpcbot(*LEARNER_EXAMPLE, "--no-progress", cwd=tmp_path, timeout=600)
    assert again.returncode == 1
    error = again.stderr.splitlines()[-1]
    assert error == (
        f"acpcbot: error: line 11 of m/{log.name} is not what the agents play now (an agent "
        "that does not play the same way twice, or that changed since): the earlier run "
        "cannot be gone on with; --force starts the match over"
    ), again.stderr
    assert log.read_bytes() == edited  # nothing of the earlier run is lost
    assert _summary(folder)["status"] == "failed"

    forced = _acpcbot(*LEARNER_EXAMPLE, "--no-progress", "--force", cwd=tmp_path, timeout=600)
    assert forced.returncode == 0, forced.stderr
    assert "going on" not in forced.stderr
    assert _files(folder) == _files(learner_example)


def test_the_progress_line_says_how_far_it_is_playing_the_hands_again(tmp_path: Path) -> None:
    # 8,000 hands to replay: the line is drawn as the replay begins and every 0.25 s of it
    args = ["match", "example", "always-call", "--hands", "12000", "--seed", "5", "--out", "m"]
    match = _stopped(args, tmp_path, signal.SIGTERM, after=8_000)
    assert match.returncode == 130
    played = _played(tmp_path / "m")
    assert 8_000 <= played < 24_000
    returncode, text = _on_a_terminal([*args, "--jobs", "2"], tmp_path)
    assert returncode == 0, text
    assert f"the {played:,} hands it played are played again first" in text
    assert re.search(rf"/24,000 hands, [0-9,]+ hands/s, replaying [0-9,]+/{played:,} hands ", text)
    assert f"replaying {played:,}/" not in text  # (the line says nothing once it is done)
