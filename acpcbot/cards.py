"""Cards as ACPC card codes.

A card is an ``int`` in ``0..51`` with the ACPC encoding ``rank * 4 + suit``, where rank 0 is
a deuce and rank 12 an ace, and suits are ordered ``c d h s``. Text is two characters, rank
then suit; parsing is case-insensitive like the reference (``game.c`` ``readCard``), printing
is canonical (``"As"``, ``"Td"``).

>>> card_from_text("As")
51
>>> card_text(0)
'2c'
>>> cards_text(parse_cards("7d3d"))
'7d3d'
"""

from __future__ import annotations

from collections.abc import Iterable

from acpcbot.errors import CardError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
NUM_RANKS = 13
NUM_SUITS = 4
NUM_CARDS = 52

Card = int
"""An ACPC card code, ``rank * 4 + suit``."""

_TEXT = tuple(r + s for r in RANK_CHARS for s in SUIT_CHARS)
_TEXT_OF = dict(enumerate(_TEXT))
_CODES = {text: code for code, text in enumerate(_TEXT)}
_CODES.update({text.lower(): code for code, text in enumerate(_TEXT)})
_CODES.update({text.upper(): code for code, text in enumerate(_TEXT)})
_CODES.update({text[0].lower() + text[1].upper(): code for code, text in enumerate(_TEXT)})


def make_card(rank: int, suit: int) -> Card:
    """The card code of ``rank`` (0 = deuce .. 12 = ace) and ``suit`` (0 = c .. 3 = s).

    >>> make_card(12, 3)
    51
    """
    if not (0 <= rank < NUM_RANKS and 0 <= suit < NUM_SUITS):
        raise CardError(f"no card with rank {rank} and suit {suit}")
    return rank * NUM_SUITS + suit


def rank_of(card: Card) -> int:
    """Rank of a card, 0 (deuce) to 12 (ace)."""
    return card // NUM_SUITS


def suit_of(card: Card) -> int:
    """Suit of a card, 0 (clubs) to 3 (spades)."""
    return card % NUM_SUITS


def card_from_text(text: str) -> Card:
    """Parse one two-character card such as ``"As"`` (case-insensitive)."""
    try:
        return _CODES[text]
    except KeyError:
        raise CardError(f"not a card: {text!r}") from None


def card_text(card: Card) -> str:
    """Canonical text of a card code."""
    if not 0 <= card < NUM_CARDS:
        raise CardError(f"card code out of range: {card}")
    return _TEXT[card]


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse concatenated cards, e.g. ``"5sKs7s"``.

    >>> parse_cards("5sKs7s")
    (15, 47, 23)
    """
    if len(text) % 2:
        raise CardError(f"odd number of characters in cards: {text!r}")
    return tuple(card_from_text(text[i : i + 2]) for i in range(0, len(text), 2))


def cards_text(cards: Iterable[Card]) -> str:
    """Concatenated canonical text of cards."""
    try:
        return "".join([_TEXT_OF[c] for c in cards])
    except KeyError as exc:
        raise CardError(f"card code out of range: {exc.args[0]}") from None


def shown_cards(cards: Iterable[int]) -> str:
    """Card codes as people read them, for messages: each as its text, separated by spaces;
    a code that is no card is shown as the number it is.

    >>> shown_cards([51, 51, 45])
    'As As Kd'
    >>> shown_cards([3, 60])
    '2s 60 (not a card code: 0..51)'
    """
    return " ".join(_TEXT_OF.get(c, f"{c} (not a card code: 0..51)") for c in cards)


def repeated_cards(cards: Iterable[int]) -> list[int]:
    """The cards that occur more than once, in order of their second occurrence.

    >>> shown_cards(repeated_cards(parse_cards("AsKdAs2c2c")))
    'As 2c'
    """
    seen: set[int] = set()
    repeated: list[int] = []
    for card in cards:
        if card in seen and card not in repeated:
            repeated.append(card)
        seen.add(card)
    return repeated
