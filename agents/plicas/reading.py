"""A :class:`Reading`: how strong the agent's hand is, as numbers the units decide on.

The numbers come from the engine (see :mod:`agents.plicas.strength`); the units only read
them, so each unit can be tested with a reading written by hand.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Reading:
    """The agent's hand against the opponent's modelled range."""

    strength: float
    """Equity against the opponent's weighted range (rolled out to the river)."""
    strength_called: float
    """Equity against the part of that range that does not fold to one more bet."""
    hand_strength: float
    """Equity against a uniformly random hand: the scale of the buckets."""
    bucket: int
    """1 (strongest) .. 8 (unplayable): the preflop class or the postflop bucket."""
    top_share: float = 1.0
    """Preflop: share of all hands ranked at least as high as this one (AA about 0.005)."""

    def __post_init__(self) -> None:
        for name in ("strength", "strength_called", "hand_strength", "top_share"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} {value} outside [0, 1]")
        if not 1 <= self.bucket <= 8:
            raise ValueError(f"bucket {self.bucket} outside 1..8")
