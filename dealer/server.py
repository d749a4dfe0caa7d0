"""Refereeing a match over TCP: the handshake, then every hand, state by state.

This is the reference's ``gameLoop`` on asyncio. After every action each seat is sent its
view (seat 1 first), and at the end of the hand its final view; the acting seat's reply
is read with the reference's lenient rules (:mod:`dealer.reply`) and time limits
(:mod:`dealer.timing`). Writes to a seat that is not about to act are queued and go out
with the next write to it, at the latest at the end of the hand.

Every failure ends in :class:`~dealer.faults.MatchAbortedError` naming the seat: a
timeout, a disconnect (of the acting seat or any other), a bad ``VERSION`` line, or in
strict mode a bad reply. The ``.log`` keeps every finished hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from acpcbot.actions import Action
from dealer.engine import MatchEngine
from dealer.faults import seat_error
from dealer.listeners import Listeners
from dealer.reply import ReplyKind, Request, read_reply, read_version
from dealer.reporter import Reporter, stamp
from dealer.seat import SeatConnection, SeatGoneError
from dealer.statelines import StateLines
from dealer.timing import now_us
from dealer.tlog import Transaction

PROTOCOL_VERSION = (2, 0, 0)
CRLF = b"\r\n"


class TcpReferee:
    """Plays the engine's match with the connected seats."""

    def __init__(
        self, engine: MatchEngine, seats: Sequence[SeatConnection], reporter: Reporter
    ) -> None:
        self.engine = engine
        self.seats = list(seats)
        self.reporter = reporter
        self._response_s = engine.config.limits.response_ms / 1000
        self.last_sent_us = now_us()

    async def handshake(self) -> None:
        """Read each seat's ``VERSION`` line, seat 1 first (with a timeout, unlike the C)."""
        for seat, connection in enumerate(self.seats):
            started = now_us()
            got = await connection.next_line(self._response_s)
            if got is None:
                raise seat_error(
                    seat, "could not read version string from {seat}", self._waited(started)
                )
            line, _ = got
            version = read_version(line)
            if version is None:
                raise seat_error(
                    seat, f"invalid version string {line.decode('latin-1')} ({{seat}})"
                )
            major, minor, _ = version
            if major != PROTOCOL_VERSION[0] or minor > PROTOCOL_VERSION[1]:
                text = "this server is currently using version 2.0.0"
                if self.engine.config.strict:
                    raise seat_error(seat, f"{{seat}} sent {line.decode('latin-1')!r}: {text}")
                self.reporter.message(f"ERROR: {text}")
        self.last_sent_us = now_us()
        self.reporter.verbose(f"STARTED at {stamp(self.last_sent_us)}")

    async def play(self) -> str:
        """Play every remaining hand; return the ``SCORE`` line."""
        engine = self.engine
        seats = self.seats
        reporter = self.reporter
        verbose = not reporter.quiet
        seat_range = range(len(seats))
        while not engine.match_over:
            hand = engine.hand
            lines = StateLines(hand, engine.deal)
            while not hand.finished:
                position = hand.current_player
                acting = engine.seat_of(position)
                request_line = b""
                for seat in seat_range:
                    data = lines.line(engine.position_of(seat))
                    if seat == acting:
                        request_line = data
                    seats[seat].queue(data + CRLF)
                    if verbose:
                        reporter.sent(seat, now_us(), data + CRLF)
                self._flush(acting)
                sent_us = self.last_sent_us = now_us()
                reporter.flush()
                request = Request(position, hand, engine.deal, request_line)
                lines.record(await self._read_action(acting, request, sent_us))
            engine.finish_hand()
            for seat in seat_range:
                data = lines.line(engine.position_of(seat)) + CRLF
                seats[seat].queue(data)
                if verbose:
                    reporter.sent(seat, now_us(), data)
            for seat in seat_range:
                self._flush(seat)
            self.last_sent_us = now_us()
            if verbose and engine.hand_number % 100 == 0:
                for seat in seat_range:
                    used = engine.times.match_used[seat] // 1_000_000
                    reporter.verbose(f"Seconds cumulatively spent in match for seat {seat}: {used}")
            reporter.flush()
            engine.next_hand()
        reporter.verbose(f"FINISHED at {stamp(self.last_sent_us)}")
        return engine.finish_match()

    async def close(self) -> None:
        """Close every connection, letting queued bytes go out first."""
        for connection in self.seats:
            await connection.close()

    def _flush(self, seat: int) -> None:
        try:
            self.seats[seat].flush()
        except SeatGoneError:
            raise seat_error(seat, "could not send state to {seat}: it disconnected") from None

    async def _read_action(self, seat: int, request: Request, sent_us: int) -> Action:
        """``readPlayerResponse``: lines until one carries an action for ``request``."""
        engine = self.engine
        connection = self.seats[seat]
        reporter = self.reporter
        strict = engine.config.strict
        while True:
            started = now_us()
            got = await connection.next_line(self._response_s)
            if got is None:
                raise seat_error(seat, "could not get action from {seat}", self._waited(started))
            line, terminated = got
            received_us = now_us()
            reporter.received(seat, received_us, line, terminated)
            reply = read_reply(line, terminated, request)
            kind = reply.kind
            if kind is ReplyKind.ACTION:
                if not engine.times.charge(seat, sent_us, received_us):
                    raise seat_error(seat, "{seat} ran out of time")
                return engine.take(
                    reply.action,
                    unknown=reply.unknown,
                    trailing=reply.trailing,
                    line=line.decode("latin-1"),
                    sent_us=sent_us,
                    received_us=received_us,
                )
            if kind is ReplyKind.COMMENT:
                continue
            if not engine.times.charge(seat, sent_us, received_us):
                raise seat_error(seat, "{seat} ran out of time")
            if strict:
                text = line.decode("latin-1")
                raise seat_error(
                    seat, f"{{seat}} sent a bad reply (--strict): {kind.value}: {text!r}"
                )
            reporter.warning(kind.value)

    def _waited(self, started_us: int) -> str:
        spent = (now_us() - started_us) / 1e6
        return f"{spent:.1f} seconds spent waiting; timeout {self._response_s:.1f}"


async def referee_over_tcp(
    engine: MatchEngine,
    listeners: Listeners,
    reporter: Reporter,
    *,
    start_timeout_ms: int = -1,
    transactions: Sequence[Transaction] = (),
    logged_hands: Sequence[int] = (),
) -> str:
    """Accept the seats, check their versions, replay ``transactions`` (a resumed match),
    play the rest and return the ``SCORE`` line. On any failure every connection is
    dropped and :class:`~dealer.faults.MatchAbortedError` propagates."""
    try:
        seats = await listeners.accept(start_timeout_ms)
        referee = TcpReferee(engine, seats, reporter)
        await referee.handshake()
        engine.replay(transactions, logged_hands)
        score = await referee.play()
    except BaseException:
        reporter.flush()
        listeners.close()
        raise
    await referee.close()
    return score
