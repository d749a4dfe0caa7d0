"""Refereeing a match over TCP: the handshake, then every hand, state by state.

This is the reference's ``gameLoop`` on asyncio. After every action each seat is sent its
view (seat 1 first), and at the end of the hand its final view; the acting seat's reply
is read with the reference's lenient rules (:mod:`dealer.reply`) and time limits
(:mod:`dealer.timing`). Writes to a seat that is not about to act are queued and go out
with the next write to it (the next time it is asked to act), at the latest when the
match ends.

For speed the hands are played from the connections' callbacks: a reply is read, applied
and the next states sent within the callback that received it, with no task switch and no
timer per action (one watchdog timer is moved along lazily).

Every failure ends in :class:`~dealer.faults.MatchAbortedError` naming the seat: a
timeout, a disconnect (of the acting seat or any other), a bad ``VERSION`` line, or in
strict mode a bad reply. The ``.log`` keeps every finished hand.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

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
        self._loop = asyncio.get_running_loop()
        self._done: asyncio.Future[str] = self._loop.create_future()
        self._lines: StateLines | None = None
        self._request: Request | None = None
        self._acting = -1
        """The seat whose reply is awaited (-1: none)."""
        self._sent_us = 0
        self._wait_started_us = 0
        self._deadline = 0.0
        self._watchdog: asyncio.TimerHandle | None = None
        self._plain = engine.plain
        self._verbose = not reporter.quiet

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
                text = line.decode("latin-1")
                raise seat_error(seat, f"invalid version string {text} ({{seat}})")
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
        for seat, connection in enumerate(self.seats):
            connection.listen(lambda seat=seat: self._on_input(seat))  # type: ignore[misc]
        self._step(self._start)
        try:
            return await self._done
        finally:
            for connection in self.seats:
                connection.listen(None)
            if self._watchdog is not None:
                self._watchdog.cancel()

    async def close(self) -> None:
        """Close every connection, letting queued bytes go out first."""
        for connection in self.seats:
            await connection.close()

    # -- the hand loop, driven by callbacks -------------------------------------------

    def _step(self, action: Callable[[], None]) -> None:
        """Run one piece of the loop, turning any failure into the match's result (in a
        callback an exception would otherwise only be logged, and the match would hang)."""
        if self._done.done():
            return
        try:
            action()
        except Exception as exc:
            self._acting = -1
            self.reporter.flush()
            self._done.set_exception(exc)

    def _on_input(self, seat: int) -> None:
        # _step(self._pump), inlined: this runs for every reply.
        if seat != self._acting or self._done.done():
            return
        try:
            self._pump()
        except Exception as exc:
            self._acting = -1
            self.reporter.flush()
            self._done.set_exception(exc)

    def _start(self) -> None:
        if self.engine.match_over:
            self._finish_match()
            return
        self._begin_hand()
        self._pump()

    def _begin_hand(self) -> None:
        engine = self.engine
        self._lines = StateLines(
            engine.hand, engine.deal, engine.cards_layout, engine.dealt.full_field
        )
        self._ask()

    def _ask(self) -> None:
        """Send every seat its view and wait for the acting seat's reply."""
        # Hot path (every action): locals, and the reporter only when it is not quiet.
        engine = self.engine
        lines = self._lines
        assert lines is not None
        hand = engine.hand
        position = hand.current_player
        seats = self.seats
        count = len(seats)
        button = engine.player0_seat
        acting = (position + button) % count
        request_line = b""
        for seat in range(count):
            data = lines.line((seat - button) % count)
            if seat == acting:
                request_line = data
            seats[seat].queue(data + CRLF)
        if self._verbose:
            for seat in range(count):
                self.reporter.sent(seat, now_us(), lines.line((seat - button) % count) + CRLF)
        self._flush(acting)
        self._sent_us = self.last_sent_us = self._wait_started_us = now_us()
        self._request = Request(position, hand, engine.deal, request_line)
        self._acting = acting
        self._arm_watchdog()

    def _pump(self) -> None:
        """Read the acting seat's lines already received, acting on each; return when it
        has to wait for more."""
        while self._acting >= 0:
            seat = self._acting
            connection = self.seats[seat]
            got = connection.pop_line()
            if got is None:
                if connection.at_eof:
                    raise seat_error(
                        seat,
                        "could not get action from {seat}",
                        self._waited(self._wait_started_us),
                    )
                self.reporter.flush()
                return
            self._read_line(seat, *got)

    def _read_line(self, seat: int, line: bytes, terminated: bool) -> None:
        engine = self.engine
        request = self._request
        assert request is not None
        received_us = now_us()
        if self._verbose:
            self.reporter.received(seat, received_us, line, terminated)
        reply = read_reply(line, terminated, request)
        kind = reply.kind
        if kind is not ReplyKind.ACTION:  # the next line has a time limit of its own
            self._wait_started_us = received_us
            self._arm_watchdog()
        if kind is ReplyKind.COMMENT:
            return
        if not engine.times.charge(seat, self._sent_us, received_us):
            raise seat_error(seat, "{seat} ran out of time")
        if kind is not ReplyKind.ACTION:
            if engine.config.strict:
                why = f"{kind.value}: {line.decode('latin-1')!r}"
                raise seat_error(seat, f"{{seat}} sent a bad reply (--strict): {why}")
            self.reporter.warning(kind.value)
            return
        if self._plain and not reply.unknown:  # no .tlog, not strict: the rules' repair
            action, warning = engine.hand.apply_coerced(reply.action)
            if warning is not None:
                engine.warn(warning)
        else:
            action = engine.take(
                reply.action,
                unknown=reply.unknown,
                trailing=reply.trailing,
                line=line.decode("latin-1"),
                sent_us=self._sent_us,
                received_us=received_us,
            )
        lines = self._lines
        assert lines is not None
        lines.record(action)
        self._acting = -1
        if not engine.hand.finished:
            self._ask()
            return
        self._end_hand()
        if engine.match_over:
            self._finish_match()
        else:
            self._begin_hand()

    def _end_hand(self) -> None:
        engine = self.engine
        reporter = self.reporter
        verbose = not reporter.quiet
        lines = self._lines
        assert lines is not None
        engine.finish_hand()
        for seat, connection in enumerate(self.seats):
            data = lines.line(engine.position_of(seat)) + CRLF
            connection.queue(data)
            if verbose:
                reporter.sent(seat, now_us(), data)
        # Not flushed here: each seat's final state goes out with its next write, when it
        # is next asked to act (or when the match ends), which saves every seat a wake-up
        # per hand.
        self.last_sent_us = now_us()
        if verbose and engine.hand_number % 100 == 0:
            for seat in range(len(self.seats)):
                used = engine.times.match_used[seat] // 1_000_000
                reporter.verbose(f"Seconds cumulatively spent in match for seat {seat}: {used}")
        reporter.flush()
        engine.next_hand()

    def _finish_match(self) -> None:
        self.reporter.verbose(f"FINISHED at {stamp(self.last_sent_us)}")
        self._done.set_result(self.engine.finish_match())

    def _flush(self, seat: int) -> None:
        try:
            self.seats[seat].flush()
        except SeatGoneError:
            raise seat_error(seat, "could not send state to {seat}: it disconnected") from None

    # -- the time limit on each read ----------------------------------------------------

    def _arm_watchdog(self) -> None:
        """Make sure a timer fires by the current read's deadline. Deadlines only move
        forward, so the pending timer (if any) usually already fires early enough; when it
        fires before the deadline it is simply moved on."""
        self._deadline = self._loop.time() + self._response_s
        if self._watchdog is None:
            self._watchdog = self._loop.call_at(self._deadline, self._on_watchdog)

    def _on_watchdog(self) -> None:
        self._watchdog = None
        if self._acting < 0 or self._done.done():
            return
        if self._loop.time() < self._deadline:
            self._watchdog = self._loop.call_at(self._deadline, self._on_watchdog)
            return
        seat = self._acting
        self._step(lambda: self._time_out(seat))

    def _time_out(self, seat: int) -> None:
        raise seat_error(
            seat, "could not get action from {seat}", self._waited(self._wait_started_us)
        )

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
