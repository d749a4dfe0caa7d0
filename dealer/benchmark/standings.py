"""What a user's runs came to: mbb/g with a 95% confidence interval per tag and opponent,
over single runs (per hand) or duplicate pairs (per pair of hands), pooled from the sums the
database keeps (:class:`dealer.analysis.stats.SampleSums`); and a duplicate pair's results,
paired by hand number from its two logs as ``acpcbot results`` pairs them.

>>> from dealer.analysis.stats import SampleSums
>>> line = standing_line(Standing("t1", "dpp", ResultKind.PAIRS, SampleSums.of([5.0, -1.0]), 10, 1))
>>> line
't1 vs dpp: duplicate over 2 pairs (1 run): +200.0 mbb/g ± 588.0 (95% CI)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from dealer.analysis.playedlog import read_log
from dealer.analysis.results import ci_text
from dealer.analysis.stats import SampleSums, pair_sorted
from dealer.benchmark.database import RequestRecord, ResultRecord
from dealer.benchmark.schema import ResultKind

__all__ = ["Standing", "pair_results", "standing_line", "standings"]


@dataclass(frozen=True)
class Standing:
    """A user's results with one tag against one opponent, of one kind."""

    tag: str
    opponent: str
    kind: ResultKind
    sums: SampleSums
    big_blind: int
    runs: int
    """Runs (or pairs) pooled."""


def standings(
    rows: Sequence[tuple[RequestRecord, ResultRecord]], big_blinds: dict[str, int]
) -> list[Standing]:
    """Pool a user's results (:meth:`dealer.benchmark.database.Store.results_of`) by tag,
    opponent and kind, in the order first seen; a request on a duplicate pair counts its
    pairs only (its halves' per-hand results are not a second estimate of the same)."""
    pooled: dict[tuple[str, str, ResultKind, int], tuple[SampleSums, int]] = {}
    for request, result in rows:
        if request.duplicate and result.kind is ResultKind.HANDS:
            continue
        key = (request.tag, result.opponent, result.kind, big_blinds.get(request.game, 10))
        sums, runs = pooled.get(key, (SampleSums(), 0))
        more = SampleSums(result.samples, Fraction(result.total), Fraction(result.squares))
        pooled[key] = (sums + more, runs + 1)
    return [
        Standing(tag, opponent, kind, sums, big_blind, runs)
        for (tag, opponent, kind, big_blind), (sums, runs) in pooled.items()
    ]


def standing_line(standing: Standing) -> str:
    e = standing.sums.estimate(standing.big_blind)
    what = "duplicate over" if standing.kind is ResultKind.PAIRS else "over"
    unit = "pairs" if standing.kind is ResultKind.PAIRS else "hands"
    runs = f"{standing.runs} run{'s' if standing.runs != 1 else ''}"
    return (
        f"{standing.tag} vs {standing.opponent}: {what} {standing.sums.count:,} {unit} "
        f"({runs}): {ci_text(e)}"
    )


def pair_results(
    first: Path, second: Path, players: Sequence[str]
) -> list[tuple[str, SampleSums, int]]:
    """Each of ``players``' results over the duplicate pair of logs ``first`` and
    ``second``, paired by hand number: (player, sums over the pairs, hands unpaired). Empty
    when the players' names are not distinct (then a name does not say whose hands
    are whose)."""
    if len(set(players)) != len(players):
        return []
    a, b = read_log(first), read_log(second)
    out = []
    for name in players:
        samples, unpaired = pair_sorted(
            a.hand_numbers, a.chips[name], b.hand_numbers, b.chips[name]
        )
        out.append((name, SampleSums.of(samples), unpaired))
    return out
