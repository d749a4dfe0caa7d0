"""Hands played between agents in this process, without a dealer: a rehearsal before the
match (:mod:`agents.common.rehearsal`) and an agent's training against an opponent (PLICAS's
``train=AGENT``).

Each player is shown what the dealer would show it, in the same order: every state of the
hand (``observe``), its turn (``act``), the final state and the hand's result (``end_hand``).
The cards come from the caller (:func:`random_deal` deals them from a seeded generator), so
a training is reproducible from its seed. Illegal actions are played as a call, as the
client would send them.

>>> import random
>>> from acpcbot.game import bundled_game
>>> from agents.simple import AlwaysCall, AlwaysRaise
>>> game = bundled_game()
>>> deal = random_deal(game, random.Random(1))
>>> values = play_hand(game, 0, deal, (AlwaysCall(), AlwaysRaise()))
>>> abs(values[0]), values[0] == -values[1]  # a bet a round, called: 20 + 10 + 20 + 20
(70.0, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from acpcbot.actions import CALL
from acpcbot.deal import Deal
from acpcbot.game import Game
from acpcbot.handeval import rank_hand
from acpcbot.player import HandResult
from acpcbot.protocol.matchstate import view_of
from acpcbot.rules import HandState
from agents.base import Agent

__all__ = ["play_hand", "random_deal"]


def random_deal(game: Game, rng: random.Random) -> Deal:
    """The cards of one hand, drawn from ``game``'s deck with ``rng``."""
    size = game.num_hole_cards
    players = game.num_players
    cards = rng.sample(list(game.deck()), players * size + sum(game.num_board_cards))
    holes = tuple(tuple(cards[p * size : (p + 1) * size]) for p in range(players))
    return Deal(hole_cards=holes, board=tuple(cards[players * size :]))


def play_hand(game: Game, number: int, deal: Deal, players: Sequence[Agent]) -> list[float]:
    """Play hand ``number`` with ``deal`` (``players[p]`` in position ``p``, each already
    begun on ``game``); each position's winnings."""
    hand = HandState(game, number)
    while not hand.finished:
        for position, player in enumerate(players):
            player.observe(view_of(hand, deal, position), hand)
        actor = hand.current_player
        action = players[actor].act(view_of(hand, deal, actor), hand)
        hand.apply(action if hand.is_legal(action) else CALL)
    ranks = [rank_hand((*hole, *deal.board)) for hole in deal.hole_cards]
    values = hand.values(ranks if hand.is_showdown else None)
    for position, player in enumerate(players):
        final = view_of(hand, deal, position)
        player.observe(final, hand)
        player.end_hand(HandResult(final, values))
    return list(values)
