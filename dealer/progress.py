"""A progress line for long matches: hands played, hands/s and the running mbb/g.

Only drawn when stderr is a terminal, at most a few times a second, on one line that is
rewritten in place and cleared at the end.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from dealer.stats import to_mbb

_EVERY = 512
"""Hands between looks at the clock."""


class Progress:
    """Reports progress over ``total`` hands."""

    def __init__(self, total: int, big_blind: int, stream: TextIO | None = None) -> None:
        self._stream = stream if stream is not None else sys.stderr
        self.enabled = self._stream.isatty()
        self._total = total
        self._big_blind = big_blind
        self._started = time.perf_counter()
        self._shown = 0.0
        self._drawn = False

    def update(self, hands: int, chips: float, label: str) -> None:
        """``hands`` played so far in total, ``chips`` won so far by the player reported."""
        if not self.enabled or hands % _EVERY:
            return
        now = time.perf_counter()
        if now - self._shown < 0.25:
            return
        self._shown = now
        rate = hands / max(now - self._started, 1e-9)
        mbb = to_mbb(chips / max(hands, 1), self._big_blind)
        line = (
            f"\r{label}: {hands:,}/{self._total:,} hands, {rate:,.0f} hands/s, "
            f"{mbb:+.1f} mbb/g so far"
        )
        self._stream.write(line + "\x1b[K")
        self._stream.flush()
        self._drawn = True

    def clear(self) -> None:
        if self._drawn:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._drawn = False
