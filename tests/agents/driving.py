"""Drive agents through real hands (the rules, real deals) without a dealer."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from acpcbot.actions import Action
from acpcbot.deal import Deal
from acpcbot.game import Game
from acpcbot.player import MatchInfo
from acpcbot.protocol.matchstate import MatchState, view_of
from acpcbot.rules import HandState
from agents.base import Agent

Check = Callable[[MatchState, HandState, Action], None]


def random_deal(game: Game, rng: random.Random) -> Deal:
    deck = list(game.deck())
    cards = rng.sample(deck, game.num_players * game.num_hole_cards + sum(game.num_board_cards))
    k = game.num_hole_cards
    holes = tuple(tuple(cards[p * k : (p + 1) * k]) for p in range(game.num_players))
    return Deal(hole_cards=holes, board=tuple(cards[game.num_players * k :]))


def play_hands(game: Game, agents: Sequence[Agent], hands: int, seed: int, check: Check) -> int:
    """Play ``hands`` hands (agents[p] in position p); ``check`` sees every decision.
    Returns the number of decisions."""
    rng = random.Random(seed)
    for agent in agents:
        agent.begin_match(MatchInfo(game=game))
    decisions = 0
    for number in range(hands):
        deal = random_deal(game, rng)
        hand = HandState(game, number)
        while not hand.finished:
            position = hand.current_player
            state = view_of(hand, deal, position)
            action = agents[position].act(state, hand)
            check(state, hand, action)
            hand.apply(action)
            decisions += 1
    return decisions
