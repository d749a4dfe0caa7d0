"""Strategies known anywhere, for AIVAT's value function: the fixed-strategy agents among a
match's players (:mod:`dealer.analysis.aivat`'s lookahead asks them what they play at histories that
did not happen, with their own cards).

A player is looked up by its agent spec (a match's) or by its name in a log (``results``),
which for a built-in agent without options is its name; a name that is no agent, or an
agent that adapts, has no oracle. Each oracle is a fresh copy of the agent (its seed does not
matter: the strategy is fixed), asked without being played.
"""

from __future__ import annotations

from collections.abc import Mapping

from acpcbot.errors import AcpcError
from acpcbot.game import Game
from acpcbot.player import MatchInfo
from agents.registry import create_agent
from dealer.analysis.aivat import Oracle

__all__ = ["oracles_for", "oracles_of_names"]


def oracles_for(specs: Mapping[str, str], game: Game) -> dict[str, Oracle]:
    """The oracles of the players ``specs`` (player name -> agent spec) that have a fixed
    strategy."""
    found: dict[str, Oracle] = {}
    for name, spec in specs.items():
        try:
            agent = create_agent(spec, 0)
            if not agent.fixed_strategy:
                continue
            agent.begin_match(MatchInfo(game, name=name))
        except AcpcError:
            continue
        found[name] = agent.strategy_at
    return found


def oracles_of_names(names: tuple[str, ...], game: Game) -> dict[str, Oracle]:
    """The oracles of the players of a log, by their names: a built-in agent's name (or one
    made distinct by ``-A``/``-B``, as a match of an agent against itself names them)."""
    specs = {}
    for name in names:
        base = name[:-2] if name.endswith(("-A", "-B")) else name
        specs[name] = base
    return oracles_for(specs, game)
