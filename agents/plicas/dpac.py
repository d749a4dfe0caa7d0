"""Dynamic postflop aggression control (DPAC): a probabilistic shift of the own bucket.

Against passive opponents (calling stations) PLICAS should be more aggressive, against
aggressive ones (maniacs) more passive; against a tight preflop range (which connects with
the flop more often) more careful, against a loose one bolder. The shift is drawn, not
fixed, so that the bucket mapping cannot be read off (PLICAS §4.2.4).

``score = AGGRESSION_GAIN * (REFERENCE_AGGRESSION - a) + RANGE_GAIN * (r_o - REFERENCE_RANGE)``
with ``a`` the opponent's postflop aggression; the bucket moves one up with probability
``score`` (capped) when it is positive, one down with probability ``-score`` when negative.

>>> from agents.plicas.model import PRIOR
>>> up, down = shift_probabilities(0.0, 1.0)   # a calling station with a full range
>>> up > 0.3 and down == 0.0
True
>>> draw_shift(0.9, 0.2), draw_shift(0.1, 0.2), draw_shift(0.1, -0.2)
(0, 1, -1)
"""

from __future__ import annotations

REFERENCE_AGGRESSION = 0.35
REFERENCE_RANGE = 0.7
AGGRESSION_GAIN = 1.0
RANGE_GAIN = 0.5
MAX_PROBABILITY = 0.5


def shift_probabilities(aggression: float, range_: float) -> tuple[float, float]:
    """(probability of one bucket up, of one bucket down) against an opponent with
    postflop ``aggression`` and preflop range ``range_``."""
    score = AGGRESSION_GAIN * (REFERENCE_AGGRESSION - aggression) + RANGE_GAIN * (
        range_ - REFERENCE_RANGE
    )
    score = max(-MAX_PROBABILITY, min(MAX_PROBABILITY, score))
    return max(score, 0.0), max(-score, 0.0)


def draw_shift(u: float, score: float) -> int:
    """The shift for a uniform draw ``u`` in [0, 1): +1 with probability ``score`` when it
    is positive, -1 with probability ``-score`` when negative, else 0."""
    if u < abs(score):
        return 1 if score > 0 else -1
    return 0


def dpac_shift(aggression: float, range_: float, u: float) -> int:
    """Buckets to move the own hand (+1 stronger, -1 weaker, 0) for the draw ``u``."""
    up, down = shift_probabilities(aggression, range_)
    return draw_shift(u, up - down)
