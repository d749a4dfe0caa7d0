"""A progress line for long matches (hands played, hands/s, the running mbb/g, the ETA) and
for tournaments (matches ended, hands/s over every process playing, the ETA).

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

__all__ = ["PoolProgress", "Progress", "ReadProgress", "eta_text"]

_INTERVAL_S = 0.25
"""Least time between two drawings."""


def eta_text(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour on."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class _Line:
    """One line on a terminal, rewritten in place at most every quarter second."""

    def __init__(self, label: str, stream: TextIO | None, enabled: bool | None) -> None:
        self._stream = stream if stream is not None else sys.stderr
        self.enabled = self._stream.isatty() if enabled is None else enabled
        self._label = f"{label}: " if label else ""
        self._started = time.perf_counter()
        self._shown = float("-inf")
        self._drawn = False

    def _due(self) -> float | None:
        """The seconds since the start when a drawing is due now, else ``None``."""
        if not self.enabled:
            return None
        now = time.perf_counter()
        if now - self._shown < _INTERVAL_S:
            return None
        self._shown = now
        return max(now - self._started, 1e-9)

    def _draw(self, text: str) -> None:
        self._stream.write(f"\r{self._label}{text}\x1b[K")
        self._stream.flush()
        self._drawn = True

    def clear(self) -> None:
        if self._drawn:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._drawn = False


class Progress(_Line):
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
        super().__init__(label, stream, enabled)
        self._total = total
        self._big_blind = big_blind

    def update(self, hands: int, chips: float) -> None:
        """``hands`` played so far in total, ``chips`` won so far over them by the player
        reported; drawn unless the last drawing was less than a quarter second ago."""
        seconds = self._due()
        if seconds is None:
            return
        rate = hands / seconds
        mbb = to_mbb(chips / max(hands, 1), self._big_blind)
        eta = eta_text((self._total - hands) / rate) if rate > 0 else "?"
        self._draw(
            f"{hands:,}/{self._total:,} hands, {rate:,.0f} hands/s, {mbb:+.1f} mbb/g, ETA {eta}"
        )


class PoolProgress(_Line):
    """Reports a tournament's progress: matches ended of ``matches``, hands/s over every
    process playing, and the ETA of the ``hands`` to play."""

    def __init__(
        self,
        matches: int,
        hands: int,
        label: str = "tournament",
        stream: TextIO | None = None,
        *,
        enabled: bool | None = None,
    ) -> None:
        super().__init__(label, stream, enabled)
        self._matches = matches
        self._hands = hands

    def update(self, ended: int, running: int, hands: int) -> None:
        """``ended`` matches over, ``running`` being played, ``hands`` played so far in
        all (in the running matches too); drawn at most four times a second."""
        seconds = self._due()
        if seconds is None:
            return
        rate = hands / seconds
        eta = eta_text((self._hands - hands) / rate) if rate > 0 else "?"
        self._draw(
            f"{ended:,}/{self._matches:,} matches ({running} running), "
            f"{rate:,.0f} hands/s, ETA {eta}"
        )


class ReadProgress(_Line):
    """Reports the hands read of ``total`` (``None``: not known), the hands/s and the ETA,
    for long passes over logs."""

    def __init__(
        self,
        total: int | None,
        label: str = "",
        stream: TextIO | None = None,
        *,
        enabled: bool | None = None,
    ) -> None:
        super().__init__(label, stream, enabled)
        self._total = total

    def update(self, hands: int) -> None:
        """``hands`` read so far; drawn at most four times a second."""
        seconds = self._due()
        if seconds is None:
            return
        rate = hands / seconds
        if self._total is None:
            self._draw(f"{hands:,} hands read, {rate:,.0f} hands/s")
            return
        eta = eta_text(max(0, self._total - hands) / rate) if rate > 0 else "?"
        self._draw(f"{hands:,}/{self._total:,} hands read, {rate:,.0f} hands/s, ETA {eta}")
