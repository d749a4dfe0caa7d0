"""Postflop buckets: hand strength in [0, 1] cut into eight classes, 1 the strongest.

The same orientation as the preflop classes of PLICAS Table 1 (class 1 = AA, KK, QQ, JJ,
AKs; class 8 = unplayable). A bucket is one tenth of strength wide from 0.3 up to 1.

>>> bucket_of(0.95), bucket_of(0.55), bucket_of(0.1)
(1, 5, 8)
>>> shift_strength(0.55, +1), shift_strength(0.98, +1)
(0.65, 1.0)
"""

from __future__ import annotations

BUCKETS = 8
UNPLAYABLE = 8
"""The class of hands PLICAS does not play for value (the bluff unit's trigger)."""
EDGES = (0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3)
"""Lower strength bound of buckets 1..7; bucket 8 is everything below 0.3."""
WIDTH = 0.1


def bucket_of(strength: float) -> int:
    """The bucket (1 strongest .. 8 unplayable) of a strength in [0, 1]."""
    for bucket, edge in enumerate(EDGES, start=1):
        if strength >= edge:
            return bucket
    return BUCKETS


def shift_strength(strength: float, steps: int) -> float:
    """Strength moved by ``steps`` buckets (positive = stronger), kept in [0, 1]."""
    return round(min(1.0, max(0.0, strength + steps * WIDTH)), 12)
