"""PLICAS's numba kernels, compiled before a match rather than in its first decisions.

:meth:`agents.plicas.agent.Plicas.begin_match` calls :func:`warm_up`: once per process, a
throwaway PLICAS of each kind plays the scripted hands of :mod:`agents.common.rehearsal`
(the learned model and the frozen generic opponent, each with the river search on, so that
every unit runs), compiling or loading from numba's cache every kernel a decision reaches.
On a cold cache that takes about 10 s here and is announced
(:func:`acpcbot.handeval.jitcache.compiling`); on a warm one, about half a second.
"""

from __future__ import annotations

import dataclasses
import threading

from acpcbot.game import Game
from acpcbot.handeval.jitcache import compiling
from agents.common.rehearsal import rehearse
from agents.plicas.config import DYNAMIC, STATIC

__all__ = ["REHEARSED", "warm_up"]

REHEARSED = (
    dataclasses.replace(DYNAMIC, river_search=True),
    dataclasses.replace(STATIC, river_search=True),
)
"""The configurations rehearsed: between them every unit, with the model on and off."""

_lock = threading.RLock()
_started = threading.Event()


def warm_up(game: Game) -> None:
    """Compile every kernel PLICAS's decisions reach, once per process (a no-op after the
    first call; another thread's call waits until the first is done)."""
    with _lock:
        if _started.is_set():  # done, or under way in this thread (a rehearsing agent)
            return
        _started.set()
        from agents.plicas.agent import Plicas  # the agent module imports this one

        with compiling("PLICAS's kernels"):
            for config in REHEARSED:
                rehearse(Plicas(0, config), game)
