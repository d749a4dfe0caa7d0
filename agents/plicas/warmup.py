"""PLICAS's numba kernels, compiled before a match rather than in its first decisions.

:meth:`agents.plicas.agent.Plicas.begin_match` calls :func:`warm_up`: once per process, a
throwaway PLICAS of each kind plays the scripted hands of :mod:`agents.common.rehearsal`
(the learned model and the frozen generic opponent, each with the river search on, so that
every unit runs) and the sweep a frozen PLICAS reads every holding with, compiling or loading
from numba's cache every kernel a decision reaches.
On a cold cache that takes about 10 s here and is announced
(:func:`acpcbot.handeval.jitcache.compiling`); on a warm one, about half a second.
"""

from __future__ import annotations

import dataclasses

from acpcbot.game import Game
from agents.base import Agent
from agents.common.rehearsal import rehearse_once
from agents.plicas.config import DYNAMIC, STATIC

__all__ = ["REHEARSED", "warm_up"]

REHEARSED = (
    dataclasses.replace(DYNAMIC, river_search=True),
    dataclasses.replace(STATIC, river_search=True),
)
"""The configurations rehearsed: between them every unit, with the model on and off."""


def warm_up(game: Game) -> None:
    """Compile every kernel PLICAS's decisions reach, once per process."""
    rehearse_once("PLICAS's kernels", _rehearsing_agents, game)


def _rehearsing_agents() -> list[Agent]:
    from agents.plicas.agent import Plicas  # the agent module imports this one

    _frozen_kernels()
    return [Plicas(0, config) for config in REHEARSED]


def _frozen_kernels() -> None:
    """The sweep a frozen PLICAS reads every holding with (:mod:`agents.plicas.frozen`):
    a PLICAS may freeze in the middle of a match, and its next decision must not compile."""
    import numpy as np

    from acpcbot.cards import parse_cards
    from acpcbot.handeval.combos import NUM_COMBOS
    from acpcbot.handeval.holdings import holdings_against_ranges

    holdings_against_ranges(parse_cards("2c7d9sKhAs"), np.ones((1, NUM_COMBOS)))
