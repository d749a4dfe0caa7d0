"""The commands' argument types of their own (a word to a value, or an argparse error naming
what is wrong; the numbers, ports and durations are :mod:`acpcbot.options`', shared with
``acpc-dealer``) and the options several commands share (``add_*``: one name and type
everywhere)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from acpcbot.errors import AcpcError, UsageError
from acpcbot.game import LIMIT_HOLDEM, load_game
from acpcbot.options import count, hand_count, listening_port, seed_value

if TYPE_CHECKING:
    from acpcbot.player import Entrant


def game_value(text: str) -> str:
    """A ``.game`` file or a bundled game's name that loads (loaded again where used)."""
    try:
        load_game(text)
    except AcpcError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def path_value(text: str) -> Path:
    """A path, not empty (``''`` would be the current folder)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path")
    return Path(text)


# The options several commands share. ``parser`` may also be a group of a parser's options.
Options = argparse._ActionsContainer

SPEC = "NAME or NAME:KEY=VALUE,..."  # an agent on the command line (see: acpcbot agents)


def add_match_size(parser: Options, *, seed: str = "card seed, as the dealer's (0)") -> None:
    """``--hands N`` (per half) and ``--seed S`` (of the cards)."""
    parser.add_argument(
        "--hands", type=hand_count, default=1000, metavar="N", help="hands per half (1000)"
    )
    add_seed(parser, seed)


def add_seed(
    parser: Options, what: str, *, metavar: str | None = "S", default: int | None = 0
) -> None:
    parser.add_argument("--seed", type=seed_value, default=default, metavar=metavar, help=what)


def add_agent(parser: Options, what: str, *, required: bool = False) -> None:
    parser.add_argument("--agent", required=required, metavar="SPEC", help=what)


def add_flag(parser: Options, option: str, what: str) -> None:
    """An option that is off unless given (``--aivat``, ``--plot``, ``--strict``, ...)."""
    parser.add_argument(option, action="store_true", help=what)


DEFAULT_HTTP_PORT = 8000
NEXT_HTTP_PORTS = 9
"""Ports tried after the default one when it is in use: a second `acpcbot web` is ordinary
use, so the next port (said) beats an error; a port the user chose is a promise (a bookmark,
a docker mapping, a proxy) that another port would silently break, so it fails."""


def add_page_port(parser: Options, option: str, what: str) -> None:
    """A web page's port, read as ``(port, how many after it to try when it is in use)``."""
    parser.add_argument(
        option,
        type=lambda text: (listening_port(text), 0),
        default=(DEFAULT_HTTP_PORT, NEXT_HTTP_PORTS),
        metavar="N",
        help=f"{what} (default {DEFAULT_HTTP_PORT}, or the next free one up to "
        f"{DEFAULT_HTTP_PORT + NEXT_HTTP_PORTS} when it is in use; 0: any free one, printed)",
    )


def add_out(parser: Options, what: str, *, force: bool = True) -> None:
    """``--out DIR`` (``what``: what it holds and its default) and ``--force``."""
    parser.add_argument("--out", type=path_value, metavar="DIR", help=what)
    if force:
        add_flag(parser, "--force", "replace another match found in --out")


def add_jobs(parser: Options, what: str = "halves") -> None:
    parser.add_argument(
        "--jobs",
        type=count,
        metavar="N",
        help=f"{what} played at once, one local process each (default: the cores)",
    )


def add_transport(parser: Options, *, remote: bool = False) -> None:
    choices = ["inprocess", "tcp"]
    what = "inprocess (default): the dealer calls the agents; tcp: through the acpcbot client "
    what += "over loopback sockets, as against any ACPC dealer"
    if remote:
        choices.append("remote")
        what += (
            "; remote: the dealer listens for players that connect from elsewhere (acpcbot play)"
        )
    parser.add_argument("--transport", choices=choices, default="inprocess", help=what)


def add_game(parser: Options, *, from_logs: bool = False) -> None:
    shown = f"{LIMIT_HOLDEM}, heads-up limit hold'em"
    if from_logs:  # (a game file a log names is looked for beside it, here, then bundled)
        shown = "the game each log's header names; give it for a log naming none, or a file "
        shown += "not beside the log, here or bundled"
    parser.add_argument(
        "--game",
        type=game_value,
        default=None if from_logs else LIMIT_HOLDEM,
        metavar="GAME",
        help=f"a .game file or the name of a bundled game (default: {shown})",
    )


def add_scheduler(parser: Options, what: str, note: str = "") -> None:
    """``--scheduler``: a Dask cluster to play ``what`` on (``note``: what it must offer)."""
    help = f"play {what} on the workers of the Dask scheduler at this address instead of in "
    help += f"processes of this machine (the cluster extra{note})"
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", help=help)


def add_json(parser: Options, what: str = "JSON instead of text") -> None:
    add_flag(parser, "--json", f"print {what}")


def add_isolate(parser: Options) -> None:
    add_flag(
        parser,
        "--isolate",
        "play each agent given as module:Class or as an installed plug-in in a process of its "
        "own (code you do not trust; in-process code can reach the dealer)",
    )


def entrants(specs: Sequence[str], *, isolate: bool) -> list[Entrant]:
    """The agents ``specs`` name; with ``isolate``, the plug-ins among them each played in a
    process of its own (a :class:`UsageError` when there is none)."""
    from agents.registry import entrant, is_plugin  # not for --help (issue 37)
    from dealer.running import isolated

    plugins = [isolate and is_plugin(spec) for spec in specs]
    if isolate and not any(plugins):
        raise UsageError(
            "--isolate plays agents given as module:Class or as installed plug-ins in a "
            "process of their own; the agents given are built in"
        )
    return [
        isolated(entrant(spec)) if plugin else entrant(spec)
        for spec, plugin in zip(specs, plugins, strict=True)
    ]
