from __future__ import annotations

import random

import pytest

from acpcbot.actions import CALL, FOLD, RAISE, Action, ActionType
from acpcbot.cards import parse_cards
from acpcbot.deal import Deal
from acpcbot.game import Game
from acpcbot.protocol.lenient import (
    Reply,
    ReplyKind,
    Request,
    _read_slowly,
    echoed_action,
    read_reply,
    read_version,
)
from acpcbot.protocol.statelines import StateLines
from acpcbot.rules import HandState
from dealer.referee.dealing import DealStream

DEAL = Deal((parse_cards("7d3d"), parse_cards("2hAc")), parse_cards("5sKs7s9s6h"))


def _request(game: Game, actions: list[Action], position: int) -> Request:
    hand = HandState(game)
    lines = StateLines(hand, DEAL)
    for action in actions:
        hand.apply(action)
        lines.record(action)
    return Request(position, hand, DEAL, lines.line(position))


def _read(text: str, request: Request, terminated: bool = True) -> Reply:
    return read_reply(text.encode("latin-1"), terminated, request)


def test_the_lenient_reading_of_the_reference(limit_game: Game) -> None:
    request = _request(limit_game, [CALL, CALL], 0)  # position 0 to act on the flop
    assert request.sent == b"MATCHSTATE:0:0:cc/:7d3d|/5sKs7s"

    def kind_and_action(text: str) -> tuple[ReplyKind, Action | None]:
        reply = _read(text, request)
        return reply.kind, reply.action

    action = ReplyKind.ACTION
    for text, expected in [
        ("MATCHSTATE:0:0:cc/:7d3d|/5sKs7s:r", (action, RAISE)),
        ("MATCHSTATE:0:0:cc:7d3d|2hAc5sKs7s:k", (action, CALL)),  # separators optional
        ("MATCHSTATE:0:0:kC/:7D3d|2hAc/5sks7S:b", (action, RAISE)),  # aliases, any case
        ("MATCHSTATE: 0:+0:cc/:7d3d|/5sKs7s:c", (action, CALL)),  # C number scanning
        ("MATCHSTATE:0:0:cc/:7d3d|/5sKs7s:cXYZ", (action, CALL)),  # trailing text ignored
        ("MATCHSTATE:0:0:cc/:7d3d|/5sKs7s:", (ReplyKind.ACTION, None)),  # unknown: see below
        ("MATCHSTATE:0:0:cc/:7d3d|/5sKs7s", (action, None)),  # no ':' -> bad action format
        ("MATCHSTATE:0:0:cc/:7d3c|/5sKs7s:c", (ReplyKind.UNREQUESTED, None)),  # not my cards
        ("MATCHSTATE:1:0:cc/:|2hAc/5sKs7s:c", (ReplyKind.UNREQUESTED, None)),  # other view
        ("MATCHSTATE:0:0:c:7d3d|:c", (ReplyKind.UNREQUESTED, None)),  # an older state
        ("MATCHSTATE:0:0:cc:7d3d|5sKs7s:c", (ReplyKind.BAD_STATE, None)),  # 5sKs taken as holes
        ("MATCHSTATE:0:0:cc/:7d3d|/5sKs:c", (ReplyKind.BAD_STATE, None)),  # too few cards
        ("MATCHSTATE:0:0:cf/:7d3d|/5sKs7s:c", (ReplyKind.BAD_STATE, None)),  # illegal betting
        ("matchstate:0:0:cc/:7d3d|/5sKs7s:c", (ReplyKind.BAD_STATE, None)),
        ("MATCHSTATE:2:0:cc/:7d3d|/5sKs7s:c", (ReplyKind.BAD_STATE, None)),
        ("", (ReplyKind.BAD_STATE, None)),
        ("# a comment", (ReplyKind.COMMENT, None)),
        ("; another", (ReplyKind.COMMENT, None)),
    ]:
        assert kind_and_action(text) == expected, text
    assert _read("MATCHSTATE:0:0:cc/:7d3d|/5sKs7s:", request).unknown == "(nothing)"
    assert _read("MATCHSTATE:0:0:cc/:7d3d|/5sKs7s:x", request).unknown == "x"
    assert _read("MATCHSTATE:0:0:cc/:7d3d|/5sKs7s:r100", request).trailing == "100"


def test_a_cut_line_is_read_without_its_line_ending(limit_game: Game) -> None:
    """The reference reads the line ending as one more action: a betting field that runs
    to the end of a terminated line does not parse, but a cut piece can."""
    request = _request(limit_game, [CALL], 0)
    assert _read("MATCHSTATE:0:0:c", request, terminated=True).kind is ReplyKind.BAD_STATE
    cut = _read("MATCHSTATE:0:0:c", request, terminated=False)
    assert cut.kind is ReplyKind.UNREQUESTED  # parsed, but without the viewer's cards


def test_nolimit_sizes(nolimit_game: Game) -> None:
    request = _request(nolimit_game, [], 1)
    assert request.sent == b"MATCHSTATE:1:0::|2hAc"
    assert _read("MATCHSTATE:1:0::|2hAc:r300", request).action == Action(ActionType.RAISE, 300)
    assert _read("MATCHSTATE:1:0::|2hAc:r 300x", request).trailing == "x"
    assert _read("MATCHSTATE:1:0::|2hAc:r", request).action is None  # bad action format
    assert _read("MATCHSTATE:1:0::|2hAc:f", request).action == FOLD
    # Numbers too long for int() (4,300 digits) saturate, as C's strtol does.
    huge = _read("MATCHSTATE:1:0::|2hAc:r" + "9" * 5000, request)
    assert huge.kind is ReplyKind.ACTION and huge.action == Action(ActionType.RAISE, 2**31 - 1)
    assert _read("MATCHSTATE:1:" + "0" * 5000 + "::|2hAc:c", request).action == CALL
    later = _request(nolimit_game, [Action(ActionType.RAISE, 300)], 0)
    assert _read(later.sent.decode() + ":c", later).action == CALL
    assert _read("MATCHSTATE:0:0:R300:7d3d|:c", later).action == CALL


@pytest.mark.parametrize("game_name", ["limit_game", "nolimit_game"])
def test_the_fast_path_agrees_with_the_full_parse(
    request: pytest.FixtureRequest, game_name: str
) -> None:
    game: Game = request.getfixturevalue(game_name)
    rng = random.Random(5)
    deals = DealStream(game, 3)
    for hand_number in range(200):
        deal = deals.next_deal()
        hand = HandState(game, hand_number)
        lines = StateLines(hand, deal)
        while not hand.finished:
            position = hand.current_player
            sent = lines.line(position)
            req = Request(position, hand, deal, sent)
            for suffix in ("c", "f", "r", "k", "x", "", "r250", "r99999", "cc", "r 7"):
                line = sent + b":" + suffix.encode()
                fast = read_reply(line, True, req)
                assert fast == _read_slowly(line.decode(), True, req), line
                if game.is_limit:  # the dealer's first try, in limit games
                    echoed = echoed_action(line, sent)
                    assert echoed == (fast if len(suffix) == 1 and suffix != "x" else None), line
            kinds = hand.legal_action_types()
            action = Action(rng.choice(kinds))
            if action.type is ActionType.RAISE and not game.is_limit:
                bounds = hand.raise_bounds()
                assert bounds is not None
                action = Action(ActionType.RAISE, rng.randint(*bounds))
            hand.apply(action)
            lines.record(action)


def test_version_lines() -> None:
    assert read_version(b"VERSION:2.0.0") == (2, 0, 0)
    assert read_version(b"VERSION:2.1.0") == (2, 1, 0)
    assert read_version(b"VERSION: 2.0.0 trailing") == (2, 0, 0)
    for bad in (b"HELLO", b"VERSION:2.0", b"version:2.0.0", b"VERSION:a.b.c", b""):
        assert read_version(bad) is None
