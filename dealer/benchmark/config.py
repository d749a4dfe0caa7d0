"""The benchmark server's configuration, from the reference's ``bm_server.config`` or from a
TOML file of our own, into frozen dataclasses.

The reference's format is read as ``bm_server.c`` reads it: a line's leading white space is
skipped, ``#`` and ``;`` start comments, and a keyword matches case-insensitively as a
*prefix* of the line (so ``gamefile x`` is a ``game`` line, as in the C), tried in the C's
order. ``port``, ``maxRunningBots`` and the four timeouts go outside game blocks;
``game FILE {`` ... ``}`` holds ``maxMatchRuns``, ``maxRunningJobs``, ``matchHands`` and
``bot NAME COMMAND``; ``user NAME PASSWORD`` goes outside. Anything else is an error naming
the line. Defaults are the C's (``setDefaults``, ``setGameDefaults``).

A TOML file (a name ending in ``.toml``) says the same in snake case and adds what the
reference lacks: where to listen and what to tell clients, the database, per-user limits,
duplicate runs by default, whether the queue shows other users' requests, the connection
limits (see ``docs/commands/serve.md``).

Plain-text passwords are hashed as the file is read (:mod:`dealer.benchmark.passwords`) and
kept nowhere else: a :class:`ConfigUser` holds the hash only.

>>> config = reference_config('''
... port 54001
... game holdem.limit.2p.reverse_blinds.game {
...   matchHands 50
...   bot dpp dpp
... }
... ''', hash_password=lambda secret: "hash")
>>> config.port, config.games[0].match_hands, config.games[0].bots[0]
(54001, 50, BotConfig(name='dpp', command='dpp', script=None))
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acpcbot.errors import AcpcError, GameDefinitionError
from acpcbot.game import Game, load_game
from acpcbot.smallfile import FileRefusedError, read_small_file

__all__ = [
    "LOCAL",
    "BotConfig",
    "ConfigError",
    "ConfigUser",
    "GameConfig",
    "ServerConfig",
    "UserLimits",
    "check_name",
    "read_config",
    "reference_config",
    "toml_config",
]

LOCAL = "LOCAL"
"""The seat name of the requesting user's own bot (reserved: no house bot has it)."""

MAX_CONFIG_BYTES = 1 << 20
"""The largest configuration file read."""

_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]{0,31}")
"""A user's or a house bot's name: it names files and log seats."""


class ConfigError(AcpcError):
    """A configuration that cannot be used: ``FILE:LINE: what``."""


def check_name(name: str, what: str) -> str:
    """``name`` when it can name a user or a house bot (1 to 32 of letters, digits, ``_``,
    ``.``, ``-``, not starting with ``.`` or ``-``, no ``..``; not ``LOCAL``), else
    :class:`ConfigError`.

    >>> check_name("alice_2", "user")
    'alice_2'
    >>> check_name("../x", "user")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    dealer.benchmark.config.ConfigError: user name '../x' is not allowed (1 to 32 letters, ...)
    """
    if not _NAME.fullmatch(name) or ".." in name or name == LOCAL:
        raise ConfigError(
            f"{what} name {name!r} is not allowed (1 to 32 letters, digits, '_', '.' or '-', "
            "starting with a letter, digit or '_'; not LOCAL)"
        )
    return name


@dataclass(frozen=True, slots=True)
class BotConfig:
    """A house bot: ``bot NAME COMMAND``. ``COMMAND`` is an agent spec (``dpp``,
    ``plicas:dprc=off``), played by the acpcbot client in the run's process, or, as in the
    reference, a startup script run with ``HOST PORT POSITION`` (:attr:`script`)."""

    name: str
    command: str
    script: Path | None = None
    """The executable ``COMMAND`` names (a path relative to the configuration file's
    folder, or absolute), when it names one."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """A ``game FILE { ... }`` block."""

    file: str
    """The game file as written (what ``GAMES`` lists, ``RUNMATCHES`` names and the logs'
    headers hold)."""
    game: Game
    max_match_runs: int = 10
    max_running_jobs: int = 1
    """Runs of this game playing at once (0: no limit)."""
    match_hands: int = 5000
    bots: tuple[BotConfig, ...] = ()

    def bot(self, name: str) -> BotConfig | None:
        return next((b for b in self.bots if b.name == name), None)


@dataclass(frozen=True, slots=True)
class ConfigUser:
    """A user the configuration names: created or updated at start, password hashed."""

    name: str
    password_hash: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class UserLimits:
    """What one user may have at once (0: no limit). The reference has none."""

    requests: int = 20
    """Requests queued or playing."""
    hands: int = 1_000_000
    """Hands their queued requests have yet to start."""
    running: int = 2
    """Runs playing."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Everything the server is configured with (the command line may override some)."""

    port: int = 54000
    max_running_bots: int = 0
    """House bots playing at once (0: no limit)."""
    startup_timeout_s: int = 60
    """How long a run waits for its players to connect (0: for ever, as the reference)."""
    response_timeout_s: int = 600
    hand_timeout_s: int = 21000
    avg_hand_time_s: int = 7
    games: tuple[GameConfig, ...] = ()
    users: tuple[ConfigUser, ...] = ()
    # -- beyond the reference (TOML) --
    host: str | None = None
    """Where to listen (the command line's ``--host`` wins)."""
    public_host: str | None = None
    """The host name sent in ``RUN`` lines (default: the address listened on)."""
    database: str | None = None
    """A database URL (default: SQLite in the data folder)."""
    data: str | None = None
    limits: UserLimits = field(default_factory=UserLimits)
    duplicate: bool = False
    """Every ``RUNMATCHES`` plays duplicate pairs, without its ``DUPLICATE`` option."""
    queue_shows_others: bool = True
    """``QSTAT`` shows every user's requests by name and tag (the reference's way); false
    shows others' as ``* *``."""
    max_connections: int = 512
    max_connections_per_address: int = 32
    logon_timeout_s: float = 30.0
    """How long a connection may stay without logging on."""

    def game(self, file: str) -> GameConfig | None:
        return next((g for g in self.games if g.file == file), None)


def read_config(path: Path, hash_password: Callable[[str], str]) -> ServerConfig:
    """The configuration in ``path``: TOML when its name ends in ``.toml``, else the
    reference's format. ``hash_password`` hashes each plain-text password as it is read."""
    try:
        text = read_small_file(path, limit=MAX_CONFIG_BYTES).decode("latin-1")
    except FileRefusedError as exc:
        raise ConfigError(f"{path}: {exc.why}") from None
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    if path.suffix == ".toml":
        return toml_config(text, hash_password, folder=path.parent, source=str(path))
    return reference_config(text, hash_password, folder=path.parent, source=str(path))


# -- the reference's format -------------------------------------------------------------

_C_SPACE = " \t\n\v\f\r"
"""What C's ``isspace`` takes in the C locale."""

_GLOBAL = {
    "port": "port",
    "maxrunningbots": "max_running_bots",
    "startuptimeoutsecs": "startup_timeout_s",
    "responsetimeoutsecs": "response_timeout_s",
    "handtimeoutsecs": "hand_timeout_s",
    "avghandtimesecs": "avg_hand_time_s",
}
_IN_GAME = {
    "maxmatchruns": "max_match_runs",
    "maxrunningjobs": "max_running_jobs",
    "matchhands": "match_hands",
}
_KEYWORDS = (
    "port",
    "game",
    "}",
    "maxRunningBots",
    "startupTimeoutSecs",
    "responseTimeoutSecs",
    "handTimeoutSecs",
    "avgHandTimeSecs",
    "maxMatchRuns",
    "maxRunningJobs",
    "matchHands",
    "bot",
    "user",
)
"""In the order ``readConfig`` tries them (each a case-insensitive prefix of the line)."""

_LIMITS = {"port": 65535, "match_hands": 2**32 - 1}
"""Largest values (the C reads 16-bit numbers, ``matchHands`` 32-bit)."""


@dataclass
class _GameBlock:
    file: str
    game: Game
    values: dict[str, int] = field(default_factory=dict)
    bots: list[BotConfig] = field(default_factory=list)

    def done(self) -> GameConfig:
        return GameConfig(self.file, self.game, **self.values, bots=tuple(self.bots))


def reference_config(
    text: str,
    hash_password: Callable[[str], str],
    *,
    folder: Path = Path(),
    source: str = "bm_server.config",
) -> ServerConfig:
    """A configuration in the reference's format (see the module's docstring)."""
    settings: dict[str, int] = {}
    games: list[_GameBlock] = []
    users: list[ConfigUser] = []
    block: _GameBlock | None = None
    for number, raw in enumerate(text.splitlines(), start=1):

        def error(what: str, number: int = number) -> ConfigError:
            return ConfigError(f"{source}:{number}: {what}")

        line = raw.lstrip(_C_SPACE)
        if not line or line[0] in "#;":
            continue
        keyword = next((k for k in _KEYWORDS if line[: len(k)].lower() == k.lower()), None)
        if keyword is None:
            raise error(f"unknown configuration option {line.rstrip(_C_SPACE)!r}")
        rest = line[len(keyword) :]
        key = keyword.lower()
        if key in _GLOBAL:
            if block is not None:
                raise error(f"{keyword} must be defined outside of game blocks")
            settings[_GLOBAL[key]] = _number(rest, _GLOBAL[key], keyword, error)
        elif key in _IN_GAME:
            if block is None:
                raise error(f"{keyword} must be defined within a game block")
            block.values[_IN_GAME[key]] = _number(rest, _IN_GAME[key], keyword, error)
        elif key == "game":
            if block is not None:
                raise error("can't define a game within another game block")
            words = rest.split()
            if not words:
                raise error("could not get game name")
            if any(g.file == words[0] for g in games):
                raise error(f"game {words[0]} has already been used")
            block = _GameBlock(words[0], _game(words[0], folder, error))
            games.append(block)
        elif key == "}":
            block = None
        elif key == "bot":
            if block is None:
                raise error("bots must be defined within a game block")
            words = rest.split()
            if len(words) < 2:
                raise error("could not get bot name and command")
            block.bots.append(_bot(words[0], words[1], block, folder, error))
        else:  # user
            if block is not None:
                raise error("users must be defined outside of game blocks")
            words = rest.split()
            if len(words) < 2:
                raise error("could not get user name and password")
            users.append(_user(words[0], users, error, functools.partial(hash_password, words[1])))
    return ServerConfig(
        **settings,  # type: ignore[arg-type]
        games=tuple(g.done() for g in games),
        users=tuple(users),
    )


def _number(text: str, key: str, keyword: str, error: Callable[[str], ConfigError]) -> int:
    """The number a keyword's line gives (its first word: what ``sscanf`` reads, checked
    instead of wrapped around)."""
    words = text.split()
    limit = _LIMITS.get(key, 65535)
    if not words or not words[0].isascii() or not words[0].isdigit():
        raise error(f"could not get a number for {keyword} from {text.strip()!r}")
    value = int(words[0])
    if value > limit:
        raise error(f"{keyword} {value} is more than {limit}")
    if key == "match_hands" and value == 0:
        raise error("matchHands must be at least 1")
    return value


def _game(file: str, folder: Path, error: Callable[[str], ConfigError]) -> Game:
    """The game ``file`` names: a path relative to the configuration's folder (or
    absolute), else a bundled game of that name."""
    path = folder / file
    try:
        return load_game(path if path.exists() else file)
    except (GameDefinitionError, OSError) as exc:
        raise error(f"could not read game {file}: {exc}") from None


def _bot(
    name: str,
    command: str,
    block: _GameBlock,
    folder: Path,
    error: Callable[[str], ConfigError],
) -> BotConfig:
    try:
        check_name(name, "bot")
    except ConfigError as exc:
        raise error(str(exc)) from None
    if any(b.name == name for b in block.bots):
        raise error(f"duplicate bot {name}")
    return BotConfig(name, command, _script(command, folder, error))


def _script(command: str, folder: Path, error: Callable[[str], ConfigError]) -> Path | None:
    """The startup script ``command`` names, when it names a file (with a ``/``, or a file
    in the configuration's folder); ``None`` for an agent spec."""
    path = folder / command
    if "/" not in command and not path.is_file():
        return None
    if not path.is_file():
        raise error(f"startup script {command} is not a file")
    if not os.access(path, os.X_OK):
        raise error(f"startup script {command} is not executable")
    return path.resolve()


def _user(
    name: str,
    users: list[ConfigUser],
    error: Callable[[str], ConfigError],
    hashed: Callable[[], str],
) -> ConfigUser:
    try:
        check_name(name, "user")
    except ConfigError as exc:
        raise error(str(exc)) from None
    if any(u.name == name for u in users):
        raise error(f"duplicate user {name}")
    return ConfigUser(name, hashed())


# -- our TOML format -----------------------------------------------------------------------

_TOML_GLOBAL_INT = {
    "port": "port",
    "max_running_bots": "max_running_bots",
    "startup_timeout_secs": "startup_timeout_s",
    "response_timeout_secs": "response_timeout_s",
    "hand_timeout_secs": "hand_timeout_s",
    "avg_hand_time_secs": "avg_hand_time_s",
    "max_connections": "max_connections",
    "max_connections_per_address": "max_connections_per_address",
}
_TOML_GLOBAL_STR = {"host", "public_host", "database", "data"}
_TOML_GLOBAL_BOOL = {"duplicate", "queue_shows_others"}
_TOML_GAME_INT = {
    "max_match_runs": "max_match_runs",
    "max_running_jobs": "max_running_jobs",
    "match_hands": "match_hands",
}
_TOML_LIMITS = {"requests", "hands", "running"}


def toml_config(
    text: str,
    hash_password: Callable[[str], str],
    *,
    folder: Path = Path(),
    source: str = "server.toml",
) -> ServerConfig:
    """A configuration in our TOML format (see ``docs/commands/serve.md``).

    >>> toml_config('''
    ... public_host = "bench.example.org"
    ... [limits]
    ... running = 1
    ... [[game]]
    ... file = "holdem.limit.2p.reverse_blinds.game"
    ... bots = { dpp = "dpp" }
    ... ''', hash_password=str).limits
    UserLimits(requests=20, hands=1000000, running=1)
    """

    def error(what: str) -> ConfigError:
        return ConfigError(f"{source}: {what}")

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(str(exc)) from None
    settings: dict[str, Any] = {}
    for key, value in data.items():
        if key in _TOML_GLOBAL_INT:
            settings[_TOML_GLOBAL_INT[key]] = _toml_int(value, key, error)
        elif key in _TOML_GLOBAL_STR:
            settings[key] = _toml_str(value, key, error)
        elif key in _TOML_GLOBAL_BOOL:
            if not isinstance(value, bool):
                raise error(f"{key} must be true or false")
            settings[key] = value
        elif key == "logon_timeout_secs":
            settings["logon_timeout_s"] = float(_toml_int(value, key, error))
        elif key == "limits":
            settings["limits"] = _toml_limits(value, error)
        elif key not in ("game", "user"):
            raise error(f"unknown setting {key!r}")
    games = tuple(_toml_game(g, folder, error, games_so_far=i) for i, g in
                  enumerate(_toml_tables(data.get("game", []), "game", error)))  # fmt: skip
    files = [g.file for g in games]
    for file in files:
        if files.count(file) > 1:
            raise error(f"game {file} has already been used")
    users: list[ConfigUser] = []
    for table in _toml_tables(data.get("user", []), "user", error):
        users.append(_toml_user(table, users, hash_password, error))
    return ServerConfig(**settings, games=games, users=tuple(users))


def _toml_tables(
    value: Any, key: str, error: Callable[[str], ConfigError]
) -> list[Mapping[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise error(f"{key} must be an array of tables ([[{key}]])")
    return value


def _toml_int(
    value: Any, key: str, error: Callable[[str], ConfigError], *, limit: int = 65535
) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= limit:
        raise error(f"{key} must be a whole number from 0 to {limit}")
    return value


def _toml_str(value: Any, key: str, error: Callable[[str], ConfigError]) -> str:
    if not isinstance(value, str) or not value:
        raise error(f"{key} must be a non-empty string")
    return value


def _toml_limits(value: Any, error: Callable[[str], ConfigError]) -> UserLimits:
    if not isinstance(value, dict):
        raise error("limits must be a table ([limits])")
    unknown = set(value) - _TOML_LIMITS
    if unknown:
        raise error(f"unknown limit {sorted(unknown)[0]!r} (known: hands, requests, running)")
    return UserLimits(
        **{k: _toml_int(v, f"limits.{k}", error, limit=2**31 - 1) for k, v in value.items()}
    )


def _toml_game(
    table: Mapping[str, Any],
    folder: Path,
    error: Callable[[str], ConfigError],
    *,
    games_so_far: int,
) -> GameConfig:
    file = _toml_str(table.get("file"), f"game #{games_so_far + 1}: file", error)
    block = _GameBlock(file, _game(file, folder, error))
    for key, value in table.items():
        if key in _TOML_GAME_INT:
            limit = _LIMITS.get(_TOML_GAME_INT[key], 65535)
            block.values[_TOML_GAME_INT[key]] = _toml_int(value, key, error, limit=limit)
        elif key == "bots":
            if not isinstance(value, dict):
                raise error(f"game {file}: bots must be a table of NAME = COMMAND")
            for name, given in value.items():
                command = _toml_str(given, f"game {file}: bot {name}", error)
                block.bots.append(_bot(name, command, block, folder, error))
        elif key != "file":
            raise error(f"game {file}: unknown setting {key!r}")
    if block.values.get("match_hands") == 0:
        raise error(f"game {file}: match_hands must be at least 1")
    return block.done()


def _toml_user(
    table: Mapping[str, Any],
    users: list[ConfigUser],
    hash_password: Callable[[str], str],
    error: Callable[[str], ConfigError],
) -> ConfigUser:
    name = _toml_str(table.get("name"), "user: name", error)
    unknown = set(table) - {"name", "password", "password_hash"}
    if unknown:
        raise error(f"user {name}: unknown setting {sorted(unknown)[0]!r}")
    if ("password" in table) == ("password_hash" in table):
        raise error(f"user {name}: give password or password_hash (one of them)")
    if "password_hash" in table:
        stored = _toml_str(table["password_hash"], f"user {name}: password_hash", error)
        return _user(name, users, error, lambda: stored)
    secret = _toml_str(table["password"], f"user {name}: password", error)
    return _user(name, users, error, functools.partial(hash_password, secret))
