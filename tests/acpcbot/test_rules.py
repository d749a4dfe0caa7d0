"""Betting rules: concrete cases from the reference, and property tests over random play."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from acpcbot.actions import Action, ActionType
from acpcbot.errors import IllegalActionError, UnsupportedGameError
from acpcbot.game import NOLIMIT_HOLDEM, Game, bundled_game
from acpcbot.protocol.matchstate import format_betting, parse_betting
from acpcbot.rules import CALL, FOLD, RAISE, HandState, replay

LIMIT = bundled_game()
NOLIMIT = bundled_game(NOLIMIT_HOLDEM)


def test_preflop_cap_is_three_raises_after_the_blinds() -> None:
    hand = HandState(LIMIT)
    assert hand.current_player == 1  # the small blind (button) acts first preflop
    for _ in range(3):
        assert hand.can_raise()
        hand.apply(RAISE)
    assert not hand.can_raise()
    assert hand.legal_action_types() == (ActionType.FOLD, ActionType.CALL)
    with pytest.raises(IllegalActionError, match="raise not allowed"):
        hand.apply(RAISE)
    assert hand.spent == [30, 40]


def test_postflop_cap_is_four_and_position_zero_acts_first() -> None:
    hand = replay(LIMIT, [[CALL, CALL], []])
    assert hand.round == 1 and hand.current_player == 0
    for _ in range(4):
        hand.apply(RAISE)
    assert not hand.can_raise()
    hand.apply(CALL)
    assert hand.round == 2 and hand.spent == [50, 50]


def test_fold_only_when_facing_a_bet() -> None:
    hand = HandState(LIMIT)
    assert hand.can_fold()  # the small blind faces the big blind
    hand.apply(CALL)
    assert not hand.can_fold()  # the big blind may check
    with pytest.raises(IllegalActionError, match="fold when not facing a bet"):
        hand.apply(FOLD)


def test_reference_repairs_bad_actions() -> None:
    hand = replay(LIMIT, [[CALL]])
    assert hand.coerce(FOLD) == (CALL, "invalid action, changed to call")
    assert hand.coerce(None) == (CALL, "bad action format in response, changed to call")
    nolimit = HandState(NOLIMIT)
    assert nolimit.coerce(Action(ActionType.RAISE, 1)) == (
        Action(ActionType.RAISE, 200),
        "raise of 1 increased to 200",
    )
    assert nolimit.coerce(Action(ActionType.RAISE, 999999)) == (
        Action(ActionType.RAISE, 20000),
        "raise of 999999 decreased to 20000",
    )


def test_nolimit_min_raise_follows_the_last_increment() -> None:
    hand = HandState(NOLIMIT)
    assert hand.raise_bounds() == (200, 20000)
    hand.apply(Action(ActionType.RAISE, 300))
    assert hand.raise_bounds() == (500, 20000)  # call 300, raise by at least 200 more
    hand.apply(CALL)
    assert hand.raise_bounds() == (400, 20000)  # next round: current bet + big blind


def test_all_in_skips_to_the_last_round() -> None:
    hand = replay(NOLIMIT, parse_betting("cr18940r20000c///"))
    assert hand.finished and hand.is_showdown and hand.round == 3
    assert format_betting(tuple(tuple(r) for r in hand.actions)) == "cr18940r20000c///"


def test_showdown_and_split_values() -> None:
    hand = replay(LIMIT, parse_betting("cc/cc/cc/cc"))
    assert hand.values([5, 3]) == (10.0, -10.0)
    assert hand.values([4, 4]) == (0.0, 0.0)
    folded = replay(LIMIT, parse_betting("rf"))
    assert folded.values() == (-10.0, 10.0)  # the big blind folds to a raise


def test_three_player_side_pots() -> None:
    game = Game(
        betting_type=NOLIMIT.betting_type,
        num_players=3,
        num_rounds=1,
        stack=(100, 300, 300),
        blind=(0, 0, 0),
        raise_size=(0,),
        first_player=(0,),
        max_raises=(255,),
        num_suits=4,
        num_ranks=13,
        num_hole_cards=2,
        num_board_cards=(0,),
    )
    hand = HandState(game)
    hand.apply(Action(ActionType.RAISE, 100))  # position 0 all-in
    hand.apply(Action(ActionType.RAISE, 300))  # position 1 all-in
    hand.apply(CALL)
    assert hand.finished
    # position 0 has the best hand: wins the main pot of 300; 1 beats 2 for the side pot.
    assert hand.values([9, 5, 1]) == (200.0, 100.0, -300.0)


# -- properties over random legal play ------------------------------------------------


@st.composite
def random_hands(draw: st.DrawFn, game: Game = LIMIT) -> HandState:
    hand = HandState(game, draw(st.integers(0, 10**6)))
    steps = draw(st.integers(0, 40))
    for _ in range(steps):
        if hand.finished:
            break
        kinds = hand.legal_action_types()
        kind = draw(st.sampled_from(kinds))
        if kind is ActionType.RAISE and not game.is_limit:
            bounds = hand.raise_bounds()
            assert bounds is not None
            hand.apply(Action(kind, draw(st.integers(*bounds))))
        else:
            hand.apply(Action(kind))
    return hand


@settings(max_examples=400, deadline=None)
@given(random_hands())
def test_limit_legality_properties(hand: HandState) -> None:
    # the betting prints and parses back, and replaying it gives the same state
    text = hand.betting_text()
    assert format_betting(parse_betting(text)) == text
    again = replay(LIMIT, parse_betting(text), hand.hand_number)
    assert (again.spent, again.round, again.finished) == (hand.spent, hand.round, hand.finished)
    if hand.finished:
        assert hand.legal_action_types() == ()
        values = hand.values([1, 2]) if hand.is_showdown else hand.values()
        assert sum(values) == 0  # chips are conserved
        assert values == tuple(-v for v in reversed(values))
        return
    p = hand.current_player
    facing_bet = hand.spent[p] < hand.max_spent
    assert hand.can_fold() == facing_bet  # never fold when not facing a bet
    raises = sum(a.type is ActionType.RAISE for a in hand.actions[hand.round])
    assert hand.can_raise() == (raises < LIMIT.max_raises[hand.round])  # never raise at the cap
    assert hand.can_call()


def _state(hand: HandState) -> tuple[object, ...]:
    return (hand.betting_text(), hand.spent, hand.round, hand.finished, hand.folded)


@settings(max_examples=300, deadline=None)
@given(random_hands())
def test_children_are_each_legal_action_applied_to_a_copy(hand: HandState) -> None:
    before = _state(hand)
    children = hand.children()
    assert [action.type for action, _ in children] == list(hand.legal_action_types())
    for action, child in children:
        applied = hand.copy()
        applied.apply(action)
        assert _state(child) == _state(applied) == _state(hand.child(action))
        if not child.finished:
            assert child.current_player == applied.current_player
            assert child.num_acting_players() == applied.num_acting_players()
    assert _state(hand) == before  # the walk leaves the state as it was


def _below(hand: HandState, depth: int) -> tuple[object, ...]:
    """What ``depth`` actions more can make of ``hand``: legal actions, ends and values."""
    if hand.finished:
        return (hand.is_showdown, hand.values([1, 2]) if hand.is_showdown else hand.values())
    if depth == 0:
        return (hand.current_player, tuple(hand.spent))
    return tuple((action.type, _below(child, depth - 1)) for action, child in hand.children())


def test_states_in_one_situation_have_the_same_future() -> None:
    # every state of the first five actions, grouped by situation, and each state's next
    # four actions (into the flop and on)
    layer = [HandState(LIMIT)]
    reached = layer
    for _ in range(5):
        layer = [child for hand in layer for _, child in hand.children()]
        reached = reached + layer
    groups: dict[tuple[object, ...], list[HandState]] = {}
    for hand in reached:
        groups.setdefault(hand.situation(), []).append(hand)
    assert any(len({h.betting_text() for h in group}) > 1 for group in groups.values())
    for group in groups.values():
        assert len({_below(hand, 4) for hand in group}) == 1
    # what differs in the future differs in the situation
    assert HandState(LIMIT).child(CALL).situation() != HandState(LIMIT).child(RAISE).situation()
    call_call = HandState(LIMIT).child(CALL).child(CALL)  # the flop, 10 chips each
    raise_call = HandState(LIMIT).child(RAISE).child(CALL)  # the flop, 20 chips each
    assert call_call.situation() != raise_call.situation()


def test_child_refuses_an_illegal_action_and_children_a_nolimit_game() -> None:
    hand = HandState(LIMIT)
    with pytest.raises(IllegalActionError, match="raise not allowed"):
        hand.child(RAISE).child(RAISE).child(RAISE).child(RAISE)
    assert hand.child(FOLD).children() == []
    with pytest.raises(UnsupportedGameError, match="limit games"):
        HandState(NOLIMIT).children()


@settings(max_examples=300, deadline=None)
@given(random_hands(NOLIMIT))
def test_nolimit_properties(hand: HandState) -> None:
    text = hand.betting_text()
    assert format_betting(parse_betting(text)) == text
    assert all(0 < s <= 20000 for s in hand.spent)
    if hand.finished:
        for ranks in ([1, 2], [2, 1], [3, 3]):
            assert sum(hand.values(ranks)) == 0
    else:
        bounds = hand.raise_bounds()
        if bounds is not None:
            assert bounds[0] > hand.max_spent or bounds[0] == bounds[1]
            assert bounds[1] == 20000


@pytest.mark.parametrize("game_name", ["limit_game", "nolimit_game"])
def test_apply_coerced_and_the_cached_counts_agree_with_a_fresh_look(
    request: pytest.FixtureRequest, game_name: str
) -> None:
    import random

    game = request.getfixturevalue(game_name)
    rng = random.Random(17)
    for _ in range(300):
        hand = HandState(game)
        while not hand.finished:
            acting = [
                p for p in range(game.num_players)
                if not hand.folded[p] and hand.spent[p] < game.stack[p]
            ]  # fmt: skip
            assert hand.num_acting_players() == len(acting)
            assert hand.current_player in acting
            assert hand.current_player == _current_player_by_scan(hand)
            assert hand._num_called == _num_called_by_scan(hand)
            clone = hand.copy()
            proposed = rng.choice(
                [FOLD, CALL, RAISE, None, Action(ActionType.RAISE, rng.randint(0, 30000))]
            )
            if game.is_limit and proposed is not None:
                proposed = Action(proposed.type)
            expected = clone.coerce(proposed)
            assert hand.apply_coerced(proposed) == expected
            clone.apply(expected[0])
            assert (clone.spent, clone.round, clone.finished) == (
                hand.spent, hand.round, hand.finished,
            )  # fmt: skip
        with pytest.raises(IllegalActionError):
            hand.apply_coerced(CALL)


def _num_called_by_scan(hand: HandState) -> int:
    """The reference's numCalled, scanning the round backwards (the oracle)."""
    called = 0
    stack, spent = hand.game.stack, hand.spent
    for action, p in zip(
        reversed(hand.actions[hand.round]), reversed(hand.acting[hand.round]), strict=True
    ):
        if action.type is ActionType.RAISE:
            return called + (spent[p] < stack[p])
        if action.type is ActionType.CALL and spent[p] < stack[p]:
            called += 1
    return called


@settings(max_examples=300, deadline=None)
@given(random_hands(), st.sampled_from([FOLD, CALL, RAISE, None]))
def test_limit_apply_coerced_fast_paths_agree_with_coerce_then_apply(
    hand: HandState, proposed: Action | None
) -> None:
    _check_apply_coerced(hand, proposed)


@settings(max_examples=200, deadline=None)
@given(
    random_hands(NOLIMIT), st.sampled_from([FOLD, CALL, RAISE, None, Action(ActionType.RAISE, 500)])
)
def test_nolimit_apply_coerced_agrees_with_coerce_then_apply(
    hand: HandState, proposed: Action | None
) -> None:
    _check_apply_coerced(hand, proposed)


THREE_SHORT_STACKS = dataclasses.replace(
    LIMIT, num_players=3, stack=(35, 60, 200), blind=(5, 10, 0), first_player=(2, 0, 0, 0)
)
"""Folds and all-ins among three players: the next player is often not the one after."""


@settings(max_examples=300, deadline=None)
@given(random_hands(THREE_SHORT_STACKS), st.sampled_from([FOLD, CALL, RAISE, None]))
def test_three_player_apply_coerced_agrees_with_coerce_then_apply(
    hand: HandState, proposed: Action | None
) -> None:
    _check_apply_coerced(hand, proposed)


def _check_apply_coerced(hand: HandState, proposed: Action | None) -> None:
    """The shared CALL and RAISE objects take apply_coerced's fast paths; the general path
    (coerce, then a checked apply) is the oracle, and the player to act is found by a scan."""
    if hand.finished:
        return
    clone = hand.copy()
    expected = clone.coerce(proposed)
    clone.apply(expected[0])
    assert hand.apply_coerced(proposed) == expected
    assert (hand.spent, hand.round, hand.finished, hand.num_raises, hand.actions) == (
        clone.spent, clone.round, clone.finished, clone.num_raises, clone.actions,
    )  # fmt: skip
    if not hand.finished:
        assert hand.current_player == _current_player_by_scan(hand)


def _current_player_by_scan(hand: HandState) -> int:
    """The reference's currentPlayer: after the round's last actor (or before the round's
    first player), the next one who has neither folded nor gone all-in."""
    game = hand.game
    acting = hand.acting[hand.round]
    position = acting[-1] if acting else game.first_player[hand.round] - 1
    for _ in range(game.num_players):
        position = (position + 1) % game.num_players
        if not hand.folded[position] and hand.spent[position] < game.stack[position]:
            return position
    raise AssertionError("nobody can act")


@settings(max_examples=300, deadline=None)
@given(random_hands(), st.sampled_from([[1, 2], [2, 1], [3, 3]]))
def test_values_agree_with_value_by_position(hand: HandState, ranks: list[int]) -> None:
    if not hand.finished:
        return
    given_ranks = ranks if hand.is_showdown else None
    expected = tuple(hand.value(p, given_ranks) for p in range(LIMIT.num_players))
    assert hand.values(given_ranks) == expected
    assert [str(v) for v in hand.values(given_ranks)] == [str(v) for v in expected]  # -0.0
