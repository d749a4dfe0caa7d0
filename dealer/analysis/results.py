"""Results of matches: one player's winnings over a log, or over a duplicate pair of logs.

Works on any ACPC ``.log`` (ours or the reference's, read by :mod:`dealer.analysis.playedlog`)
and on the hands of a match as it is played (:mod:`dealer.running.duplicate`). Two logs of a
duplicate pair are paired by hand number, from the point of view of one player (by default
player A: seat 1 of the first log); whether two logs are a pair at all is
:mod:`dealer.analysis.twins`' question.
The results read as text (:func:`half_line`, :func:`pair_line`) and as JSON (:func:`half_json`,
:func:`pair_json`), the same for a log read back and in a match's ``summary.json``.

>>> from dealer.analysis.stats import estimate
>>> half = HalfResult("m.log", "A", "B", 4, 40.0, estimate([10.0, -10.0, 30.0, 10.0], 10))
>>> half_line(half)
'A vs B: 4 hands, +40 chips, +1000.0 mbb/g ± 1600.3 (95% CI)'
>>> half_json(half)["mbb_per_game"]
1000.0
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from acpcbot.errors import AcpcError
from acpcbot.protocol.logfile import format_number
from acpcbot.protocol.matchstate import clip_line
from dealer.analysis.playedlog import PlayedLog
from dealer.analysis.stats import Estimate, estimate, pair_sorted

__all__ = [
    "HalfResult",
    "PairResult",
    "ResultsError",
    "ci_text",
    "duplicate_result",
    "half_json",
    "half_line",
    "half_result",
    "json_number",
    "log_result",
    "pair_json",
    "pair_line",
    "pair_result",
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


def json_number(value: float) -> float | None:
    """JSON has no infinity: an undefined interval is ``null``."""
    return None if math.isinf(value) or math.isnan(value) else round(value, 3)


def ci_text(e: Estimate) -> str:
    if math.isinf(e.ci95_mbb):
        return f"{e.mbb_per_game:+.1f} mbb/g (too few samples for a CI)"
    return f"{e.mbb_per_game:+.1f} mbb/g ± {e.ci95_mbb:.1f} (95% CI)"


def half_line(half: HalfResult) -> str:
    chips = format_number(half.chips)
    sign = "+" if half.chips > 0 else ""
    return (
        f"{half.player} vs {half.opponent}: {half.hands:,} hands, {sign}{chips} chips, "
        f"{ci_text(half.estimate)}"
    )


def pair_line(pair: PairResult) -> str:
    e = pair.estimate
    text = (
        f"{pair.player} vs {pair.opponent}, duplicate over {pair.pairs:,} pairs: {ci_text(e)}, "
        f"SD {e.sd_mbb:.1f} mbb per pair"
    )
    if pair.unpaired:
        text += f" ({pair.unpaired:,} hands without a partner left out)"
    return text


def half_json(half: HalfResult) -> dict[str, Any]:
    return {
        "log": half.log,
        "player": half.player,
        "opponent": half.opponent,
        "hands": half.hands,
        "chips": half.chips,
        "mbb_per_game": json_number(half.estimate.mbb_per_game),
        "ci95": json_number(half.estimate.ci95_mbb),
        "sd_mbb": json_number(half.estimate.sd_mbb),
    }


def pair_json(pair: PairResult) -> dict[str, Any]:
    return {
        "agents": [pair.player, pair.opponent],
        "pairs": pair.pairs,
        "unpaired": pair.unpaired,
        "mbb_per_game": json_number(pair.estimate.mbb_per_game),
        "ci95": json_number(pair.estimate.ci95_mbb),
        "pair_sd_mbb": json_number(pair.estimate.sd_mbb),
        "halves": [half_json(h) for h in pair.halves],
    }
