"""``acpcbot web``: the command serves the folders it is given on 127.0.0.1, prints where,
asks for a token when told or when listening beyond loopback, refuses a folder that is not
there, and stops on Ctrl-C."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.dealer.web.server import command

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
def test_a_token_is_needed_when_given_or_beyond_loopback(tmp_path: Path) -> None:
    with web(str(tmp_path), "--token", "s3cret") as (url, port):
        assert url == f"http://127.0.0.1:{port}/?token=s3cret"
        assert _get(f"http://127.0.0.1:{port}/api/info")[0] == 401
        assert _get(f"http://127.0.0.1:{port}/api/info?token=s3cret")[0] == 200
    with web(str(tmp_path), "--host", "0.0.0.0") as (url, port):
        token = url.split("?token=")[1]
        assert len(token) >= 20
        assert _get(f"http://127.0.0.1:{port}/api/info")[0] == 401
        assert _get(f"http://127.0.0.1:{port}/api/info?token={token}")[0] == 200


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


@pytest.mark.parametrize("port", ["-1", "65536", "http"])
def test_a_bad_port_is_refused(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    from acpcbot.cli import main

    with pytest.raises(SystemExit):
        main(["web", "--port", port])
    assert "not a TCP port" in capsys.readouterr().err
