"""The asyncio ACPC protocol client: play any :class:`~acpcbot.player.Player` against an
ACPC dealer (the University of Alberta reference server or ours).

>>> from acpcbot.client import play_match, MatchSummary
>>> MatchSummary.__dataclass_fields__.keys() >= {"hands", "chips", "mbb_per_game"}
True

Modules: :mod:`~acpcbot.client.connection` (TCP and line framing),
:mod:`~acpcbot.protocol.tracker` (incremental, validating state decoding, pure),
:mod:`~acpcbot.client.decider` and :mod:`~acpcbot.client.worker` (time budget and legality),
:mod:`~acpcbot.client.session` (the match loop), :mod:`~acpcbot.eventloop` (event loop),
:mod:`~acpcbot.client.defaults` (constants). The names below load the client on first use,
so that importing a submodule such as ``defaults`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acpcbot.client.defaults import DEFAULT_CONNECT_TIMEOUT as DEFAULT_CONNECT_TIMEOUT
from acpcbot.client.defaults import DEFAULT_READ_TIMEOUT as DEFAULT_READ_TIMEOUT
from acpcbot.client.defaults import VERSION_LINE as VERSION_LINE

# The match loop loads asyncio, and `acpcbot --help` imports the defaults
# (issue 37: it stays under 0.3 s). So it is imported when one of its names is first used,
# the names read from this block (acpcbot.faces).
if TYPE_CHECKING:
    from acpcbot.client.session import MatchSummary as MatchSummary
    from acpcbot.client.session import play_match as play_match
else:
    from acpcbot.faces import lazy_names

    __getattr__ = lazy_names(__name__)
