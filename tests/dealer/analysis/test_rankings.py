"""The ACPC's rankings on hand-made crosstables whose answers are known."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dealer.analysis.rankings import Placing, Value, instant_runoff, total_bankroll


def table(won: dict[tuple[str, str], int]) -> Value:
    """A zero-sum crosstable from what the first of each pair won from the second."""

    def value(a: str, b: str) -> Fraction:
        if (a, b) in won:
            return Fraction(won[a, b])
        return -Fraction(won[b, a])

    return value


def ranks(placings: list[Placing]) -> list[tuple[int, str]]:
    return [(p.rank, p.agent) for p in placings]


# A exploits D heavily but loses to B and C; B beats everyone it meets.
EXPLOITER = table(
    {
        ("A", "B"): -50,
        ("A", "C"): -50,
        ("A", "D"): 1000,
        ("B", "C"): 10,
        ("B", "D"): 20,
        ("C", "D"): 30,
    }
)


def test_total_bankroll_ranks_by_mean_winnings_against_every_other_agent() -> None:
    placings = total_bankroll(["A", "B", "C", "D"], EXPLOITER)
    assert ranks(placings) == [(1, "A"), (2, "B"), (3, "C"), (4, "D")]
    assert [p.bankroll for p in placings] == [
        Fraction(900, 3),
        Fraction(80, 3),
        Fraction(70, 3),
        Fraction(-1050, 3),
    ]


def test_instant_runoff_eliminates_the_lowest_bankroll_among_those_left() -> None:
    placings = instant_runoff(["A", "B", "C", "D"], EXPLOITER)
    # Round 1: D out (-350). Round 2 among A, B, C: A -50, B +30, C +20: A out.
    # Round 3: B +10 against C -10: C out, B wins.
    assert ranks(placings) == [(1, "B"), (2, "C"), (3, "A"), (4, "D")]
    assert [p.round for p in placings] == [3, 3, 2, 1]
    assert [p.bankroll for p in placings] == [10, -10, -50, Fraction(-1050, 3)]


def test_a_tie_in_total_bankroll_shares_the_rank_and_skips_the_next() -> None:
    # A and B both average +5; C -10.
    value = table({("A", "B"): 0, ("A", "C"): 10, ("B", "C"): 10})
    assert ranks(total_bankroll(["C", "A", "B"], value)) == [(1, "A"), (1, "B"), (3, "C")]
    # ... and the run-off ends with both left tied first.
    runoff = instant_runoff(["C", "A", "B"], value)
    assert ranks(runoff) == [(1, "A"), (1, "B"), (3, "C")]
    assert [p.round for p in runoff] == [2, 2, 1]


def test_agents_tied_for_the_lowest_bankroll_leave_the_runoff_together() -> None:
    # D and E lose alike to everyone else (and draw with each other); A beats B beats C.
    won = {("A", "B"): 10, ("A", "C"): 10, ("B", "C"): 10, ("D", "E"): 0}
    for top in "ABC":
        for bottom in "DE":
            won[top, bottom] = 100
    runoff = instant_runoff(["A", "B", "C", "D", "E"], table(won))
    assert ranks(runoff) == [(1, "A"), (2, "B"), (3, "C"), (4, "D"), (4, "E")]
    assert [p.round for p in runoff] == [3, 3, 2, 1, 1]


def test_a_cycle_ties_everyone_in_both_rankings() -> None:
    value = table({("A", "B"): 10, ("B", "C"): 10, ("C", "A"): 10})
    assert ranks(total_bankroll(["A", "B", "C"], value)) == [(1, "A"), (1, "B"), (1, "C")]
    runoff = instant_runoff(["A", "B", "C"], value)
    assert ranks(runoff) == [(1, "A"), (1, "B"), (1, "C")]
    assert {p.round for p in runoff} == {1}


def test_ties_are_exact_not_rounded() -> None:
    # 1/3 and 0.3333333333 are different bankrolls.
    value = table({("A", "B"): 0, ("A", "C"): 1, ("B", "C"): 1})

    def nudged(a: str, b: str) -> Fraction:
        base = value(a, b)
        return base + Fraction(1, 10**12) if (a, b) == ("A", "C") else base

    assert ranks(total_bankroll(["A", "B", "C"], nudged)) == [(1, "A"), (2, "B"), (3, "C")]


def test_an_agent_named_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        total_bankroll(["A", "A"], EXPLOITER)
