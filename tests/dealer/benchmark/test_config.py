"""The benchmark server's configuration: the reference's bm_server.config read as the C reads
it, and our TOML format; passwords hashed as they are read."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from dealer.benchmark.config import (
    ConfigError,
    ServerConfig,
    UserLimits,
    read_config,
    reference_config,
    toml_config,
)
from dealer.benchmark.passwords import hash_password, verify_password

LIMIT = "holdem.limit.2p.reverse_blinds.game"

# The reference's own sample, with its bots as agents (its scripts are not here) and its
# three-player block left out: the comments, the indentation, the order of its keywords.
REFERENCE_SAMPLE = f"""# port to connect to the server
port 54000

# maxmimum number of simultaneously locally running bots
# 0 disables
maxRunningBots 0

# maximum time in seconds to wait for clients to connect when starting a match
startupTimeoutSecs 100
# maximum time in seconds to wait for clients to act during a match
responseTimeoutSecs 600
# maximum time in seconds allowed for a client to play a given hand
handTimeoutSecs 21000
# average time in seconds allowed for a client to spend on each hand
avgHandTimeSecs 7

# heads up limit Texas Hold'em
game {LIMIT} {{

     # maximum number of times a match can be run with a single player request
     maxMatchRuns 10

     # maxmimum number of simultaneously running matches using this game
     # 0 disables
     maxRunningJobs 1

     # number of hands in a match
     matchHands 5000

     bot testBot example
}}

game holdem.nolimit.2p.reverse_blinds.game {{
     maxMatchRuns 3
     bot testBot example
}}

# Users authorized to run jobs on the benchmark (user name pass)
user neil test
"""


def plain(secret: str) -> str:
    """A stand-in hash that shows what was hashed (the tests of hashing use argon2)."""
    return f"hashed:{secret}"


def test_the_references_sample_is_read_as_the_c_reads_it() -> None:
    config = reference_config(REFERENCE_SAMPLE, plain)
    assert (config.port, config.max_running_bots, config.startup_timeout_s) == (54000, 0, 100)
    assert (config.response_timeout_s, config.hand_timeout_s, config.avg_hand_time_s) == (
        600,
        21000,
        7,
    )
    limit, nolimit = config.games
    assert (limit.file, limit.max_match_runs, limit.max_running_jobs, limit.match_hands) == (
        LIMIT,
        10,
        1,
        5000,
    )
    assert [(b.name, b.command, b.script) for b in limit.bots] == [("testBot", "example", None)]
    assert (nolimit.max_match_runs, nolimit.match_hands) == (3, 5000)  # the C's defaults
    assert [(u.name, u.password_hash) for u in config.users] == [("neil", "hashed:test")]


def test_the_cs_defaults_hold_for_what_is_not_said() -> None:
    config = reference_config(f"game {LIMIT}\n}}\n", plain)
    assert config == ServerConfig(games=config.games)
    assert (config.port, config.startup_timeout_s, config.response_timeout_s) == (54000, 60, 600)
    assert (config.hand_timeout_s, config.avg_hand_time_s) == (21000, 7)
    game = config.games[0]
    assert (game.max_match_runs, game.max_running_jobs, game.match_hands) == (10, 1, 5000)


def test_keywords_are_case_insensitive_prefixes_as_strncasecmp_matches_them() -> None:
    # "GAMExyz" is a game line whose game is "xyz..." (the C reads from the 5th character),
    # "PORT 1" a port line, "Bots" a bot line named "s".
    config = reference_config(f"PORT 1\n  \t GAME{LIMIT} {{\n Bots dpp\n}}\n", plain)
    assert config.port == 1
    assert config.games[0].file == LIMIT
    assert [(b.name, b.command) for b in config.games[0].bots] == [("s", "dpp")]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("portable 1\n", r"bm_server.config:1: could not get a number for port"),
        ("colour blue\n", r":1: unknown configuration option 'colour blue'"),
        (f"game {LIMIT} {{\nport 1\n", r":2: port must be defined outside of game blocks"),
        ("matchHands 5\n", r":1: matchHands must be defined within a game block"),
        (f"game {LIMIT}\ngame {LIMIT}\n", r":2: can't define a game within another game block"),
        (f"game {LIMIT}\n}}\ngame {LIMIT}\n", r":3: game .* has already been used"),
        ("game no-such.game\n", r":1: could not read game no-such.game"),
        (f"game {LIMIT}\nbot LOCAL dpp\n", r":2: bot name 'LOCAL' is not allowed"),
        (f"game {LIMIT}\nbot a dpp\nbot a dpp\n", r":3: duplicate bot a"),
        (f"game {LIMIT}\nbot a\n", r":2: could not get bot name and command"),
        ("user neil\n", r":1: could not get user name and password"),
        ("user neil a\nuser neil b\n", r":2: duplicate user neil"),
        ("user ../etc x\n", r":1: user name '../etc' is not allowed"),
        (f"game {LIMIT}\nuser neil x\n", r":2: users must be defined outside of game blocks"),
        ("port 70000\n", r":1: port 70000 is more than 65535"),
        (f"game {LIMIT}\nmatchHands 0\n", r":2: matchHands must be at least 1"),
    ],
)
def test_a_bad_line_is_an_error_naming_it(text: str, error: str) -> None:
    with pytest.raises(ConfigError, match=error):
        reference_config(text, plain)


def test_a_bot_command_naming_a_file_is_a_startup_script(tmp_path: Path) -> None:
    script = tmp_path / "bot.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    (tmp_path / "plain.txt").write_text("")
    text = f"game {LIMIT}\nbot a bot.sh\nbot b ./bot.sh\nbot c dpp:x=1\n"
    (a, b, c) = reference_config(text, plain, folder=tmp_path).games[0].bots
    assert a.script == b.script == script.resolve()
    assert c.script is None
    with pytest.raises(ConfigError, match=r"startup script plain\.txt is not executable"):
        reference_config(f"game {LIMIT}\nbot a plain.txt\n", plain, folder=tmp_path)
    with pytest.raises(ConfigError, match=r"startup script \./gone\.sh is not a file"):
        reference_config(f"game {LIMIT}\nbot a ./gone.sh\n", plain, folder=tmp_path)


def test_a_game_file_is_found_beside_the_configuration(tmp_path: Path) -> None:
    from acpcbot.game import bundled_game_path

    (tmp_path / "mine.game").write_bytes(bundled_game_path().read_bytes())
    config = reference_config("game mine.game\n", plain, folder=tmp_path)
    assert config.games[0].file == "mine.game"
    assert config.games[0].game.num_players == 2


def test_passwords_are_hashed_as_read_and_never_shown(tmp_path: Path) -> None:
    path = tmp_path / "bm_server.config"
    path.write_text("user neil s3cret-pw\n")
    config = read_config(path, hash_password)
    (user,) = config.users
    assert user.password_hash.startswith("$argon2id$")
    assert verify_password(user.password_hash, "s3cret-pw")
    assert "s3cret-pw" not in repr(config) and "argon2" not in repr(config)


TOML = f"""
port = 54001
host = "127.0.0.1"
public_host = "bench.example.org"
database = "postgresql://bench@db/bench"
duplicate = true
queue_shows_others = false
startup_timeout_secs = 30
max_connections_per_address = 300

[limits]
requests = 3
running = 1

[[game]]
file = "{LIMIT}"
match_hands = 50
max_running_jobs = 2
bots = {{ dpp = "dpp", plicas = "plicas:dprc=off" }}

[[user]]
name = "neil"
password = "test"

[[user]]
name = "ann"
password_hash = "$argon2id$stored"
"""


def test_our_toml_format_says_the_same_and_more(tmp_path: Path) -> None:
    path = tmp_path / "server.toml"
    path.write_text(TOML)
    config = read_config(path, plain)
    assert (config.port, config.public_host, config.database) == (
        54001,
        "bench.example.org",
        "postgresql://bench@db/bench",
    )
    assert config.duplicate and not config.queue_shows_others
    assert (config.startup_timeout_s, config.max_connections_per_address) == (30, 300)
    assert config.limits == UserLimits(requests=3, hands=1_000_000, running=1)
    (game,) = config.games
    assert (game.match_hands, game.max_running_jobs, game.max_match_runs) == (50, 2, 10)
    assert [(b.name, b.command) for b in game.bots] == [
        ("dpp", "dpp"),
        ("plicas", "plicas:dprc=off"),
    ]
    assert [(u.name, u.password_hash) for u in config.users] == [
        ("neil", "hashed:test"),
        ("ann", "$argon2id$stored"),
    ]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("colour = 1\n", "unknown setting 'colour'"),
        ("port = 99999\n", "port must be a whole number from 0 to 65535"),
        ("duplicate = 1\n", "duplicate must be true or false"),
        ("[limits]\nqueue = 1\n", "unknown limit 'queue'"),
        ("[[game]]\nmatch_hands = 5\n", "game #1: file must be a non-empty string"),
        (f'[[game]]\nfile = "{LIMIT}"\nhands = 5\n', "unknown setting 'hands'"),
        ('[[user]]\nname = "a"\n', "user a: give password or password_hash"),
        ("port = \n", "Invalid value"),
    ],
)
def test_a_bad_toml_setting_is_an_error_naming_it(text: str, error: str) -> None:
    with pytest.raises(ConfigError, match=error):
        toml_config(text, plain)
