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

from acpcbot.client.defaults import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_READ_TIMEOUT,
    VERSION_LINE,
)
from acpcbot.faces import lazy_names

if TYPE_CHECKING:
    from acpcbot.client.session import MatchSummary, play_match

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_READ_TIMEOUT",
    "VERSION_LINE",
    "MatchSummary",
    "play_match",
]

_NAMES = {"acpcbot.client.session": ("MatchSummary", "play_match")}
"""Where each name of ``__all__`` not imported above lives (imported when first used)."""

if not TYPE_CHECKING:  # the type checker sees the imports above, and catches a misspelt name
    __getattr__ = lazy_names(__name__, _NAMES)
