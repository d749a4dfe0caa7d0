"""The reference's reply-time accounting (``checkErrorTimes``), in microseconds.

Each reply is timed from the moment the state was sent to the acting seat until the
reply's line arrived. That time counts against the response limit, the seat's total in
the current hand and its total over the match.

>>> from dealer.referee.config import TimeLimits
>>> budget = TimeBudget(TimeLimits(response_ms=1000, hand_ms=1500, per_hand_ms=1000), hands=2)
>>> budget.charge(0, 0, 900_000), budget.charge(0, 0, 900_000)
(True, False)
"""

from __future__ import annotations

import time

from dealer.referee.config import TimeLimits


def now_us() -> int:
    """Wall-clock time in microseconds (the reference's ``gettimeofday``)."""
    return time.time_ns() // 1000


def waited(started_us: int, timeout_s: float) -> str:
    """How long a read has waited, for a timeout's error message (the reference's words)."""
    spent = (now_us() - started_us) / 1e6
    return f"{spent:.1f} seconds spent waiting; timeout {timeout_s:.1f}"


class TimeBudget:
    """Reply time used by each seat, in this hand and in the match."""

    __slots__ = ("hand_used", "match_used", "max_hand", "max_match", "max_response")

    def __init__(self, limits: TimeLimits, hands: int, seats: int = 2) -> None:
        self.max_response = limits.response_ms * 1000
        self.max_hand = limits.hand_ms * 1000
        self.max_match = limits.per_hand_ms * 1000 * hands
        self.hand_used = [0] * seats
        self.match_used = [0] * seats

    def new_hand(self) -> None:
        for seat in range(len(self.hand_used)):
            self.hand_used[seat] = 0

    def charge(self, seat: int, sent_us: int, received_us: int) -> bool:
        """Count one reply; ``False`` when the seat is now over a limit."""
        if received_us < sent_us:  # the clock went backwards: the reference skips it
            return True
        used = received_us - sent_us
        self.hand_used[seat] += used
        self.match_used[seat] += used
        return (
            used <= self.max_response
            and self.hand_used[seat] <= self.max_hand
            and self.match_used[seat] <= self.max_match
        )
