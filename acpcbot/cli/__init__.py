"""The ``acpcbot`` command line: the composition root, the only code that imports both the
agents and the dealer, and wires them together (the contracts in ``pyproject.toml``).

Each module named in :data:`COMMANDS` is a subcommand: ``HELP`` (one line), its docstring
(the description), ``register(parser)`` and ``run(args)``, which returns the exit status
(``None``: 0). It imports what it runs (numpy, numba, the dealer, the agents) inside ``run``,
so that ``--help`` is instant (issue 37); no match or tournament logic lives here. An
:class:`acpcbot.errors.AcpcError` ends the program with its message, never a traceback: 2
for a command line that cannot be carried out as written (argparse's errors,
:class:`~acpcbot.errors.UsageError`), 1 for work that failed, 130 for Ctrl-C
(``docs/commands/index.md``).
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from acpcbot.cli.arguments import add_flag
from acpcbot.errors import AcpcError, UsageError

COMMANDS = (
    "agents",
    "connect",
    "equity",
    "infogain",
    "lbr",
    "match",
    "play",
    "results",
    "serve",
    "stats",
    "tournament",
    "watch",
    "web",
)
"""The subcommands, each a module of this package of the same name."""


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors are one line (not the usage, 6 to 8 lines of
    it, before the line that matters); every subcommand's parser is one too."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """A word that is no choice (a command, ``--transport``) names the close ones."""
        choices = [str(choice) for choice in action.choices or ()]
        close = difflib.get_close_matches(str(value), choices, n=3)
        if value not in choices and close:
            message = f"invalid choice: {value!r} (did you mean {' or '.join(close)}?)"
            raise argparse.ArgumentError(action, message)
        super()._check_value(action, value)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="acpcbot",
        description="Heads-up limit hold'em for the ACPC protocol: play against any ACPC "
        "dealer, run duplicate matches and tournaments with our dealer, compute equities.",
    )
    add_flag(parser, "--log-json", "log JSON lines instead of readable text")
    parser.add_argument(
        "--log-level",
        choices=["debug", "info", "warning", "error"],
        help="least severe log level shown (default: warning, and info for serve, a service "
        "whose operator reads its events; info adds the clients' connection events)",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        dest="log_level",
        action="store_const",
        const="info",
        help="the same as --log-level info",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"{__name__}.{name}")
        command = sub.add_parser(
            name,
            help=module.HELP.replace("%", "%%"),
            description=module.__doc__,
            allow_abbrev=False,
        )
        module.register(command)
        command.set_defaults(
            run=module.run, default_log_level=getattr(module, "LOG_LEVEL", "warning")
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``acpcbot`` console script."""
    args = build_parser().parse_args(argv)
    from acpcbot.logconfig import configure_logging  # logging, 12 ms: not for --help (issue 37)

    configure_logging(json=args.log_json, level=args.log_level or args.default_log_level)
    try:
        status: int | None = args.run(args)
        sys.stdout.flush()  # here, where a reader that has gone is handled below
    except AcpcError as exc:  # a command line that cannot be carried out (2), failed work (1)
        print(f"acpcbot: error: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, UsageError) else 1
    except KeyboardInterrupt as exc:  # Ctrl-C; a match stopped by it says where it stopped
        print(f"acpcbot: {str(exc) or 'interrupted'}", file=sys.stderr)
        return 130
    except BrokenPipeError:  # whoever read stdout has gone (| head -1): no traceback
        from acpcbot.cli.output import reader_gone  # not for --help (issue 37)

        reader_gone()
        return 1
    return status or 0
