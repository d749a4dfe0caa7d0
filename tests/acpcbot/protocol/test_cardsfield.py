"""The dealer's sliced cards fields against the core codec, for several games."""

from __future__ import annotations

import pytest

from acpcbot.game import Game, bundled_game
from acpcbot.protocol.matchstate import format_cards_field
from dealer.referee.dealing import DealStream
from tests.dealer.conftest import LEDUC_LIKE, THREE_PLAYERS


@pytest.mark.parametrize("game", [bundled_game(), LEDUC_LIKE, THREE_PLAYERS])
def test_every_slice_equals_the_core_codec(game: Game) -> None:
    deals = DealStream(game, 5)
    layout = deals.layout
    for _ in range(300):
        dealt = deals.next_hand()
        deal = dealt.deal
        for round_ in range(game.num_rounds):
            board = deal.board_by_round(game, round_)
            shown = format_cards_field(deal.hole_cards, board)
            assert dealt.full_field[: layout.round_ends[round_]] == shown
            for position in range(game.num_players):
                own = tuple(h if p == position else () for p, h in enumerate(deal.hole_cards))
                assert layout.own_field(dealt.full_field, position) + layout.board_field(
                    dealt.full_field, round_
                ) == format_cards_field(own, board)
