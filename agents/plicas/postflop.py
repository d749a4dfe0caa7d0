"""The postflop rule unit: own bucket against the opponent's range, board, pot odds, betting.

Sklansky-style rules over numbers the opponent model provides:

* **bet / raise** for value with a probability that rises with the strength against the
  range that would still be in after one more bet (bucket moved by DPAC), a little more
  readily on a draw-heavy board before the river (protection) and a little less with every
  raise already made this street;
* facing a bet, **call** when the strength against the range that bet beats the effective
  odds (pot odds with the opponent's expected later bets), **fold** otherwise.

>>> from agents.plicas.model import PRIOR
>>> from acpcbot.game import bundled_game
>>> from acpcbot.protocol.matchstate import decode_match_state
>>> from acpcbot.cards import parse_cards
>>> state, betting = decode_match_state("MATCHSTATE:1:0:cc/r:|AsKd/Ah7c2d", bundled_game())
>>> s = Situation.of(state, betting)
>>> strong = Reading(0.9, 0.85, 0.9, 1)
>>> postflop_triple(s, strong, PRIOR, shift=0, bet_sizes=(10, 10, 20, 20)).raise_
1.0
>>> weak = Reading(0.1, 0.05, 0.2, 8)
>>> postflop_triple(s, weak, PRIOR, shift=0, bet_sizes=(10, 10, 20, 20)).fold
1.0
>>> wetness(parse_cards("Kh7c2d")), wetness(parse_cards("Ah7c2d")), wetness(parse_cards("9h8h7c"))
(0.0, 0.5, 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from acpcbot.cards import Card, rank_of, suit_of
from agents.plicas.model import OpponentProfile
from agents.plicas.reading import Reading
from agents.plicas.rules_common import (
    continue_probability,
    future_cost,
    needed_strength,
    raise_probability,
)
from agents.plicas.situation import Situation
from agents.triple import Triple

PROTECTION = 0.03
"""How much lower the value-raise centre sits on the wettest board before the river."""


def wetness(board: Sequence[Card]) -> float:
    """Board texture in [0, 1]: half for a possible flush draw (two or more of a suit),
    half for a possible straight draw (two ranks at most four apart, the ace also low)."""
    return _wetness(tuple(board))


@lru_cache(maxsize=64)
def _wetness(board: tuple[Card, ...]) -> float:
    suits = [suit_of(c) for c in board]
    flushy = any(suits.count(s) >= 2 for s in set(suits))
    ranks = {rank_of(c) for c in board}
    if 12 in ranks:
        ranks.add(-1)
    straighty = any(0 < b - a <= 4 for a in ranks for b in ranks)
    return 0.5 * flushy + 0.5 * straighty


def postflop_triple(
    situation: Situation,
    reading: Reading,
    profile: OpponentProfile,
    shift: int,
    bet_sizes: tuple[int, ...],
) -> Triple:
    """The rule unit's triple after the flop."""
    protection = PROTECTION * wetness(situation.board) if situation.round < 3 else 0.0
    raise_ = 0.0
    if situation.can_raise:
        raise_ = raise_probability(
            reading.strength_called, situation.num_raises, shift, center=-protection
        )
    if not situation.facing_bet:
        return Triple.of(0.0, 1.0 - raise_, raise_)
    needed = needed_strength(situation, future_cost(situation, profile, bet_sizes))
    keep = continue_probability(reading.strength, needed)
    return Triple.of((1 - raise_) * (1 - keep), (1 - raise_) * keep, raise_)
