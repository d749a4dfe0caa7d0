"""What ``acpcbot serve`` starts the server with: the settings checked before anything is
served (one line each), TLS's files, the house bots made, the line said once listening."""

from __future__ import annotations

from pathlib import Path

import pytest

from acpcbot.errors import AcpcError, UsageError
from acpcbot.player import Entrant
from dealer.benchmark.config import reference_config
from dealer.benchmark.database import database_url
from dealer.benchmark.passwords import hash_password
from dealer.benchmark.startup import (
    DEFAULT_GAMES,
    house_bots,
    serve_settings,
    server_config,
    tls_context,
)

LIMIT = "holdem.limit.2p.reverse_blinds.game"


def settings_of(data: Path, **given: object) -> object:
    words: dict[str, object] = {
        "host": None,
        "port": 0,
        "public_host": None,
        "insecure": False,
        "http_port": None,
        "http_next_ports": 0,
        "tls_files": (None, None),
        "web_folders": (),
    }
    config = server_config(None)
    return serve_settings(config, data, database_url(None, data), **{**words, **given})  # type: ignore[arg-type]


def test_without_a_configuration_dpp_and_plicas_are_served() -> None:
    config = server_config(None)
    assert [(g.file, [b.name for b in g.bots]) for g in config.games] == [
        (LIMIT, ["dpp", "plicas"])
    ]
    assert "bot dpp dpp" in DEFAULT_GAMES


def test_the_words_given_win_and_the_loopback_is_the_default(tmp_path: Path) -> None:
    settings = settings_of(tmp_path, public_host="bench.example")
    assert (settings.host, settings.public_host, settings.port) == (  # type: ignore[attr-defined]
        "127.0.0.1",
        "bench.example",
        0,
    )
    assert settings_of(tmp_path).public_host == "127.0.0.1"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ({"host": "0.0.0.0"}, "give --insecure to do it anyway"),
        ({"host": "0.0.0.0", "insecure": True}, "clients cannot connect to 0.0.0.0"),
        ({"tls_files": (Path("cert.pem"), None)}, "give --tls-cert and --tls-key together"),
        ({"web_folders": [Path("nowhere")]}, "nowhere: not a folder"),
    ],
)
def test_settings_that_cannot_be_served_are_refused_in_one_line(
    tmp_path: Path, given: dict[str, object], said: str
) -> None:
    with pytest.raises(UsageError, match=said):
        settings_of(tmp_path / "data", **given)
    assert not (tmp_path / "data").exists()  # nothing made


def test_the_page_never_shows_the_users_logs(tmp_path: Path) -> None:
    """Its Live and Replay views would show every user's logs to any user logged on."""
    (tmp_path / "data" / "logs").mkdir(parents=True)
    for folder in (tmp_path, tmp_path / "data" / "logs"):
        with pytest.raises(UsageError, match="holds the users' logs"):
            settings_of(tmp_path / "data", web_folders=[folder])


def test_tls_needs_a_certificate_and_its_key_that_load(tmp_path: Path) -> None:
    assert tls_context(None, None) is None
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    with pytest.raises(AcpcError, match=f"cannot use {junk} and {junk} for TLS"):
        tls_context(junk, junk)


def test_house_bots_are_scripts_or_agents_made_now(tmp_path: Path) -> None:
    script = tmp_path / "start.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    text = f"game {LIMIT} {{\n  bot mine {script}\n  bot caller always-call\n}}\n"
    config = reference_config(text, hash_password, folder=tmp_path)
    made: list[str] = []

    def entrant(spec: str) -> Entrant:
        made.append(spec)
        raise AcpcError(f"unknown agent {spec!r}")

    with pytest.raises(AcpcError, match=f"game {LIMIT}, bot caller: unknown agent 'always-call'"):
        house_bots(config, entrant)
    assert made == ["always-call"]
    only_script = reference_config(f"game {LIMIT} {{\n  bot mine {script}\n}}\n", hash_password)
    [mine] = house_bots(only_script, entrant)[LIMIT].values()
    assert (mine.name, mine.script, mine.entrant) == ("mine", script, None)
