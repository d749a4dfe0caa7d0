"""The web page: live matches, hand-by-hand replays of any ACPC log, and a person at a seat
(``acpcbot web``; the ``web`` extra, aiohttp).

* :mod:`.app` — the server (:func:`serve`, :func:`build_app`, :class:`WebSite`) and what it
  lets in (:class:`Guard`); :mod:`.foreground` — served by a command until Ctrl-C
  (:func:`run_site`);
* :mod:`.addresses` — where a server listening on every address can be opened;
* :mod:`.roots` — the given folders, the only files it reads (:class:`Roots`);
* :mod:`.matches` — the live view: the broker's sources and the folders' matches and
  tournaments (:class:`LiveBoard`);
* :mod:`.logs` — every read of a log: a log's hands for the replay (:class:`HandIndex`), a
  growing log's results (:class:`LogTail`);
* :mod:`.person` and :mod:`.sessions` — a person playing through the page
  (:class:`Table`, :class:`PersonAtSeat`) against an agent on our dealer or at any ACPC
  dealer (:class:`PlaySessions`).

The dealer runs the agents it is handed and never names one: the command line hands the
server a factory of entrants (``agents.registry.entrant``) and the agents' fixed strategies
(``agents.registry.known_strategies``). Importing this package loads nothing heavy (aiohttp
included): the names of the modules that need aiohttp, numpy or numba are imported when first
used (:mod:`acpcbot.faces`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealer.web.addresses import is_wildcard as is_wildcard
from dealer.web.addresses import machine_addresses as machine_addresses
from dealer.web.labels import action_label as action_label
from dealer.web.roots import OutsideRootsError as OutsideRootsError
from dealer.web.roots import Roots as Roots

# The server needs aiohttp (the web extra) and the rest numpy and numba (the dealer's runners
# and AIVAT), which the benchmark server, with or without the extra, would pay for. So each is
# imported when one of its names is first used, the names read from this block
# (acpcbot.faces).
if TYPE_CHECKING:
    from dealer.web.app import Guard as Guard
    from dealer.web.app import WebSite as WebSite
    from dealer.web.app import build_app as build_app
    from dealer.web.app import is_loopback as is_loopback
    from dealer.web.app import page_url as page_url
    from dealer.web.app import serve as serve
    from dealer.web.foreground import run_site as run_site
    from dealer.web.foreground import site_token as site_token
    from dealer.web.logs import HandFilter as HandFilter
    from dealer.web.logs import HandIndex as HandIndex
    from dealer.web.logs import HandRow as HandRow
    from dealer.web.logs import LogTail as LogTail
    from dealer.web.matches import LiveBoard as LiveBoard
    from dealer.web.person import PersonAtSeat as PersonAtSeat
    from dealer.web.person import PersonEntrant as PersonEntrant
    from dealer.web.person import Table as Table
    from dealer.web.sessions import PlayRequest as PlayRequest
    from dealer.web.sessions import PlaySessions as PlaySessions
    from dealer.web.sessions import person_limits as person_limits
else:
    from acpcbot.faces import lazy_names

    __getattr__ = lazy_names(__name__)
