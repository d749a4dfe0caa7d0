"""The web page: live matches, hand-by-hand replays of any ACPC log, and a person at a seat
(``acpcbot web``; the ``web`` extra, aiohttp).

* :mod:`.app` — the server (:func:`serve`, :func:`build_app`, :class:`WebSite`) and what it
  lets in (:class:`Guard`);
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
(``agents.registry.known_strategies``). Importing this package loads nothing more (aiohttp
included): each name is imported from its module when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acpcbot.faces import lazy_names

if TYPE_CHECKING:
    from dealer.web.addresses import is_wildcard, machine_addresses
    from dealer.web.app import Guard, WebSite, build_app, is_loopback, page_url, serve
    from dealer.web.labels import action_label
    from dealer.web.logs import HandFilter, HandIndex, HandRow, LogTail
    from dealer.web.matches import LiveBoard
    from dealer.web.person import PersonAtSeat, PersonEntrant, Table
    from dealer.web.roots import OutsideRootsError, Roots
    from dealer.web.sessions import PlayRequest, PlaySessions, person_limits

__all__ = [
    "Guard",
    "HandFilter",
    "HandIndex",
    "HandRow",
    "LiveBoard",
    "LogTail",
    "OutsideRootsError",
    "PersonAtSeat",
    "PersonEntrant",
    "PlayRequest",
    "PlaySessions",
    "Roots",
    "Table",
    "WebSite",
    "action_label",
    "build_app",
    "is_loopback",
    "is_wildcard",
    "machine_addresses",
    "page_url",
    "person_limits",
    "serve",
]

_NAMES = {
    "dealer.web.addresses": ("is_wildcard", "machine_addresses"),
    "dealer.web.app": ("Guard", "WebSite", "build_app", "is_loopback", "page_url", "serve"),
    "dealer.web.labels": ("action_label",),
    "dealer.web.logs": ("HandFilter", "HandIndex", "HandRow", "LogTail"),
    "dealer.web.matches": ("LiveBoard",),
    "dealer.web.person": ("PersonAtSeat", "PersonEntrant", "Table"),
    "dealer.web.roots": ("OutsideRootsError", "Roots"),
    "dealer.web.sessions": ("PlayRequest", "PlaySessions", "person_limits"),
}
"""Where each name of ``__all__`` lives (imported when first used)."""

if not TYPE_CHECKING:  # the type checker sees the imports above, and catches a misspelt name
    __getattr__ = lazy_names(__name__, _NAMES)
