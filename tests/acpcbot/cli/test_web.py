"""``acpcbot web``: the command serves the folders it is given on 127.0.0.1, prints where,
asks for a token when told or when listening beyond loopback, refuses a folder that is not
there, and stops on Ctrl-C."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import pytest

from dealer.web import machine_addresses
from tests.dealer.web.server import SERVING, command

ACPCBOT = Path(sys.executable).with_name("acpcbot")
web = command


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.mark.e2e
def test_it_serves_the_folders_given_on_loopback(tmp_path: Path) -> None:
    (tmp_path / "a.log").write_text("STATE:0:rf:9h6s|3d3h:10|-10:A|B\n")
    with web(str(tmp_path)) as (url, port):
        assert url == f"http://127.0.0.1:{port}/"
        status, text = _get(f"{url}api/info")
        assert status == 200
        info = json.loads(text)
        assert info["folders"] == [{"key": tmp_path.name, "name": tmp_path.name}]
        assert "always-call" in info["agents"] and "lbr:opponent=dpp" in info["agents"]
        status, text = _get(f"{url}api/files")
        assert [f["path"] for f in json.loads(text)] == ["a.log"]


@pytest.mark.e2e
def test_a_token_is_needed_when_given(tmp_path: Path) -> None:
    with web(str(tmp_path), "--token", "s3cret") as (url, port):
        assert url == f"http://127.0.0.1:{port}/?token=s3cret"
        assert _get(f"http://127.0.0.1:{port}/api/info")[0] == 401
        assert _get(f"http://127.0.0.1:{port}/api/info?token=s3cret")[0] == 200


@pytest.mark.e2e
def test_on_every_address_a_token_is_needed_and_it_prints_urls_that_open(tmp_path: Path) -> None:
    """Listening on 0.0.0.0 (beyond loopback), it makes a token that every request needs; the
    URL it prints is this machine's loopback's (0.0.0.0 is where it listens, not an address
    to open), then the machine's own addresses."""
    process = subprocess.Popen(
        [str(ACPCBOT), "web", str(tmp_path), "--host", "0.0.0.0", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        found = SERVING.match(process.stdout.readline())
        assert found is not None and found[2] == "127.0.0.1", found
        port, token = found[3], found[1].split("?token=")[1]
        assert len(token) >= 20
        assert _get(f"http://127.0.0.1:{port}/api/info")[0] == 401
        assert _get(f"http://127.0.0.1:{port}/api/info?token={token}")[0] == 200
        assert _get(found[1])[0] == 200
        elsewhere = process.stdout.readline()
        assert elsewhere.startswith(
            "acpcbot web: listening on every address of this machine (0.0.0.0): from elsewhere, "
        ), elsewhere
        urls = re.findall(r"http://\S+/\?token=\S+", elsewhere)
        assert [u.split("//")[1].split(":")[0] for u in urls] == machine_addresses()
        for url in urls:
            assert url.endswith(f":{port}/?token={token}")
            assert _get(url)[0] == 200  # (a request addressed to that address)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)


@pytest.mark.e2e
def test_a_missing_folder_is_a_one_line_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(ACPCBOT), "web", str(tmp_path / "gone"), "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr == f"acpcbot: error: no folder {tmp_path / 'gone'}\n"


@pytest.mark.e2e
def test_a_port_in_use_is_a_one_line_error_that_says_how_to_choose_another(
    tmp_path: Path,
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run(
            [str(ACPCBOT), "web", str(tmp_path), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 1, done.stderr
    assert done.stderr == (
        f"acpcbot: error: port {port} is in use on 127.0.0.1 (another acpcbot web?): choose "
        "another with --port N, or --port 0 for any free one\n"
    )


@pytest.mark.parametrize("port", ["-1", "65536", "http"])
def test_a_bad_port_is_refused(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    from acpcbot.cli import main

    with pytest.raises(SystemExit):
        main(["web", "--port", port])
    assert "not a TCP port" in capsys.readouterr().err


@pytest.mark.e2e
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
async def test_stopped_while_a_person_plays_the_match_is_interrupted_and_unlocked(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """As Ctrl-C (or SIGTERM) ends ``acpcbot match``: its summary says ``interrupted`` with
    the hands played, no ``.lock`` is left, and the process ends at once."""
    process = await asyncio.create_subprocess_exec(
        *(str(ACPCBOT), "web", "--port", "0", "--play-dir", str(tmp_path / "played")),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        found = SERVING.match((await asyncio.wait_for(process.stdout.readline(), 60)).decode())
        assert found is not None
        url = f"http://127.0.0.1:{found[3]}"
        async with aiohttp.ClientSession() as s:
            body = {"opponent": "always-call", "hands": 50, "seed": 4, "name": "Ann"}
            async with s.post(f"{url}/api/play", json=body) as response:
                key = (await response.json())["key"]
            async with s.ws_connect(f"{url}/api/play/{key}/ws") as socket:
                answered = set()
                while True:  # call until two hands are over, then wait in the third
                    table = await asyncio.wait_for(socket.receive_json(), 60)
                    decision = table["decision"]
                    if decision is None or decision["key"] in answered:
                        continue
                    if table["result"]["hands"] >= 2:
                        break
                    answered.add(decision["key"])
                    await socket.send_json({"type": "act", "key": decision["key"], "action": "c"})
            process.send_signal(stop)
            assert await asyncio.wait_for(process.wait(), 30) == 0
        said = (await process.stderr.read()).decode()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    (folder,) = (tmp_path / "played").iterdir()
    summary = json.loads((folder / "summary.json").read_text())
    assert (summary["status"], summary["hands"]) == ("interrupted", 2), said
    assert not (folder / ".lock").exists()
    log = folder / summary["halves"][0]["log"]
    assert sum(line.startswith("STATE:") for line in log.read_text().splitlines()) == 2
    assert "left" not in said
