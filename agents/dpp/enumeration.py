"""Best response in a small real game by enumerating every deal (a check on the solver).

This walks the real game — :meth:`acpcbot.rules.HandState.children` for the betting, every
deal of real cards, :func:`acpcbot.handeval.rank_hand` for showdowns — with no abstraction and
none of the solver's chance matrices, so it checks :mod:`agents.dpp.solver` independently.
A deal is a hole card set per position and the full board, all equally likely. It is
exponential in the deck: use it for Leduc-sized games only.

>>> from acpcbot.game import parse_game
>>> from agents.dpp.chance import LEDUC_TEXT
>>> uniform = lambda betting, position, hole, board: (1 / 3, 1 / 3, 1 / 3)
>>> round(best_response_value(parse_game(LEDUC_TEXT), 0, uniform), 4)
2.0875
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from itertools import combinations, permutations

from acpcbot.cards import Card
from acpcbot.deal import Deal
from acpcbot.game import Game
from acpcbot.handeval import rank_hand
from acpcbot.rules import HandState
from agents.common.bettingtree import ACTION_ORDER

Policy = Callable[[str, int, tuple[Card, ...], tuple[Card, ...]], Sequence[float]]
"""``(betting, position, own hole cards, visible board) -> (fold, call, raise)``; the
probabilities of illegal actions are ignored and the rest renormalised."""


def all_deals(game: Game) -> list[Deal]:
    """Every deal of ``game``'s deck (hole cards by position, then the board)."""
    deck = list(game.deck())
    holes = list(combinations(deck, game.num_hole_cards))
    board_size = sum(game.num_board_cards)
    deals = []
    for pair in permutations(holes, game.num_players):
        used = {c for h in pair for c in h}
        if len(used) != game.num_hole_cards * game.num_players:
            continue
        rest = [c for c in deck if c not in used]
        for board in permutations(rest, board_size):
            deals.append(Deal(hole_cards=tuple(pair), board=board))
    return deals


def best_response_value(game: Game, position: int, policy: Policy) -> float:
    """Chips per game that ``position`` wins with a best response to ``policy`` (which
    plays the other position) in the real game."""
    deals = all_deals(game)
    reach = [1.0 / len(deals)] * len(deals)
    values = _visit(game, HandState(game), position, policy, deals, reach)
    return sum(r * v for r, v in zip(reach, values, strict=True))


def _visit(  # noqa: PLR0917
    game: Game,
    hand: HandState,
    me: int,
    policy: Policy,
    deals: list[Deal],
    reach: list[float],
) -> list[float]:
    """Per-deal value for ``me`` below ``hand``; ``reach`` is chance times the opponent."""
    if hand.finished:
        return [_leaf(game, hand, me, deal) for deal in deals]
    player = hand.current_player
    below = hand.children()
    if player == me:
        values = [_visit(game, child, me, policy, deals, reach) for _, child in below]
    else:
        betting = hand.betting_text()
        probs = [_probabilities(policy, hand, betting, deal) for deal in deals]
        weighted = []
        for index, (_, child) in enumerate(below):
            child_reach = [r * p[index] for r, p in zip(reach, probs, strict=True)]
            child_values = _visit(game, child, me, policy, deals, child_reach)
            weighted.append([p[index] * v for p, v in zip(probs, child_values, strict=True)])
        return [sum(column) for column in zip(*weighted, strict=True)]
    # one choice per information set: my cards and the board I can see
    groups: dict[tuple[tuple[Card, ...], tuple[Card, ...]], list[int]] = defaultdict(list)
    for d, deal in enumerate(deals):
        groups[(deal.hole_cards[me], deal.visible_board(game, hand.round))].append(d)
    result = [0.0] * len(deals)
    for members in groups.values():
        best = max(range(len(below)), key=lambda a: sum(reach[d] * values[a][d] for d in members))
        for d in members:
            result[d] = values[best][d]
    return result


def _probabilities(policy: Policy, hand: HandState, betting: str, deal: Deal) -> list[float]:
    player = hand.current_player
    board = deal.visible_board(hand.game, hand.round)
    raw = policy(betting, player, deal.hole_cards[player], board)
    weights = [raw[ACTION_ORDER.index(kind)] for kind in hand.legal_action_types()]
    total = sum(weights)
    if total <= 0:
        return [1.0 / len(weights)] * len(weights)
    return [w / total for w in weights]


def _leaf(game: Game, hand: HandState, me: int, deal: Deal) -> float:
    if not hand.is_showdown:
        return hand.value(me)
    board = deal.visible_board(game, hand.round)
    ranks = [rank_hand((*deal.hole_cards[p], *board)) for p in range(game.num_players)]
    return hand.value(me, ranks)
