from __future__ import annotations

import pytest

from acpcbot.cards import (
    NUM_CARDS,
    card_from_text,
    card_text,
    cards_text,
    make_card,
    parse_cards,
    rank_of,
    suit_of,
)
from acpcbot.errors import CardError


def test_codes_follow_the_acpc_encoding() -> None:
    assert card_from_text("2c") == 0
    assert card_from_text("2d") == 1
    assert card_from_text("3c") == 4
    assert card_from_text("As") == 51
    assert make_card(rank=8, suit=1) == card_from_text("Td")


def test_every_card_round_trips() -> None:
    for code in range(NUM_CARDS):
        assert card_from_text(card_text(code)) == code
        assert make_card(rank_of(code), suit_of(code)) == code


def test_parsing_is_case_insensitive_like_the_reference() -> None:
    assert card_from_text("aS") == card_from_text("As") == card_from_text("AS")
    assert parse_cards("tdJH") == parse_cards("TdJh")
    assert cards_text(parse_cards("tdjh")) == "TdJh"


@pytest.mark.parametrize("bad", ["", "A", "1c", "Ax", "10c", "AsK"])
def test_bad_cards_are_rejected(bad: str) -> None:
    with pytest.raises(CardError):
        card_from_text(bad)


@pytest.mark.parametrize("bad", ["A", "1c", "AsK", "AsKx"])
def test_bad_card_strings_are_rejected(bad: str) -> None:
    with pytest.raises(CardError):
        parse_cards(bad)


def test_out_of_range_code() -> None:
    with pytest.raises(CardError):
        card_text(52)


def test_messages_name_cards_as_cards() -> None:
    from acpcbot.handeval import rank_hand
    from acpcbot.handeval.combos import combo_index
    from acpcbot.handeval.equity import equity

    with pytest.raises(CardError, match=r"not As As Kd Qh Jc$"):
        rank_hand(parse_cards("AsAsKdQhJc"))
    with pytest.raises(CardError, match=r"no card: 2s 60 \(not a card code"):
        rank_hand([3, 60, 7, 8, 9])
    with pytest.raises(ValueError, match=r"not Ah Ah$"):
        combo_index(50, 50)
    with pytest.raises(CardError, match=r"^Ah is dealt twice"):
        equity([parse_cards("AhKh"), parse_cards("AhQd")])
