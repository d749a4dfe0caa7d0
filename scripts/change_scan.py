#!/usr/bin/env python3
"""Where PLICAS's change detector would flag a change of a player in a log.

    python scripts/change_scan.py FOLDER/*.log --player dpp-coarse

Replays every hand of each ACPC log through a fresh :class:`agents.plicas.change.ChangeDetector`
watching ``--player`` (what PLICAS's detector sees of its opponent: every action, and the
cards at a showdown) with PLICAS's memory, and prints the hands where it declared a change
and the largest statistic it reached. A log of a player that never changes should flag
nothing; a log of a trap (``switch``, ``river-bluffer``, ``reshuffler``) should flag its
change soon after it happens. ``--threshold`` tries another threshold than the detector's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from acpcbot.errors import AcpcError
from acpcbot.game import bundled_game
from acpcbot.handeval.combos import combo_index
from acpcbot.protocol.logfile import parse_state_line
from acpcbot.rules import HandState
from agents.plicas.change import THRESHOLD, ChangeDetector
from agents.plicas.config import DYNAMIC
from agents.plicas.memory import Memory


def scan(path: Path, player: str, threshold: float) -> tuple[list[int], float, int]:
    """The hands where a change was declared, the largest statistic and the hands read."""
    game = bundled_game()
    memory = Memory(DYNAMIC.memory, DYNAMIC.forget)
    detector = ChangeDetector(memory, threshold)
    hands = 0
    with path.open(encoding="latin-1") as lines:
        for line in lines:
            if not line.startswith("STATE:"):
                continue
            record = parse_state_line(line.rstrip("\n"))
            if player not in record.names:
                raise AcpcError(f"{path}: no player {player!r} in hand {record.hand_number}")
            watched = record.names.index(player)
            hand = HandState(game, record.hand_number)
            for actions in record.betting:
                for action in actions:
                    if hand.current_player == watched:
                        detector.saw(hand, action.type)
                    hand.apply(action)
            shown = None
            if hand.is_showdown:
                shown = combo_index(*record.hole_cards[watched])
            memory.next_hand()
            detector.end_hand(shown, record.board_cards)
            hands += 1
    return detector.changes, detector.peak, hands


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", type=Path, nargs="+", metavar="LOG", help="ACPC logs")
    parser.add_argument("--player", required=True, help="the player watched (its log name)")
    parser.add_argument("--threshold", type=float, default=THRESHOLD, help="nats (the detector's)")
    args = parser.parse_args(argv)
    for path in args.logs:
        try:
            changes, top, hands = scan(path, args.player, args.threshold)
        except (OSError, AcpcError) as error:
            print(f"change_scan: {error}", file=sys.stderr)
            return 1
        shown = ", ".join(f"{n:,}" for n in changes) or "none"
        print(
            f"{path.name}: {hands:,} hands, changes at hands: {shown}; largest statistic {top:.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
