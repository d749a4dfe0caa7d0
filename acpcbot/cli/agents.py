"""List every agent acpcbot can play, one per line: its name and what it does.

The built-in agents come first, then the plug-ins installed distributions declare (entry
point group ``acpcbot.agents``), marked as such. Agents that take options list them on a
second line; give them after the name, e.g. ``--agent plicas:dprc=off,bluff=off``. Any
``Agent`` subclass of yours also plays without being installed: ``--agent module:Class``.

``--specs`` prints instead one spec per line that plays as it is: each agent's name, with
the options it cannot play without (an example value, e.g. ``lbr:opponent=dpp``), for a
script that plays every agent (the docker image's warm-up).
"""

from __future__ import annotations

import argparse

HELP = "list the agents (built-in and plug-ins), one line each"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--specs",
        action="store_true",
        help="one spec per line that plays as it is (the name, with any required options)",
    )


def run(args: argparse.Namespace) -> int:
    from agents.errors import AgentPluginError
    from agents.plugins import load_class, plugins
    from agents.registry import AGENTS

    if args.specs:
        specs = [entry.spec for _, entry in sorted(AGENTS.items())]
        # A plug-in declares no required options: it plays by its name (or fails to).
        specs += sorted(name for name in plugins() if name not in AGENTS)
        print("\n".join(specs))
        return 0
    rows: list[tuple[str, str, str]] = []
    for name, entry in sorted(AGENTS.items()):
        example = f" (e.g. {entry.spec})" if entry.required else ""
        rows.append((name, entry.description, entry.options + example))
    for name, plugin in sorted(plugins().items()):
        origin = f"{plugin.target} from {plugin.distribution}" if plugin.distribution else ""
        if name in AGENTS:
            rows.append((name, f"plug-in ({origin}), hidden by the built-in agent", ""))
            continue
        try:
            doc = load_class(plugin.target, plugin.describe()).__doc__ or ""
        except AgentPluginError as error:
            problem = str(error).removeprefix(f"{plugin.describe()}: ")
            rows.append((name, f"plug-in ({origin}), broken: {problem}", ""))
            continue
        summary = doc.strip().split("\n\n")[0]
        rows.append((name, f"plug-in ({origin}): {' '.join(summary.split())}", ""))
    width = max(len(name) for name, _, _ in rows)
    for name, description, options in rows:
        print(f"{name:<{width}}  {description}")
        if options:
            print(f"{'':<{width}}  options: {options}")
    print("Any Agent subclass of yours plays as module:Class[:KEY=VALUE,...], e.g. mybot:MyBot.")
    return 0
