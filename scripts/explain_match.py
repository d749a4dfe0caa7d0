"""Where a match is won and lost: its AIVAT estimate split by round and betting context.

    python scripts/explain_match.py FOLDER [--by context|round|history|strength] [--top N]
                                           [--player NAME] [--csv FILE]

FOLDER is a duplicate match's folder (``acpcbot match ... --aivat``: its two ``.log`` files
with the ``.probs`` beside them), or a folder with one log. Every hand's AIVAT estimate for
the match's agent A (or ``--player``) is the sum of one term per decision — the advantage of
the decision's policy under AIVAT's value function, both players' decisions — and per
round's cards; the table sums them per spot (``dealer.analysis.aivatsplit``): for each
player, what its decisions there add, in mbb per hand of the match with a 95% CI over the
pairs, how many there were and their shares of fold/call/raise, and what the spot adds in
all ("both"). The spots add up to the AIVAT estimate, which the last lines check against
the match's ``summary.json``. Spots are sorted by what they add (either sign); ``--top``
shows that many (the rest summed in one line), ``--csv`` writes every spot of every
grouping.

A player's own column measures its decisions against a static value (the check-down value
with its bets-to-come term): a chip put in counts as partly lost until it is answered, so
the columns are large and of opposite signs. What a spot says is in the two players
compared at the same spot, the same seat and cards in the other half: "both".

Why a script of its own rather than ``scripts/plicas_regret.py``: that one plays a new match
of a PLICAS agent with rollouts at each of its decisions (a policy-improvement signal, any
opponent, minutes per thousand hands); this one reads a match already played, any agents,
100,000 pairs in minutes, and its numbers add up to the match's AIVAT estimate.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

from acpcbot import AcpcError, game_of_log
from acpcbot.options import add_progress_options, progress_of
from acpcbot.progress import ProgressDisplay
from agents.registry import known_strategies
from dealer.analysis import report_logs
from dealer.analysis.aivatsplit import Grouping, split_aivat, split_csv_rows, split_lines
from dealer.running import SUMMARY


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("folder", metavar="FOLDER", type=Path, help="a match's folder")
    parser.add_argument(
        "--by",
        choices=[g.value for g in Grouping],
        default=Grouping.CONTEXT.value,
        help="the spots: by round; by round and the round's betting before the decision "
        "(default); by the hand's betting before it; by round, a bet to call or not and the "
        "deciding player's equity in tenths",
    )
    parser.add_argument("--top", type=int, default=30, help="spots shown (30; 0: all)")
    parser.add_argument("--player", metavar="NAME", help="whose estimate (the match's agent A)")
    parser.add_argument("--csv", metavar="FILE", type=Path, help="also write every spot to FILE")
    add_progress_options(parser)
    args = parser.parse_args(argv)
    if args.top < 0:
        parser.error("--top must be 0 (all) or more")
    if args.csv is not None and args.csv.exists():
        parser.error(f"{args.csv} exists: not overwritten")
    if args.csv is not None and not args.csv.parent.is_dir():
        parser.error(f"no folder {args.csv.parent} for {args.csv.name}")
    logs = sorted(args.folder.glob("*.log"))
    if not 1 <= len(logs) <= 2:
        parser.error(f"{args.folder} has {len(logs)} .log files, not a match's one or two")
    try:
        report = report_logs(logs, player=args.player)
        game = game_of_log(report.logs[0].path, report.logs[0].header)
        player = args.player or report.halves[0].player
        oracles = known_strategies(report.logs[0].seat_names, game)
        hands = sum(log.hands for log in report.logs)
        display = ProgressDisplay(f"explaining {args.folder.name}", hands, show=progress_of(args))
        grouping = Grouping(args.by)
        groupings = tuple(Grouping) if args.csv is not None else (grouping,)
        split = split_aivat(
            report.logs, game, player, oracles=oracles, groupings=groupings, progress=display.update
        )
        display.close()
    except AcpcError as error:
        print(f"explain_match: {error}", file=sys.stderr)
        return 1
    print("\n".join(split_lines(split, grouping, args.top or None)))
    print(f"{hands:,} hands read in {split.seconds:.1f} s")
    recorded = _recorded(args.folder / SUMMARY, player)
    if recorded is not None:
        difference = split.total(grouping) - recorded
        agrees = "agree" if abs(difference) <= 0.0005 else f"differ by {difference:+.4f}"
        print(f"{SUMMARY}: AIVAT {recorded:+.3f} mbb/g; the spots {agrees} (to its 3 decimals)")
    if args.csv is not None:
        try:
            with open(args.csv, "x", newline="") as out:
                csv.writer(out).writerows(split_csv_rows(split))
        except OSError as error:
            print(f"explain_match: cannot write {args.csv}: {error.strerror}", file=sys.stderr)
            return 1
    return 0


def _recorded(path: Path, player: str) -> float | None:
    """The match's own AIVAT estimate for ``player`` by its summary, if there is one (the
    value function is zero-sum: agent B's is minus agent A's)."""
    try:
        summary = json.loads(path.read_text())
        agents = summary["agents"]
        value = float(summary["aivat"]["mbb_per_game"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if player not in agents:
        return None
    return value if player == agents[0] else -value


if __name__ == "__main__":
    sys.exit(main())
