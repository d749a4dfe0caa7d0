"""The asyncio ACPC protocol client: play any :class:`~acpcbot.player.Player` against an
ACPC dealer (the University of Alberta reference server or ours).

>>> from acpcbot.client import play_match, MatchSummary
>>> MatchSummary.__dataclass_fields__.keys() >= {"hands", "chips", "mbb_per_game"}
True

Modules: :mod:`~acpcbot.client.connection` (TCP and line framing),
:mod:`~acpcbot.client.tracker` (incremental, validating state decoding, pure),
:mod:`~acpcbot.client.decider` and :mod:`~acpcbot.client.worker` (time budget and legality),
:mod:`~acpcbot.client.session` (the match loop), :mod:`~acpcbot.client.runner` (event loop).
"""

from acpcbot.client.session import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_READ_TIMEOUT,
    VERSION_LINE,
    MatchSummary,
    play_match,
)

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_READ_TIMEOUT",
    "VERSION_LINE",
    "MatchSummary",
    "play_match",
]
