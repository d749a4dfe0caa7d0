"""How long something will take, as a person reads it: the ETA of the progress bar on stderr
(:mod:`acpcbot.progress.display`) and of the board of ``acpcbot watch``
(:mod:`acpcbot.telemetry.watching`), read the same way in both."""

from __future__ import annotations

import math

__all__ = ["eta_text"]


def eta_text(seconds: float | None) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour on; ``?`` when unknown.

    >>> eta_text(75.0), eta_text(3725.0), eta_text(None)
    ('1:15', '1:02:05', '?')
    """
    if seconds is None or math.isinf(seconds) or math.isnan(seconds):
        return "?"
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
