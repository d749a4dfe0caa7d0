"""``acpc-dealer --mqtt --mqtt-hands --progress`` with two ``acpcbot play --mqtt`` players:
the match's status, progress and every hand as its log holds it, each player's own view,
and plain progress lines on a stderr that is not a terminal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.mqttbroker import Mosquitto, Recorder, statuses

GAME = "holdem.limit.2p.reverse_blinds.game"
BIN = Path(sys.executable).parent


def test_the_dealer_and_its_players_publish(broker: Mosquitto, tmp_path: Path) -> None:
    url = broker.url
    with Recorder(broker.port, ["test/#"]) as recorder:
        dealer = subprocess.Popen(
            [BIN / "acpc-dealer", "m", GAME, "200", "7", "Alice", "Bob", "-q", "--progress",
             "--mqtt", url, "--mqtt-hands"],
            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert dealer.stdout is not None
        ports = dealer.stdout.readline().split()
        players = [
            subprocess.Popen(
                [
                    BIN / "acpcbot",
                    "play",
                    "127.0.0.1",
                    port,
                    "--agent",
                    agent,
                    "--json",
                    "--mqtt",
                    url,
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for port, agent in zip(ports, ("example", "always-call"), strict=True)
        ]
        said = [p.communicate(timeout=60) for p in players]
        out, err = dealer.communicate(timeout=60)
        heard = recorder.wait_for(lambda h: statuses(h).count("finished") == 3)
    assert dealer.returncode == 0 and [p.returncode for p in players] == [0, 0]
    assert out.splitlines()[-1] == "SCORE:" + err.split("SCORE:")[1].splitlines()[0]
    # the dealer's view: status, progress (seat 1), every hand as the log holds it
    match = [h for h in heard if h.topic.startswith("test/match/")]
    final = [h.json for h in match if h.stream == "status"][-1]
    assert final["source"] == "acpc-dealer" and final["agents"] == ["Alice", "Bob"]
    assert final["result"]["score"] == out.splitlines()[-1] and final["result"]["hands"] == 200
    log = [line for line in (tmp_path / "m.log").read_text().splitlines() if "STATE" in line]
    assert [h.json["line"] for h in match if h.stream == "hands"] == log
    progress = [h.json for h in match if h.stream == "progress" and h.payload]
    assert (
        progress[-1]["hands"] == 200
        and progress[-1]["mbb_per_game"] == final["result"]["mbb_per_game"]
    )
    # plain progress lines (not a terminal, --progress), then the telemetry's count
    assert "m: 200/200 hands, " in err and " mbb/g, ETA 0:00\n" in err
    assert err.rstrip().splitlines()[-1].startswith(f"telemetry: {len(match):,} messages")
    # each player's own view
    for (printed, _), agent in zip(said, ("example", "always-call"), strict=True):
        summary = json.loads(printed)
        topic = f"test/player/{summary['telemetry']['id']}/"
        mine = [h.json for h in heard if h.topic.startswith(topic) and h.payload]
        assert summary["telemetry"]["dropped"] == 0
        assert any(m.get("hands", 0) > 0 and "decisions" in m for m in mine)  # progress
        done = mine[-1]
        assert done["status"] == "finished" and done["dealer"] == summary["dealer"]
        assert done["agent"] == agent
        assert {k: done["result"][k] for k in ("hands", "chips", "decisions")} == {
            k: summary[k] for k in ("hands", "chips", "decisions")
        }
