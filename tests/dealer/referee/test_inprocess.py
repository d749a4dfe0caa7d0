"""In-process players see what the wire shows: nothing they are handed reaches the deal, the
other seats' cards or the referee's own state (``docs/dealer/index.md``)."""

from __future__ import annotations

import io

from acpcbot.actions import RAISE, Action
from acpcbot.game import Game
from acpcbot.player import BettingView
from acpcbot.protocol.matchstate import MatchState
from acpcbot.rules import HandState
from agents.simple import AlwaysCall
from dealer.referee.config import MatchConfig
from dealer.referee.inprocess import play_in_process
from dealer.referee.matchlog import MatchLog
from dealer.referee.referee import Referee
from tests.dealer.snoop import Snoop


def _referee(game: Game, hands: int, seed: int = 5) -> tuple[Referee, io.BytesIO]:
    buffer = io.BytesIO()
    config = MatchConfig("m", game, "g", hands, seed, ("A", "B"))
    log = MatchLog(buffer)
    log.header(config.header)
    return Referee(config, log=log), buffer


def test_a_snooping_player_finds_no_card_it_should_not_know(limit_game: Game) -> None:
    snoop, other = Snoop(1), Snoop(2)
    referee, log = _referee(limit_game, 16)
    play_in_process(referee, [snoop, other])
    for player in (snoop, other):
        assert player.leaks == []
        assert player.calls > 80 and player.cards_found > 300  # the walk finds cards
    # hands that ended in a fold (the cards never shown) and at a showdown
    bettings = [line.split(":")[2] for line in log.getvalue().decode().splitlines()[4:-1]]
    assert any(b.endswith("f") for b in bettings)
    assert any(b.count("/") == 3 and not b.endswith("f") for b in bettings)
    # against a player that only acts: its states are seen on its turns and at hand ends
    alone = Snoop(3)
    play_in_process(_referee(limit_game, 16)[0], [AlwaysCall(), alone])
    assert alone.leaks == [] and alone.cards_found > 80


class _Meddler(AlwaysCall):
    """Calls every time, but first plays a raise on the betting state it is handed, from
    the third hand on (as a search that forgot to copy it would)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.handed: list[object] = []

    def act(self, state: MatchState, betting: BettingView) -> Action:
        self.handed.append(betting)
        action = super().act(state, betting)
        if state.hand_number >= 2 and isinstance(betting, HandState) and betting.can_raise():
            betting.apply(RAISE)
        return action


def test_a_player_cannot_change_the_referees_state(limit_game: Game) -> None:
    """What a player is handed is its own copy: changing it changes nothing for the referee
    or the other seat, whose log is the one of a player that did not."""
    referee, honest = _referee(limit_game, 20)
    play_in_process(referee, [AlwaysCall(), AlwaysCall()])
    referee, log = _referee(limit_game, 20)
    meddler = _Meddler()
    play_in_process(referee, [meddler, AlwaysCall()])
    assert log.getvalue() == honest.getvalue()
    assert len(meddler.handed) == 80 and not any(b is referee.hand for b in meddler.handed)
