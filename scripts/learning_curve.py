#!/usr/bin/env python3
"""A duplicate match's AIVAT estimate block by block: whether an agent learns as it plays.

    python scripts/learning_curve.py plicas-vs-dpp.seed1.n100000 --blocks 4
    python scripts/learning_curve.py m-plicas m-static --from-hand 10000 --plot trap.png

Reads a match folder written by ``acpcbot match ... --aivat`` (both ``.log`` files and the
``.probs`` beside them), corrects every hand as ``acpcbot results --aivat`` does, and prints
agent A's mbb/g ± 95% CI over consecutive blocks of hands (quarters by default; from hand
``--from-hand`` on, e.g. after an opponent changed its style): for each half on its own and
over the duplicate pairs. A learner wins more in its later blocks; the
halves are separate matches, each agent starting afresh.

Given more folders — other agents against the same opponent on the same cards (the same
``--seed`` and ``--hands``) — it prints each, then the first agent's lead over each other
one, hand by hand on the same cards (the pairs' differences, whose CI is narrower than
either estimate's). ``--plot PNG`` draws every folder's AIVAT mbb/g over the pairs, block
after block of ``--plot-every`` hands, on one picture (the ``plot`` extra).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from acpcbot import AcpcError, game_of_log
from dealer.analysis import Estimate, estimate, read_log
from dealer.analysis.aivat import aivat_pair


def blocks(values: list[float], count: int, big_blind: int) -> list[Estimate]:
    """The estimate over each of ``count`` consecutive blocks of ``values`` (chips)."""
    size = len(values) // count
    return [estimate(values[i * size : (i + 1) * size], big_blind) for i in range(count)]


@dataclass(frozen=True)
class Curve:
    """One match's AIVAT values of agent A, hand by hand from ``--from-hand`` on."""

    player: str
    halves: list[tuple[str, list[int], list[float]]]
    """Each half's log name, hand numbers and values (chips)."""
    big_blind: int

    def pairs(self) -> dict[int, float]:
        """Each hand number's two values averaged (the duplicate pairs)."""
        (_, first_hands, first), (_, second_hands, second) = self.halves
        other = dict(zip(second_hands, second, strict=True))
        return {
            n: (v + other[n]) / 2 for n, v in zip(first_hands, first, strict=True) if n in other
        }


def read_curve(folder: Path, from_hand: int) -> Curve:
    """The AIVAT values of ``folder``'s agent A from hand ``from_hand`` on."""
    summary = json.loads((folder / "summary.json").read_text())
    logs = [Path(half["log"]) for half in summary["halves"]]
    logs = [log if log.is_absolute() else folder / log.name for log in logs]
    player = summary["names"][0]
    first, second = read_log(logs[0]), read_log(logs[1])
    game = game_of_log(first.path, first.header)  # as results --aivat reads it
    pair = aivat_pair(first, second, game, player)
    halves = []
    for half in pair.halves:
        kept = [
            (n, v) for n, v in zip(half.hand_numbers, half.values, strict=True) if n >= from_hand
        ]
        halves.append((Path(half.log).name, [n for n, _ in kept], [v for _, v in kept]))
    return Curve(player, halves, game.big_blind)


def row(values: list[float], count: int, big_blind: int) -> str:
    return "  ".join(
        f"{e.mbb_per_game:+7.1f} ± {e.ci95_mbb:5.1f}" for e in blocks(values, count, big_blind)
    )


def plot(curves: list[tuple[Path, Curve]], every: int, path: Path) -> None:
    """Every curve's AIVAT mbb/g over the pairs, per block of ``every`` hands, with its 95%
    CI as a band, on one picture."""
    from acpcbot.extras import need_matplotlib

    need_matplotlib()
    import io

    from matplotlib.figure import Figure

    figure = Figure(figsize=(10, 5))
    axes = figure.subplots()
    for folder, curve in curves:
        pairs = curve.pairs()
        numbers = sorted(pairs)
        x, mean, low, high = [], [], [], []
        for start in range(0, len(numbers) - every + 1, every):
            chunk = numbers[start : start + every]
            found = estimate([pairs[n] for n in chunk], curve.big_blind)
            x.append(chunk[0] + every / 2)
            mean.append(found.mbb_per_game)
            low.append(found.mbb_per_game - found.ci95_mbb)
            high.append(found.mbb_per_game + found.ci95_mbb)
        line = axes.plot(x, mean, marker="o", markersize=3, label=f"{curve.player} ({folder.name})")
        axes.fill_between(x, low, high, color=line[0].get_color(), alpha=0.15, linewidth=0)
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_xlabel(f"hand (blocks of {every:,} duplicate pairs)")
    axes.set_ylabel("AIVAT mbb/g over the pairs, 95% CI")
    axes.legend(loc="best", fontsize=8)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    path.write_bytes(buffer.getvalue())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "folders", type=Path, nargs="+", metavar="FOLDER", help="match folders (match --aivat)"
    )
    parser.add_argument("--blocks", type=int, default=4, help="blocks of hands (4: quarters)")
    parser.add_argument(
        "--from-hand", type=int, default=0, metavar="N", help="only the hands numbered N and on"
    )
    parser.add_argument("--plot", type=Path, metavar="PNG", help="draw the curves into PNG")
    parser.add_argument(
        "--plot-every", type=int, default=1000, metavar="H", help="hands per point drawn (1000)"
    )
    args = parser.parse_args(argv)
    if args.blocks < 1 or args.plot_every < 1:
        parser.error("--blocks and --plot-every must be at least 1")
    curves = []
    for folder in args.folders:
        try:
            curves.append((folder, read_curve(folder, args.from_hand)))
        except (OSError, KeyError, ValueError, AcpcError) as error:
            print(f"learning_curve: {folder}: {error}", file=sys.stderr)
            return 1
    parts = "one block" if args.blocks == 1 else f"{args.blocks} equal blocks"
    for folder, curve in curves:
        print(
            f"{curve.player}: AIVAT mbb/g over the hands from hand {args.from_hand} on, in {parts}"
        )
        for name, _, values in curve.halves:
            print(f"  {name:<48} {row(values, args.blocks, curve.big_blind)}")
        pairs = curve.pairs()
        label = "duplicate pairs" if len(curves) == 1 else f"duplicate pairs ({folder.name})"
        print(f"  {label:<48} {row(list(pairs.values()), args.blocks, curve.big_blind)}")
    first_folder, first = curves[0]
    for folder, other in curves[1:]:
        mine, theirs = first.pairs(), other.pairs()
        shared = sorted(set(mine) & set(theirs))
        lead = [mine[n] - theirs[n] for n in shared]
        print(
            f"{first.player} ({first_folder.name}) minus {other.player} ({folder.name}), the "
            f"same hands ({len(shared):,} pairs)"
        )
        print(f"  {'difference over the pairs':<48} {row(lead, args.blocks, first.big_blind)}")
    if args.plot is not None:
        plot(curves, args.plot_every, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
