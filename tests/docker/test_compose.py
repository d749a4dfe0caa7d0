"""docker/compose.yaml and docker/Dockerfile without a docker daemon: the services, their
images, commands (read by acpcbot's own command line) and networks are as
docs/operations/docker.md says; the match network is internal and nothing is published to
the host by default; the containers are read-only, non-root and run under an init.
``docker-compose config`` (or ``docker compose config``) reads the file when installed. The
end-to-end run is ``scripts/docker-smoke`` (it needs dockerd)."""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from acpcbot.cli import build_parser
from tests.conftest import REPO

DOCKER = REPO / "docker"
COMPOSE = DOCKER / "compose.yaml"
MATCH_SERVICES = ("dealer", "bot-a", "bot-b")
ACPCBOT_SERVICES = (*MATCH_SERVICES, "watch", "web", "scheduler", "worker", "server")
VARIABLE = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}")


def _with(environment: dict[str, str], value: Any) -> Any:
    """``value`` with ``${NAME:-default}`` read as compose reads it (``$$`` is ``$``)."""
    if isinstance(value, str):
        substituted = VARIABLE.sub(lambda m: environment.get(m[1], m[2] or ""), value)
        return substituted.replace("$$", "$")
    if isinstance(value, list):
        return [_with(environment, item) for item in value]
    if isinstance(value, dict):
        return {key: _with(environment, item) for key, item in value.items()}
    return value


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def _services(raw: dict[str, Any], **environment: str) -> dict[str, dict[str, Any]]:
    services: dict[str, dict[str, Any]] = _with(environment, raw["services"])
    return services


def _args(service: dict[str, Any]) -> argparse.Namespace:
    """The service's command as acpcbot reads it."""
    assert service.get("entrypoint") is None  # the image's: acpcbot
    return build_parser().parse_args(service["command"])


def test_the_services_and_their_profiles(raw: dict[str, Any]) -> None:
    services = _services(raw)
    default = {name for name, s in services.items() if not s.get("profiles")}
    assert default == {"dealer", "bot-a", "bot-b", "broker"}
    assert services["watch"]["profiles"] == ["watch"]
    assert services["web"]["profiles"] == ["web", "server"]
    assert services["scheduler"]["profiles"] == services["worker"]["profiles"] == ["cluster"]
    assert services["server"]["profiles"] == services["postgres"]["profiles"] == ["server"]


def test_one_image_built_once_and_the_broker_image_overridable(raw: dict[str, Any]) -> None:
    services = _services(raw)
    for name in ACPCBOT_SERVICES:
        assert services[name]["image"] == "acpcbot:latest", name
    assert _services(raw, IMAGE="mine:1")["bot-a"]["image"] == "mine:1"
    built = [name for name, s in services.items() if "build" in s]
    assert sorted(built) == ["broker", "dealer", "postgres"]
    build = services["dealer"]["build"]
    assert (DOCKER / build["context"] / build["dockerfile"]).resolve() == DOCKER / "Dockerfile"
    assert build["args"] == {"BASE": "python:3.11-slim-bookworm", "WHEELS": ""}
    assert _services(raw, BASE="local/debian:bookworm-minbase")["broker"]["build"]["args"] == {
        "BASE": "local/debian:bookworm-minbase"
    }
    assert services["broker"]["image"] == "acpcbot-mosquitto:latest"
    assert _services(raw, BROKER_IMAGE="eclipse-mosquitto:2")["broker"]["image"] == (
        "eclipse-mosquitto:2"
    )
    # Whatever the image, the broker reads our configuration, mounted read-only.
    broker = services["broker"]
    assert broker["command"] == ["mosquitto", "-c", "/etc/acpcbot/mosquitto.conf"]
    assert broker["volumes"] == ["./mosquitto/mosquitto.conf:/etc/acpcbot/mosquitto.conf:ro"]
    conf = (DOCKER / "mosquitto" / "mosquitto.conf").read_text().splitlines()
    assert {"listener 1883", "allow_anonymous true", "max_queued_messages 0"} <= set(conf)


def test_the_dealer_and_the_bots_play_one_duplicate_match(raw: dict[str, Any]) -> None:
    environment = {"AGENT_A": "plicas:dprc=off", "AGENT_B": "dpp", "HANDS": "10000", "SEED": "7"}
    services = _services(raw, **environment)
    dealer = _args(services["dealer"])
    assert (dealer.command, dealer.agent_a, dealer.agent_b) == ("match", "plicas:dprc=off", "dpp")
    assert (dealer.hands, dealer.seed, dealer.seed_a, dealer.seed_b) == (10000, 7, None, None)
    assert (dealer.transport, dealer.host) == ("remote", "0.0.0.0")
    assert dealer.out is None and services["dealer"]["volumes"] == ["./results:/results"]
    assert dealer.plot and dealer.progress and dealer.mqtt.shown() == "mqtt://broker:1883/acpcbot"
    ports = dealer.ports
    assert len(ports) == 4 and 0 not in ports
    # Half 1: A in seat 1, B in seat 2; half 2 reversed. Each bot plays its two seats with
    # the agent seed the match gives it, so that the logs are acpcbot match's.
    for name, agent, letter, seats in (
        ("bot-a", "plicas:dprc=off", "a", [ports[0], ports[3]]),
        ("bot-b", "dpp", "b", [ports[1], ports[2]]),
    ):
        bot = _args(services[name])
        assert (bot.command, bot.host, bot.ports, bot.agent) == ("play", "dealer", seats, agent)
        assert (bot.match_seed, bot.agent_letter, bot.seed) == (7, letter, None)
        assert bot.budget_ms == 0  # as acpcbot match: no fallback can make the logs differ
        assert bot.mqtt.shown() == "mqtt://broker:1883/acpcbot"
        assert services[name]["depends_on"] == {"dealer": {"condition": "service_healthy"}}
    watch = _args(services["watch"])
    assert watch.command == "watch" and watch.mqtt.shown() == "mqtt://broker:1883/acpcbot"
    assert _services(raw, RESULTS="/srv/r")["dealer"]["volumes"] == ["/srv/r:/results"]


def test_the_web_profile_serves_the_results_and_the_broker_behind_a_token(
    raw: dict[str, Any],
) -> None:
    services = _services(raw, WEB_PORT="9000", WEB_TOKEN="t")
    web = _args(services["web"])
    assert (web.command, web.folders, web.play_dir) == (
        "web",
        [Path("/results")],
        Path("/results/played"),
    )
    assert web.mqtt.shown() == "mqtt://broker:1883/acpcbot"
    # Listening on every interface of its container: the command asks for a token then.
    assert (web.host, web.port) == ("0.0.0.0", (8000, 0))  # (port, none after it tried)
    assert services["web"]["environment"] == {"ACPCBOT_WEB_TOKEN": "t"}
    assert services["web"]["ports"] == ["127.0.0.1:9000:8000"]
    assert services["web"]["volumes"] == ["./results:/results"]
    assert "web" in (DOCKER / "Dockerfile").read_text().split("ARG EXTRAS=")[1].split()[0]


def test_the_healthcheck_watches_the_dealers_ports(raw: dict[str, Any]) -> None:
    services = _services(raw)
    ports = _args(services["dealer"]).ports
    check = services["dealer"]["healthcheck"]
    assert check["test"][0] == "CMD-SHELL"
    pattern = re.search(r"grep -cE '(.*?)' /proc/net/tcp\) -ge (\d+)", check["test"][1])
    assert pattern is not None and int(pattern[2]) == len(ports)
    local = re.compile(pattern[1])
    for port in ports:  # /proc/net/tcp: address:port in hex, then the peer, then the state
        for state in ("0A", "01"):  # listening, or playing with its player
            assert local.search(f"   1: 00000000:{port:04X} 0200A8C0:9C41 {state} 0000"), port
        assert not local.search(f"   1: 00000000:{port:04X} 0200A8C0:9C41 06 0000")
    assert not local.search("   1: 00000000:4966 00000000:0000 0A 0000")


def test_match_traffic_stays_on_an_internal_network(raw: dict[str, Any]) -> None:
    services = _services(raw)
    assert raw["networks"]["match"] == {"internal": True}
    for name in (*MATCH_SERVICES, "broker", "watch"):
        assert services[name]["networks"] == ["match"], name
        assert "ports" not in services[name] and "network_mode" not in services[name], name
    # Only the cluster and web profiles publish anything, on the host's loopback: the
    # scheduler, and the web page (which reaches the broker on the match network and the
    # host through a network of its own).
    published = {name: s["ports"] for name, s in services.items() if "ports" in s}
    assert published == {"scheduler": ["127.0.0.1:8786:8786"], "web": ["127.0.0.1:8000:8000"]}
    assert services["web"]["networks"] == ["match", "web"] and raw["networks"]["web"] == {}
    assert services["scheduler"]["networks"] == services["worker"]["networks"] == ["cluster"]


def test_containers_are_read_only_non_root_and_under_an_init(raw: dict[str, Any]) -> None:
    services = _services(raw)
    for name, service in services.items():
        assert service["init"] is True and service["read_only"] is True, name
        assert service["user"] not in {"root", "0", "0:0"}, name
    for name in ACPCBOT_SERVICES:
        service = services[name]
        assert service["user"] == "10001:10001", name
        assert service["tmpfs"] == ["/tmp:size=512m"], name
    assert _services(raw, UID="1000", GID="1000")["dealer"]["user"] == "1000:1000"
    for name in MATCH_SERVICES:
        assert services[name]["restart"] == "no"  # a lost player cannot rejoin its seat


def test_the_server_profile_serves_on_the_hosts_loopback_with_postgresql(
    raw: dict[str, Any],
) -> None:
    from dealer.benchmark.config import read_config

    services = _services(raw)
    server, postgres = services["server"], services["postgres"]
    args = _args(server)
    assert args.command == "serve" and args.serve_command is None
    # The loopback unless told (and --insecure to be told otherwise), the reference's port.
    assert (args.host, args.port, args.public_host, args.insecure) == (
        "127.0.0.1", 54000, "127.0.0.1", False
    )  # fmt: skip
    told = _args(_services(raw, SERVE_HOST="0.0.0.0", SERVE_INSECURE="--insecure")["server"])
    assert (told.host, told.insecure) == ("0.0.0.0", True)
    # Runs listen on ports the system chooses: the server shares the host's network.
    assert server["network_mode"] == "host" and "ports" not in server
    assert "networks" not in server
    # PostgreSQL on a Unix socket in a volume only the two mount, no password anywhere.
    assert args.database == "postgresql://acpcbot@/acpcbot?host=/run/postgresql"
    assert "server-socket:/run/postgresql" in server["volumes"]
    assert "server-socket:/run/postgresql" in postgres["volumes"]
    assert postgres["network_mode"] == "none" and postgres["user"] == "postgres"
    assert server["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    assert set(raw["volumes"]) == {"server-db", "server-socket"}
    assert postgres["build"] == {
        "context": "postgres",
        "args": {"BASE": "python:3.11-slim-bookworm"},
    }
    # Its data under the results folder, which the page (the web profile's) shows.
    assert args.data == Path("/results/server") and "./results:/results" in server["volumes"]
    assert "./server/server.toml:/etc/acpcbot/server.toml:ro" in server["volumes"]
    config = read_config(DOCKER / "server" / "server.toml", hash_password=str)
    assert [b.name for b in config.games[0].bots] == ["dpp", "plicas"]
    assert not config.users  # added by `serve user add`, never a password in the repository
    start = (DOCKER / "postgres" / "start.sh").read_text()
    assert "listen_addresses= " in start and "--auth-host=reject" in start


def test_the_cluster_profile_runs_dask_from_the_image(raw: dict[str, Any]) -> None:
    services = _services(raw, WORKERS="3")
    scheduler, worker = services["scheduler"], services["worker"]
    assert scheduler["entrypoint"] == worker["entrypoint"] == ["dask"]
    assert scheduler["command"][:2] == ["scheduler", "--port=8786"]
    assert worker["command"][:2] == ["worker", "tcp://scheduler:8786"]
    assert "--nworkers=3" in worker["command"] and "--nthreads=1" in worker["command"]
    assert _services(raw, SCHEDULER_PORT="9999")["scheduler"]["ports"] == ["127.0.0.1:9999:8786"]


def test_the_dockerfile_builds_from_a_chosen_base_offline_and_non_root() -> None:
    text = (DOCKER / "Dockerfile").read_text()
    lines = [line.strip() for line in text.splitlines()]
    assert not any(re.match(r"#\s*syntax\s*=", line) for line in lines)  # no frontend pulls
    assert lines.index("ARG BASE=python:3.11-slim-bookworm") < lines.index("FROM ${BASE} AS python")
    assert "ARG WHEELS=" in lines and '--find-links "/src/$WHEELS"' in text
    assert "--no-index" in text
    final = text[text.rindex("\nFROM ") :]
    assert "USER ${UID}:${UID}" in final and "ARG UID=10001" in final
    assert 'ENTRYPOINT ["acpcbot"]' in final
    assert "NUMBA_CACHE_DIR=/opt/acpcbot/numba-cache" in final
    assert "RUN sh /src/docker/warm-up.sh" in text
    ignored = (REPO / ".dockerignore").read_text().splitlines()
    # everything out first, then what the image is built from back in
    assert ignored.index("*") < min(i for i, line in enumerate(ignored) if line.startswith("!"))
    for needed in ("pyproject.toml", "README.md", "acpcbot", "agents", "dealer"):
        assert f"!{needed}" in ignored
    assert "!docker/wheels" in ignored and "!docker/warm-up.sh" in ignored


def _compose_command() -> list[str] | None:
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    if shutil.which("docker"):
        probe = subprocess.run(
            ["docker", "compose", "version"], capture_output=True, check=False, timeout=30
        )
        if probe.returncode == 0:
            return ["docker", "compose"]
    return None


@pytest.mark.e2e
def test_compose_reads_the_file() -> None:
    command = _compose_command()
    if command is None:
        pytest.skip("neither docker-compose nor docker compose is installed")
    profiles = [f"--profile={name}" for name in ("watch", "web", "cluster", "server")]
    done = subprocess.run(
        [*command, "-f", str(COMPOSE), *profiles, "config"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env={"PATH": "/usr/bin:/bin:/usr/local/bin", "HANDS": "5000", "AGENT_A": "example"},
    )
    assert done.returncode == 0, done.stderr
    config = yaml.safe_load(done.stdout)
    assert set(config["services"]) == {*ACPCBOT_SERVICES, "broker", "postgres"}
    dealer = config["services"]["dealer"]
    assert "--hands=5000" in dealer["command"] and "example" in dealer["command"]
    assert config["networks"]["match"]["internal"] is True
