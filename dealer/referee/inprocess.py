"""Playing a match without sockets: the referee calls the players directly.

Each player gets exactly what the acpcbot client would give it over TCP, in the same
order: ``begin_match`` (with the same :class:`~acpcbot.player.MatchInfo`: the game and its
name, not its seat); for every state the dealer would send it, ``observe``; ``act`` on
its turn; at the end of each hand ``observe`` of the final state and ``end_hand``. So a
deterministic player makes the same choices, and the ``.log`` is byte-identical to a TCP
match. What it is handed is its own and shows what the wire would show, nothing more: a copy
of the betting, and a state holding only the cards its position sees, whose fields are
computed when the player reads them (:mod:`dealer.referee.views`). Hooks a player does not
override (see :func:`acpcbot.player.default_hook`) are not called.

>>> from acpcbot.game import bundled_game
>>> from acpcbot.rules import CALL
>>> from dealer.referee.config import MatchConfig
>>> from dealer.referee.referee import Referee
>>> class Caller:
...     decides_instantly = True
...     def begin_match(self, info): pass
...     def observe(self, state, betting): pass
...     def act(self, state, betting): return CALL
...     def end_hand(self, result): pass
>>> referee = Referee(MatchConfig("m", bundled_game(), "g", 3, 1, ("A", "B")))
>>> play_in_process(referee, [Caller(), Caller()])
'SCORE:-20|20:A|B'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from acpcbot.errors import AcpcError
from acpcbot.player import HandResult, MatchInfo, Player, overrides_hook
from acpcbot.protocol.matchstate import view_of
from dealer.referee.referee import Referee
from dealer.referee.views import state_view

HandCallback = Callable[[Referee], None]


class SeatTally:
    """Each seat's decisions, and how many of them the dealer had to repair (an illegal
    action played as a call, as the reference does)."""

    __slots__ = ("decisions", "repaired")

    def __init__(self, seats: int) -> None:
        self.decisions = [0] * seats
        self.repaired = [0] * seats


def play_in_process(
    referee: Referee,
    players: Sequence[Player],
    *,
    after_hand: HandCallback | None = None,
    tally: SeatTally | None = None,
) -> str:
    """Play the referee's remaining hands with ``players`` in seat order and return the
    ``SCORE`` line (also written to the log).

    ``after_hand`` is called after every hand (the referee has moved on to the next one);
    ``tally`` counts each seat's decisions. A player that raises an exception ends the
    match with :class:`PlayerFailedError` naming it and the hand (the hands before it are
    in the log).
    """
    if tally is None:
        tally = SeatTally(referee.game.num_players)
    try:
        return _play(referee, players, after_hand, tally)
    except AcpcError:
        raise
    except Exception as exc:
        name = referee.config.names[referee.acting_seat] if not referee.match_over else "a player"
        raise PlayerFailedError(
            f"{name} failed in hand {referee.hand_number}: {type(exc).__name__}: {exc}"
        ) from exc


class PlayerFailedError(AcpcError):
    """An in-process player raised an exception."""


def _play(
    referee: Referee, players: Sequence[Player], after_hand: HandCallback | None, tally: SeatTally
) -> str:
    config = referee.config
    game = referee.game
    seats = range(game.num_players)
    for seat in seats:
        players[seat].begin_match(MatchInfo(game, name=config.names[seat]))
    observers = [seat for seat in seats if overrides_hook(players[seat], "observe")]
    enders = [seat for seat in seats if overrides_hook(players[seat], "end_hand")]
    take = referee.take
    acts = [player.act for player in players]
    made, repaired = tally.decisions, tally.repaired
    players_count = len(seats)
    dealt_by_round = [game.board_total(r) for r in range(game.num_rounds)]
    while not referee.match_over:
        hand = referee.hand
        deal = referee.deal
        button = referee.player0_seat
        acts_by_position = acts[button:] + acts[:button]  # seat = (position + button) % n
        # What a player is handed is its own: a copy of the betting, the cards it sees.
        holes, board = deal.hole_cards, deal.board
        copy = hand.copy
        while not hand.finished:
            position = hand.current_player
            shown = board[: dealt_by_round[hand.round]]
            betting = copy()
            state = state_view(betting, holes[position], shown, position)
            if observers:
                acting = referee.seat_of(position)
                for seat in observers:  # seat order, as the dealer sends them
                    if seat == acting:
                        players[seat].observe(state, betting)
                    else:
                        other = referee.position_of(seat)
                        own = copy()
                        players[seat].observe(state_view(own, holes[other], shown, other), own)
            proposed = acts_by_position[position](state, betting)
            seat = (position + button) % players_count
            made[seat] += 1
            played = take(proposed)
            if played is not proposed and played != proposed:
                repaired[seat] += 1
        values = referee.finish_hand()
        if observers or enders:
            for seat in seats:
                if seat in observers or seat in enders:
                    final = view_of(hand, deal, referee.position_of(seat))
                    if seat in observers:
                        players[seat].observe(final, copy())
                    if seat in enders:
                        players[seat].end_hand(HandResult(final, values))
        referee.next_hand()
        if after_hand is not None:
            after_hand(referee)
    return referee.finish_match()
