from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from acpcbot.actions import Action, ActionType
from acpcbot.cards import parse_cards
from acpcbot.deal import Deal
from acpcbot.errors import MatchStateError
from acpcbot.game import Game
from acpcbot.protocol.matchstate import (
    decode_match_state,
    format_match_state,
    parse_betting,
    parse_card_group,
    parse_match_state,
    view_of,
)
from acpcbot.rules import CALL, RAISE, HandState


def _transcript_lines(vectors: Path, match: str) -> list[str]:
    lines: list[str] = []
    for seat in (1, 2):
        data = (vectors / "transcripts" / match / f"seat{seat}.dealer_to_player.bin").read_bytes()
        assert data.endswith(b"\r\n")
        lines += data.decode("latin-1").split("\r\n")[:-1]
    return lines


@pytest.mark.parametrize(
    "match", ["limit2p.seed42.n50.example", "limit2p.seed42.n50.Alice_hash-Bob_raiser"]
)
def test_every_limit_transcript_state_round_trips(
    vectors: Path, limit_game: Game, match: str
) -> None:
    lines = _transcript_lines(vectors, match)
    assert len(lines) > 500
    for line in lines:
        assert format_match_state(parse_match_state(line, limit_game)) == line


def test_every_nolimit_transcript_state_round_trips(vectors: Path, nolimit_game: Game) -> None:
    lines = _transcript_lines(vectors, "nolimit2p.seed42.n50.example")
    sizes = [
        a.size
        for line in lines
        for r in parse_match_state(line, nolimit_game).betting
        for a in r
        if a.type is ActionType.RAISE
    ]
    assert sizes and all(s > 0 for s in sizes)
    for line in lines:
        assert str(parse_match_state(line, nolimit_game)) == line


def test_fields_of_a_state(limit_game: Game) -> None:
    state = parse_match_state("MATCHSTATE:1:0:cc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h", limit_game)
    assert state.position == 1 and state.hand_number == 0 and state.round == 3
    assert state.hole_cards == (parse_cards("7d3d"), parse_cards("2hAc"))
    assert state.own_cards == parse_cards("2hAc")
    assert state.board_cards == parse_cards("5sKs7s9s6h")
    assert state.betting_text() == "cc/cc/cc/cc"


def test_decode_gives_the_rules_state(limit_game: Game) -> None:
    _, hand = decode_match_state("MATCHSTATE:0:3:rrr:7d3d|", limit_game)
    assert hand.current_player == 0 and not hand.can_raise() and hand.can_fold()
    _, hand = decode_match_state("MATCHSTATE:0:3:crrc/crc/rf:7d3d|/5sKs7s/9s", limit_game)
    assert hand.finished and not hand.is_showdown


@pytest.mark.parametrize(
    "line",
    [
        "MATCHSTATE:0:0:cc/c:7d3d|",  # truncated: round 2 without its board
        "MATCHSTATE:0:0::7d3d",  # no opponent separator
        "MATCHSTATE:0:0:x:7d3d|",  # unknown action letter
        "MATCHSTATE:0:0:rrrr:7d3d|",  # a fourth raise preflop
        "MATCHSTATE:0:0:cf:7d3d|",  # fold when not facing a bet
        "MATCHSTATE:2:0::7d3d|",  # position out of range
        "MATCHSTATE:0:0:",  # truncated
        "MATCHSTATE:0:00::7d3d|",  # non-canonical number
        "MATCHSTATE:0:0::|2hAc",  # own cards missing
        "MATCHSTATE:0:0:c:7d3d|2hAc",  # opponent cards while the hand is running
        "MATCHSTATE:0:0:cc:7d3d|",  # betting stays in a round that ended
        "MATCHSTATE:0:0:cc/:7d3d|/5sKs",  # short flop
        "MATCHSTATE:0:0:cc/:7d3d|/5s5s7s",  # repeated card
        "matchstate:0:0::7d3d|",  # the prefix is case-sensitive
        "MATCHSTATE:0:0:r10:7d3d|",  # a size in a limit game
        # numbers past what int() converts (4,300 digits): the codec's error, not Python's
        f"MATCHSTATE:0:{'9' * 5000}::7d3d|",
        f"MATCHSTATE:{'1' * 5000}:0::7d3d|",
        f"MATCHSTATE:0:0:r{'3' * 5000}:7d3d|",
    ],
)
def test_bad_states_are_rejected(limit_game: Game, line: str) -> None:
    with pytest.raises(MatchStateError):
        parse_match_state(line, limit_game)


def test_nolimit_raise_needs_a_legal_size(nolimit_game: Game) -> None:
    assert str(parse_match_state("MATCHSTATE:1:0:r300:|2hAc", nolimit_game)) == (
        "MATCHSTATE:1:0:r300:|2hAc"
    )
    for bad in ("r150", "r20001", "r", "r0300", "r" + "3" * 5000):
        with pytest.raises(MatchStateError):
            parse_match_state(f"MATCHSTATE:1:0:{bad}:|2hAc", nolimit_game)


def test_views_hide_cards_like_the_reference(limit_game: Game) -> None:
    deal = Deal((parse_cards("7d3d"), parse_cards("2hAc")), parse_cards("5sKs7s9s6h"))
    hand = HandState(limit_game, 0)
    assert str(view_of(hand, deal, 0)) == "MATCHSTATE:0:0::7d3d|"
    assert str(view_of(hand, deal, 1)) == "MATCHSTATE:1:0::|2hAc"
    for action in (CALL, CALL, CALL, CALL, CALL, CALL, CALL, CALL):
        hand.apply(action)
    assert str(view_of(hand, deal, 1)) == "MATCHSTATE:1:0:cc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h"
    folded = HandState(limit_game, 0)
    folded.apply(RAISE)
    folded.apply(Action(ActionType.FOLD))
    assert str(view_of(folded, deal, 1)) == "MATCHSTATE:1:0:rf:|2hAc"


def test_parse_betting_is_syntactic() -> None:
    assert parse_betting("") == ((),)
    assert parse_betting("cr/") == ((Action(ActionType.CALL), Action(ActionType.RAISE)), ())
    with pytest.raises(MatchStateError):
        parse_betting("ck")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="23456789TJQKAtjqkacdhsCDHS|/:x", max_size=12))
def test_card_groups_accept_exactly_canonical_cards(text: str) -> None:
    # The look-up table against the spelling it stands for: rank then suit, canonical case.
    canonical = re.fullmatch(r"(?:[2-9TJQKA][cdhs])*", text) is not None
    try:
        cards = parse_card_group(text, "cards")
    except MatchStateError:
        assert not canonical
        return
    assert canonical and cards == parse_cards(text)
