"""DPRC picks the maximum of its objective over the range table (brute force), and moves
with the opponent's range and the pot."""

from __future__ import annotations

import pytest

from agents.common.tables import range_ev
from agents.plicas.dprc import choose_range
from agents.plicas.tables import PlicasTables

CASES = [(1.0, 6.0), (1.0, 16.0), (0.85, 12.0), (0.6, 10.0), (0.4, 20.0), (0.25, 8.0)]


def brute_force(r_o: float, p_avg: float) -> float:
    """Every r_p on the 1% grid up to r_o, f evaluated term by term."""
    best, best_value = 0.0, float("-inf")
    for k in range(1, round(r_o * 100) + 1):
        r_p = k / 100
        ev = range_ev(r_p, r_o)
        value = r_p * (ev * p_avg / 2 - (1 - ev) * p_avg / 2) - (r_o - r_p) * 1.0
        if value > best_value:
            best, best_value = r_p, value
    return best


@pytest.mark.parametrize(("r_o", "p_avg"), CASES)
def test_choice_is_the_brute_force_maximum(r_o: float, p_avg: float) -> None:
    tables = PlicasTables.load()
    chosen = choose_range(tables.range_grid, tables.range_ev, r_o, p_avg)
    assert chosen == pytest.approx(brute_force(r_o, p_avg))
    assert chosen <= r_o


def test_tighter_opponents_and_bigger_pots_tighten_the_range() -> None:
    tables = PlicasTables.load()

    def choose(r_o: float, p_avg: float) -> float:
        return choose_range(tables.range_grid, tables.range_ev, r_o, p_avg)

    by_range = [choose(r_o, 14.0) for r_o in (0.2, 0.4, 0.6, 0.8, 1.0)]
    assert by_range == sorted(by_range) and by_range[0] < by_range[-1]
    by_pot = [choose(1.0, p) for p in (6.0, 10.0, 16.0, 30.0)]
    assert by_pot == sorted(by_pot, reverse=True) and by_pot[0] > by_pot[-1]
    assert 0.5 < choose(1.0, 16.0) < 0.9  # an interior optimum, not an end of the range
