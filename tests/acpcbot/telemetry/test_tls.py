"""``mqtts://``: TLS with the server checked against the system's CA store (here a test CA
named by ``SSL_CERT_FILE``, which OpenSSL's default paths honour): a trusted broker gets
the messages, an untrusted one a one-line warning."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from acpcbot.telemetry.localbroker import Mosquitto
from acpcbot.telemetry.publisher import Outgoing, Publisher
from acpcbot.telemetry.url import parse_broker_url
from tests.mqttbroker import Recorder

pytestmark = pytest.mark.e2e  # openssl makes the certificates, mosquitto serves them


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def _certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A CA, and a certificate for 127.0.0.1 that it signed, with its key."""
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
             "ca.pem", "-days", "2", "-subj", "/CN=acpcbot test CA", cwd=folder)  # fmt: skip
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out",
             "server.csr", "-subj", "/CN=127.0.0.1", cwd=folder)  # fmt: skip
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
             "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "san.ext",
             cwd=folder)  # fmt: skip
    return folder / "ca.pem", folder / "server.pem", folder / "server.key"


def test_mqtts_publishes_to_a_trusted_broker_and_warns_about_an_untrusted_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ca, certificate, key = _certificates(tmp_path)
    broker = Mosquitto(tmp_path, prefix="test", tls=(certificate, key)).start()
    try:
        url = parse_broker_url(f"mqtts://127.0.0.1:{broker.tls_port}/test")
        warnings: list[str] = []
        with Recorder(broker.port, ["test/#"]) as recorder:  # listens without TLS
            monkeypatch.setenv("SSL_CERT_FILE", str(ca))
            publisher = Publisher(url, client_id="tls", warn=warnings.append).start()
            publisher.send(Outgoing("test/tls", b"over TLS"))
            assert publisher.close().published == 1
            assert recorder.wait_for(lambda h: len(h) == 1)[0].payload == b"over TLS"
        assert warnings == []
        monkeypatch.setenv("SSL_CERT_FILE", str(certificate))  # not the CA that signed it
        publisher = Publisher(url, client_id="untrusted", warn=warnings.append).start()
        publisher.send(Outgoing("test/tls", b"never"))
        assert publisher.close().dropped == 1
        assert len(warnings) == 1 and "certificate verify failed" in warnings[0]
        assert warnings[0].startswith(f"cannot publish to the MQTT broker at {url}: ")
    finally:
        broker.stop()
