"""Refereeing a match over TCP: the handshake, then every hand, state by state.

The seats connect and send their ``VERSION`` lines on asyncio; then, for speed, the hands
are played on blocking sockets in a worker thread (:mod:`dealer.referee.handloop`), so the event
loop stays free for anything else in the process (say, in-process clients).

Every failure ends in :class:`~dealer.referee.faults.MatchAbortedError` naming the seat: a
timeout, a disconnect (of the acting seat or any other), a bad ``VERSION`` line, or in
strict mode a bad reply. The ``.log`` keeps every finished hand.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from acpcbot.protocol.constants import VERSION
from acpcbot.protocol.lenient import read_version
from dealer.referee.blockingseat import BlockingSeat
from dealer.referee.faults import seat_error
from dealer.referee.handloop import HandLoop
from dealer.referee.listeners import Listeners
from dealer.referee.referee import Referee
from dealer.referee.seat import SeatConnection
from dealer.referee.timing import now_us, waited
from dealer.referee.transcript import Transcript, stamp


class TcpMatch:
    """Plays the referee's match with the connected seats."""

    def __init__(
        self,
        referee: Referee,
        seats: Sequence[SeatConnection],
        reporter: Transcript,
        *,
        spin_s: float = 0.0,
        hold_idle: bool = False,
    ) -> None:
        self.referee = referee
        self.seats = list(seats)
        self.reporter = reporter
        self.spin_s = spin_s
        """How long a read spins before it blocks (see :mod:`dealer.referee.blockingseat`)."""
        self.hold_idle = hold_idle
        """Hold an idle seat's states until its next write (see :mod:`dealer.referee.handloop`)."""
        self._response_s = referee.config.limits.response_ms / 1000
        self.last_sent_us = now_us()

    async def handshake(self) -> None:
        """Read each seat's ``VERSION`` line, seat 1 first (with a timeout, unlike the C)."""
        for seat, connection in enumerate(self.seats):
            started = now_us()
            got = await connection.next_line(self._response_s)
            if got is None:
                why = waited(started, self._response_s)
                raise seat_error(seat, "could not read version string from {seat}", why)
            line, _ = got
            version = read_version(line)
            if version is None:
                text = line.decode("latin-1")
                raise seat_error(seat, f"invalid version string {text} ({{seat}})")
            major, minor, _ = version
            if major != VERSION[0] or minor > VERSION[1]:
                text = "this server is currently using version 2.0.0"
                if self.referee.config.strict:
                    raise seat_error(seat, f"{{seat}} sent {line.decode('latin-1')!r}: {text}")
                self.reporter.message(f"ERROR: {text}")
        self.last_sent_us = now_us()
        self.reporter.verbose(f"STARTED at {stamp(self.last_sent_us)}")

    async def play(self) -> str:
        """Play every remaining hand (in a thread, on blocking sockets: see
        :mod:`dealer.referee.handloop`); return the ``SCORE`` line."""
        response_s = self._response_s
        seats = []
        for connection in self.seats:
            sock, lines, buffer = connection.hand_over()
            seat = BlockingSeat(
                sock,
                response_s,
                lines=lines,
                buffer=buffer,
                at_eof=connection.at_eof,
                spin_s=self.spin_s,
            )
            seats.append(seat)
        loop = HandLoop(
            self.referee,
            seats,
            self.reporter,
            response_s,
            self.last_sent_us,
            hold_idle=self.hold_idle,
        )
        try:
            return await asyncio.to_thread(loop.play)
        except asyncio.CancelledError:  # say, Ctrl-C: the thread must not play on
            loop.interrupt()
            raise

    async def close(self) -> None:
        """Close every connection, letting queued bytes go out first."""
        for connection in self.seats:
            await connection.close()


async def referee_over_tcp(
    referee: Referee,
    listeners: Listeners,
    reporter: Transcript,
    *,
    start_timeout_ms: int = -1,
    spin_s: float = 0.0,
    hold_idle: bool = False,
) -> str:
    """Accept the seats, check their versions, play the referee's remaining hands (all of
    them, or the rest of a resumed match) and return the ``SCORE`` line. On any failure
    every connection is dropped and :class:`~dealer.referee.faults.MatchAbortedError` propagates.
    ``spin_s``: how long each read spins before it blocks (0 when the players share this
    process: they need the interpreter); ``hold_idle``: hold each idle seat's states until
    its next write."""
    try:
        seats = await listeners.accept(start_timeout_ms)
        match = TcpMatch(referee, seats, reporter, spin_s=spin_s, hold_idle=hold_idle)
        await match.handshake()
        score = await match.play()
    except BaseException:
        reporter.flush()
        listeners.close()
        raise
    await match.close()
    return score
