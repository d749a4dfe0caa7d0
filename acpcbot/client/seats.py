"""One agent at several seats at once (``acpcbot play HOST PORT PORT...``): a match on each
port, played side by side in one event loop, each by its own player and, with a broker, each
publishing on its own telemetry channel. A seat that fails does not stop the others: every
seat's outcome is returned.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from acpcbot.client.defaults import DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT
from acpcbot.client.session import MatchSummary, play_match
from acpcbot.errors import AcpcError, UsageError
from acpcbot.eventloop import run
from acpcbot.extras import need_mqtt
from acpcbot.game import Game
from acpcbot.logconfig import get_logger
from acpcbot.player import Player

if TYPE_CHECKING:
    from acpcbot.progress.player import PlayerTelemetry
    from acpcbot.telemetry.url import BrokerAddress

__all__ = ["SeatOutcome", "play_seats", "seat_lines"]


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """How the match at one seat ended: its summary, or the error that ended it; and what
    its telemetry published (``None`` without a broker)."""

    dealer: str
    """``HOST:PORT``."""
    summary: MatchSummary | None
    error: BaseException | None
    told: dict[str, Any] | None

    @property
    def failure(self) -> str:
        """The error in one line: ours by its message, any other by its repr."""
        return str(self.error) if isinstance(self.error, AcpcError) else repr(self.error)

    def json(self) -> dict[str, Any]:
        """The dealer, the summary's fields, and ``telemetry`` when there was a broker."""
        assert self.summary is not None
        told = {} if self.told is None else {"telemetry": self.told}
        return {"dealer": self.dealer, **dataclasses.asdict(self.summary), **told}


def play_seats(
    host: str,
    ports: Sequence[int],
    players: Sequence[Player],
    *,
    game: Game,
    name: str | None = None,
    mqtt: BrokerAddress | None = None,
    label: str = "",
    describe: Mapping[str, Any] | None = None,
    budget_ms: float | None = None,
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
    read_timeout: float | None = DEFAULT_READ_TIMEOUT,
    uvloop: bool | None = None,
) -> list[SeatOutcome]:
    """Play ``players[i]`` at ``ports[i]`` of ``host``, all at once (``name``: the player's
    name, passed to it). With ``mqtt`` each match publishes as ``name`` (else ``label``),
    then ``@HOST:PORT`` when there are several, described by ``describe`` and its dealer.
    Ctrl-C ends every match (each channel says ``interrupted``) and is raised; a port given
    twice is a :class:`UsageError`, nothing played."""
    if len(set(ports)) < len(ports):
        raise UsageError(f"a port is given twice: {' '.join(map(str, ports))}")
    dealers = [f"{host}:{port}" for port in ports]
    telemetries: list[PlayerTelemetry | None] = [None] * len(ports)
    if mqtt is not None:
        channel = name or label
        telemetries = [
            _telemetry(
                mqtt,
                f"{channel}@{dealer}" if len(ports) > 1 else channel,
                {**(describe or {}), "dealer": dealer},
                game,
            )
            for dealer in dealers
        ]

    async def play_all() -> list[MatchSummary | BaseException]:
        matches = [
            play_match(
                host,
                port,
                player,
                game=game,
                budget_ms=budget_ms,
                connect_timeout=connect_timeout,
                read_timeout=read_timeout,
                name=name,
                on_hand=telemetry.on_hand if telemetry is not None else None,
            )
            for port, player, telemetry in zip(ports, players, telemetries, strict=True)
        ]
        return await asyncio.gather(*matches, return_exceptions=True)

    try:
        ended = run(play_all(), uvloop=uvloop)
    except BaseException as exc:
        for telemetry in telemetries:
            if telemetry is not None:
                telemetry.end(exc)
        raise
    outcomes = []
    for dealer, telemetry, end in zip(dealers, telemetries, ended, strict=True):
        if isinstance(end, BaseException):
            told = telemetry.end(end) if telemetry is not None else None
            outcomes.append(SeatOutcome(dealer, None, end, told))
        else:
            told = telemetry.end(None, dataclasses.asdict(end)) if telemetry is not None else None
            outcomes.append(SeatOutcome(dealer, end, None, told))
    return outcomes


def _telemetry(
    broker: BrokerAddress, name: str, describe: Mapping[str, Any], game: Game
) -> PlayerTelemetry:
    """A seat's channel: ``running`` is published at once."""
    # the progress display and telemetry: only a client given --mqtt loads them
    from acpcbot.progress.player import PlayerTelemetry

    need_mqtt()
    warn = get_logger("telemetry").warning
    return PlayerTelemetry(broker, name, describe, game.big_blind, warn=warn)


def seat_lines(outcomes: Sequence[SeatOutcome], ports: Sequence[int], label: str) -> list[str]:
    """What ``acpcbot play`` says of the seats whose match ended cleanly: ``label`` (the
    agent) with each one's summary (and its port when there are several), then what the
    broker was told."""
    # telemetry's text: only for a seat that published
    from acpcbot.telemetry.channel import told_text

    lines = []
    for port, seat in zip(ports, outcomes, strict=True):
        if seat.summary is None:
            continue
        lines.append(f"{label}{f' (port {port})' if len(outcomes) > 1 else ''}: {seat.summary}")
        if seat.told is not None:
            lines.append(told_text(seat.told))
    return lines
