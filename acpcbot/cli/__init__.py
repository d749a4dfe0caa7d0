"""The ``acpcbot`` command line.

Every module in this package except this one is a subcommand: it defines ``HELP`` (one
line), ``register(parser)`` to add its arguments, and ``run(args) -> int``. Modules keep
heavy imports (numpy, numba, the dealer, the agents) inside ``run`` so that ``--help`` is
instant. Errors the project raises on purpose (:class:`acpcbot.errors.AcpcError`) end the
program with their message and status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType


def _subcommands() -> list[tuple[str, ModuleType]]:
    found = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.append((info.name.replace("_", "-"), module))
    return sorted(found)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="acpcbot",
        description="Heads-up limit hold'em for the ACPC protocol: play against any ACPC "
        "dealer, run duplicate matches with our dealer, compute equities.",
    )
    parser.add_argument(
        "--log-json", action="store_true", help="log JSON lines instead of readable text"
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="least severe log level shown (default: info)",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in _subcommands():
        command = sub.add_parser(
            name,
            help=module.HELP.replace("%", "%%"),
            description=module.__doc__,
            allow_abbrev=False,
        )
        module.register(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``acpcbot`` console script."""
    args = build_parser().parse_args(argv)
    from acpcbot.errors import AcpcError
    from acpcbot.logconfig import configure_logging

    configure_logging(json=args.log_json, level=args.log_level)
    try:
        status: int = args.run(args)
    except AcpcError as exc:
        print(f"acpcbot: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("acpcbot: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
