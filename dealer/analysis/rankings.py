"""The ACPC's two rankings of a round-robin tournament: total bankroll and instant run-off.

Both read a crosstable of exact winnings: ``value(a, b)`` is what agent ``a`` won from ``b``
(chips or mbb per hand: only the order matters), for every two agents.

* **Total bankroll**: each agent's bankroll is its mean winnings against every other agent
  (the ACPC sums them; with every pairing played over the same hands that is the same
  order); the larger the better.
* **Bankroll instant run-off**: round by round, each remaining agent's bankroll against the
  remaining agents only; the lowest is eliminated and takes the lowest place left, until
  one agent remains. An agent that only wins by exploiting a weak one loses that edge once
  the weak one is out.

**Ties** are exact equality (the winnings are exact fractions of chips, so equal is equal).
Tied agents share a rank, the best of the places they take, the next rank skipping the
places they used ("1, 2, 2, 4"). In the run-off every agent tied for the lowest bankroll of
a round is eliminated in that round, all sharing the rank; when every remaining agent is
tied they all share the rank left, and the run-off ends.

>>> won = {("a", "b"): 10, ("a", "c"): -30, ("b", "c"): 5}
>>> def value(x, y):
...     return Fraction(won[x, y]) if (x, y) in won else -Fraction(won[y, x])
>>> [(p.rank, p.agent, p.bankroll) for p in total_bankroll(["a", "b", "c"], value)]
[(1, 'c', Fraction(25, 2)), (2, 'b', Fraction(-5, 2)), (3, 'a', Fraction(-10, 1))]
>>> [(p.rank, p.agent, p.round) for p in instant_runoff(["a", "b", "c"], value)]
[(1, 'b', 2), (2, 'c', 2), (3, 'a', 1)]

``c`` wins most in all, mostly from ``a``; without ``a``, ``b`` beats it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Placing", "Value", "instant_runoff", "total_bankroll"]

Value = Callable[[str, str], Fraction]
"""What the first agent won from the second, exactly."""


@dataclass(frozen=True, slots=True)
class Placing:
    """An agent's place in a ranking."""

    rank: int
    """1 is best; tied agents share a rank."""
    agent: str
    bankroll: Fraction
    """Its mean winnings against the agents it was ranked among (in the run-off: those
    left in :attr:`round`)."""
    round: int = 1
    """The run-off's round in which it was eliminated (its last round, for the winner)."""


def bankrolls(agents: Sequence[str], value: Value) -> dict[str, Fraction]:
    """Each agent's mean winnings against the others among ``agents``."""
    if len(agents) < 2:
        return dict.fromkeys(agents, Fraction(0))
    return {
        a: sum((value(a, b) for b in agents if b != a), Fraction(0)) / (len(agents) - 1)
        for a in agents
    }


def total_bankroll(agents: Sequence[str], value: Value) -> list[Placing]:
    """Every agent by its bankroll against all the others, best first (ties share a rank
    and keep the order of ``agents``)."""
    _check(agents)
    held = bankrolls(agents, value)
    ordered = sorted(agents, key=lambda a: -held[a])  # stable: ties keep their order
    placings: list[Placing] = []
    for place, agent in enumerate(ordered, 1):
        tied = bool(placings) and placings[-1].bankroll == held[agent]
        rank = placings[-1].rank if tied else place
        placings.append(Placing(rank, agent, held[agent]))
    return placings


def instant_runoff(agents: Sequence[str], value: Value) -> list[Placing]:
    """Every agent by the bankroll instant run-off, best first (see the module)."""
    _check(agents)
    left = list(agents)
    eliminated: list[Placing] = []  # worst first
    last_round = 0
    while left:
        last_round += 1
        held = bankrolls(left, value)
        lowest = min(held.values())
        out = [a for a in left if held[a] == lowest]
        rank = len(left) - len(out) + 1
        eliminated.extend(Placing(rank, a, held[a], last_round) for a in reversed(out))
        left = [a for a in left if held[a] != lowest]
        if len(left) == 1:  # the winner: ranked by the round that left it alone
            eliminated.append(Placing(1, left[0], held[left[0]], last_round))
            break
    return eliminated[::-1]


def _check(agents: Sequence[str]) -> None:
    if len(set(agents)) != len(agents):
        raise ValueError(f"agents named twice: {sorted(agents)}")
