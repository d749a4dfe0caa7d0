"""A private mosquitto on 127.0.0.1: for the telemetry tests and benchmark, and to try
``--mqtt`` on one machine.

mosquitto is Debian's package (``./dev.sh test`` installs it). The config written keeps
nothing on disk and queues without limit (``max_queued_messages 0``: with mosquitto's
default of 1000, QoS 1 messages to a slow subscriber are dropped silently). Started as
root, mosquitto would switch to its own user, who cannot read a password file in a private
temporary folder: ``user`` keeps it as whoever starts it.
"""

from __future__ import annotations

import contextlib
import getpass
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from acpcbot.errors import AcpcError

__all__ = ["LocalBrokerError", "Mosquitto", "free_port"]


class LocalBrokerError(AcpcError):
    """mosquitto is missing or did not start (the message holds its log)."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on (now)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Mosquitto:
    """One mosquitto process (started again on the same port by :meth:`start`)."""

    def __init__(
        self,
        folder: Path,
        *,
        users: dict[str, str] | None = None,
        prefix: str = "acpcbot",
        tls: tuple[Path, Path] | None = None,
    ) -> None:
        """A broker whose config, password file (``users``: name to password) and log go
        to ``folder``; :attr:`url` names it with the topic prefix ``prefix``. With ``tls``
        (a certificate and its key) it also listens with TLS, on :attr:`tls_port`."""
        executable = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        if not Path(executable).exists():
            raise LocalBrokerError(
                "mosquitto is not installed (Debian: apt-get install mosquitto; "
                "./dev.sh test installs it)"
            )
        self.executable = executable
        self.folder = folder
        self.prefix = prefix
        self.port = free_port()
        self.tls_port: int | None = None
        lines = [
            f"listener {self.port} 127.0.0.1",
            "persistence false",
            "max_queued_messages 0",
            f"user {getpass.getuser()}",
        ]
        if users:
            passwords = folder / "passwords"
            passwords.touch(mode=0o600)
            for name, password in users.items():
                subprocess.run(
                    ["mosquitto_passwd", "-b", str(passwords), name, password],
                    check=True,
                    capture_output=True,
                    timeout=30,
                )
            lines += ["allow_anonymous false", f"password_file {passwords}"]
        else:
            lines.append("allow_anonymous true")
        if tls is not None:  # after the settings that apply to every listener
            self.tls_port = free_port()
            certificate, key = tls
            lines += [f"listener {self.tls_port} 127.0.0.1", f"certfile {certificate}",
                      f"keyfile {key}"]  # fmt: skip
        self.config = folder / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}/{self.prefix}"

    def start(self) -> Mosquitto:
        """Start mosquitto and wait until it listens."""
        log = (self.folder / "mosquitto.log").open("ab")
        self.process = subprocess.Popen(
            [self.executable, "-c", str(self.config)], stdout=log, stderr=log
        )
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2),
            ):
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        log_text = (self.folder / "mosquitto.log").read_text(errors="replace")
        raise LocalBrokerError(f"mosquitto did not start on port {self.port}:\n{log_text}")

    def stop(self, how: signal.Signals = signal.SIGTERM) -> None:
        """Stop it (``SIGKILL``: as if it crashed)."""
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(how)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        self.process = None
