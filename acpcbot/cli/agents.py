"""List every agent acpcbot can play, one per line: its name and what it does.

Agents that take options list them on a second line; give them after the name, e.g.
``--agent plicas:dprc=off,bluff=off``.
"""

from __future__ import annotations

import argparse

HELP = "list the agents, one line each"


def register(parser: argparse.ArgumentParser) -> None:
    del parser  # no arguments


def run(args: argparse.Namespace) -> int:
    from agents.registry import AGENTS

    width = max(len(name) for name in AGENTS)
    for name in sorted(AGENTS):
        spec = AGENTS[name]
        print(f"{name:<{width}}  {spec.description}")
        if spec.options:
            print(f"{'':<{width}}  options: {spec.options}")
    return 0
