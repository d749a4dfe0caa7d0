"""Turning a player's decision into an action that is always legal and always on time.

:class:`InlineDecider` calls a player that ``decides_instantly`` directly (no thread hop:
the hot path of long local matches). :class:`ThreadedDecider` runs every call on the
player's own worker thread and bounds each decision by the time budget. Either way the
action sent is legal: an agent that fails, returns an illegal action or runs out of time
is counted, and the client checks or calls instead (calling is legal whenever it is one's
turn). A late decision is discarded when it arrives; it is never sent. Each kind of trouble
is logged in full the first time and then only counted (:class:`Trouble`), with one line
at the end of the match (:meth:`Decider.log_troubles`).
"""

from __future__ import annotations

import abc
import asyncio
import time

from acpcbot.actions import CALL, Action
from acpcbot.client.worker import PlayerWorker
from acpcbot.logconfig import get_logger
from acpcbot.player import HandResult, Player, overrides_hook
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import HandState

FALLBACK = CALL
"""Check or call: legal on every turn."""

log = get_logger("client")


def _worth_a_line(count: int) -> bool:
    """Whether the ``count``-th occurrence of a trouble is logged: the 1st, 10th, 100th, ...

    >>> [n for n in range(1, 2000) if _worth_a_line(n)]
    [1, 10, 100, 1000]
    """
    while count % 10 == 0:
        count //= 10
    return count == 1


class Trouble:
    """One kind of trouble with the player (say, ``agent_failed``): the first occurrence is
    logged in full (with the traceback of an exception), later ones only counted, with a
    line at the 10th, 100th, ... so that an agent failing every time cannot flood stderr."""

    __slots__ = ("count", "event", "level")

    def __init__(self, event: str, level: str = "warning") -> None:
        self.event = event
        self.level = level
        self.count = 0

    def report(self, exc: BaseException | None = None, **details: object) -> None:
        self.count += 1
        if not _worth_a_line(self.count):
            return
        emit = getattr(log, self.level)
        if self.count == 1:
            if exc is not None:
                details["exc_info"] = exc
            emit(self.event, **details)
            return
        if exc is not None:
            details["error"] = f"{type(exc).__name__}: {exc}"[:200]
        emit(f"{self.event}_again", times=self.count, **details)


class Decider(abc.ABC):
    """Feeds a player the states of a match and gets its legal, timely actions."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.decisions = 0
        self.failed = Trouble("agent_failed", "error")
        """Decisions where the player raised an exception."""
        self.illegal = Trouble("illegal_action_replaced")
        """Decisions where the player's action was illegal (or not an action)."""
        self.over_budget = Trouble("decision_over_budget")
        """Decisions the player did not make within the time budget."""
        self.hook_failed = Trouble("agent_failed", "error")
        """Calls other than decisions (``observe``, ``end_hand``) that raised."""
        self.observes = overrides_hook(player, "observe")
        """Whether the player's ``observe`` does anything: when not, the client need not
        call :meth:`observe`."""
        self._ends_hands = overrides_hook(player, "end_hand")

    @property
    def fallbacks(self) -> int:
        """Decisions made for the player (check/call): failed, illegal or over budget."""
        return self.failed.count + self.illegal.count + self.over_budget.count

    @abc.abstractmethod
    def observe(self, state: MatchState, hand: HandState) -> None:
        """A state where the player does not act (the hand may be over)."""

    @abc.abstractmethod
    async def decide(self, state: MatchState, hand: HandState) -> Action:
        """Observe a state where the player acts and return the action to send."""

    @abc.abstractmethod
    def end_hand(self, result: HandResult) -> None:
        """Tell the player a hand is over."""

    async def finish(self) -> None:  # noqa: B027 - nothing to wait for by default
        """Wait (within reason) for the player's pending calls; release resources."""

    def close(self) -> None:  # noqa: B027 - nothing to release by default
        """Release resources at once (after an error)."""

    def log_troubles(self) -> None:
        """One line with every trouble of the match, if there was any."""
        if self.fallbacks or self.hook_failed.count:
            log.warning(
                "fallback_decisions",
                decisions=self.decisions,
                failed=self.failed.count,
                illegal=self.illegal.count,
                over_budget=self.over_budget.count,
                other_calls_failed=self.hook_failed.count,
            )

    def _legal(self, action: object, state: MatchState, hand: HandState) -> Action:
        """``action`` if the rules allow it here, else the fallback (logged)."""
        if isinstance(action, Action):
            why = hand.illegality(action)
            if why is None:
                self.decisions += 1
                return action
        else:
            why = f"not an Action: {action!r}"
        return self._fall_back(self.illegal, state, action=str(action), reason=why)

    def _failed(self, state: MatchState, exc: BaseException) -> Action:
        return self._fall_back(self.failed, state, exc)

    def _hook_failed(self, call: str, hand_number: int, exc: BaseException) -> None:
        self.hook_failed.report(exc, call=call, hand=hand_number)

    def _fall_back(
        self,
        trouble: Trouble,
        state: MatchState,
        exc: BaseException | None = None,
        **details: object,
    ) -> Action:
        """Count and log a decision the client makes for the player."""
        self.decisions += 1
        trouble.report(
            exc, hand=state.hand_number, betting=state.betting_text(), sent=str(FALLBACK), **details
        )
        return FALLBACK


class InlineDecider(Decider):
    """Calls the player directly, on the event loop (for players that decide instantly)."""

    def observe(self, state: MatchState, hand: HandState) -> None:
        try:
            self.player.observe(state, hand)
        except Exception as exc:
            self._hook_failed("observe", state.hand_number, exc)

    async def decide(self, state: MatchState, hand: HandState) -> Action:
        return self.decide_now(state, hand)

    def decide_now(self, state: MatchState, hand: HandState) -> Action:
        """:meth:`decide` without a coroutine (the client's hot path)."""
        try:
            if self.observes:
                self.player.observe(state, hand)
            action = self.player.act(state, hand)
        except Exception as exc:
            return self._failed(state, exc)
        return self._legal(action, state, hand)

    def end_hand(self, result: HandResult) -> None:
        if not self._ends_hands:
            return
        try:
            self.player.end_hand(result)
        except Exception as exc:
            self._hook_failed("end_hand", result.state.hand_number, exc)


class ThreadedDecider(Decider):
    """Runs the player on its worker thread; each decision gets ``budget_s`` seconds
    (``None``: unbounded). The player is given copies of the betting state, since the
    client moves on while a late decision is still running."""

    def __init__(self, player: Player, budget_s: float | None) -> None:
        super().__init__(player)
        self.budget_s = budget_s
        self.late = Trouble("late_decision_discarded", "info")
        """Decisions that came after the budget (and were dropped)."""
        self._worker = PlayerWorker(type(player).__name__, on_error=self._posted_call_failed)

    def _posted_call_failed(self, call: str, exc: BaseException) -> None:
        # On the worker thread; the count is only read after the worker has drained.
        self.hook_failed.report(exc, call=call)

    def observe(self, state: MatchState, hand: HandState) -> None:
        self._worker.post(self.player.observe, state, hand.copy())

    async def decide(self, state: MatchState, hand: HandState) -> Action:
        started = time.perf_counter()
        job = self._worker.submit(self._observe_and_act, state, hand.copy())
        try:
            async with asyncio.timeout(self.budget_s):
                # wait() leaves the job running when the budget cancels the wait.
                await asyncio.wait((job,))
        except TimeoutError:
            job.add_done_callback(
                lambda done: self._late(done, state, time.perf_counter() - started)
            )
            return self._fall_back(
                self.over_budget, state, budget_ms=round(1000 * (self.budget_s or 0))
            )
        exc = job.exception()
        if exc is not None:
            if not isinstance(exc, Exception):  # a stop asked for, as the inline decider lets
                raise exc  # it through (a person's seat whose server stops), not a failure
            return self._failed(state, exc)
        return self._legal(job.result(), state, hand)

    def _late(self, job: asyncio.Future[Action], state: MatchState, elapsed_s: float) -> None:
        outcome = "failed" if job.cancelled() or job.exception() else str(job.result())
        self.late.report(
            hand=state.hand_number,
            betting=state.betting_text(),
            action=outcome,
            after_ms=round(1000 * elapsed_s),
        )

    def _observe_and_act(self, state: MatchState, hand: HandState) -> Action:
        if self.observes:
            self.player.observe(state, hand)
        return self.player.act(state, hand)

    def end_hand(self, result: HandResult) -> None:
        if self._ends_hands:
            self._worker.post(self.player.end_hand, result)

    async def finish(self) -> None:
        """Let the player see the last hand's end; a player still busy past the budget
        (or 10 s without one) is left behind, with a warning."""
        grace = 10.0 if self.budget_s is None else max(1.0, 2 * self.budget_s)
        try:
            async with asyncio.timeout(grace):
                await self._worker.drain()
        except TimeoutError:
            log.warning("agent_still_busy_at_match_end", waited_s=grace)
        self._worker.close()

    def close(self) -> None:
        self._worker.close()


def make_decider(player: Player, budget_ms: float | None) -> Decider:
    """The decider for ``player``: inline when it decides instantly, else threaded."""
    if getattr(player, "decides_instantly", False):
        return InlineDecider(player)
    return ThreadedDecider(player, None if budget_ms is None else budget_ms / 1000)
