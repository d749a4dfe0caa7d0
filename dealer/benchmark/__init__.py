"""The benchmark server (``acpcbot serve``): anyone's bot plays the house bots over the
network, compatible with the ACPC reference's ``bm_server`` and its clients.

* The configuration (:mod:`.config`): the reference's ``bm_server.config`` as is, or a TOML
  file of our own; passwords hashed as it is read (:mod:`.passwords`).
* The line protocol (:mod:`.lineprotocol`, a pure codec) served over TCP
  (:mod:`.lineserver`); a client that speaks it and starts the user's bot
  (:mod:`.widget`, ``acpcbot connect``).
* The service (:mod:`.service`): logons, requests and the queue (:mod:`.queue`, the
  reference's fairness), the runs' seeds (:mod:`.seeds`), runs started and recorded, the
  results (:mod:`.standings`); its record, the database (:mod:`.database`, :mod:`.schema`,
  migrations in :mod:`.migrations`).
* A run (:mod:`.runs`): our TCP dealer, the house bots, the user's bot connecting from
  elsewhere; played in a process of its own (:mod:`.pool`).
* The web page and the HTTP API (:mod:`.webapi`: the leaderboard, a user's matches and
  logs, the admin view; its routes in :mod:`.webroutes`, who is asking in
  :mod:`.webaccess`), on ``acpcbot web``'s application.
* :func:`run_server` (:mod:`.serving`) runs it all until SIGTERM.

This package is the dealer's top layer: it uses the runners, the analysis of logs and the
referee; nothing of the dealer imports it (a contract in ``pyproject.toml``). It names no
agent: the command line hands it the house bots (entrants, or startup scripts). Importing it
loads nothing more: each name below is imported from its module when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acpcbot.faces import lazy_names

if TYPE_CHECKING:
    from dealer.benchmark.config import (
        BotConfig,
        ConfigError,
        GameConfig,
        ServerConfig,
        read_config,
    )
    from dealer.benchmark.database import DatabaseError, Store, database_url
    from dealer.benchmark.passwords import hash_password, new_secret
    from dealer.benchmark.service import BenchmarkService, HouseBot
    from dealer.benchmark.serving import ServeSettings, run_server
    from dealer.benchmark.widget import WidgetReport, converse

__all__ = [
    "BenchmarkService",
    "BotConfig",
    "ConfigError",
    "DatabaseError",
    "GameConfig",
    "HouseBot",
    "ServeSettings",
    "ServerConfig",
    "Store",
    "WidgetReport",
    "converse",
    "database_url",
    "hash_password",
    "new_secret",
    "read_config",
    "run_server",
]

_NAMES = {
    "dealer.benchmark.config": (
        "BotConfig",
        "ConfigError",
        "GameConfig",
        "ServerConfig",
        "read_config",
    ),
    "dealer.benchmark.database": ("DatabaseError", "Store", "database_url"),
    "dealer.benchmark.passwords": ("hash_password", "new_secret"),
    "dealer.benchmark.service": ("BenchmarkService", "HouseBot"),
    "dealer.benchmark.serving": ("ServeSettings", "run_server"),
    "dealer.benchmark.widget": ("WidgetReport", "converse"),
}
"""Where each name of ``__all__`` lives (imported when first used)."""

if not TYPE_CHECKING:  # the type checker sees the imports above, and catches a misspelt name
    __getattr__ = lazy_names(__name__, _NAMES)
