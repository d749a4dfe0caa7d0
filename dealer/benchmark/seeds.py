"""The cards' seed of each run of a request, derived as ``bm_server.c`` derives them, and
the house agents' seeds.

``RUNMATCHES ... rngSeed ...`` with a seed other than 0 and one run plays that seed; with
several runs, the seeds are ``genrand_int32()`` drawn in turn from an MT19937 seeded by
``init_genrand(rngSeed)`` (the reference's generator, :mod:`dealer.referee.rng`). With seed
0 the server draws a seed from its own generator and goes on as if the request had given
it (the C seeds its generator from the clock, and leaves which seed a run used unsaid);
here it is drawn from the system's randomness and kept in the database with every run's
seed, so that any run can be replayed.

A house agent plays with the seed ``acpcbot match --seed SEED`` gives the agent in its
place: ``derived_seed(SEED, i)`` for the ``i``-th player of the request (0 for the first
named), the same in both halves of a duplicate pair. So run ``r`` is replayed with
``acpc-dealer NAME GAME HANDS SEED ...`` and ``acpcbot play ... --match-seed SEED --as a``
(or ``b``) for each house agent.

>>> run_seeds(7, 1), run_seeds(7, 3)
([7], [327741615, 976413892, 3349725721])
>>> run_seed(7, 3, 2) == run_seeds(7, 3)[2]
True
"""

from __future__ import annotations

import secrets

from dealer.referee.rng import mt19937
from dealer.running.duplicate import derived_seed

__all__ = ["agent_seed", "draw_request_seed", "run_seed", "run_seeds"]


def run_seeds(rng_seed: int, runs: int) -> list[int]:
    """Every run's seed, in order, for a request's ``rngSeed`` (other than 0) and runs."""
    if runs == 1:
        return [rng_seed]
    return [int(v) for v in mt19937(rng_seed).random_raw(runs)]


def run_seed(rng_seed: int, runs: int, index: int) -> int:
    """Run ``index``'s (0-based) seed: :func:`run_seeds`' ``index``-th."""
    if runs == 1:
        return rng_seed
    return int(mt19937(rng_seed).random_raw(index + 1)[index])


def draw_request_seed() -> int:
    """The seed of a request's generator when it gave ``rngSeed`` 0: drawn from the
    system's randomness (never 0, so that it reads as a seed of several runs)."""
    return secrets.randbelow(2**32 - 1) + 1


def agent_seed(run_seed: int, player: int) -> int:
    """The seed of the request's ``player``-th player (0-based, in the request's order)
    when it is a house agent: what ``acpcbot match --seed run_seed`` gives that agent."""
    return derived_seed(run_seed, player)
