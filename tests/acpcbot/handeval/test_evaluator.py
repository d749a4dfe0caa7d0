from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections.abc import Callable

import numpy as np
import phevaluator
import pytest
from numba import njit

from acpcbot.cards import parse_cards
from acpcbot.errors import CardError
from acpcbot.handeval import evaluator
from acpcbot.handeval import rank_hand as checked_rank_hand
from acpcbot.handeval.categories import (
    CATEGORY_FIRST_VALUE,
    CATEGORY_SIZES,
    NUM_VALUES,
    Category,
    category_of,
)
from acpcbot.handeval.enumeration import seven_card_histogram
from acpcbot.handeval.evaluator import rank5, rank6, rank7, rank_batch, rank_hand
from acpcbot.handeval.lookup import rank_rows
from acpcbot.handeval.reference import CATEGORY_SHIFT, rank_hand_reference

SEVEN_CARD_CATEGORY_COUNTS = {
    Category.STRAIGHT_FLUSH: 41_584,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.ONE_PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}


def _phevaluator() -> dict[int, Callable[..., int]]:
    """phevaluator's native functions (what its ``evaluate_cards`` calls), same card codes."""
    try:
        from phevaluator import _pheval
    except ImportError:  # internals moved: the public function, slower
        return dict.fromkeys((5, 6, 7), phevaluator.evaluate_cards)
    return {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}


def _random_hands(n: int, k: int, seed: int) -> np.ndarray:
    """``n`` random hands of ``k`` distinct cards (uint8), drawn in chunks to stay small."""
    rng = np.random.default_rng(seed)
    chunks = []
    for start in range(0, n, 100_000):
        keys = rng.random((min(100_000, n - start), 52), np.float32)
        chunks.append(np.argpartition(keys, k, axis=1)[:, :k].astype(np.uint8))
    return np.concatenate(chunks)


def test_every_seven_card_hand_has_the_known_category_counts() -> None:
    histogram = seven_card_histogram()
    assert histogram.sum() == 133_784_560 and histogram[0] == 0
    counts = {
        Category(c): int(histogram[first : first + size].sum())
        for c, (first, size) in enumerate(zip(CATEGORY_FIRST_VALUE, CATEGORY_SIZES, strict=True))
    }
    assert counts == SEVEN_CARD_CATEGORY_COUNTS
    assert np.count_nonzero(histogram) == 4824  # distinct values seven cards can take


@pytest.mark.slow
def test_agrees_with_phevaluator_on_a_million_hands() -> None:
    evaluate = _phevaluator()
    for k, n in ((7, 1_000_000), (6, 100_000), (5, 100_000)):
        hands = _random_hands(n, k, seed=2024 + k)
        for chunk in np.array_split(hands, n // 100_000):
            theirs = np.fromiter(itertools.starmap(evaluate[k], chunk.tolist()), np.int64)
            # phevaluator ranks 1 (royal flush) .. 7462 with lower better: the same order
            # and the same ties mean exactly this.
            assert (rank_batch(chunk) == NUM_VALUES + 1 - theirs).all()


@pytest.mark.parametrize("k", [5, 6, 7])
def test_orders_hands_like_the_reference_evaluator(k: int) -> None:
    hands = _random_hands(20_000, k, seed=100 + k)
    ours = rank_batch(hands)
    reference = np.array([rank_hand_reference(h) for h in hands.tolist()])
    order = np.lexsort((ours, reference))
    ours, reference = ours[order], reference[order]
    assert (np.diff(ours) >= 0).all()  # sorted by reference value, ours never decreases
    assert ((np.diff(ours) == 0) == (np.diff(reference) == 0)).all()  # ties are ties
    categories = [category_of(int(v)) for v in ours]
    assert categories == [Category(r >> 20) for r in reference]


def test_scalar_python_and_batch_paths_agree() -> None:
    hands = _random_hands(2_000, 7, seed=5)
    batch = rank_batch(hands)
    for row, value in zip(hands.tolist(), batch.tolist(), strict=True):
        assert rank7(*row) == rank_hand(row) == value
        assert rank6(*row[:6]) == rank_hand(row[:6]) == rank_batch([row[:6]])[0]
        assert rank5(*row[:5]) == rank_hand(row[:5]) == rank_batch([row[:5]])[0]
    wide = rank_batch(hands.astype(np.int64))
    assert (wide == batch).all()


@njit
def _best_of_boards(hole: np.ndarray, boards: np.ndarray) -> int:
    best = 0
    for b in boards:
        best = max(best, rank7(hole[0], hole[1], b[0], b[1], b[2], b[3], b[4]))
    return best


def test_rank7_is_callable_from_another_kernel() -> None:
    hole = np.array(parse_cards("AsKs"))
    boards = np.array([parse_cards("QsJsTs2c3d"), parse_cards("2h3h4h5h7c")])
    assert _best_of_boards(hole, boards) == NUM_VALUES


def test_known_values_and_categories() -> None:
    assert rank_hand(parse_cards("AsKsQsJsTs")) == NUM_VALUES
    assert rank_hand(parse_cards("7c5d4h3s2c")) == 1
    assert category_of(rank_hand(parse_cards("5c4c3c2cAc"))) is Category.STRAIGHT_FLUSH
    assert rank_hand(parse_cards("6c5d4h3s2s")) > rank_hand(parse_cards("5c4d3h2sAs"))
    assert rank_hand(parse_cards("2c2d2h3c3d4h4d")) == rank_hand(parse_cards("2s2d2h4s4c"))
    assert [category_of(v) for v in CATEGORY_FIRST_VALUE] == list(Category)


@pytest.mark.parametrize("rank", [rank_batch, rank_rows])
def test_bad_input_is_refused(rank: Callable[..., np.ndarray]) -> None:
    with pytest.raises(ValueError, match=r"0\.\.51"):
        rank(np.array([[0, 1, 2, 3, 60]], dtype=np.uint8))
    with pytest.raises(ValueError, match=r"0\.\.51"):
        rank([[0, 1, 2, 3, -1]])
    with pytest.raises(ValueError, match=r"\(N, 5..7\)"):
        rank([[0, 1, 2, 3]])
    assert rank(np.zeros((0, 7), dtype=np.uint8)).tolist() == []


def test_an_invalid_code_in_a_kernel_gives_0() -> None:
    assert rank7(0, 1, 2, 3, 4, 5, 200) == 0


def test_tables_are_small() -> None:
    assert evaluator.TABLE_BYTES < 1_000_000


@pytest.mark.e2e
def test_importing_acpcbot_its_cli_and_the_dealer_and_dealing_do_not_import_numba() -> None:
    """Nor reading a log's showdown (acpcbot results of a small log)."""
    code = (
        "import sys, acpcbot, acpcbot.handeval, agents.common.tables\n"
        "from acpcbot.cli import build_parser\n"
        "build_parser()\n"
        "agents.common.tables.range_ev(0.1, 0.2)\n"
        "import dealer.referee.cli, dealer.running.halves  # acpc-dealer, match's dealer\n"
        "from acpcbot.game import bundled_game\n"
        "from dealer.referee.dealing import DealStream\n"
        "DealStream(bundled_game(), 1).next_hand()  # a chunk of deals, ranked\n"
        "from acpcbot.protocol.logfile import HandRules, state_fields\n"
        "line = b'STATE:0:cc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:10|-10:A|B'  # a showdown\n"
        "HandRules(bundled_game()).check(state_fields(line))\n"
        "print('numba' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- the checked entry point and the reference evaluator ---------------------------


def test_categories_of_known_hands() -> None:
    cases = {
        "AsKsQsJsTs2c": Category.STRAIGHT_FLUSH,
        "5c4c3c2cAc": Category.STRAIGHT_FLUSH,
        "9c9d9h9s2c": Category.FOUR_OF_A_KIND,
        "2c2d2h3c3d4h4d": Category.FULL_HOUSE,
        "2c2d2h3c3d3h": Category.FULL_HOUSE,
        "AcKcQc2c3c9h": Category.FLUSH,
        "5c4d3h2sAs": Category.STRAIGHT,
        "7c7d7h2s9sKd": Category.THREE_OF_A_KIND,
        "KcKdQhQsJcJd2c": Category.TWO_PAIR,
        "AcAd2h5s9sKd": Category.ONE_PAIR,
        "2c3d4h5s7c8d9s": Category.HIGH_CARD,
    }
    for text, category in cases.items():
        assert category_of(checked_rank_hand(parse_cards(text))) is category, text


def test_order_within_and_across_categories() -> None:
    def r(text: str) -> int:
        return checked_rank_hand(parse_cards(text))

    assert r("6c5d4h3s2s") > r("5c4d3h2sAs")  # the wheel is the lowest straight
    assert r("AcAdKhQsJs") > r("AcAdKhQs9s")  # kicker decides
    assert r("KcKdQhQsJc") == r("KhKsQcQdJd")  # suits never matter
    assert r("2c2d2h3c3d") > r("AcKcQcJc9c")  # full house beats flush
    assert r("KcKdQhQs2c3c4d") > r("KcKdQhQs2c")


def test_rank_of_seven_is_best_of_its_fives() -> None:
    rng = random.Random(7)
    for _ in range(300):
        cards = rng.sample(range(52), 7)
        best = max(checked_rank_hand(list(five)) for five in itertools.combinations(cards, 5))
        assert checked_rank_hand(cards) == best


def test_the_reference_evaluator_orders_like_the_engine() -> None:
    rng = random.Random(11)
    hands = [rng.sample(range(52), rng.choice((5, 6, 7))) for _ in range(3000)]
    pairs = sorted((rank_hand_reference(h), checked_rank_hand(h)) for h in hands)
    for (ref_a, a), (ref_b, b) in itertools.pairwise(pairs):
        assert (ref_a < ref_b) == (a < b) and (ref_a == ref_b) == (a == b)
        assert Category(ref_a >> CATEGORY_SHIFT) is category_of(a)


def test_bad_hands_are_refused() -> None:
    for cards in ([], [1, 1, 2, 3, 4], [1, 2, 3, 4, 52], [-1, 2, 3, 4, 5]):
        with pytest.raises(CardError):
            checked_rank_hand(cards)
    with pytest.raises(ValueError):
        category_of(0)


def test_hands_of_other_sizes_use_the_reference() -> None:
    def r(text: str) -> int:
        return checked_rank_hand(parse_cards(text))

    assert r("Kc") > r("Qd") and r("Ks") == r("Kd")  # Kuhn-style single cards
    assert r("2c2d") > r("AhKh") > r("AhQh")  # Leduc-style hole card and board card
    assert r("AsKsQsJsTs9s8s7s") == rank_hand_reference(parse_cards("AsKsQsJsTs9s8s7s"))
