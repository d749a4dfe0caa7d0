"""``acpcbot serve``'s page and API from the command line: over HTTPS with --tls-cert and
--tls-key (its session cookie then ``Secure``), none with --no-http, and the options' errors
in one line before anything is served."""

from __future__ import annotations

import json
import signal
import ssl
import subprocess
import urllib.request
from pathlib import Path

import pytest

from acpcbot.cli import main
from tests.dealer.benchmark.server import LIMIT, serve_process

CONFIG = f"""
game {LIMIT} {{
  bot caller always-call
}}
user neil test
"""


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key (openssl)."""
    subject = ("-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1")
    # (An elliptic-curve key: made at once, where an RSA one searches for primes.)
    key = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1")
    request = ("req", "-x509", *key, "-nodes", "-days", "2", *subject)
    files = ("-keyout", "key.pem", "-out", "cert.pem")
    subprocess.run(
        ["openssl", *request, *files], cwd=folder, check=True, capture_output=True, timeout=60
    )
    return folder / "cert.pem", folder / "key.pem"


@pytest.mark.e2e
def test_the_page_and_the_api_are_served_over_https_with_a_secure_cookie(tmp_path: Path) -> None:
    certificate, key = _certificate(tmp_path)
    config = tmp_path / "bm_server.config"
    config.write_text(CONFIG)
    tls = ("--tls-cert", str(certificate), "--tls-key", str(key))
    with serve_process(config, tmp_path / "data", *tls) as (process, _, url):
        assert url.startswith("https://127.0.0.1:")
        trusted = ssl.create_default_context(cafile=str(certificate))
        with urllib.request.urlopen(url + "/api/games", context=trusted, timeout=30) as got:
            assert [g["game"] for g in json.loads(got.read())["games"]] == [LIMIT]
        logon = urllib.request.Request(
            url + "/api/logon",
            data=json.dumps({"name": "neil", "secret": "test"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(logon, context=trusted, timeout=30) as got:
            cookie = got.headers["Set-Cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
        with pytest.raises(urllib.error.URLError, match="CERTIFICATE_VERIFY_FAILED"):
            urllib.request.urlopen(url + "/api/games", timeout=30)  # (not trusted by default)
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0


@pytest.mark.e2e
def test_no_http_serves_no_page(tmp_path: Path) -> None:
    config = tmp_path / "bm_server.config"
    config.write_text(CONFIG)
    with serve_process(config, tmp_path / "data", "--no-http") as (process, port, url):
        assert url == "" and port > 0
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0


def test_the_web_options_errors_are_one_line_before_anything_is_served(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bm_server.config"
    config.write_text(CONFIG)
    data = ["serve", "--config", str(config), "--data", str(tmp_path / "data"), "--port", "0"]
    for given, said, status in (
        (["--tls-cert", str(config)], "give --tls-cert and --tls-key together", 2),
        (["--tls-cert", str(config), "--tls-key", str(config)], f"cannot use {config} and", 1),
        (["--web-folder", str(tmp_path / "nowhere")], "nowhere: not a folder", 2),
        # Its Live and Replay views would show every user's logs to any user logged on.
        (["--web-folder", str(tmp_path)], "holds the users' logs", 2),
    ):
        assert main([*data, *given]) == status
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "data").exists()  # nothing made
    (tmp_path / "data" / "logs").mkdir(parents=True)
    assert main([*data, "--web-folder", str(tmp_path / "data" / "logs")]) == 2
    assert "holds the users' logs" in capsys.readouterr().err
