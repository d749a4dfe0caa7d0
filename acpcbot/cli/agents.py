"""List every agent acpcbot can play, one per line: its name and what it does."""

from __future__ import annotations

import argparse

HELP = "list the agents, one line each"


def register(parser: argparse.ArgumentParser) -> None:
    del parser  # no arguments


def run(args: argparse.Namespace) -> int:
    from agents.registry import AGENTS

    width = max(len(name) for name in AGENTS)
    for name in sorted(AGENTS):
        print(f"{name:<{width}}  {AGENTS[name].description}")
    return 0
