"""How much the players' bets reveal about their cards: Saund's information gain, from logs.

For every decision point of every hand (the state before each action, and the showdown),
three observers estimate the chance that the player in position 0 wins: the omniscient one,
who sees both players' hole cards (p); and a public one, who sees only the board, from the
cards alone (q = 1/2 in hold'em: the board is common) and from the cards plus inference
from the bets (weight tables over each player's 1326 holdings, re-weighted by Bayes' rule
under Saund's factored betting policy, fitted to each player from the earlier hands). The
report gives, per street, the average Kullback-Leibler divergence KL(p || q) in bits for
both public estimates and the information gain 1 - KL_bet / KL_cards as a percentage with
its 95% confidence interval over hands, and each player's fitted predictability.

The logs are ACPC .log files that show both players' hole cards in every hand (ours do, and
so do the reference dealer's); several logs are read in order as one sample (say, the two
halves of a duplicate match), each player's policy fitted across them by name. The game is
the one each log's header names (a file beside the log, here, or a bundled game), or
--game. --plot DIR draws one PNG per street, in the manner of Saund's Fig. 6 (the plot
extra).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from acpcbot.cli.arguments import path_value
from acpcbot.options import add_progress_options, progress_of

if TYPE_CHECKING:
    from agents.infogain.measure import InfoGainReport

HELP = "how much the players' bets reveal about their cards (Saund's information gain)"

MOST_FLOP_RUNOUTS = 1176


def _runouts(text: str) -> int:
    """A number of flop runouts, or ``all``."""
    if text == "all":
        return MOST_FLOP_RUNOUTS
    if not (text.isascii() and text.isdigit() and len(text) <= 5) or not (
        1 <= int(text) <= MOST_FLOP_RUNOUTS
    ):
        raise argparse.ArgumentTypeError(
            f"must be a whole number from 1 to {MOST_FLOP_RUNOUTS} or 'all', not {text!r}"
        )
    return int(text)


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", type=Path, nargs="+", metavar="LOG", help="match logs (.log)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument(
        "--plot",
        type=path_value,
        metavar="DIR",
        help="also draw DIR/infogain-STREET.png for each street (the plot extra)",
    )
    parser.add_argument(
        "--force", action="store_true", help="with --plot: replace PNGs already in DIR"
    )
    parser.add_argument(
        "--flop-runouts",
        type=_runouts,
        default=100,
        metavar="N",
        help="turn and river cards sampled per hand for the flop's estimate, 1..1176 or "
        "'all' (100; the turn and the river are always exact)",
    )
    parser.add_argument(
        "--game",
        metavar="FILE",
        help="the logs' game (default: the one each log's header names)",
    )
    add_progress_options(parser)


def run(args: argparse.Namespace) -> int:
    import json

    from acpcbot.errors import AcpcError
    from acpcbot.game import load_game
    from acpcbot.progress.display import ProgressDisplay
    from acpcbot.smallfile import shown_path
    from acpcbot.writing import check_writable
    from agents.infogain.measure import STREETS, InfoGain
    from agents.infogain.report import report_json, report_lines
    from dealer.analysis import LogError, logged_hands

    plots: list[Path] = []
    if args.plot is not None:
        _need_matplotlib()
        plots = [args.plot / f"infogain-{street}.png" for street in STREETS]
        existing = [path for path in plots if path.exists()]
        if existing and not args.force:
            raise AcpcError(
                f"{shown_path(existing[0])} exists; --force replaces the infogain PNGs in "
                f"{shown_path(args.plot)}"
            )
        for path in plots:  # before the work, not after it
            check_writable(path, make_folder=True)
    gain: InfoGain | None = None
    progress = ProgressDisplay("infogain", None, unit="hands read", show=progress_of(args))
    try:
        for hand in logged_hands(args.logs, load_game(args.game) if args.game else None):
            if gain is None:
                try:
                    gain = InfoGain(hand.game, args.flop_runouts)
                except AcpcError as exc:
                    raise AcpcError(f"{shown_path(hand.path)}: {exc}") from None
            try:
                gain.add(hand.record)
            except AcpcError as exc:
                raise LogError(f"{hand.where}: {exc}") from None
            progress.update(gain.hands)
    finally:
        progress.close()
    assert gain is not None  # a log gives at least one hand or raises
    report = gain.report(tuple(str(path) for path in args.logs))
    if args.json:
        print(json.dumps(report_json(report), indent=2))
    else:
        print("\n".join(report_lines(report)))
    sys.stdout.flush()
    if plots:
        _write_plots(report, plots)
    return 0


def _need_matplotlib() -> None:
    from acpcbot.extras import need_matplotlib

    need_matplotlib()


def _write_plots(report: InfoGainReport, plots: list[Path]) -> None:
    from acpcbot.writing import replace_file, writing
    from agents.infogain.plot import street_png

    with writing(plots[0].parent):
        plots[0].parent.mkdir(parents=True, exist_ok=True)
    for path, street in zip(plots, report.streets, strict=True):
        replace_file(path, street_png(report, street))
    print(f"acpcbot: plots in {', '.join(str(p) for p in plots)}", file=sys.stderr)
