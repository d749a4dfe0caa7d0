"""A rehearsal: a throwaway agent plays a few scripted hands before the match starts.

An agent whose decisions run numba kernels compiles each kernel on its first call — 10 s
and more on a cold cache, which in a real match falls inside a timed decision and ends in a
fallback action. Playing a throwaway copy of the agent through :data:`HANDS` first calls
every kernel its decisions reach with the argument types they use (whatever they are: the
agent's own code makes the calls), so that the match itself never compiles. The hands cover
both positions, an opponent who raises whenever it can and one who only checks or calls,
strong and hopeless cards, every street and a showdown.

The rehearsal runs on the match's own game when it is heads-up limit hold'em; other games
are not rehearsed (their hands would not fit the script). Nothing of it reaches the real
agent: the throwaway has its own state and random generator.

>>> from acpcbot.game import bundled_game
>>> from agents.simple import AlwaysCall
>>> rehearse(AlwaysCall(), bundled_game())
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from acpcbot.actions import CALL, RAISE, Action
from acpcbot.cards import parse_cards
from acpcbot.deal import Deal
from acpcbot.game import Game
from acpcbot.handeval.jitcache import compiling
from acpcbot.player import BettingView, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent
from agents.common.handloop import play_hand

__all__ = ["HANDS", "ScriptedHand", "rehearse", "rehearse_once", "rehearses"]


@dataclass(frozen=True, slots=True)
class ScriptedHand:
    """One hand of the rehearsal, cards as text."""

    position: int
    """The agent's position (0 posts the big blind in the reverse-blinds games)."""
    hole: str
    opponent_hole: str
    board: str
    opponent_raises: bool
    """The opponent raises whenever it may (else calls); otherwise it only checks or calls."""


HANDS = (
    ScriptedHand(0, "AsAh", "KcQc", "AdAcKd2c7h", opponent_raises=True),
    ScriptedHand(1, "AsAh", "KcQc", "AdAcKd2c7h", opponent_raises=True),
    ScriptedHand(0, "7c2d", "KhQh", "Js8s3d4hTc", opponent_raises=False),
    ScriptedHand(1, "KsKd", "9h8h", "Kh7h2s5c3d", opponent_raises=False),
    ScriptedHand(1, "6c5c", "AhJd", "4c7dQs2hAc", opponent_raises=True),
)
"""Facing bets with the nuts in both positions; checked to with nothing (the bluff spot)
and with a strong hand; a draw facing bets."""


def rehearses(game: Game) -> bool:
    """Whether :data:`HANDS` fit ``game``: heads-up limit hold'em with a 52-card deck."""
    return (
        game.is_limit
        and game.num_players == 2
        and game.num_rounds == 4
        and game.num_hole_cards == 2
        and tuple(game.num_board_cards) == (0, 3, 1, 1)
        and (game.num_ranks, game.num_suits) == (13, 4)
    )


def rehearse(agent: Agent, game: Game) -> bool:
    """Play ``agent`` (a throwaway: it is left mid-match) through :data:`HANDS` on
    ``game``; False, without playing, when the hands do not fit the game."""
    if not rehearses(game):
        return False
    agent.begin_match(MatchInfo(game=game, hands=len(HANDS), name="rehearsal"))
    for number, script in enumerate(HANDS):
        _play(agent, game, number, script)
    return True


_lock = threading.RLock()
_started: set[str] = set()


def rehearse_once(what: str, agents: Callable[[], Iterable[Agent]], game: Game) -> None:
    """Rehearse the throwaway ``agents()`` on ``game``, once per process for ``what`` (e.g.
    "PLICAS's kernels", named when compiling them takes a while): later calls return at
    once, and so does a call the rehearsing agents' own ``begin_match`` makes; a call from
    another thread waits until the rehearsal is over."""
    with _lock:
        if what in _started:  # done, or under way in this thread
            return
        _started.add(what)
        with compiling(what):
            for agent in agents():
                rehearse(agent, game)


class _Scripted(Agent):
    """The rehearsal's opponent: raises whenever it may, or only checks and calls."""

    name = "rehearsal"

    def __init__(self, raises: bool) -> None:
        super().__init__(0)
        self.raises = raises

    def act(self, state: MatchState, betting: BettingView) -> Action:
        return RAISE if self.raises and betting.can_raise() else CALL


def _play(agent: Agent, game: Game, number: int, script: ScriptedHand) -> None:
    me = script.position
    holes = [parse_cards(script.opponent_hole)] * 2
    holes[me] = parse_cards(script.hole)
    deal = Deal(hole_cards=tuple(holes), board=parse_cards(script.board))
    players: list[Agent] = [_Scripted(script.opponent_raises)] * 2
    players[me] = agent
    play_hand(game, number, deal, players)
