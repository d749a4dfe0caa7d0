"""List every agent acpcbot can play, one per line: its name and what it does, and its
options on a second line (give them after the name: --agent plicas:dprc=off,bluff=off).

The built-in agents come first, then the plug-ins installed distributions declare (entry
point group acpcbot.agents), marked as such. An Agent subclass of yours plays without being
installed: --agent module:Class.
"""

from __future__ import annotations

import argparse

HELP = "list the agents (built-in and plug-ins), one line each"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--specs",
        action="store_true",
        help="one spec per line that plays as it is, a required option given an example value "
        "(e.g. lbr:opponent=dpp): for a script that plays every agent",
    )


def run(args: argparse.Namespace) -> None:
    from acpcbot.cli.output import fit, show, width  # not for --help (issue 37)
    from agents.registry import listing, playable_specs

    if args.specs:
        show(args, None, playable_specs())
        return
    rows = listing()
    column = " " * (max(len(name) for name, _, _ in rows) + 2)  # where the descriptions start
    lines = []
    for name, description, options in rows:  # each continued under its own text
        lines += fit(f"{name:<{len(column)}}{description}", width(), column)
        if options:
            lines += fit(f"{column}options: {options}", width(), f"{column}{' ' * 9}")
    lines.append(
        "Any Agent subclass of yours plays as module:Class[:KEY=VALUE,...], e.g. mybot:MyBot."
    )
    show(args, None, lines)
