"""``--mqtt`` end to end against a real mosquitto, checked by an aiomqtt subscriber: what a
match publishes and in which order, every hand with --mqtt-hands, a broker that dies, comes
back, is missing or refuses the credentials, a match process killed (its last will), and
``acpcbot watch --once`` over two running matches."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from acpcbot.cli import build_parser, main
from acpcbot.options import broker_url
from tests.acpcbot.telemetry.sleepy import SPEC as SLEEPY
from tests.conftest import REPO
from tests.mqttbroker import Heard, Mosquitto, Recorder, statuses

ACPCBOT = Path(sys.executable).with_name("acpcbot")


def _of_stream(heard: list[Heard], stream: str) -> list[dict[str, Any]]:
    return [h.json for h in heard if h.stream == stream and h.payload]


def _state_lines(log: Path) -> list[str]:
    return [line for line in log.read_text().splitlines() if line.startswith("STATE:")]


def test_a_match_publishes_running_progress_and_finished_and_every_hand(
    broker: Mosquitto, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m"
    args = ["match", "example", "always-call", "--hands", "1000", "--seed", "5", "--out", str(out)]
    with Recorder(broker.port, ["test/#"]) as recorder:
        assert main([*args, "--mqtt", broker.url, "--mqtt-hands"]) == 0
        heard = recorder.wait_for(
            lambda h: "finished" in statuses(h) and len(_of_stream(h, "hands")) >= 2000
        )
    summary = json.loads((out / "summary.json").read_text())
    printed = capsys.readouterr().out
    # in order: running, progress (at most once a second), the final progress, finished
    kinds = [(h.stream, h.json["status"] if h.stream == "status" else None) for h in heard
             if h.stream != "hands" and h.payload]  # fmt: skip
    assert kinds[0] == ("status", "running") and kinds[-1] == ("status", "finished")
    assert ("progress", None) in kinds[1:-1]
    running, finished = _of_stream(heard, "status")
    assert running["agents"] == finished["agents"] == ["example", "always-call"]
    assert (running["seed"], running["hands_total"], running["id"]) == (5, 2000, finished["id"])
    assert {"schema", "seq", "ts"} <= running.keys()
    told = summary.pop("telemetry")
    assert finished["summary"] == summary  # the same numbers as summary.json
    assert finished["result"]["mbb_per_game"] == summary["mbb_per_game"]
    progress = _of_stream(heard, "progress")
    assert progress[-1]["hands"] == 2000 and progress[-1]["mbb_per_game"] == summary["mbb_per_game"]
    assert progress[-1]["ci95"] == pytest.approx(summary["ci95"], abs=1e-3)
    assert [p["seq"] for p in progress] == sorted(p["seq"] for p in progress)
    # every hand, as its .log line holds it (none missing at QoS 1)
    hands = _of_stream(heard, "hands")
    assert [h["seq"] for h in hands] == list(range(1, 2001))
    for half in (1, 2):
        log = out / summary["halves"][half - 1]["log"]
        mine = [h for h in hands if h["half"] == half]
        assert [h["line"] for h in mine] == _state_lines(log)
        assert all(h["log"] == log.name for h in mine)
        assert [h["hand"] for h in mine] == list(range(1000))
    first = next(h for h in hands if h["half"] == 1)
    assert first["line"] == (
        f"STATE:0:{first['betting']}:{first['cards']}:"
        + "|".join(f"{v:g}" for v in first["values"])
        + ":"
        + "|".join(first["players"])
    )
    assert (told["dropped"], told["published"]) == (0, len(heard))
    assert f"telemetry: {len(heard):,} messages published to {broker.url}" in printed
    # a subscriber that comes after the end still sees the final status
    with Recorder(broker.port, ["test/+/+/status"]) as late:
        again = late.wait_for(lambda h: len(h) >= 1)
    assert again[0].retain and again[0].json == finished


def test_a_broker_killed_mid_match_then_restarted(
    broker: Mosquitto, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m"
    args = ["match", f"{SLEEPY}:ms=3", "always-call", "--hands", "700", "--jobs", "1"]
    seen: dict[str, object] = {}

    def break_the_broker() -> None:
        with Recorder(broker.port, ["test/#"]) as recorder:
            first = recorder.wait_for(lambda h: bool(_of_stream(h, "progress")))
            seen["before"] = _of_stream(first, "progress")[-1]["seq"]
        broker.stop(signal.SIGKILL)
        time.sleep(2.2)  # two progress messages: the first never goes out
        broker.start()
        with Recorder(broker.port, ["test/#"]) as recorder:
            heard = recorder.wait_for(lambda h: "finished" in statuses(h), timeout=20)
        seen["after"] = heard

    breaker = threading.Thread(target=break_the_broker)
    breaker.start()
    assert main([*args, "--out", str(out), "--mqtt", broker.url]) == 0
    breaker.join(30)
    err = capsys.readouterr().err
    summary = json.loads((out / "summary.json").read_text())
    # the match finished with complete logs, and counted what was lost
    assert summary["status"] == "finished" and summary["hands"] == 1400
    for half in summary["halves"]:
        lines = (out / half["log"]).read_text().splitlines()
        assert len(_state_lines(out / half["log"])) == 700 and lines[-1].startswith("SCORE:")
    assert summary["telemetry"]["dropped"] > 0
    assert err.count("acpcbot: warning: cannot publish to the MQTT broker") == 1
    assert "publishing again" in err
    # publishing resumed: the status again (the restarted broker had forgotten it), more
    # progress, and the end
    after = seen["after"]
    assert isinstance(after, list)
    assert statuses(after)[0] == "running" and statuses(after)[-1] == "finished"
    before = seen["before"]
    assert isinstance(before, int)
    assert any(int(p["seq"]) > before for p in _of_stream(after, "progress"))


def test_no_broker_at_all_gives_one_warning_and_the_same_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["match", "example", "always-call", "--hands", "300", "--seed", "9", "--jobs", "1"]
    assert main([*args, "--out", str(tmp_path / "plain")]) == 0
    capsys.readouterr()
    from tests.mqttbroker import free_port

    nowhere = f"mqtt://127.0.0.1:{free_port()}"
    started = time.perf_counter()
    assert main([*args, "--out", str(tmp_path / "told"), "--mqtt", nowhere]) == 0
    assert time.perf_counter() - started < 10
    err = capsys.readouterr().err
    assert err.count("warning") == 1 and "Connection refused" in err
    for name in ("example-always-call.seed9.n300.log", "always-call-example.seed9.n300.log"):
        assert (tmp_path / "told" / name).read_bytes() == (tmp_path / "plain" / name).read_bytes()
    told = json.loads((tmp_path / "told" / "summary.json").read_text())["telemetry"]
    assert told["published"] == 0 and told["dropped"] > 0


@pytest.mark.e2e
def test_a_broker_with_a_password_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "broker"
    folder.mkdir()
    secured = Mosquitto(folder, users={"bot": "s3cret"}, prefix="test").start()
    try:
        args = ["match", "example", "always-call", "--hands", "200", "--jobs", "1"]
        url = f"mqtt://bot@127.0.0.1:{secured.port}/test"
        with Recorder(secured.port, ["test/#"], username="bot", password="s3cret") as recorder:
            monkeypatch.setenv("ACPCBOT_MQTT_PASSWORD", "s3cret")  # out of ps
            assert main([*args, "--out", str(tmp_path / "right"), "--mqtt", url]) == 0
            monkeypatch.delenv("ACPCBOT_MQTT_PASSWORD")
            heard = recorder.wait_for(lambda h: "finished" in statuses(h))
        assert _of_stream(heard, "status")[-1]["name"] == "example-vs-always-call.seed0.n200"
        capsys.readouterr()
        wrong = f"mqtt://bot:guess@127.0.0.1:{secured.port}/test"
        assert main([*args, "--out", str(tmp_path / "wrong"), "--mqtt", wrong]) == 0
        err = capsys.readouterr().err
        assert err.count("warning") == 1
        assert "refused the connection" in err and "credentials (user 'bot')" in err
        assert "guess" not in err
        assert json.loads((tmp_path / "wrong" / "summary.json").read_text())["status"] == "finished"
    finally:
        secured.stop()


def _subprocess_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def test_a_match_killed_leaves_its_status_aborted(broker: Mosquitto, tmp_path: Path) -> None:
    args = ["match", f"{SLEEPY}:ms=5", "always-call", "--hands", "5000", "--jobs", "2"]
    with Recorder(broker.port, ["test/#"]) as recorder:
        match = subprocess.Popen(
            [str(ACPCBOT), *args, "--mqtt", broker.url],
            cwd=tmp_path,
            env=_subprocess_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            recorder.wait_for(lambda h: bool(_of_stream(h, "progress")))
            match.send_signal(signal.SIGKILL)  # the match's process, not its halves
            heard = recorder.wait_for(lambda h: "aborted" in statuses(h), timeout=10)
        finally:
            os.killpg(match.pid, signal.SIGKILL)
            match.wait(10)
    aborted = _of_stream(heard, "status")[-1]
    assert aborted["status"] == "aborted" and aborted["agents"][1] == "always-call"
    with Recorder(broker.port, ["test/+/+/status"]) as late:
        assert late.wait_for(lambda h: len(h) >= 1)[0].json["status"] == "aborted"


def test_watch_once_lists_two_running_matches_with_their_progress(
    broker: Mosquitto, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    matches = []
    with Recorder(broker.port, ["test/+/+/progress"]) as recorder:
        for seed in (1, 2):
            args = ["match", f"{SLEEPY}:ms=5", "always-call", "--hands", "2000", "--jobs", "1"]
            matches.append(
                subprocess.Popen(
                    [str(ACPCBOT), *args, "--seed", str(seed), "--mqtt", broker.url],
                    cwd=tmp_path,
                    env=_subprocess_env(),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        try:
            recorder.wait_for(lambda h: len({m.topic for m in h if m.payload}) == 2)
            assert main(["watch", "--mqtt", broker.url, "--once"]) == 0
            shown = capsys.readouterr().out.splitlines()
            assert main(["watch", "--mqtt", broker.url, "--once", "--json", "*seed2*"]) == 0
            picked = json.loads(capsys.readouterr().out)
        finally:
            for match in matches:
                match.kill()
                match.wait(10)
    assert shown[0].split()[:3] == ["KIND", "NAME", "AGENTS"]
    rows = shown[1:]
    assert len(rows) == 2
    for seed, row in zip((1, 2), sorted(rows), strict=True):
        assert row.startswith("match") and f".seed{seed}.n2000" in row
        assert "always-call" in row and "/4,000" in row and row.endswith("running")
        assert " ± " in row or "mbb" not in row
    assert [source["status"]["seed"] for source in picked] == [2]
    assert picked[0]["progress"]["hands_total"] == 4000


def test_a_tournament_publishes_matches_done_hands_per_second_and_eta(
    broker: Mosquitto, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["tournament", "example", "always-call", "hash", "--hands", "200", "--jobs", "2"]
    with Recorder(broker.port, ["test/tournament/#"]) as recorder:
        assert main([*args, "--out", str(tmp_path / "t"), "--mqtt", broker.url]) == 0
        heard = recorder.wait_for(lambda h: "finished" in statuses(h))
    running, finished = _of_stream(heard, "status")
    assert running["agents"] == ["example", "always-call", "hash"]
    assert (running["matches_total"], running["hands_total"]) == (3, 1200)
    assert finished["result"]["matches_done"] == 3 and finished["result"]["played"] == 3
    last = _of_stream(heard, "progress")[-1]
    assert (last["matches_done"], last["matches_total"], last["hands"]) == (3, 3, 1200)
    assert {"hands_per_s", "eta_s"} <= last.keys()
    assert "telemetry: " in capsys.readouterr().out


def test_watch_watches_the_broker_of_this_machine_by_default() -> None:
    # mosquitto's default address: a broker started with no options needs no --mqtt
    args = build_parser().parse_args(["watch", "--once"])
    assert args.mqtt == broker_url("mqtt://localhost:1883")
