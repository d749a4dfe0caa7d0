"""A person at a seat: a :class:`~acpcbot.player.Player` whose decisions are clicks on a page.

The match runs as it runs for any player: our dealer over TCP (``run_match``), or any ACPC
dealer through the acpcbot client. The client calls the player on a worker thread of its
own, so :meth:`Table.ask` may wait for the person; the page reads the :class:`Table`
(:meth:`Table.snapshot`: the hand so far, the legal actions when it is the person's turn,
the time left, the running result) and answers with :meth:`Table.click`, which takes only a
legal action of the decision being asked (one source of legality: the hand's own rules).

The time limit is the dealer's: a person who does not answer (the page closed, the browser
gone) is a player that ran out of time, and the dealer ends the match as its rules say, the
hands played kept. The person's wait ends a little after the limit (the dealer has ended the
match by then); :meth:`Table.close` ends it at once. When the server stops,
:meth:`Table.stop` ends the match on our dealer at once, as a second Ctrl-C ends ``acpcbot
match``: the person's seat raises :class:`~dealer.running.StopHalf` at its next decision
(the hand in progress is not played out for the person), the hands before it are kept, and
the match is ``interrupted``.

>>> from acpcbot.game import bundled_game
>>> from acpcbot.player import MatchInfo
>>> from acpcbot.protocol.matchstate import parse_match_state
>>> from acpcbot.rules import replay
>>> import threading
>>> table = Table("you", "always-call", limit_s=30)
>>> seat = PersonAtSeat(table)
>>> seat.begin_match(MatchInfo(bundled_game()))
>>> state = parse_match_state("MATCHSTATE:1:0::|AsKd", bundled_game())
>>> betting = replay(bundled_game(), state.betting, 0)
>>> answer = []
>>> asking = threading.Thread(target=lambda: answer.append(seat.act(state, betting)))
>>> asking.start()
>>> while table.snapshot()["decision"] is None: pass
>>> decision = table.snapshot()["decision"]
>>> [button["label"] for button in decision["legal"]]
['fold', 'call 5', 'raise 10']
>>> table.click(decision["key"] + 1, "c"), table.click(decision["key"], "c")
('that decision is over', None)
>>> asking.join(); answer
[Action(type=<ActionType.CALL: 'c'>, size=0)]
"""

from __future__ import annotations

import itertools
import math
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from acpcbot.actions import CALL, Action, ActionType
from acpcbot.cards import card_text
from acpcbot.game import Game
from acpcbot.player import BettingView, HandResult, MatchInfo, Player, Strategy
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import HandState
from dealer.analysis import estimate
from dealer.running import StopHalf
from dealer.web.labels import action_label

__all__ = [
    "GRACE_S",
    "REMATCH_WAIT_S",
    "PersonAtSeat",
    "PersonEntrant",
    "Table",
]

GRACE_S = 2.0
"""How long past the time limit a person's wait goes on (the dealer ends the match first)."""
REMATCH_WAIT_S = 600.0
"""How long the second half waits for the person to ask for it (as long as a dealer waits
for players to connect)."""

_CLOSED = object()


@dataclass(frozen=True, slots=True)
class _Decision:
    key: int
    state: MatchState
    betting: HandState
    asked: float
    """When it was asked (``time.monotonic``)."""


class Table:
    """What a person at a seat sees and decides (see the module). The match's threads call
    :meth:`begin`, :meth:`seen`, :meth:`ask`, :meth:`hand_over`, :meth:`wait_rematch` and
    :meth:`finish`; the page calls :meth:`snapshot`, :meth:`click` and :meth:`rematch`.
    ``on_change`` is told (from any thread) whenever the snapshot changed."""

    def __init__(
        self,
        name: str,
        opponent: str,
        *,
        limit_s: float,
        halves: int = 1,
        hands: int | None = None,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.name = name
        self.opponent = opponent
        self.limit_s = limit_s
        self.halves = halves
        self.hands = hands
        """Hands in each half, when known (our dealer)."""
        self.on_change = on_change
        self._lock = threading.Lock()
        self._keys = itertools.count(1)
        self._clicks: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._rematch = threading.Event()
        self._rematch_wanted = False
        self._game: Game | None = None
        self._state: MatchState | None = None
        self._betting: HandState | None = None
        self._decision: _Decision | None = None
        self._results: list[list[float]] = [[]]
        self._last: dict[str, Any] | None = None
        self._status = "starting"
        self._message: str | None = None
        self._closed = False
        self.timed_out = False
        """The person did not answer in time (the dealer ended the match)."""
        self.stopped = False
        """The server stopped the match (:meth:`stop`)."""
        self.folder: dict[str, str] | None = None
        """Where the match's files are (``root``, ``path``, and the first half's ``log``),
        when they are served."""
        self.summary: list[str] | None = None
        """The match's summary for people, once it ended."""

    # -- the match's side (any thread) ----------------------------------------------

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def begin(self, info: MatchInfo) -> None:
        with self._lock:
            self._game = info.game
        self._changed()

    def seen(self, state: MatchState, betting: BettingView) -> None:
        """A state of the hand (the person's turn or not)."""
        with self._lock:
            self._state = state
            self._betting = _copy(betting)
            if self._status == "starting":
                self._status = "playing"
        self._changed()

    def ask(self, state: MatchState, betting: BettingView) -> Action:
        """The person's action at ``state`` (waits for a legal click); a check or call when
        the time is long up or the table closed (the dealer has ended the match then);
        :class:`~dealer.running.StopHalf` once the table was stopped."""
        if self.stopped:
            raise StopHalf
        with self._lock:
            decision = _Decision(next(self._keys), state, _copy(betting), time.monotonic())
            self._decision = decision
            self._state = state
            self._betting = decision.betting
            self._status = "playing"
            closed = self._closed
        self._changed()
        deadline = decision.asked + self.limit_s + GRACE_S
        answer: object = _CLOSED
        while not closed and (left := deadline - time.monotonic()) > 0:
            try:
                answer = self._clicks.get(timeout=left)
            except queue.Empty:
                answer = None
                break
            if answer is _CLOSED or (isinstance(answer, tuple) and answer[0] == decision.key):
                break
        with self._lock:
            if self._decision is decision:
                self._decision = None
            if answer is None:
                self.timed_out = True
        self._changed()
        if isinstance(answer, tuple):
            action: Action = answer[1]
            return action
        if self.stopped:
            raise StopHalf
        return CALL

    def hand_over(self, result: HandResult) -> None:
        """The end of a hand: its result, as the person saw it."""
        state = result.state
        with self._lock:
            self._results[-1].append(result.value)
            self._last = {
                **self._hand_json(state, None),
                "value": result.value,
            }
            self._state = None
            self._betting = None
        self._changed()

    def wait_rematch(self, half: int) -> bool:
        """Whether the person wants the next half (the seats swapped): asked between the
        halves, waiting up to :data:`REMATCH_WAIT_S`."""
        with self._lock:
            self._status = "between"
            self._rematch.clear()
        self._changed()
        self._rematch.wait(REMATCH_WAIT_S)
        with self._lock:
            wanted = self._rematch_wanted and not self._closed
            self._rematch_wanted = False
            if wanted:
                self._results.append([])
                self._status = "playing"
        self._changed()
        return wanted

    def finish(self, status: str, message: str | None = None) -> None:
        """The match is over: ``finished``, ``interrupted`` or ``failed`` (``message``
        says why)."""
        with self._lock:
            self._status = status
            self._message = message
            self._decision = None
        self.close()

    def stop(self) -> None:
        """The server stops: end every wait at once, and the match with the person's next
        decision (see the module)."""
        self.stopped = True
        self.close()

    def close(self) -> None:
        """End every wait at once."""
        with self._lock:
            self._closed = True
        self._clicks.put(_CLOSED)
        self._rematch.set()
        self._changed()

    # -- the page's side -------------------------------------------------------------

    def click(self, key: int, action: str, size: int | None = None) -> str | None:
        """The person clicked ``action`` (``f``, ``c`` or ``r``, a no-limit raise with its
        ``size``) for decision ``key``; why it is refused, or ``None`` when taken."""
        kind = {t.value: t for t in ActionType}.get(action)
        if kind is None:
            return f"no action {action!r}"
        with self._lock:
            decision = self._decision
            if decision is None or decision.key != key:
                return "that decision is over"
            betting = decision.betting
            chosen = Action(kind, size or 0) if kind is ActionType.RAISE else Action(kind)
            why = betting.illegality(chosen)
            if why is not None:
                return f"not a legal action here: {why}"
            self._decision = None
        self._clicks.put((key, chosen))
        self._changed()
        return None

    def rematch(self, wanted: bool) -> str | None:
        """The person's answer between the halves; why it is refused, or ``None``."""
        with self._lock:
            if self._status != "between":
                return "no rematch is offered now"
            self._rematch_wanted = wanted
        self._rematch.set()
        return None

    def set_status(self, status: str, message: str | None = None) -> None:
        with self._lock:
            self._status = status
            self._message = message
        self._changed()

    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows, as JSON."""
        with self._lock:
            decision = self._decision
            hand = None
            if self._state is not None:
                hand = self._hand_json(self._state, self._betting)
            shown: dict[str, Any] = {
                "you": self.name,
                "opponent": self.opponent,
                "status": self._status,
                "message": self._message,
                "timed_out": self.timed_out,
                "half": len(self._results),
                "halves": self.halves,
                "hands_per_half": self.hands,
                "limit_s": self.limit_s,
                "hand": hand,
                "decision": self._decision_json(decision) if decision is not None else None,
                "last": self._last,
                "result": self._result_json(),
                "folder": self.folder,
                "summary": self.summary,
            }
        return shown

    def _decision_json(self, decision: _Decision) -> dict[str, Any]:
        betting = decision.betting
        legal = []
        for kind in betting.legal_action_types():
            button: dict[str, Any] = {"action": kind.value}
            if kind is ActionType.RAISE and not betting.game.is_limit:
                bounds = betting.raise_bounds()
                assert bounds is not None
                button.update(min=bounds[0], max=bounds[1])
                button["label"] = action_label(betting, Action(kind, bounds[0]))
            else:
                button["label"] = action_label(betting, Action(kind))
            legal.append(button)
        left = decision.asked + self.limit_s - time.monotonic()
        return {"key": decision.key, "legal": legal, "left_ms": max(0, round(1000 * left))}

    def _hand_json(self, state: MatchState, betting: HandState | None) -> dict[str, Any]:
        """A hand as the person sees it: the cards shown, every action with its words."""
        game = self._game
        names = [self.opponent] * len(state.hole_cards)
        names[state.position] = self.name
        steps = []
        pot = None
        if game is not None:
            replayed = HandState(game, state.hand_number)
            for round_, actions in enumerate(state.betting):
                for action in actions:
                    steps.append(
                        {
                            "round": round_,
                            "position": replayed.current_player,
                            "action": str(action),
                            "label": action_label(replayed, action),
                        }
                    )
                    replayed.apply(action)
            pot = replayed.pot
        if betting is not None:
            pot = betting.pot
        return {
            "number": state.hand_number,
            "position": state.position,
            "names": names,
            "holes": [[card_text(c) for c in hole] for hole in state.hole_cards],
            "board": [[card_text(c) for c in group] for group in state.board],
            "betting": state.betting_text(),
            "steps": steps,
            "pot": pot,
        }

    def _result_json(self) -> dict[str, Any]:
        big_blind = self._game.big_blind if self._game is not None else 10
        halves = []
        for values in self._results:
            found = estimate(values, big_blind)
            halves.append(
                {
                    "hands": len(values),
                    "chips": sum(values),
                    "mbb": _finite(found.mbb_per_game),
                    "ci": _finite(found.ci95_mbb),
                }
            )
        pairs = None
        if len(self._results) == 2 and self._results[1]:
            first, second = self._results
            samples = [(a + b) / 2 for a, b in zip(first, second, strict=False)]
            found = estimate(samples, big_blind)
            pairs = {
                "count": len(samples),
                "mbb": _finite(found.mbb_per_game),
                "ci": _finite(found.ci95_mbb),
            }
        every = [value for values in self._results for value in values]
        found = estimate(every, big_blind)
        return {
            "hands": len(every),
            "chips": sum(every),
            "mbb": _finite(found.mbb_per_game),
            "ci": _finite(found.ci95_mbb),
            "halves": halves,
            "pairs": pairs,
        }


def _finite(value: float) -> float | None:
    return round(value, 1) if math.isfinite(value) else None


def _copy(betting: BettingView) -> HandState:
    if isinstance(betting, HandState):
        return betting.copy()
    raise TypeError(f"a person's table needs the hand's HandState, not {type(betting).__name__}")


class PersonAtSeat:
    """The :class:`~acpcbot.player.Player` a person plays through (see the module)."""

    decides_instantly = False
    """It waits for a person: the client asks it on its worker thread."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def begin_match(self, info: MatchInfo) -> None:
        self.table.begin(info)

    def observe(self, state: MatchState, betting: BettingView) -> None:
        self.table.seen(state, betting)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        return self.table.ask(state, betting)

    def end_hand(self, result: HandResult) -> None:
        self.table.hand_over(result)


@dataclass(frozen=True)
class PersonEntrant:
    """A person entered in a match on our dealer (an :class:`~acpcbot.player.Entrant`): each
    half's player is the person at the same table. It lives in the process that runs the
    match (the halves are played there, in turn)."""

    table: Table
    name: str

    @property
    def spec(self) -> str:
        return "person"

    def create(self, seed: int) -> Player:
        del seed  # a person's choices are their own
        return PersonAtSeat(self.table)

    def check(self, game: Game) -> None:
        del game  # a person plays what the table shows

    def strategy(self, game: Game) -> Strategy | None:
        del game
        return None
