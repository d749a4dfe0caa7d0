"""Showdowns against every holding at once agree with the one-hand equity functions."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pytest

from acpcbot.cards import parse_cards
from acpcbot.handeval.combos import COMBO_CARDS, canonical_board, combo_index
from acpcbot.handeval.equity import hand_vs_hand, hand_vs_range
from acpcbot.handeval.evaluator import rank_batch
from acpcbot.handeval.holdings import (
    _against_random,
    hand_against_holdings,
    holding_squared_strength,
    holdings_against_random,
    holdings_squared_strength,
)


@pytest.mark.parametrize("size", [3, 4, 5])
def test_against_every_holding_is_exact(size: int) -> None:
    rng = random.Random(size)
    cards = rng.sample(range(52), 2 + size)
    hole, board = cards[:2], cards[2:]
    wins, ties, played = hand_against_holdings(hole, board)
    strength_wins, strength_ties, strength_played = holdings_against_random(board)
    for k in rng.sample(range(1326), 25):
        other = [int(c) for c in COMBO_CARDS[k]]
        if set(other) & set(board):
            assert played[k] == strength_played[k] == 0
            continue
        alone = hand_vs_range(other, None, board, max_exact=10**8).equity[0]
        mine = (strength_wins[k] + strength_ties[k] / 2) / strength_played[k]
        assert mine == pytest.approx(alone, abs=1e-12)
        if set(other) & set(hole):
            assert played[k] == 0
            continue
        equity = hand_vs_hand(hole, other, board).equity[0]
        assert (wins[k] + ties[k] / 2) / played[k] == pytest.approx(equity, abs=1e-12)


def test_a_flop_class_is_kept_and_renamed() -> None:
    """A flop's counts come from its class's, kept once (2c5d8h and 2d5c8s are one class),
    renamed: the same as counting on the flop itself."""
    holdings_against_random([0, 13, 26])
    assert canonical_board([1, 12, 27])[0] == canonical_board([0, 13, 26])[0]
    kept = holdings_against_random([1, 12, 27])
    counted = _against_random(np.array([1, 12, 27], dtype=np.int64))
    assert all(np.array_equal(a, b) for a, b in zip(kept, counted, strict=True))


def _loop_counts(
    hole: Sequence[int], board: Sequence[int], stride: int
) -> tuple[npt.NDArray[np.float64], ...]:
    """What a loop over every ``stride``-th runout and every live holding counts, each hand
    valued on its own (:func:`rank_batch`)."""
    deck = [c for c in range(52) if c not in board and c not in hole]
    runouts = list(itertools.combinations(deck, 5 - len(board)))[::stride]
    wins, ties, played = (np.zeros(len(COMBO_CARDS)) for _ in range(3))
    mine = rank_batch([[*hole, *board, *runout] for runout in runouts])
    for k, (c, d) in enumerate(COMBO_CARDS.tolist()):
        if {c, d} & {*board, *hole}:
            continue
        kept = [r for r, runout in enumerate(runouts) if c not in runout and d not in runout]
        theirs = rank_batch([[c, d, *board, *runouts[r]] for r in kept])
        wins[k] = int((mine[kept] > theirs).sum())
        ties[k] = int((mine[kept] == theirs).sum())
        played[k] = len(kept)
    return wins, ties, played


@pytest.mark.parametrize(
    ("hole", "board", "stride"),
    [
        ("KsQd", "Ah7d2c", 4),  # rainbow: no holding makes a flush without both runout cards
        ("KsQd", "Ah7h2c", 4),  # two-tone: the suited holdings' flushes
        ("Ts9c", "8s7s2s", 3),  # monotone: one card of the suit makes one, or none on the board
        ("AhKc", "2h3h4h5d", 1),  # the turn
        ("AhKc", "2h3h4h5h9c", 1),  # a flush on the board
    ],
)
def test_against_every_holding_counts_what_a_loop_counts(
    hole: str, board: str, stride: int
) -> None:
    """The counts per rank pair, with the flushes valued one by one, are a loop's exactly."""
    mine, cards = parse_cards(hole), parse_cards(board)
    counted = hand_against_holdings(mine, cards, stride)
    looped = _loop_counts(mine, cards, stride)
    assert all(np.array_equal(a, b) for a, b in zip(counted, looped, strict=True))


@pytest.mark.parametrize(
    "board",
    [
        "Ah7d2c5s9h",  # no flush
        "Ah7h2c5s9h",  # three hearts: the suited holdings' flushes, counted one by one
        "AhAd7c7s2h",  # paired twice: holdings of a pair share cards with many others
        "Ah7h2h5h9c",  # four hearts: the sweep over every holding
        "Ah7h2h5h9h",  # a flush on the board
    ],
)
def test_against_random_counts_what_every_pair_of_holdings_gives(board: str) -> None:
    """On a river board each holding's wins and ties, counted by rank pair, are those of
    comparing it with every holding that shares no card with it."""
    cards = parse_cards(board)
    live = [k for k, pair in enumerate(COMBO_CARDS.tolist()) if not set(pair) & set(cards)]
    value = rank_batch([[*COMBO_CARDS[k], *cards] for k in live]).astype(np.int64)
    held = np.zeros((len(live), 52), dtype=bool)
    held[np.arange(len(live))[:, None], COMBO_CARDS[live]] = True
    disjoint = ~(held.astype(np.int64) @ held.T.astype(np.int64)).astype(bool)
    wins, ties, played = holdings_against_random(cards)
    beats = (value[:, None] > value[None, :]) & disjoint
    equals = (value[:, None] == value[None, :]) & disjoint
    assert np.array_equal(wins[live], beats.sum(axis=1))
    assert np.array_equal(ties[live], equals.sum(axis=1))
    assert np.array_equal(played[live], np.full(len(live), 990))


@pytest.mark.parametrize("board", ["2c7d9s4h", "AhKhQh2h", "5s5d5c9h", "Tc9c2h3dKs"])
def test_one_holdings_squared_strength_is_the_sweeps_to_the_bit(board: str) -> None:
    """Every fifth holding's (some 200 live ones a board), on boards with a flush draw,
    four of a suit, trips and on a river: the value the sweep over every holding gives it,
    exactly (a bucket cut from either must be the same)."""
    cards = parse_cards(board)
    every = holdings_squared_strength(cards)
    for c, d in COMBO_CARDS.tolist()[::5]:
        if c not in cards and d not in cards:
            index = combo_index(c, d)
            assert holding_squared_strength((c, d), cards) == every[index]
