"""The referee of one match, whatever carries its messages (TCP or in-process).

:class:`Referee` holds what the reference dealer's ``gameLoop`` holds: the deal stream,
the button, the current hand's :class:`~acpcbot.rules.HandState`, the totals by seat and
the time budget. A transport asks it whose turn it is, hands it each proposed action
(:meth:`Referee.take` repairs it with :meth:`HandState.coerce`, exactly as the
reference does, or ends the match in strict mode), and calls :meth:`Referee.finish_hand`
and :meth:`Referee.next_hand` at the end of each hand; the referee writes the ``.log``
and ``.tlog``.

>>> from acpcbot.game import bundled_game
>>> from acpcbot.rules import CALL
>>> from dealer.referee.config import MatchConfig
>>> referee = Referee(MatchConfig("m", bundled_game(), "g.game", 1, 42, ("A", "B")))
>>> while not referee.hand.finished:
...     _ = referee.take(CALL)
>>> referee.finish_hand()
(10.0, -10.0)
>>> referee.next_hand(); referee.match_over, referee.score_line()
(True, 'SCORE:10|-10:A|B')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from acpcbot.actions import Action
from acpcbot.deal import Deal
from acpcbot.handeval import rank_hand
from acpcbot.protocol.logfile import format_score_line, state_line
from acpcbot.rules import CALL, INVALID_ACTION_WARNING, HandState
from dealer.referee.config import MatchConfig
from dealer.referee.dealing import DealStream, DealtHand
from dealer.referee.faults import seat_error
from dealer.referee.matchlog import LogLines
from dealer.referee.timing import TimeBudget
from dealer.referee.tlog import Transaction, TransactionLog, TransactionLogError
from dealer.referee.transcript import Transcript

HandObserver = Callable[["Referee", tuple[float, ...]], None]
"""Told every finished hand's values by position (before the button moves)."""


class TakeAction(Protocol):
    """The signature of :attr:`Referee.take`."""

    def __call__(
        self,
        proposed: Action | None,
        *,
        unknown: str = "",
        trailing: str = "",
        line: str = "",
        sent_us: int = 0,
        received_us: int = 0,
    ) -> Action: ...


class Referee:
    """Deals, enforces the rules, keeps score and writes the logs of one match."""

    __slots__ = (
        "_deals",
        "_log",
        "_names",
        "_names_by_button",
        "_names_text_by_button",
        "_on_hand",
        "_players",
        "_reporter",
        "_round_ends",
        "_strict",
        "_tlog",
        "cards_layout",
        "config",
        "deal",
        "dealt",
        "game",
        "hand",
        "hand_number",
        "player0_seat",
        "take",
        "times",
        "totals",
    )

    def __init__(
        self,
        config: MatchConfig,
        *,
        log: LogLines | None = None,
        tlog: TransactionLog | None = None,
        reporter: Transcript | None = None,
        on_hand: HandObserver | None = None,
    ) -> None:
        self.config = config
        self._on_hand = on_hand
        self.game = config.game
        self._players = config.game.num_players
        self._names = config.names
        # Names in position order, for each seat that can be at position 0.
        self._names_by_button = [
            tuple(config.names[(p + button) % self._players] for p in range(self._players))
            for button in range(self._players)
        ]
        self._strict = config.strict
        self._log = log
        self._tlog = tlog
        self._reporter = reporter if reporter is not None else Transcript(None)
        self._deals = DealStream(config.game, config.seed)
        self.cards_layout = self._deals.layout
        """Where the pieces of :attr:`DealtHand.full_field` are, for this game."""
        self._round_ends = self.cards_layout.round_ends
        self._names_text_by_button = ["|".join(names) for names in self._names_by_button]
        self.totals = [0.0] * self._players
        """Chips won so far, by seat."""
        self.times = TimeBudget(config.limits, config.hands, self._players)
        self.hand_number = 0
        self.player0_seat = 0
        """The seat at position 0 in the current hand (it moves one seat every hand)."""
        self.deal: Deal
        self.dealt: DealtHand
        """The current hand's cards with their text and showdown ranks."""
        self.hand: HandState
        self.take: TakeAction = (
            self._take_plain if tlog is None and not config.strict else self._take_checked
        )
        """Apply the acting seat's proposed action and return the action played: the one
        way every transport changes the hand (chosen once, for speed).

        ``None`` is an action that did not parse, ``unknown`` an action character the
        protocol does not know. Like the reference, anything illegal becomes a call (a
        no-limit raise size is clamped) with a warning; in strict mode it ends the match,
        as does text after the action (``trailing``). ``line`` is the reply as received,
        for the error message; the times go to the ``.tlog``."""
        self._start_hand()

    # -- seats and positions --------------------------------------------------------

    def seat_of(self, position: int) -> int:
        """The seat (0-based) playing ``position`` in the current hand."""
        return (position + self.player0_seat) % self._players

    def position_of(self, seat: int) -> int:
        """The position of ``seat`` (0-based) in the current hand."""
        return (seat - self.player0_seat) % self._players

    @property
    def acting_seat(self) -> int:
        return self.seat_of(self.hand.current_player)

    @property
    def match_over(self) -> bool:
        return self.hand_number >= self.config.hands

    # -- playing --------------------------------------------------------------------

    def _take_checked(
        self,
        proposed: Action | None,
        *,
        unknown: str = "",
        trailing: str = "",
        line: str = "",
        sent_us: int = 0,
        received_us: int = 0,
    ) -> Action:
        """:meth:`take` with a ``.tlog`` or in strict mode."""
        hand = self.hand
        warning: str | None
        if unknown:
            action, warning = CALL, INVALID_ACTION_WARNING
        else:
            action, warning = hand.coerce(proposed)
        if self._strict and (warning is not None or trailing):
            why = warning or f"unexpected {trailing[:40]!r} after the action"
            why = why.removesuffix(", changed to call")
            raise seat_error(
                self.acting_seat, f"{{seat}} sent a bad reply (--strict): {why}: {line!r}"
            )
        hand.apply(action)
        if self._tlog is not None:
            self._tlog.record(Transaction(action, self.hand_number, sent_us, received_us))
        if warning is not None:
            self._reporter.warning(warning)
        return action

    def _take_plain(
        self,
        proposed: Action | None,
        *,
        unknown: str = "",
        trailing: str = "",
        line: str = "",
        sent_us: int = 0,
        received_us: int = 0,
    ) -> Action:
        """:meth:`take` without a ``.tlog`` and not strict: the rules' repair and a warning
        (the hot path of every match)."""
        del trailing, line, sent_us, received_us  # only the checked path needs them
        if unknown:
            self.hand.apply(CALL)
            self._reporter.warning(INVALID_ACTION_WARNING)
            return CALL
        action, warning = self.hand.apply_coerced(proposed)
        if warning is not None:
            self._reporter.warning(warning)
        return action

    def finish_hand(self) -> tuple[float, ...]:
        """Score the finished hand: values by position, added to the seats' totals and
        written to the log (then flushed)."""
        hand = self.hand
        ranks = None
        if hand.is_showdown:
            ranks = self.dealt.showdown_ranks
            if ranks is None:  # not ranked ahead (see dealer.referee.dealing.batch_ranked)
                board = self.deal.visible_board(self.game, hand.round)
                ranks = tuple([rank_hand(hole + board) for hole in self.deal.hole_cards])
        values = hand.values(ranks)
        totals = self.totals
        players = self._players
        button = self.player0_seat
        for position, value in enumerate(values):
            totals[(position + button) % players] += value
        if self._log is not None:
            # Every card shown in the log is a prefix of the deal's full cards field.
            cards = self.dealt.full_field[: self._round_ends[hand.round]]
            self._log.line(
                state_line(
                    hand.hand_number,
                    hand.betting_text(),
                    cards,
                    values,
                    self._names_text_by_button[button],
                )
            )
            self._log.hand_done()
        if self._on_hand is not None:
            self._on_hand(self, values)
        return values

    def next_hand(self) -> None:
        """Move the button and deal the next hand (if the match is not over)."""
        self.hand_number += 1
        if not self.config.fixed_seats:
            self.player0_seat = (self.player0_seat + 1) % self._players
        if not self.match_over:
            self._start_hand()

    def _start_hand(self) -> None:
        self.dealt = dealt = self._deals.next_hand()
        self.deal = dealt.deal
        self.hand = HandState(self.game, self.hand_number)
        self.times.new_hand()

    def score_line(self) -> str:
        """``SCORE:<totals>:<names>`` in seat order."""
        return format_score_line(self.totals, self._names)

    def finish_match(self) -> str:
        """Write the ``SCORE`` line to the log and return it."""
        score = self.score_line()
        if self._log is not None:
            self._log.line(score)
            self._log.flush()
        return score

    # -- resuming -------------------------------------------------------------------

    def replay(self, transactions: Iterable[Transaction]) -> None:
        """Replay a ``.tlog`` (``processTransactionFile``): every action is checked, time
        is charged, hands are scored and written to the log (see :mod:`dealer.referee.resume`).
        A transaction that does not fit is a :class:`~dealer.referee.tlog.TransactionLogError` in
        the reference's words; a seat over its time, a
        :class:`~dealer.referee.faults.MatchAbortedError`."""
        for t in transactions:
            what = f"{t.action} {t.hand_number}"
            if self.match_over:
                raise TransactionLogError(
                    f"hand {t.hand_number} is beyond the {self.config.hands} hands of this match"
                )
            if t.hand_number != self.hand_number:
                raise TransactionLogError(f"handId mismatch in transaction log: {what}")
            if not self.hand.is_legal(t.action):
                raise TransactionLogError(f"invalid action in transaction log: {what}")
            seat = self.acting_seat
            if not self.times.charge(seat, t.sent_us, t.received_us):
                raise seat_error(seat, "{seat} ran out of time in transaction file")
            self.hand.apply(t.action)
            if self.hand.finished:
                self.finish_hand()
                self.next_hand()
