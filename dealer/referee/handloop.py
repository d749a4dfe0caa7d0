"""Every hand of a TCP match, state by state: the reference's ``gameLoop``, blocking.

After every action each seat is sent its view (seat 1 first), and at the end of the hand
its final view, as the reference does, though the final view goes out in one write with
the next hand's first state (the same bytes, with one system call and one wake-up less per
seat and hand; the last hand's at the end of the match); the acting seat's reply is read
with the reference's lenient rules (:mod:`acpcbot.protocol.lenient`) and time limits
(:mod:`dealer.referee.timing`).
With ``hold_idle`` the writes to a seat that is not about to act are held and go out with
the next write to it (the next time it is asked to act), at the latest when the match
ends: every seat still receives every byte, in order, but is spared a wake-up per state.

The loop runs on blocking sockets (:class:`~dealer.referee.blockingseat.BlockingSeat`), in a
thread of its own (see :mod:`dealer.referee.server`): per action one ``send`` and one ``recv``.
Every failure ends in :class:`~dealer.referee.faults.MatchAbortedError` naming the seat: a
timeout, a disconnect, or in strict mode a bad reply.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from acpcbot.actions import Action
from acpcbot.protocol.lenient import ReplyKind, Request, echoed_action, read_reply
from acpcbot.protocol.statelines import StateLines
from dealer.referee.blockingseat import BlockingSeat
from dealer.referee.faults import seat_error
from dealer.referee.referee import Referee
from dealer.referee.seat import SeatGoneError
from dealer.referee.timing import now_us, waited
from dealer.referee.transcript import Transcript, stamp

_ACTION = ReplyKind.ACTION  # members as constants: cheaper than from the class
_COMMENT = ReplyKind.COMMENT


class HandLoop:
    """Plays the referee's remaining hands with the connected seats."""

    def __init__(
        self,
        referee: Referee,
        seats: Sequence[BlockingSeat],
        reporter: Transcript,
        response_s: float,
        last_sent_us: int,
        *,
        hold_idle: bool = False,
    ) -> None:
        self.referee = referee
        self.hold_idle = hold_idle
        self.seats = list(seats)
        self.reporter = reporter
        self._response_s = response_s
        self.last_sent_us = last_sent_us
        self._verbose = not reporter.quiet

    def play(self) -> str:
        """Play every remaining hand and return the ``SCORE`` line; the seats are let go
        of (their queued states sent if possible) whatever happens."""
        try:
            referee = self.referee
            while not referee.match_over:
                self._play_hand()
            if not self.hold_idle:  # the last hand's final states (else sent by close)
                for index in range(len(self.seats)):
                    self._send(index)
            self.reporter.verbose(f"FINISHED at {stamp(self.last_sent_us)}")
            return referee.finish_match()
        finally:
            self.reporter.flush()
            for connection in self.seats:
                connection.close()

    def interrupt(self) -> None:
        """Make :meth:`play` (in another thread) end soon with an error: every seat's
        connection is shut down."""
        for seat in self.seats:
            seat.shut_down()

    def _play_hand(self) -> None:
        # Hot path (every action): locals, bytes built once a state, one write a seat, the
        # usual reply read at once, and the reporter only when it is not quiet.
        referee = self.referee
        hand = referee.hand
        lines = StateLines(hand, referee.deal, referee.cards_layout, referee.dealt.full_field)
        seats = self.seats
        count = len(seats)
        button = referee.player0_seat
        positions = [(seat - button) % count for seat in range(count)]
        hold_idle = self.hold_idle
        verbose = self._verbose
        while not hand.finished:
            position = hand.current_player
            acting = (position + button) % count
            messages = lines.messages()
            if verbose:
                for seat in range(count):
                    self.reporter.sent(seat, now_us(), messages[positions[seat]])
                self.reporter.flush()
            if hold_idle:  # the others' states wait for their next write
                for other in range(count):
                    if other != acting:
                        seats[other].queue(messages[positions[other]])
                self._send(acting, messages[position])
            else:
                for seat in range(count):
                    self._send(seat, messages[positions[seat]])
            self.last_sent_us = sent_us = now_us()
            action = self._read_action(acting, position, messages[position][:-2], sent_us)
            lines.record(action)
        self._end_hand(lines)

    def _send(self, seat: int, data: bytes | None = None) -> None:
        """Write what is queued for ``seat`` (and ``data`` with it, in one call)."""
        try:
            if data is None:
                self.seats[seat].flush()
            else:
                self.seats[seat].send(data)
        except SeatGoneError as exc:
            raise seat_error(seat, f"could not send state to {{seat}}: {exc}") from None

    def _read_action(self, seat: int, position: int, sent: bytes, sent_us: int) -> Action:
        """Read the acting seat's lines until one is an action (``sent``: its state, without
        the line ending); apply it."""
        referee = self.referee
        connection = self.seats[seat]
        limit = referee.game.is_limit
        waited_from = sent_us
        deadline = time.monotonic() + self._response_s
        while True:
            got = connection.next_line(deadline)
            if got is None:
                why = waited(waited_from, self._response_s)
                raise seat_error(seat, "could not get action from {seat}", why)
            line, terminated = got
            received_us = now_us()
            if self._verbose:
                self.reporter.received(seat, received_us, line, terminated)
            reply = echoed_action(line, sent) if limit else None
            if reply is None:
                request = Request(position, referee.hand, referee.deal, sent)
                reply = read_reply(line, terminated, request)
            kind = reply.kind
            if kind is not _ACTION:  # the next line has a time limit of its own
                waited_from = received_us
                deadline = time.monotonic() + self._response_s
            if kind is _COMMENT:
                continue
            if not referee.times.charge(seat, sent_us, received_us):
                raise seat_error(seat, "{seat} ran out of time")
            if kind is not _ACTION:
                if referee.config.strict:
                    why = f"{kind.value}: {line.decode('latin-1')!r}"
                    raise seat_error(seat, f"{{seat}} sent a bad reply (--strict): {why}")
                self.reporter.warning(kind.value)
                self.reporter.flush()
                continue
            return referee.take(
                reply.action,
                unknown=reply.unknown,
                trailing=reply.trailing,
                line=line.decode("latin-1"),
                sent_us=sent_us,
                received_us=received_us,
            )

    def _end_hand(self, lines: StateLines) -> None:
        referee = self.referee
        reporter = self.reporter
        verbose = self._verbose
        referee.finish_hand()
        messages = lines.messages()
        for seat, connection in enumerate(self.seats):
            data = messages[referee.position_of(seat)]
            connection.queue(data)
            if verbose:
                reporter.sent(seat, now_us(), data)
        # Each goes out with the seat's next write: the next hand's first state (or, with
        # hold_idle, the seat's next turn), at the latest when the match ends.
        self.last_sent_us = now_us()
        if verbose and referee.hand_number % 100 == 0:
            for seat in range(len(self.seats)):
                used = referee.times.match_used[seat] // 1_000_000
                reporter.verbose(f"Seconds cumulatively spent in match for seat {seat}: {used}")
        reporter.flush()
        referee.next_hand()
