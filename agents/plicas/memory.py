"""One memory for everything PLICAS learns about its opponent: every count fades at the same
rate, and when the opponent is seen to change, every count is discounted at once.

Each learning unit (the opponent model, the showdown calibration, the case base, the action
model and the change detector's long view) stores its counts through the one
:class:`Memory`: an observation made now adds :attr:`Memory.weight`, and a count is read as
what is stored divided by :attr:`Memory.scale`. Each hand the scale grows by
``1 / (1 - 1/hands)``, so everything seen ``n`` hands ago counts ``(1 - 1/hands)^n`` as much
as what is seen now, without touching a single stored number. When the change detector
(:mod:`agents.plicas.change`) says the opponent has changed, :meth:`Memory.discount`
divides the scale's worth of everything seen so far by ``1 / keep``: the stale evidence
weighs ``keep`` of what it did, the estimates fall back towards their priors and coarser
levels, and the confidence built on the counts drops with them; the new evidence then
builds them up again. When the scale grows large the units fold it into their stored counts
(:meth:`Memory.fold`), so no number overflows.

>>> memory = Memory(hands=10, keep=0.1)
>>> stored = memory.weight            # one observation, now
>>> memory.next_hand(); round(memory.read(stored), 3)
0.9
>>> memory.discount(); round(memory.read(stored), 3)
0.09
>>> round(memory.hands, 3)            # the hands it remembers, weighted the same way
0.09
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["Memory", "Scaled"]

_FOLD_AT = 1e12
"""The scale is folded into the stored counts once it grows past this."""


class Scaled(Protocol):
    """A learning unit whose counts are stored through a :class:`Memory`."""

    def rescale(self, factor: float) -> None:
        """Multiply every stored count by ``factor``."""


class Memory:
    """The clock of what PLICAS remembers (see the module's docstring). ``hands`` 0 never
    fades (a change still discounts)."""

    def __init__(self, hands: int = 0, keep: float = 0.01) -> None:
        self.decay = 1.0 / hands if hands > 0 else 0.0
        self.keep = keep
        """The share of its weight the evidence keeps when a change is detected."""
        self.scale = 1.0
        """Stored counts are what they count times this."""
        self.changes = 0
        """Changes discounted so far."""
        self._hands = 0.0
        self._units: list[Scaled] = []

    def register(self, unit: Scaled) -> None:
        """``unit`` stores its counts through this memory."""
        self._units.append(unit)

    @property
    def weight(self) -> float:
        """What one observation made now adds to a stored count."""
        return self.scale

    def read(self, stored: float) -> float:
        """A stored count as the observations it is worth now."""
        return stored / self.scale

    @property
    def hands(self) -> float:
        """The hands remembered, each weighted as its observations are."""
        return self._hands / self.scale

    def next_hand(self) -> None:
        """A hand is over: what came before weighs ``1 - 1/hands`` as much."""
        self._hands += self.scale
        if self.decay > 0:
            self._grow(1.0 / (1.0 - self.decay))

    def discount(self) -> None:
        """The opponent has changed: everything seen so far weighs ``keep`` as much."""
        self.changes += 1
        self._grow(1.0 / self.keep)

    def _grow(self, factor: float) -> None:
        self.scale *= factor
        if self.scale > _FOLD_AT:
            self.fold()

    def fold(self) -> None:
        """Fold the scale into every unit's stored counts (the scale back to 1)."""
        factor = 1.0 / self.scale
        for unit in self._units:
            unit.rescale(factor)
        self._hands *= factor
        self.scale = 1.0
