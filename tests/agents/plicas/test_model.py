"""The opponent model counts the opponent's actions in their contexts, once each."""

from __future__ import annotations

import pytest

from acpcbot.game import Game
from acpcbot.player import HandResult
from acpcbot.protocol.matchstate import decode_match_state
from agents.plicas.model import PRIOR, OpponentModel


def feed(model: OpponentModel, game: Game, texts: list[str]) -> list[tuple[int, bool, int, str]]:
    seen = []
    for text in texts:
        state, _ = decode_match_state(text, game)
        seen += [(e.round, e.facing, e.level, e.action.value) for e in model.observe(state, game)]
    return seen


def finish(model: OpponentModel, game: Game, text: str, values: tuple[float, float]) -> None:
    state, _ = decode_match_state(text, game)
    model.end_hand(HandResult(state, values), game)


def test_every_opponent_action_is_counted_once_with_its_context(limit_game: Game) -> None:
    model = OpponentModel()
    # The agent is position 0 (big blind); the opponent opens, we 3-bet, it calls, ...
    seen = feed(
        model,
        limit_game,
        [
            "MATCHSTATE:0:0:r:AsKd|",
            "MATCHSTATE:0:0:r:AsKd|",  # the same state twice adds nothing
            "MATCHSTATE:0:0:rrc/:AsKd|/Ah7c2d",
            "MATCHSTATE:0:0:rrc/rr:AsKd|/Ah7c2d",
            "MATCHSTATE:0:0:rrc/rrf:AsKd|/Ah7c2d",
        ],
    )
    assert seen == [(0, True, 0, "r"), (0, True, 2, "c"), (1, True, 1, "r")]
    assert model.counts[0, 1].sum() == 2 and model.counts[1, 1].sum() == 1  # position 1
    finish(model, limit_game, "MATCHSTATE:0:0:rrc/rrf:AsKd|/Ah7c2d", (40.0, -40.0))
    assert model.hands_seen == 1 and model.preflop_decisions == 1 and model.preflop_folds == 0
    assert model.flop_hands == 1 and model.showdowns == 0
    assert model.raise_chances[0].tolist() == [1, 1] and model.raise_chances[1].tolist() == [1, 0]


def test_range_counts_preflop_folds(limit_game: Game) -> None:
    model = OpponentModel()
    for hand in range(40):
        # The agent (position 0) is in the big blind; the opponent folds every other hand.
        action = "f" if hand % 2 else "c"
        text = f"MATCHSTATE:0:{hand}:{action}:AsKd|"
        if action == "c":
            text = f"MATCHSTATE:0:{hand}:cc/cc/cc/cc:AsKd|7h2c/Ah7c2d/3c/9d"
        feed(model, limit_game, [text])
        finish(model, limit_game, text, (0.0, 0.0))
    assert model.preflop_decisions == 40 and model.preflop_folds == 20
    expected = (20 + 8 * PRIOR.range) / (40 + 8)
    assert model.range == pytest.approx(expected)
    assert model.showdowns == 20


def test_profile_moves_from_the_prior_towards_the_counts(limit_game: Game) -> None:
    model = OpponentModel()
    assert model.profile().response(1, 1, True, 1) == pytest.approx(PRIOR.response(1, 1, True, 1))
    for hand in range(200):
        # The opponent (position 1) raises everything: an always-raise.
        text = f"MATCHSTATE:0:{hand}:rrrc/crrrrc/:AsKd|/Ah7c2d/3c"
        feed(model, limit_game, [text])
    profile = model.profile()
    assert profile.bets_when_checked_to(1, 1) > 0.95
    fold, call, raise_ = profile.response(1, 1, True, 2)  # raised once, called at the cap
    assert fold < 0.02 and call == pytest.approx(raise_, abs=0.01)
    assert profile.aggression[1] > 0.95  # the call at the cap was no chance to raise
    assert profile.response(0, 1, True, 0)[2] > 0.95
    assert profile.response(0, 0, True, 0) == pytest.approx(PRIOR.response(0, 0, True, 0))
    assert model.counts[..., 0].sum() == 0  # never folded


def test_an_unseen_opponent_is_the_prior_it_is_given() -> None:
    """Before it has seen anything, the model answers its prior: the vague one, or a fitted
    one (the generic opponent PLICAS starts from with ``fitted-prior``)."""
    from agents.plicas.generic import generic_opponent

    fitted = generic_opponent().profile
    for prior, model in ((PRIOR, OpponentModel()), (fitted, OpponentModel(prior=fitted))):
        profile = model.profile()
        assert profile.frequencies == pytest.approx(prior.frequencies)
        assert profile.aggression == pytest.approx(prior.aggression)
        assert profile.average_pot == pytest.approx(prior.average_pot)
        assert model.range == pytest.approx(prior.range)
