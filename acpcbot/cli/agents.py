"""List every agent acpcbot can play, one per line: its name and what it does.

The built-in agents come first, then the plug-ins installed distributions declare (entry
point group ``acpcbot.agents``), marked as such. Agents that take options list them on a
second line; give them after the name, e.g. ``--agent plicas:dprc=off,bluff=off``. Any
``Agent`` subclass of yours also plays without being installed: ``--agent module:Class``.
"""

from __future__ import annotations

import argparse

HELP = "list the agents (built-in and plug-ins), one line each"


def register(parser: argparse.ArgumentParser) -> None:
    del parser  # no arguments


def run(args: argparse.Namespace) -> int:
    from agents.registry import listing

    rows = listing()
    width = max(len(name) for name, _, _ in rows)
    for name, description, options in rows:
        print(f"{name:<{width}}  {description}")
        if options:
            print(f"{'':<{width}}  options: {options}")
    print("Any Agent subclass of yours plays as module:Class[:KEY=VALUE,...], e.g. mybot:MyBot.")
    return 0
