"""Results of matches: one player's winnings over a log, or over a duplicate pair of logs.

Works on any ACPC ``.log`` (ours or the reference's, read by :mod:`dealer.playedlog`) and on
the hands of a match as it is played (:mod:`dealer.duplicate`). Two logs of a duplicate pair
are paired by hand number, from the point of view of one player (by default player A: seat 1
of the first log); whether two logs are a pair at all is :mod:`dealer.twins`' question.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from acpcbot.errors import AcpcError
from acpcbot.protocol.matchstate import clip_line
from dealer.playedlog import PlayedLog, read_log
from dealer.stats import Estimate, estimate, pair_sorted

__all__ = [
    "HalfResult",
    "PairResult",
    "ResultsError",
    "duplicate_result",
    "half_result",
    "log_result",
    "pair_result",
    "read_log",
]


class ResultsError(AcpcError):
    """Results that cannot be had (an unknown player, two logs that are not a pair, ...)."""


@dataclass(frozen=True)
class HalfResult:
    """One player's results over one log."""

    log: str
    player: str
    opponent: str
    hands: int
    chips: float
    estimate: Estimate
    """Over hands."""


@dataclass(frozen=True)
class PairResult:
    """Player A's results over a duplicate pair of logs."""

    player: str
    opponent: str
    pairs: int
    unpaired: int
    """Hands found in only one of the two logs."""
    estimate: Estimate
    """Over pairs: each hand number's two results averaged."""
    halves: tuple[HalfResult, HalfResult]


def half_result(
    log: str, player: str, opponent: str, values: Mapping[int, float], big_blind: int
) -> HalfResult:
    """``player``'s results from their chips by hand number."""
    return _half(log, player, opponent, list(values.values()), big_blind)


def _half(
    log: str, player: str, opponent: str, samples: Sequence[float], big_blind: int
) -> HalfResult:
    return HalfResult(
        log, player, opponent, len(samples), math.fsum(samples), estimate(samples, big_blind)
    )


def pair_result(first: HalfResult, second: HalfResult, paired: tuple[list[float], int],
                big_blind: int) -> PairResult:  # fmt: skip
    samples, unpaired = paired
    return PairResult(
        first.player, first.opponent, len(samples), unpaired, estimate(samples, big_blind),
        (first, second),
    )  # fmt: skip


def log_result(log: PlayedLog, big_blind: int, player: str | None = None) -> HalfResult:
    """``player``'s (default: seat 1's) results over one log."""
    name = log.seat_names[0] if player is None else player
    if name not in log.chips:
        players = clip_line(", ".join(log.chips), 120)
        raise ResultsError(f"{log.where}: no player {clip_line(name, 60)!r} (players: {players})")
    opponents = [n for n in log.seat_names if n != name]
    return _half(str(log.path), name, ",".join(opponents), log.chips[name], big_blind)


def duplicate_result(
    first: PlayedLog, second: PlayedLog, big_blind: int, player: str | None = None
) -> PairResult:
    """``player`` (default: player A, seat 1 of ``first``) over a duplicate pair, paired by
    hand number (hands in only one log are left out and counted)."""
    name = first.seat_names[0] if player is None else player
    halves = (log_result(first, big_blind, name), log_result(second, big_blind, name))
    paired = pair_sorted(
        first.hand_numbers, first.chips[name], second.hand_numbers, second.chips[name]
    )
    return pair_result(halves[0], halves[1], paired, big_blind)
