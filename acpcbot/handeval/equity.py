"""Showdown equity, hand strength and hand potential.

* :func:`equity` — every player's share of the pot at showdown, for known hands and
  ``None`` ("random": uniform over the unseen cards), exact by enumeration when cheap and by
  seeded Monte Carlo otherwise; :func:`hand_vs_hand` and :func:`hand_vs_range` (an opponent
  weight table over the 1326 combos) are the two common cases.
* :func:`strength` — Billings et al.'s hand strength HS (the weighted share of opponent
  hands we beat now, ties half), positive and negative potential PPot/NPot (over all
  runouts to the river) and effective hand strength EHS.
* :func:`hs_moments` — E[HS] and E[HS²] of the river hand strength over the runouts, the
  usual features for strength buckets (E[HS] against a uniform range is the equity against a
  random hand).

Weights are indexed by :func:`acpcbot.handeval.combos.combo_index`; combos that meet a known
card are ignored, and only relative sizes matter.

>>> from acpcbot.cards import parse_cards as c
>>> round(hand_vs_hand(c("AsAc"), c("KdKh")).equity[0], 4)
0.8126
>>> s = strength(c("AhKh"), c("Qh7h2c"))
>>> 0.5 < s.hs < 0.7 and s.ppot > 0.3 and s.ehs > s.hs
True
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from acpcbot.cards import NUM_CARDS, Card, cards_text, parse_cards, repeated_cards, shown_cards
from acpcbot.errors import CardError
from acpcbot.handeval import rank_hand
from acpcbot.handeval.combos import COMBO_CARDS, COMBOS_WITH_CARD, NUM_COMBOS
from acpcbot.handeval.enumeration import board_counts, range_counts
from acpcbot.handeval.montecarlo import sample_counts, sample_more, sample_stream
from acpcbot.handeval.strength import AHEAD, BEHIND, TIED, runout_statistics

DEFAULT_TRIALS = 100_000
MAX_EXACT = 5_000_000
"""Largest number of showdowns :func:`equity` enumerates before it samples instead."""
CHUNK_TRIALS = 1 << 20
"""Showdowns :func:`equity` samples in one call of the kernel (a few tenths of a second),
between which Ctrl-C stops it and it says how far it is."""


@dataclass(frozen=True)
class Equity:
    """Each player's expected share of the pot (summing to 1), whether it was enumerated
    exactly, and how many showdowns (enumerated or sampled) it rests on."""

    equity: tuple[float, ...]
    exact: bool
    trials: int


@dataclass(frozen=True)
class Strength:
    """Hand strength now and the potential to improve (PPot) or fall behind (NPot)."""

    hs: float
    ppot: float
    npot: float

    @property
    def ehs(self) -> float:
        """Effective hand strength ``HS·(1 − NPot) + (1 − HS)·PPot``."""
        return self.hs * (1.0 - self.npot) + (1.0 - self.hs) * self.ppot


@dataclass(frozen=True)
class HSMoments:
    """E[HS] and E[HS²] of the river hand strength over ``runouts`` boards."""

    mean: float
    mean_square: float
    runouts: int
    exact: bool


def _cards(cards: Sequence[Card], what: str, sizes: Sequence[int]) -> npt.NDArray[np.int64]:
    array = np.array(list(cards), dtype=np.int64).reshape(-1)
    if len(array) not in sizes:
        allowed = (
            ", ".join(map(str, sizes[:-1])) + f" or {sizes[-1]}" if len(sizes) > 1 else sizes[0]
        )
        raise ValueError(f"{what} needs {allowed} cards, not {len(array)}")
    if len(array) and (array.min() < 0 or array.max() >= NUM_CARDS):
        raise CardError(f"{what} holds a code that is no card: {shown_cards(array.tolist())}")
    return array


def _check_distinct(*groups: npt.NDArray[np.int64]) -> int:
    cards = np.concatenate(groups) if groups else np.zeros(0, np.int64)
    repeated = repeated_cards(cards.tolist())
    if repeated:
        verb = "is" if len(repeated) == 1 else "are"
        raise CardError(f"{shown_cards(repeated)} {verb} dealt twice (each card is dealt once)")
    return len(cards)


def _weights(
    weights: npt.ArrayLike | None, known: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    if weights is None:
        table = np.ones(NUM_COMBOS)
    else:
        table = np.array(weights, dtype=np.float64)
        if table.shape != (NUM_COMBOS,) or not np.isfinite(table).all() or (table < 0).any():
            raise ValueError("weights need 1326 finite non-negative numbers, one per combo")
    # (each known card's combos by a table: np.isin over every combo cost the field's agents
    # a large share of each decision)
    table[COMBOS_WITH_CARD[known].ravel()] = 0.0
    if not table.any():
        raise ValueError("the opponent's range holds no combo that can still be dealt")
    return table


def equity(
    hands: Sequence[Sequence[Card] | None],
    board: Sequence[Card] = (),
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    max_exact: int = MAX_EXACT,
    on_progress: Callable[[int], None] | None = None,
) -> Equity:
    """Showdown equity of 2 or more hands (``None`` for a random hand) on ``board`` (0-5
    cards). Enumerates every board (and every combo of one random hand) when that is at most
    ``max_exact`` showdowns, otherwise samples ``trials`` with ``seed``, :data:`CHUNK_TRIALS`
    at a time (the same showdowns as all at once): between two chunks Ctrl-C stops it
    (``KeyboardInterrupt``) and ``on_progress`` is told the trials sampled so far.

    >>> from acpcbot.cards import parse_cards as c
    >>> result = equity([c("AhAd"), None], trials=20_000, seed=1)
    >>> result.exact, result.trials, abs(result.equity[0] - 0.852) < 0.01
    (False, 20000, True)
    """
    if len(hands) < 2:
        raise ValueError("equity needs at least two hands")
    known_holes = [_cards(h, "a hand", [2]) for h in hands if h is not None]
    board_cards = _cards(board, "the board", range(6))
    used = _check_distinct(board_cards, *known_holes)
    randoms = sum(h is None for h in hands)
    if used + 2 * randoms + 5 - len(board_cards) > NUM_CARDS:
        raise ValueError("not enough cards left to deal every hand and the board")
    holes = np.array([[-1, -1] if h is None else list(h) for h in hands], dtype=np.int64)
    players = len(hands)
    counts = np.zeros((players, players + 1))
    unseen = NUM_CARDS - used
    boards = math.comb(unseen - 2 * randoms, 5 - len(board_cards))
    deals = boards * (math.comb(unseen, 2) if randoms == 1 else 1)
    if randoms <= 1 and deals <= max_exact:
        if randoms:
            seat = next(p for p, h in enumerate(hands) if h is None)
            uniform = _weights(None, np.concatenate([board_cards, *known_holes]))
            total = range_counts(holes, seat, board_cards, uniform, COMBO_CARDS, counts)
        else:
            total = board_counts(holes, board_cards, counts, 1.0)
        return Equity(_shares(counts, total), True, deals)
    if trials < 1:
        raise ValueError("trials must be positive")
    stream, deck = sample_stream(holes, board_cards, seed)
    uniform = np.zeros((0, NUM_COMBOS))
    for done in range(0, trials, CHUNK_TRIALS):
        chunk = min(CHUNK_TRIALS, trials - done)
        sample_more(holes, board_cards, uniform, COMBO_CARDS, chunk, stream, deck, counts)
        if on_progress is not None:
            on_progress(done + chunk)
    return Equity(_shares(counts, trials), False, trials)


def given_hands(texts: Sequence[str]) -> list[tuple[Card, ...] | None]:
    """Hands as a person gives them: two cards each, or ``random`` (``None``); a
    :class:`CardError` for anything else.

    >>> given_hands(["AhKh", "random"])
    [(50, 46), None]
    """
    hands = [None if text.lower() == "random" else parse_cards(text) for text in texts]
    if len(hands) < 2:
        raise CardError("give at least two hands")
    for text, hand in zip(texts, hands, strict=True):
        if hand is not None and len(hand) != 2:
            raise CardError(f"a hand is two cards or 'random', not {text!r}")
    return hands


def equity_report(
    hands: Sequence[Sequence[Card] | None], board: Sequence[Card], result: Equity, seed: int
) -> tuple[dict[str, Any], list[str]]:
    """What ``acpcbot equity`` prints of ``result`` (sampled with ``seed``): its JSON, and
    its lines (each hand's share, then how it was computed)."""
    names = ["random" if h is None else cards_text(h) for h in hands]
    data = {"hands": names, "board": cards_text(board), **dataclasses.asdict(result)}
    width = max(len(n) for n in names)
    lines = [
        f"{n:<{width}}  {100 * share:6.2f}%" for n, share in zip(names, result.equity, strict=True)
    ]
    how = (
        f"exact over {result.trials:,} showdowns"
        if result.exact
        else f"Monte Carlo, {result.trials:,} deals, seed {seed}"
    )
    return data, [*lines, f"board {cards_text(board) or '(none)'}: {how}"]


def _shares(counts: npt.NDArray[np.float64], total: float) -> tuple[float, ...]:
    ways = np.arange(counts.shape[1], dtype=np.float64)
    ways[0] = 1.0
    return tuple(float(x) for x in (counts / ways).sum(axis=1) / total)


def hand_vs_hand(hand: Sequence[Card], other: Sequence[Card], board: Sequence[Card] = ()) -> Equity:
    """Exact equity of two known hands, over every board that completes ``board``."""
    return equity([hand, other], board, max_exact=math.comb(48, 5))


def hand_vs_range(
    hand: Sequence[Card],
    weights: npt.ArrayLike | None,
    board: Sequence[Card] = (),
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    max_exact: int = MAX_EXACT,
) -> Equity:
    """Equity of ``hand`` against an opponent holding combo ``i`` with weight ``weights[i]``
    (``None``: uniform). Exact when at most ``max_exact`` showdowns, else sampled."""
    mine = _cards(hand, "the hand", [2])
    board_cards = _cards(board, "the board", range(6))
    _check_distinct(mine, board_cards)
    table = _weights(weights, np.concatenate([mine, board_cards]))
    holes = np.array([mine, [-1, -1]], dtype=np.int64)
    counts = np.zeros((2, 3))
    boards = math.comb(NUM_CARDS - 4 - len(board_cards), 5 - len(board_cards))
    live = int(np.count_nonzero(table))
    if live * boards <= max_exact:
        total = range_counts(holes, 1, board_cards, table, COMBO_CARDS, counts)
        return Equity(_shares(counts, total), True, live * boards)
    if trials < 1:
        raise ValueError("trials must be positive")
    sample_counts(holes, board_cards, table.reshape(1, -1), COMBO_CARDS, trials, seed, counts)
    return Equity(_shares(counts, trials), False, trials)


def _prepare(
    hand: Sequence[Card], board: Sequence[Card], weights: npt.ArrayLike | None, sizes: Sequence[int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    mine = _cards(hand, "the hand", [2])
    board_cards = _cards(board, "the board", sizes)
    _check_distinct(mine, board_cards)
    return mine, board_cards, _weights(weights, np.concatenate([mine, board_cards]))


def hand_strength(
    hand: Sequence[Card], board: Sequence[Card], weights: npt.ArrayLike | None = None
) -> float:
    """HS: the weighted share of the opponent's live combos that ``hand`` beats on ``board``
    (3-5 cards) right now, ties counting half."""
    mine, board_cards, table = _prepare(hand, board, weights, [3, 4, 5])
    now, _, _ = runout_statistics(mine, board_cards, table, COMBO_CARDS, 0, 0)
    return float((now[AHEAD] + 0.5 * now[TIED]) / now.sum())


def strength(
    hand: Sequence[Card], board: Sequence[Card], weights: npt.ArrayLike | None = None
) -> Strength:
    """HS, PPot and NPot of ``hand`` on a flop or turn (or river, where both potentials are 0).

    PPot is the weighted chance of ending ahead (ties half) over every runout to the river
    when behind (ties half) now, NPot the chance of falling behind when ahead; the totals
    are summed over runouts, so both are probabilities.
    """
    mine, board_cards, table = _prepare(hand, board, weights, [3, 4, 5])
    now, hp, _ = runout_statistics(mine, board_cards, table, COMBO_CARDS, 0, 0)
    hs = float((now[AHEAD] + 0.5 * now[TIED]) / now.sum())
    total = hp.sum(axis=1)
    behind = total[BEHIND] + 0.5 * total[TIED]
    ahead = total[AHEAD] + 0.5 * total[TIED]
    ppot = (hp[BEHIND, AHEAD] + 0.5 * hp[BEHIND, TIED] + 0.5 * hp[TIED, AHEAD]) / behind
    npot = (hp[AHEAD, BEHIND] + 0.5 * hp[TIED, BEHIND] + 0.5 * hp[AHEAD, TIED]) / ahead
    return Strength(hs, float(ppot) if behind > 0 else 0.0, float(npot) if ahead > 0 else 0.0)


def hs_moments(
    hand: Sequence[Card],
    board: Sequence[Card] = (),
    weights: npt.ArrayLike | None = None,
    *,
    samples: int = 2_000,
    seed: int = 0,
) -> HSMoments:
    """E[HS] and E[HS²] of the river hand strength over the runouts of ``board`` (0, 3, 4 or
    5 cards): every runout from the flop on, ``samples`` boards drawn with ``seed`` before."""
    mine, board_cards, table = _prepare(hand, board, weights, [0, 3, 4, 5])
    if samples < 1:
        raise ValueError("samples must be positive")
    _, _, moments = runout_statistics(mine, board_cards, table, COMBO_CARDS, samples, seed)
    runouts = int(moments[0])
    mean, mean_square = float(moments[1] / runouts), float(moments[2] / runouts)
    return HSMoments(mean, mean_square, runouts, len(board_cards) >= 3)


def enumerated_equity(
    deck: Sequence[Card],
    board_size: int,
    mine: Sequence[Card],
    theirs: Sequence[Card],
    board: Sequence[Card] = (),
) -> float:
    """Exact showdown equity of ``mine`` against ``theirs`` in a game with a small ``deck``
    (Leduc's six cards, say): every completion of ``board`` to ``board_size`` cards from the
    cards left, each ranked by :func:`acpcbot.handeval.rank_hand` (ties half).

    >>> from acpcbot.cards import parse_cards as c
    >>> enumerated_equity(c("QhKhAhQsKsAs"), 1, c("Qh"), c("Ks"))
    0.25
    """

    used = {*mine, *theirs, *board}
    rest = [card for card in deck if card not in used]
    share = 0.0
    count = 0
    for extra in itertools.combinations(rest, board_size - len(board)):
        full = (*board, *extra)
        a, b = rank_hand((*mine, *full)), rank_hand((*theirs, *full))
        share += 1.0 if a > b else 0.5 if a == b else 0.0
        count += 1
    return share / count
