"""How a match ends early: one exception carrying the reference-style error lines."""

from __future__ import annotations

from acpcbot.errors import AcpcError


class MatchAbortedError(AcpcError):
    """The match cannot go on. ``lines`` are printed to stderr as they are, the first one
    starting with ``ERROR:`` like the reference's messages."""

    def __init__(self, *lines: str, seat: int | None = None) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines
        self.seat = seat
        """The 0-based seat at fault, when there is one."""


def seat_error(seat: int, what: str, *more: str) -> MatchAbortedError:
    """An error naming ``seat`` (0-based) the way the reference does: ``{seat}`` in
    ``what`` becomes "seat 2".

    >>> seat_error(1, "could not get action from {seat}").lines
    ('ERROR: could not get action from seat 2',)
    """
    return MatchAbortedError(
        f"ERROR: {what.replace('{seat}', f'seat {seat + 1}')}", *more, seat=seat
    )
