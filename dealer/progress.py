"""A progress line for long matches: hands played, hands/s, the running mbb/g and the ETA.

Only drawn when enabled (by default: when stderr is a terminal), at most four times a
second, on one line that is rewritten in place and cleared at the end. The halves of a
match may run side by side: their counts are summed by whoever draws the line.

>>> eta_text(75.0), eta_text(3725.0)
('1:15', '1:02:05')
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from dealer.stats import to_mbb

__all__ = ["Progress", "eta_text"]

_INTERVAL_S = 0.25
"""Least time between two drawings."""


def eta_text(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour on."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """Reports progress over ``total`` hands; ``label`` starts the line (say, the agents)."""

    def __init__(
        self,
        total: int,
        big_blind: int,
        label: str = "",
        stream: TextIO | None = None,
        *,
        enabled: bool | None = None,
    ) -> None:
        self._stream = stream if stream is not None else sys.stderr
        self.enabled = self._stream.isatty() if enabled is None else enabled
        self._total = total
        self._big_blind = big_blind
        self._label = f"{label}: " if label else ""
        self._started = time.perf_counter()
        self._shown = float("-inf")
        self._drawn = False

    def update(self, hands: int, chips: float) -> None:
        """``hands`` played so far in total, ``chips`` won so far over them by the player
        reported; drawn unless the last drawing was less than a quarter second ago."""
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self._shown < _INTERVAL_S:
            return
        self._shown = now
        rate = hands / max(now - self._started, 1e-9)
        mbb = to_mbb(chips / max(hands, 1), self._big_blind)
        eta = eta_text((self._total - hands) / rate) if rate > 0 else "?"
        line = (
            f"\r{self._label}{hands:,}/{self._total:,} hands, {rate:,.0f} hands/s, "
            f"{mbb:+.1f} mbb/g, ETA {eta}"
        )
        self._stream.write(line + "\x1b[K")
        self._stream.flush()
        self._drawn = True

    def clear(self) -> None:
        if self._drawn:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._drawn = False
