"""The action model's prior fitted on the field: written and read back, thin rows left out,
and a fresh action model starts from it rather than from the vague guess."""

from __future__ import annotations

import io

import numpy as np
import pytest

from acpcbot.game import bundled_game
from acpcbot.rules import CALL, RAISE, HandState
from agents.plicas.actionmodel import PRIOR, ActionModel
from agents.plicas.actionprior import TRUSTED, ActionPrior, coarse_key, load, local_key, save
from agents.plicas.holdingbuckets import COARSE, coarse_map

GAME = bundled_game()


def counts(fold: float, call: float, raise_: float, total: float) -> np.ndarray:
    """A row where every bucket drew (fold, call, raise) ``total / COARSE`` times."""
    row = np.tile(np.array([fold, call, raise_]), (COARSE, 1))
    return row * total / COARSE


def test_the_counts_round_trip_and_thin_rows_are_left_out() -> None:
    opening = coarse_key(0, 1, True, 0)
    rare = coarse_key(3, 0, True, 3)
    history = local_key(0, 1, 3, "")
    stream = io.BytesIO()
    save(
        stream,
        {history: counts(0.2, 0.3, 0.5, 4 * TRUSTED)},
        {opening: counts(0.1, 0.6, 0.3, 2 * TRUSTED), rare: counts(0.0, 1.0, 0.0, TRUSTED / 2)},
    )
    stream.seek(0)
    prior = load(stream)
    row = prior.coarse_row(opening)
    assert row is not None
    assert row.shape == (COARSE, 3)
    assert np.allclose(row.sum(axis=1), 1.0)
    assert np.allclose(row, [0.1, 0.6, 0.3])  # each bucket's row is the row's average
    assert prior.coarse_row(rare) is None  # seen too rarely: the level above answers
    local = prior.local_row(history)
    assert local is not None and np.allclose(local, [0.2, 0.3, 0.5])


def fitted_at(hand: HandState, coarse: np.ndarray, local: np.ndarray | None) -> ActionPrior:
    """A prior with the row ``coarse`` at ``hand``'s coarse context (and ``local`` at its
    local history)."""
    actor = hand.current_player
    facing = hand.amount_to_call() > 0
    here = hand.betting_text().rsplit("/", 1)[-1]
    rows = {coarse_key(hand.round, actor, facing, hand.num_raises): coarse * TRUSTED}
    locals_ = {} if local is None else {local_key(hand.round, actor, hand.pot, here): local}
    return ActionPrior.fitted({k: v * TRUSTED for k, v in locals_.items()}, rows)


def expected(hand: HandState, row: np.ndarray) -> np.ndarray:
    """A coarse row as the model answers it: per fine bucket, renormalised over what is legal."""
    probs = np.array(row, dtype=np.float64)[coarse_map(hand.round)]
    if not hand.can_fold():
        probs[:, 0] = 0.0
    normalised: np.ndarray = probs / probs.sum(axis=1, keepdims=True)
    return normalised


@pytest.mark.parametrize(
    "hand",
    [HandState(GAME), HandState(GAME).child(CALL), HandState(GAME).child(RAISE)],
    ids=["opening", "checked to", "facing a raise"],
)
def test_an_unseen_opponent_plays_as_the_field(hand: HandState) -> None:
    """Nothing seen of the opponent: the model answers the field's row at the history, or,
    where the field has none there, its row for the coarse context — not the vague guess."""
    coarse = np.tile([0.25, 0.5, 0.25], (COARSE, 1))
    local = np.tile([0.05, 0.15, 0.8], (COARSE, 1))
    facing = int(hand.amount_to_call() > 0)
    vague = ActionModel().probabilities(hand)
    assert np.allclose(vague, expected(hand, PRIOR[facing]))
    only_coarse = ActionModel(prior=fitted_at(hand, coarse, None)).probabilities(hand)
    assert np.allclose(only_coarse, expected(hand, coarse), atol=0.01)
    both = ActionModel(prior=fitted_at(hand, coarse, local)).probabilities(hand)
    assert np.allclose(both, expected(hand, local), atol=0.01)


def test_the_shipped_prior_knows_the_common_histories() -> None:
    from agents.plicas.actionprior import action_prior

    prior = action_prior()
    hand = HandState(GAME)
    assert prior.coarse_row(coarse_key(0, hand.current_player, True, 0)) is not None
    assert prior.local_row(local_key(0, hand.current_player, hand.pot, "")) is not None
