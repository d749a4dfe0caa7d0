"""The incremental state decoder agrees with the full decoder on every recorded state, and
rejects what the full decoder rejects plus states that do not follow their predecessor."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from acpcbot.errors import MatchStateError
from acpcbot.game import Game, bundled_game
from acpcbot.protocol.logfile import parse_state_line
from acpcbot.protocol.matchstate import decode_match_state
from acpcbot.protocol.tracker import HandTracker, final_values
from acpcbot.rules import HandState
from tests.conftest import VECTORS

MATCHES = {
    "limit2p.seed42.n50.example": "holdem.limit.2p.reverse_blinds.game",
    "limit2p.seed42.n50.Alice_hash-Bob_raiser": "holdem.limit.2p.reverse_blinds.game",
    "nolimit2p.seed42.n50.example": "holdem.nolimit.2p.reverse_blinds.game",
}


def _lines(vectors: Path, match: str, seat: int) -> list[str]:
    data = (vectors / "transcripts" / match / f"seat{seat}.dealer_to_player.bin").read_bytes()
    return data.decode("latin-1").split("\r\n")[:-1]


def _same_betting(a: HandState, b: HandState) -> bool:
    return (
        a.betting_text() == b.betting_text()
        and a.spent == b.spent
        and a.round == b.round
        and a.finished == b.finished
        and a.num_raises == b.num_raises
        and a.min_raise_to == b.min_raise_to
        and a.legal_action_types() == b.legal_action_types()
        and (a.finished or a.current_player == b.current_player)
    )


@pytest.mark.parametrize("match", sorted(MATCHES))
@pytest.mark.parametrize("seat", [1, 2])
def test_tracker_agrees_with_the_decoder_and_the_dealer_log(
    vectors: Path, match: str, seat: int
) -> None:
    game = bundled_game(MATCHES[match])
    log_lines = (vectors / "transcripts" / match / "dealer.log").read_text().splitlines()
    logged = {
        record.hand_number: record.values
        for record in (parse_state_line(line) for line in log_lines if line.startswith("STATE:"))
    }
    tracker = HandTracker(game)
    finished = 0
    for line in _lines(vectors, match, seat):
        state, hand = tracker.advance(line)
        expected_state, expected_hand = decode_match_state(line, game)
        assert state == expected_state
        assert str(state) == line
        assert _same_betting(hand, expected_hand), line
        if hand.finished:
            assert final_values(state, hand) == logged[state.hand_number]
            finished += 1
    assert finished == len(logged) == 50
    assert not tracker.in_hand


def test_the_quick_path_is_taken(vectors: Path, limit_game: Game) -> None:
    """Within a hand the tracker keeps (and advances) one HandState."""
    tracker = HandTracker(limit_game)
    lines = _lines(vectors, "limit2p.seed42.n50.Alice_hash-Bob_raiser", 1)
    hands = [tracker.advance(line)[1] for line in lines[:5]]
    assert [str(tracker.advance(line)[0]) for line in lines[5:6]] == lines[5:6]
    assert len({id(h) for h in hands if h.hand_number == 0}) == 1


@pytest.mark.parametrize(
    ("before", "line", "message"),
    [
        (["MATCHSTATE:0:0::7d3d|"], "MATCHSTATE:0:0:x:7d3d|", "bad action 'x'"),
        (["MATCHSTATE:0:0:r:7d3d|"], "MATCHSTATE:0:0:rc:7d3d|", "round"),
        (["MATCHSTATE:0:0:r:7d3d|"], "MATCHSTATE:0:0:rrrr:7d3d|", "illegal betting"),
        (["MATCHSTATE:0:0:r:7d3d|"], "MATCHSTATE:0:0:rc/:7d3d|", "show 1 round"),
        # valid on their own, but not after the previous state
        (["MATCHSTATE:0:0:r:7d3d|"], "MATCHSTATE:0:0:c:7d3d|", "does not follow"),
        (["MATCHSTATE:0:0:r:7d3d|"], "MATCHSTATE:0:0:r:7d3d|", "does not follow"),
        (["MATCHSTATE:0:0:r:7d3d|"], "MATCHSTATE:0:0:rc/:8d3d|/5sKs7s", "does not follow"),
        (
            ["MATCHSTATE:0:0:rc/:7d3d|/5sKs7s"],
            "MATCHSTATE:0:0:rc/c:7d3d|/5sKs8s",
            "does not follow",
        ),
        (["MATCHSTATE:0:0:r:7d3d|"], "MATCHSTATE:0:1::7d3d|", "does not follow"),
        (["MATCHSTATE:0:0:r:7d3d|"], "MATCHSTATE:1:0:r:|2hAc", "does not follow"),
        (["MATCHSTATE:0:3:rf:7d3d|"], "MATCHSTATE:1:2::|2hAc", "comes after hand 3"),
        (["MATCHSTATE:0:3:rf:7d3d|"], "MATCHSTATE:1:3::|2hAc", "comes after hand 3"),
    ],
)
def test_bad_or_out_of_sequence_states(
    limit_game: Game, before: list[str], line: str, message: str
) -> None:
    tracker = HandTracker(limit_game)
    for text in before:
        tracker.advance(text)
    with pytest.raises(MatchStateError, match=message):
        tracker.advance(line)


def test_nolimit_raise_sizes_do_not_run_together(nolimit_game: Game) -> None:
    tracker = HandTracker(nolimit_game)
    tracker.advance("MATCHSTATE:0:0:r300:7d3d|")
    with pytest.raises(MatchStateError, match="does not follow"):
        tracker.advance("MATCHSTATE:0:0:r3000c/:7d3d|/5sKs7s")
    tracker = HandTracker(nolimit_game)
    tracker.advance("MATCHSTATE:0:0:r300:7d3d|")
    state, hand = tracker.advance("MATCHSTATE:0:0:r300r900:7d3d|")
    assert hand.max_spent == 900 and state.betting_text() == "r300r900"


def test_a_showdown_without_the_opponents_cards_has_no_value(limit_game: Game) -> None:
    tracker = HandTracker(limit_game)
    state, hand = tracker.advance("MATCHSTATE:1:0:cc/cc/cc/cc:|2hAc/5sKs7s/9s/6h")
    assert hand.is_showdown
    with pytest.raises(MatchStateError, match="showdown without the hole cards"):
        final_values(state, hand)


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_whatever_the_tracker_accepts_the_decoder_accepts_the_same(data: st.DataObject) -> None:
    """Mutate one recorded state (a character replaced, inserted or deleted) after the
    states of its hand that preceded it: the quick path never accepts more than the full
    decoder, and when it accepts, it gives the same state."""
    game = bundled_game()
    lines = _cached_lines("limit2p.seed42.n50.example", 1)
    k = data.draw(st.integers(0, len(lines) - 1), label="line")
    line = lines[k]
    start = k
    while start > 0 and lines[start - 1].split(":")[2] == line.split(":")[2]:
        start -= 1
    position = data.draw(st.integers(0, len(line)), label="position")
    char = data.draw(st.sampled_from("0123456789:/|fcrxAKQJT2shdc"), label="char")
    edit = data.draw(st.sampled_from(["replace", "insert", "delete"]), label="edit")
    if edit == "insert":
        mutated = line[:position] + char + line[position:]
    elif edit == "replace":
        mutated = line[:position] + char + line[position + 1 :]
    else:
        mutated = line[:position] + line[position + 1 :]
    tracker = HandTracker(game)
    for before in lines[start:k]:
        tracker.advance(before)
    try:
        got = tracker.advance(mutated)
    except MatchStateError:
        return
    expected_state, expected_hand = decode_match_state(mutated, game)
    assert got[0] == expected_state
    assert _same_betting(got[1], expected_hand)


@functools.cache
def _cached_lines(match: str, seat: int) -> list[str]:
    return _lines(VECTORS, match, seat)
