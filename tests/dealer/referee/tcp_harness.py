"""Running our dealer's TCP server inside a test's event loop, on real 127.0.0.1 sockets."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from dealer.referee.config import MatchConfig
from dealer.referee.faults import MatchAbortedError
from dealer.referee.listeners import Listeners
from dealer.referee.matchlog import MatchLog
from dealer.referee.referee import Referee
from dealer.referee.server import referee_over_tcp
from dealer.referee.transcript import Transcript

Client = Callable[[int], Coroutine[Any, Any, None]]
"""Connects to the given port and plays."""


@dataclass
class Outcome:
    score: str | None
    """The ``SCORE`` line, or ``None`` when the match was aborted."""
    error: MatchAbortedError | None
    log: bytes
    messages: list[str]
    """Every WARNING/ERROR line, the abort's lines last."""

    @property
    def logged_hands(self) -> list[str]:
        return [line for line in self.log.decode().splitlines() if line.startswith("STATE:")]


async def run_tcp_match(
    config: MatchConfig,
    clients: Sequence[Client],
    *,
    start_timeout_ms: int = 10_000,
    spin_s: float = 0.0,
    hold_idle: bool = False,
) -> Outcome:
    buffer = io.BytesIO()
    log = MatchLog(buffer)
    log.header(config.header)
    reporter = Transcript(None)
    engine = Referee(config, log=log, reporter=reporter)
    listeners = await Listeners.open("127.0.0.1", [], config.game.num_players)
    players = [
        asyncio.create_task(client(port))
        for client, port in zip(clients, listeners.ports, strict=True)
    ]
    score = error = None
    try:
        score = await asyncio.wait_for(
            referee_over_tcp(
                engine,
                listeners,
                reporter,
                start_timeout_ms=start_timeout_ms,
                spin_s=spin_s,
                hold_idle=hold_idle,
            ),
            60,
        )
    except MatchAbortedError as exc:
        error = exc
        reporter.messages.extend(exc.lines)
    # After an abort a misbehaving client may still be asleep: do not wait for it.
    _, pending = await asyncio.wait(players, timeout=30 if error is None else 0.5)
    for task in pending:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    return Outcome(score, error, buffer.getvalue(), reporter.messages)
