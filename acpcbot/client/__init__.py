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

import importlib
from typing import TYPE_CHECKING, Any

from acpcbot.client.defaults import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_READ_TIMEOUT,
    VERSION_LINE,
)

if TYPE_CHECKING:
    from acpcbot.client.session import MatchSummary, play_match

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_READ_TIMEOUT",
    "VERSION_LINE",
    "MatchSummary",
    "play_match",
]

_LAZY = {"MatchSummary", "play_match"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module("acpcbot.client.session"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
