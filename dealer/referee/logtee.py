"""A match log that also hands each ``STATE`` line to someone else (``--mqtt-hands``).

>>> import io
>>> from dealer.referee.matchlog import MatchLog
>>> seen = []
>>> tee = LogTee(MatchLog(io.BytesIO()), seen.append)
>>> tee.line("STATE:0:cc/cc/cc/cc:Ah2c|9d9h/4s5s6s/7c/Kd:-50|50:a|b"); tee.line("SCORE:-50|50:a|b")
>>> seen
['STATE:0:cc/cc/cc/cc:Ah2c|9d9h/4s5s6s/7c/Kd:-50|50:a|b']
"""

from __future__ import annotations

from collections.abc import Callable

from dealer.referee.matchlog import LogLines

__all__ = ["LogTee"]


class LogTee:
    """Writes to ``log`` (if any) and tells ``on_state`` every ``STATE`` line."""

    __slots__ = ("_log", "_on_state")

    def __init__(self, log: LogLines | None, on_state: Callable[[str], None]) -> None:
        self._log = log
        self._on_state = on_state

    def line(self, text: str) -> None:
        if self._log is not None:
            self._log.line(text)
        if text.startswith("STATE:"):
            self._on_state(text)

    def hand_done(self) -> None:
        if self._log is not None:
            self._log.hand_done()

    def flush(self) -> None:
        if self._log is not None:
            self._log.flush()
