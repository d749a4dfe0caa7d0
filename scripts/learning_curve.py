#!/usr/bin/env python3
"""A duplicate match's AIVAT estimate block by block: whether an agent learns as it plays.

    python scripts/learning_curve.py plicas-vs-dpp.seed1.n100000 --blocks 4

Reads a match folder written by ``acpcbot match ... --aivat`` (both ``.log`` files and the
``.probs`` beside them), corrects every hand as ``acpcbot results --aivat`` does, and prints
agent A's mbb/g ± 95% CI over consecutive blocks of hands (quarters by default; from hand
``--from-hand`` on, e.g. after an opponent changed its style): for each half on its own and
over the duplicate pairs. A learner wins more in its later blocks; the
halves are separate matches, each agent starting afresh.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from acpcbot import AcpcError, game_of_log
from dealer.analysis import Estimate, estimate, read_log
from dealer.analysis.aivat import aivat_pair


def blocks(values: list[float], count: int, big_blind: int) -> list[Estimate]:
    """The estimate over each of ``count`` consecutive blocks of ``values`` (chips)."""
    size = len(values) // count
    return [estimate(values[i * size : (i + 1) * size], big_blind) for i in range(count)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a match folder (acpcbot match --aivat)")
    parser.add_argument("--blocks", type=int, default=4, help="blocks of hands (4: quarters)")
    parser.add_argument(
        "--from-hand", type=int, default=0, metavar="N", help="only the hands numbered N and on"
    )
    args = parser.parse_args(argv)
    if args.blocks < 1:
        parser.error("--blocks must be at least 1")
    try:
        summary = json.loads((args.folder / "summary.json").read_text())
        logs = [Path(half["log"]) for half in summary["halves"]]
        logs = [log if log.is_absolute() else args.folder / log.name for log in logs]
        player = summary["names"][0]
        first, second = read_log(logs[0]), read_log(logs[1])
        game = game_of_log(first.path, first.header)  # as results --aivat reads it
        pair = aivat_pair(first, second, game, player)
    except (OSError, KeyError, ValueError, AcpcError) as error:
        print(f"learning_curve: {args.folder}: {error}", file=sys.stderr)
        return 1
    big_blind = game.big_blind
    first = args.from_hand
    parts = "one block" if args.blocks == 1 else f"{args.blocks} equal blocks"
    print(f"{player}: AIVAT mbb/g over the hands from hand {first} on, in {parts}")
    kept = [
        [v for n, v in zip(half.hand_numbers, half.values, strict=True) if n >= first]
        for half in pair.halves
    ]
    for half, values in zip(pair.halves, kept, strict=True):
        row = blocks(values, args.blocks, big_blind)
        cells = "  ".join(f"{e.mbb_per_game:+7.1f} ± {e.ci95_mbb:5.1f}" for e in row)
        print(f"  {Path(half.log).name:<48} {cells}")
    paired = [(a + b) / 2 for a, b in zip(kept[0], kept[1], strict=False)]
    cells = "  ".join(
        f"{e.mbb_per_game:+7.1f} ± {e.ci95_mbb:5.1f}"
        for e in blocks(paired, args.blocks, big_blind)
    )
    print(f"  {'duplicate pairs':<48} {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
