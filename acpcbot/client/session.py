"""Playing one match against an ACPC dealer: :func:`play_match`.

The loop reads each state, decodes it incrementally (:class:`HandTracker`), shows it to the
player, answers ``<state as received>:<action>\\r\\n`` on the player's turns, and at the end
of every hand reports the result. The dealer ending the connection between hands ends the
match; ending it anywhere else is an error.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from acpcbot.client.connection import DealerConnection, connect
from acpcbot.client.decider import Decider, InlineDecider, make_decider
from acpcbot.client.defaults import DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT, VERSION_LINE
from acpcbot.errors import AcpcError, BadStateError, ConnectionLostError, MatchStateError
from acpcbot.game import Game
from acpcbot.logconfig import get_logger
from acpcbot.player import HandResult, MatchInfo, Player
from acpcbot.protocol.matchstate import MatchState, clip_line
from acpcbot.protocol.tracker import HandTracker, final_values
from acpcbot.rules import HandState

log = get_logger("client")

HandWatcher = Callable[[float, int, int], None]
"""Told at the end of every hand: the player's chips in it, and its decisions and fallback
decisions so far (``acpcbot play --mqtt`` publishes them)."""


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """What a finished match came to, from the player's side."""

    hands: int
    chips: float
    """Chips won (negative: lost) over all hands."""
    mbb_per_game: float
    """Milli-big-blinds won per hand: ``1000 * chips / big blind / hands``."""
    decisions: int
    """Actions sent."""
    fallback_decisions: int
    """Actions sent as a check/call because the player failed, chose an illegal action
    or was late: the sum of the next three."""
    elapsed_s: float
    failed_decisions: int = 0
    """Fallbacks because the player raised an exception."""
    illegal_decisions: int = 0
    """Fallbacks because the player's action was illegal."""
    over_budget_decisions: int = 0
    """Fallbacks because the player was not done within the time budget."""

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def __str__(self) -> str:
        """One line for people.

        >>> print(MatchSummary(1000, 1250.0, 125.0, 4710, 0, 0.5))
        1000 hands, +1250 chips, +125.00 mbb/g, 4710 decisions (0 fallback), 0.50 s
        >>> text = str(MatchSummary(10, -75.0, -750.0, 40, 3, 0.5, failed_decisions=2,
        ...                         over_budget_decisions=1))
        >>> text[text.index("40 decisions"):]
        '40 decisions (3 fallback: 2 failed, 1 over budget), 0.50 s'
        """
        kinds = fallback_kinds(
            self.failed_decisions, self.illegal_decisions, self.over_budget_decisions
        )
        fallbacks = f"{self.fallback_decisions} fallback" + (f": {kinds}" if kinds else "")
        return (
            f"{self.hands} hands, {self.chips:+g} chips, {self.mbb_per_game:+.2f} mbb/g, "
            f"{self.decisions} decisions ({fallbacks}), {self.elapsed_s:.2f} s"
        )


def fallback_kinds(failed: int, illegal: int, over_budget: int) -> str:
    """The kinds of fallback decisions that happened, for people.

    >>> fallback_kinds(2, 0, 1)
    '2 failed, 1 over budget'
    """
    counts = ((failed, "failed"), (illegal, "illegal"), (over_budget, "over budget"))
    return ", ".join(f"{count:,} {what}" for count, what in counts if count)


def mbb_per_game(chips: float, hands: int, game: Game) -> float:
    """Milli-big-blinds per hand (0 when no hand was played).

    >>> from acpcbot.game import bundled_game
    >>> mbb_per_game(-75.0, 10, bundled_game())  # folding every hand loses 750 mbb/g
    -750.0
    """
    return 1000.0 * chips / game.big_blind / hands if hands else 0.0


async def play_match(
    host: str,
    port: int,
    player: Player,
    *,
    game: Game,
    budget_ms: float | None = None,
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
    read_timeout: float | None = DEFAULT_READ_TIMEOUT,
    name: str | None = None,
    on_hand: HandWatcher | None = None,
) -> MatchSummary:
    """Connect to the dealer at ``host:port`` and play ``player`` until the dealer ends
    the match between two hands.

    ``budget_ms`` bounds each decision of a player that does not decide instantly (``None``:
    unbounded); on overrun the client checks or calls. A player that decides instantly is
    called inline with the client's own betting state, valid during the call only (copy it
    to keep it); other players get copies on their worker thread. ``read_timeout`` bounds
    each wait for the dealer (``None``: unbounded). Raises
    :class:`~acpcbot.errors.AcpcError` subclasses for every way the dealer or the
    connection can fail, including a dealer that ends the match before its first hand.
    ``on_hand`` is told the end of every hand (see :data:`HandWatcher`).
    """
    player.begin_match(MatchInfo(game=game, seat=None, name=name))
    decider = make_decider(player, budget_ms)
    started = time.perf_counter()
    try:
        async with connect(
            host, port, connect_timeout=connect_timeout, read_timeout=read_timeout
        ) as dealer:
            log.info("connected", dealer=f"{host}:{port}")
            await dealer.send(VERSION_LINE)
            hands, chips = await _play(dealer, HandTracker(game), decider, on_hand)
        await decider.finish()
    except AcpcError:
        # The player still sees every state that came before the failure.
        await decider.finish()
        raise
    finally:
        decider.close()
        decider.log_troubles()
    if hands == 0:
        # No ACPC match has no hands: the dealer gave up (say, another seat never came).
        raise ConnectionLostError(
            f"the dealer at {host}:{port} ended the match before the first hand"
        )
    summary = MatchSummary(
        hands=hands,
        chips=chips,
        mbb_per_game=mbb_per_game(chips, hands, game),
        decisions=decider.decisions,
        fallback_decisions=decider.fallbacks,
        elapsed_s=time.perf_counter() - started,
        failed_decisions=decider.failed.count,
        illegal_decisions=decider.illegal.count,
        over_budget_decisions=decider.over_budget.count,
    )
    log.info("match_over", **_fields(summary))
    return summary


async def _play(
    dealer: DealerConnection,
    tracker: HandTracker,
    decider: Decider,
    on_hand: HandWatcher | None = None,
) -> tuple[int, float]:
    """The match loop; returns (hands, chips). Kept lean: it runs ~10 times per hand."""
    session = _Session(tracker, decider, dealer.peer, on_hand)
    take = session.take
    write = dealer.write
    if isinstance(decider, InlineDecider):
        # A player that decides instantly is asked right in the connection's read callback:
        # no task switch and no coroutine per line.
        decide_now = decider.decide_now

        def answer(lines: list[bytes]) -> None:
            for line in lines:
                turn = take(line)
                if turn is not None:
                    write(b"%s:%s\r\n" % (line, str(decide_now(*turn)).encode("ascii")))

        await dealer.serve(answer)
    else:
        async for lines in dealer.batches():
            for line in lines:
                turn = take(line)
                if turn is not None:
                    action = await decider.decide(*turn)
                    write(b"%s:%s\r\n" % (line, str(action).encode("ascii")))
            await dealer.drain()
    if tracker.in_hand:
        current = tracker.state
        assert current is not None
        raise ConnectionLostError(
            f"{dealer.peer} closed the connection in the middle of hand "
            f"{current.hand_number} (last state {str(current)!r})"
        )
    return session.hands, session.chips


class _Session:
    """What the client does with each line: decode it, show it to the player, and count
    the hands and chips; the player's turns are handed back to the loop."""

    __slots__ = ("_advance", "_decider", "_observes", "_on_hand", "_peer", "chips", "hands")

    def __init__(
        self, tracker: HandTracker, decider: Decider, peer: str, on_hand: HandWatcher | None
    ) -> None:
        self._advance = tracker.advance
        self._decider = decider
        self._observes = decider.observes
        self._peer = peer
        self._on_hand = on_hand
        self.hands = 0
        self.chips = 0.0

    def take(self, line: bytes) -> tuple[MatchState, HandState] | None:
        """Handle one line; the state and betting if the player is to act on it."""
        text = line.decode("latin-1")
        try:
            state, hand = self._advance(text)
            if hand.finished:
                decider = self._decider
                if self._observes:
                    decider.observe(state, hand)
                result = HandResult(state, final_values(state, hand))
                decider.end_hand(result)
                self.hands += 1
                self.chips += result.value
                if self._on_hand is not None:
                    self._on_hand(result.value, decider.decisions, decider.fallbacks)
                return None
            if hand.current_player == state.position:
                return state, hand
            if self._observes:
                self._decider.observe(state, hand)
            return None
        except MatchStateError as exc:
            shown = clip_line(text)
            what = "a bad state" if shown in str(exc) else f"a bad state {shown!r}"
            raise BadStateError(f"{self._peer} sent {what}: {exc}") from None


def _fields(summary: MatchSummary) -> dict[str, float]:
    return {
        "hands": summary.hands,
        "chips": summary.chips,
        "mbb_per_game": round(summary.mbb_per_game, 3),
        "decisions": summary.decisions,
        "fallback_decisions": summary.fallback_decisions,
        "failed_decisions": summary.failed_decisions,
        "illegal_decisions": summary.illegal_decisions,
        "over_budget_decisions": summary.over_budget_decisions,
        "elapsed_s": round(summary.elapsed_s, 3),
    }
