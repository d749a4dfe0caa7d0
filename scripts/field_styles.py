"""Kendall's four styles in play: preflop participation and aggression over in-process hands.

    python scripts/field_styles.py --hands 5000 --seed 7

Plays two in-process matches on acpcbot's dealer, loose-aggressive against tight-passive and
loose-passive against tight-aggressive (every style meets its opposite), ``--hands`` each
(10,000 hands in all by default), and prints every style's share of hands not folded before
the flop and its share of raises among its calls and raises, then checks the orders the
names promise: each loose style above each tight one in participation, each aggressive one
above each passive one in aggression (exit status 1 if not).
"""

from __future__ import annotations

import argparse
import sys

from acpcbot import bundled_game
from acpcbot.protocol import StateRecord, parse_state_line
from agents.common.decisions import PlayStyle, play_style
from agents.registry import create_agent
from dealer.referee import MatchConfig, Referee, play_in_process

PAIRS = (("loose-aggressive", "tight-passive"), ("loose-passive", "tight-aggressive"))


class Records:
    """The log's ``STATE`` lines as records, kept in memory."""

    def __init__(self) -> None:
        self.hands: list[StateRecord] = []

    def line(self, text: str) -> None:
        if text.startswith("STATE:"):
            self.hands.append(parse_state_line(text))

    def hand_done(self) -> None:
        pass

    def flush(self) -> None:
        pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands per match (5000)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    game = bundled_game()
    styles: dict[str, PlayStyle] = {}
    for a, b in PAIRS:
        config = MatchConfig("styles", game, "styles.game", args.hands, args.seed, (a, b))
        records = Records()
        players = [create_agent(a, args.seed), create_agent(b, args.seed + 1)]
        play_in_process(Referee(config, log=records), players)
        styles[a] = play_style(game, records.hands, a)
        styles[b] = play_style(game, records.hands, b)
    print(f"{'style':<18} {'hands':>7} {'participation':>14} {'aggression':>11}")
    for name, style in sorted(styles.items()):
        print(
            f"{name:<18} {style.hands:>7,} {style.participation:>14.3f} {style.aggression:>11.3f}"
        )
    loose = min(styles[n].participation for n in ("loose-passive", "loose-aggressive"))
    tight = max(styles[n].participation for n in ("tight-passive", "tight-aggressive"))
    aggressive = min(styles[n].aggression for n in ("loose-aggressive", "tight-aggressive"))
    passive = max(styles[n].aggression for n in ("loose-passive", "tight-passive"))
    ordered = loose > tight and aggressive > passive
    print(
        f"loose > tight in participation: {loose:.3f} > {tight:.3f}; aggressive > passive in "
        f"aggression: {aggressive:.3f} > {passive:.3f}: {'yes' if ordered else 'NO'}"
    )
    return 0 if ordered else 1


if __name__ == "__main__":
    sys.exit(main())
