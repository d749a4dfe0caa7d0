from __future__ import annotations

from pathlib import Path

import pytest

from acpcbot.cards import cards_text
from acpcbot.game import Game, bundled_game, parse_game
from acpcbot.handeval import rank_hand
from dealer.referee.dealing import CHUNK_HANDS, DealStream, batch_ranked, reference_deck
from dealer.referee.rng import mt19937
from tests.dealer.conftest import LEDUC_LIKE


@pytest.mark.parametrize("seed", [0, 1, 42, 2026, 5489, 4294967295])
def test_first_1000_outputs_equal_the_reference(vectors: Path, seed: int) -> None:
    path = vectors / "deals" / f"mt19937.init_genrand.seed{seed}.first1000.txt"
    expected = [int(line) for line in path.read_text().splitlines() if not line.startswith("#")]
    assert len(expected) == 1000
    generator = mt19937(seed)
    assert generator.random_raw(400).tolist() + generator.random_raw(600).tolist() == expected


@pytest.mark.parametrize("seed", [0, 1, 42, 2026, 4294967295])
def test_deals_equal_the_reference(vectors: Path, limit_game: Game, seed: int) -> None:
    path = vectors / "deals" / f"limit2p.seed{seed}.deals.txt"
    rows = [line.split() for line in path.read_text().splitlines() if not line.startswith("#")]
    assert len(rows) >= 100
    deals = DealStream(limit_game, seed)
    for hand, p0, p1, board in rows:
        deal = deals.next_deal()
        assert deals.dealt - 1 == int(hand)
        assert [cards_text(h) for h in deal.hole_cards] == [p0, p1]
        assert cards_text(deal.board) == board


def test_seed_wraps_at_32_bits(limit_game: Game) -> None:
    assert DealStream(limit_game, 2**32).next_deal() == DealStream(limit_game, 0).next_deal()


def test_skip_keeps_the_sequence_across_chunks(limit_game: Game) -> None:
    straight = DealStream(limit_game, 7)
    skipped = DealStream(limit_game, 7)
    expected = [straight.next_deal() for _ in range(CHUNK_HANDS + 5)][-1]
    skipped.skip(CHUNK_HANDS + 4)
    assert skipped.next_deal() == expected


def test_small_decks_keep_the_highest_suits_and_ranks() -> None:
    leduc_like = parse_game(
        "GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 2\nblind = 1 1\nraiseSize = 2 4\n"
        "numSuits = 2\nnumRanks = 3\nnumHoleCards = 1\nnumBoardCards = 0 1\nEND GAMEDEF\n"
    )
    assert cards_text(reference_deck(leduc_like)) == "QhKhAhQsKsAs"
    deal = DealStream(leduc_like, 1).next_deal()
    assert len({*deal.hole_cards[0], *deal.hole_cards[1], *deal.board}) == 3


def test_full_deck_order() -> None:
    deck = reference_deck(bundled_game())
    assert cards_text(deck[:3]) == "2c3c4c" and cards_text(deck[-2:]) == "KsAs"


def test_showdown_ranks_are_those_of_the_whole_board(limit_game: Game) -> None:
    deals = DealStream(limit_game, 3)
    for _ in range(CHUNK_HANDS + 10):  # across a chunk boundary
        dealt = deals.next_hand()
        holes, board = dealt.deal.hole_cards, dealt.deal.board
        assert dealt.showdown_ranks == tuple(rank_hand(hole + board) for hole in holes)


def test_games_with_other_hand_sizes_are_ranked_at_the_showdown() -> None:
    assert not batch_ranked(LEDUC_LIKE) and batch_ranked(bundled_game())
    assert DealStream(LEDUC_LIKE, 1).next_hand().showdown_ranks is None
