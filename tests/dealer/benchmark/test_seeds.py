"""The runs' seeds as bm_server.c derives them, and the house agents' as acpcbot match's."""

from __future__ import annotations

from dealer.benchmark.seeds import agent_seed, draw_request_seed, run_seed, run_seeds
from dealer.referee.rng import mt19937
from dealer.running.duplicate import derived_seed


def test_one_run_plays_the_seed_given() -> None:
    assert run_seeds(7, 1) == [7] and run_seed(7, 1, 0) == 7


def test_several_runs_draw_their_seeds_from_the_seed_given_in_turn() -> None:
    # init_genrand(rngSeed), then genrand_int32() for each run as it starts.
    draws = [int(v) for v in mt19937(7).random_raw(5)]
    assert run_seeds(7, 5) == draws
    assert [run_seed(7, 5, i) for i in range(5)] == draws
    assert run_seeds(7, 2) == draws[:2]  # the same first runs, whatever the number


def test_a_drawn_seed_is_a_32_bit_seed_other_than_0() -> None:
    drawn = {draw_request_seed() for _ in range(100)}
    assert len(drawn) > 90 and all(0 < s < 2**32 for s in drawn)


def test_a_house_agent_plays_the_seed_acpcbot_match_gives_its_place() -> None:
    assert agent_seed(42, 0) == derived_seed(42, 0) == 2853895696
    assert agent_seed(42, 1) == derived_seed(42, 1)
