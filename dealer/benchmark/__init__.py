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
* :func:`run_server` (:mod:`.serving`) runs it all until SIGTERM, with the settings
  ``acpcbot serve`` checks and the house bots it makes (:mod:`.startup`); its users are
  managed from the command line too (:mod:`.users`).

This package is the dealer's top layer: it uses the runners, the analysis of logs and the
referee; nothing of the dealer imports it (a contract in ``pyproject.toml``). It names no
agent: the command line hands it the house bots (entrants, or startup scripts). Importing it
loads nothing more: each name below is imported from its module when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# The database needs SQLAlchemy, the passwords argon2 (the server extra), and the service and
# the runs load the dealer's runners (numpy, numba): a command that imports this package for
# one name pays for that name's module only. Each is imported when one of its names is first
# used, the names read from this block (acpcbot.faces).
if TYPE_CHECKING:
    from dealer.benchmark.config import BotConfig as BotConfig
    from dealer.benchmark.config import ConfigError as ConfigError
    from dealer.benchmark.config import GameConfig as GameConfig
    from dealer.benchmark.config import ServerConfig as ServerConfig
    from dealer.benchmark.config import read_config as read_config
    from dealer.benchmark.database import DatabaseError as DatabaseError
    from dealer.benchmark.database import Store as Store
    from dealer.benchmark.database import database_url as database_url
    from dealer.benchmark.passwords import hash_password as hash_password
    from dealer.benchmark.passwords import new_secret as new_secret
    from dealer.benchmark.service import BenchmarkService as BenchmarkService
    from dealer.benchmark.service import HouseBot as HouseBot
    from dealer.benchmark.serving import ServeSettings as ServeSettings
    from dealer.benchmark.serving import run_server as run_server
    from dealer.benchmark.startup import house_bots as house_bots
    from dealer.benchmark.startup import listening_line as listening_line
    from dealer.benchmark.startup import serve_saying as serve_saying
    from dealer.benchmark.startup import serve_settings as serve_settings
    from dealer.benchmark.startup import server_config as server_config
    from dealer.benchmark.startup import server_database as server_database
    from dealer.benchmark.startup import tls_context as tls_context
    from dealer.benchmark.users import manage_users as manage_users
    from dealer.benchmark.widget import WidgetReport as WidgetReport
    from dealer.benchmark.widget import connect as connect
    from dealer.benchmark.widget import converse as converse
    from dealer.benchmark.widget import logon_line as logon_line
else:
    from acpcbot.faces import lazy_names

    __getattr__ = lazy_names(__name__)
