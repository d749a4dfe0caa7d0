"""Dynamic preflop range control (DPRC, PLICAS §4.1.2, Algorithm 1).

After the opponent model has seen enough hands, choose the own preflop range r_p no wider
than the opponent's range r_o that maximises

``f(r_p, r_o, p) = r_p·[EV(r_p, r_o)·p/2 − (1 − EV(r_p, r_o))·p/2] − (r_o − r_p)·1 SB``

with ``p`` the average pot in small blinds and ``EV`` the showdown equity of the top-r_p
hands against the top-r_o hands, read from the precomputed range table (ranges are tops of
the starting-hand ranking, counted in combos). The signs lost in the seed's extraction are
restored as docs/design.md §5 reads them: the pot won, the pot lost, the small blind given up
by folding more often than the opponent.

**Why the factor r_p.** The paper explains the third term per hand dealt ("PLICAS folds in
10% of the cases when the opponent would not ... an average loss of 0.1 SB per hand") and
the first two per contested pot. Without weighting the pot terms by the share of hands in
which PLICAS contests the pot, ``f`` is convex in r_p (EV falls ever more slowly as the
range widens), so its maximum is always an end of the interval: r_o when the average pot
is below about 3 small blinds, the top 1% of hands (aces only) above — never a trade-off.
With the factor the optimum is where the marginal hand's equity against r_o reaches
``1/2 − 1 SB / p``: a tight opponent or a big pot tightens r_p, a loose one widens it.

>>> import numpy as np
>>> grid = np.array([0.25, 0.5, 0.75, 1.0])
>>> ev = np.array([[.5, .6, .65, .7], [.4, .5, .57, .62], [.35, .43, .5, .55], [.3, .38, .45, .5]])
>>> choose_range(grid, ev, opponent_range=1.0, average_pot=6.0)
1.0
>>> choose_range(grid, ev, opponent_range=1.0, average_pot=40.0)
0.5
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


def objective(
    ev: FloatArray, own_range: FloatArray, opponent_range: float, average_pot: float
) -> FloatArray:
    """``f(r_p, r_o, p_avg)`` in small blinds per hand, elementwise over candidate r_p."""
    contested = ev * average_pot / 2 - (1 - ev) * average_pot / 2
    return own_range * contested - (opponent_range - own_range)


def opponent_index(grid: FloatArray, opponent_range: float) -> int:
    """The grid range nearest to r_o."""
    return int(np.argmin(np.abs(grid - opponent_range)))


def choose_range(
    grid: FloatArray, ev: FloatArray, opponent_range: float, average_pot: float
) -> float:
    """The r_p on ``grid`` (increasing range sizes) with r_p ≤ r_o maximising f, where
    ``ev[i, j]`` is the equity of range ``grid[i]`` against range ``grid[j]``; r_o is
    taken as the nearest grid range."""
    j = opponent_index(grid, opponent_range)
    r_o = float(grid[j])
    candidates = grid[: j + 1]
    values = objective(ev[: j + 1, j], candidates, r_o, average_pot)
    return float(candidates[int(np.argmax(values))])
