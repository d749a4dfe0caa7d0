"""Local best response as a match (``acpcbot lbr``): the ``lbr`` agent against an agent with
a fixed strategy, in an ordinary duplicate match, whose summary gains LBR's own figures.

The dealer never names an agent: the request's agent A is LBR (an entrant like any other),
and its players report how often the opponent did what its own strategy gives no holding in
its range (``range_resets``) after each half.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from acpcbot.player import Player
from dealer.running.match import MatchRequest, MatchRun, run_match
from dealer.running.matchfolder import SUMMARY
from dealer.running.resultfiles import write_json

__all__ = ["LbrRun", "run_lbr"]


@dataclass(frozen=True, slots=True)
class LbrRun:
    """LBR's match, as :func:`run_lbr` played and recorded it."""

    match: MatchRun
    opponent: str

    @property
    def summary(self) -> dict[str, Any]:
        """What ``summary.json`` holds, with ``"lbr"``."""
        return self.match.summary

    def text(self) -> list[str]:
        """LBR's winnings (a lower bound on the opponent's exploitability), then the match's
        summary, line by line."""
        run, lbr = self.match.run, self.summary["lbr"]
        estimate = run.pair.estimate if run.pair else run.halves[0].result.estimate
        lines = [
            f"LBR against {self.opponent}: {estimate.mbb_per_game:+.1f} mbb/g ± "
            f"{estimate.ci95_mbb:.1f} (95% CI) over {estimate.samples:,} duplicate pairs, a "
            f"lower bound on {self.opponent}'s exploitability",
            # (the time of the run, hands/s included, is the match's line below)
            f"  {lbr['ms_per_hand']:.2f} ms of one process a hand",
        ]
        if lbr["range_resets"]:
            lines.append(
                f"  {lbr['range_resets']} hands in which {self.opponent} did what its own "
                "strategy gives no holding in its range (the range was reset)"
            )
        return lines + self.match.text()


def run_lbr(request: MatchRequest, opponent: str, first_round: str) -> LbrRun:
    """Play ``request`` (LBR, acting greedily from ``first_round``, against ``opponent``) as
    :func:`run_match` does, and add to its ``summary.json`` the opponent, the round, the
    range resets and LBR's time a hand."""

    def range_resets(half: int, players: Sequence[Player]) -> int:
        del half
        return int(getattr(players[0], "range_resets", 0))

    match = run_match(request, after_half=range_resets)
    played = max(match.run.hands, 1)
    match.summary["lbr"] = {
        "opponent": opponent,
        "from": first_round,
        "range_resets": sum(r for r in match.collected if r is not None),
        "ms_per_hand": round(1000 * sum(h.seconds for h in match.run.halves) / played, 3),
    }
    write_json(match.run.out_dir / SUMMARY, match.summary)
    return LbrRun(match, opponent)
