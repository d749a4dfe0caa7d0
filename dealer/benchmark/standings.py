"""What a user's runs came to: mbb/g with a 95% confidence interval per tag and opponent,
over single runs (per hand) or duplicate pairs (per pair of hands), pooled from the sums the
database keeps (:class:`dealer.analysis.stats.SampleSums`); a duplicate pair's results,
paired by hand number from its two logs as ``acpcbot results`` pairs them; which single runs
make a pair the reference's way (:func:`reference_partner`); and the public leaderboard
(:func:`leaderboard`).

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
from dealer.benchmark.database import BoardTotals, RequestRecord, ResultRecord, RunRecord
from dealer.benchmark.schema import ResultKind

__all__ = [
    "Board",
    "BoardRow",
    "Standing",
    "leaderboard",
    "pair_results",
    "reference_partner",
    "standing_line",
    "standings",
]


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


def reference_partner(run: RunRecord, candidates: Sequence[RunRecord]) -> RunRecord | None:
    """The first of ``candidates`` that makes a duplicate pair with ``run`` the way the
    reference's users made one: two single runs of the same seed, the players in reverse
    order (``RUNMATCHES g 1 t1 7 LOCAL dpp`` then ``RUNMATCHES g 1 t1 7 dpp LOCAL``); its
    players' names distinct, so that a name says whose hands are whose.

    >>> def run(id, seats, seed=7):
    ...     return RunRecord(id, 1, 0, id, None, seed, f"r{id}", "", seats, None, 50, None, 0.0,
    ...                      None, False)
    >>> reference_partner(run(3, ("ann", "dpp")), [run(1, ("ann", "dpp")), run(2, ("dpp", "ann"))])
    ... # doctest: +ELLIPSIS
    RunRecord(id=2, ...)
    >>> reference_partner(run(3, ("ann", "dpp")), [run(2, ("dpp", "ann"), seed=8)])
    """
    if len(set(run.seats)) != len(run.seats):
        return None
    wanted = tuple(reversed(run.seats))
    return next((c for c in candidates if c.seats == wanted and c.seed == run.seed), None)


@dataclass(frozen=True)
class BoardRow:
    """A user's best bot against one house bot: its tag and its duplicate result."""

    user: str
    tag: str
    sums: SampleSums
    """The user's chips per pair of hands, over every pair of runs with that tag."""
    big_blind: int
    pairs: int
    """Pairs of runs."""
    unpaired: int

    @property
    def hands(self) -> int:
        """Hands played by the user's bot in those runs (both halves)."""
        return 2 * self.sums.count + self.unpaired

    def lower(self) -> float:
        """The low end of the 95% CI, in mbb/g (−∞ with fewer than two pairs of hands)."""
        e = self.sums.estimate(self.big_blind)
        return e.mbb_per_game - e.ci95_mbb


@dataclass(frozen=True)
class Board:
    """The leaderboard against one house bot of one game: best first."""

    game: str
    bot: str
    rows: tuple[BoardRow, ...]


def leaderboard(
    totals: Sequence[BoardTotals],
    offered: Sequence[tuple[str, Sequence[str]]],
    big_blinds: dict[str, int],
) -> list[Board]:
    """A board per house bot of each game ``offered`` (game file, its bots): each user once,
    with the tag whose duplicate result is best. Best is the highest low end of the 95% CI
    (a tag with a few lucky hands does not top one with many steady ones), then the higher
    mbb/g; the board is ordered the same way.

    >>> ann = [BoardTotals("ann", "g", "lucky", "dpp", 1, 2, 30.0, 1700.0, 0),
    ...        BoardTotals("ann", "g", "steady", "dpp", 3, 900, 900.0, 9000.0, 0)]
    >>> (board,) = leaderboard(ann, [("g", ["dpp"])], {"g": 10})
    >>> [(row.user, row.tag, row.hands) for row in board.rows]
    [('ann', 'steady', 1800)]
    """
    boards = []
    for game, bots in offered:
        big_blind = big_blinds.get(game, 10)
        for bot in bots:
            best: dict[str, BoardRow] = {}
            for t in sorted(totals, key=lambda t: t.tag):  # a tie: the first tag by name
                if t.game != game or t.opponent != bot:
                    continue
                sums = SampleSums(t.samples, Fraction(t.total), Fraction(t.squares))
                row = BoardRow(t.user, t.tag, sums, big_blind, t.pairs, t.unpaired)
                if t.user not in best or _rank(row) > _rank(best[t.user]):
                    best[t.user] = row
            rows = sorted(best.values(), key=lambda r: r.user)
            boards.append(Board(game, bot, tuple(sorted(rows, key=_rank, reverse=True))))
    return boards


def _rank(row: BoardRow) -> tuple[float, float]:
    """Better rows are larger."""
    return (row.lower(), row.sums.estimate(row.big_blind).mbb_per_game)
