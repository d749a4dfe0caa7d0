"""A tournament's plan (pairings, seeds, keys), its crosstable pooled over seeds, and its
report."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from dealer.analysis.crosstable import pool
from dealer.analysis.stats import SampleSums, estimate
from dealer.running.duplicate import derived_seed
from dealer.running.tournamentplan import TournamentError, TournamentPlan


def plan(**changes: Any) -> TournamentPlan:
    fields: dict[str, Any] = {
        "specs": ("a", "b:x=1", "c"),
        "names": ("a", "b+x=1", "c"),
        "hands": 100,
        "seed": 5,
        "seeds": 3,
    }
    fields.update(changes)
    return TournamentPlan(**fields)


def test_a_round_robin_plays_every_pair_once_on_every_seed_first_seed_first() -> None:
    p = plan()
    assert p.pairings == ((0, 1), (0, 2), (1, 2))
    assert p.card_seeds == (5, 6, 7)
    matches = p.matches()
    assert len(matches) == 9
    assert [(m.a, m.b, m.seed) for m in matches[:4]] == [(0, 1, 5), (0, 2, 5), (1, 2, 5), (0, 1, 6)]
    # each match is the one `acpcbot match A B --hands N --seed S+k` plays
    first = matches[0].plan
    assert first.agents == ("a", "b+x=1") and first.hands == 100 and first.seed == 5
    assert first.agent_seeds == (derived_seed(5, 0), derived_seed(5, 1))
    assert matches[0].name == "a-vs-b+x=1.seed5.n100" == first.match_name


def test_vs_plays_the_first_agent_against_each_other_one() -> None:
    assert plan(vs=True).pairings == ((0, 1), (0, 2))


def test_task_keys_differ_for_matches_that_differ_in_anything() -> None:
    keys = {m.task_key for m in plan().matches()}
    keys |= {m.task_key for m in plan(game="leduc.limit.2p.game").matches()}
    keys |= {m.task_key for m in plan(hands=101).matches()}
    assert len(keys) == 27
    assert plan().matches()[0].task_key == plan().matches()[0].task_key
    assert plan().matches()[0].task_key.startswith("a-vs-b+x=1.seed5.n100-")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"specs": ("a",), "names": ("a",)}, "at least two agents"),
        ({"specs": ("a", "a", "c"), "names": ("a", "a", "c")}, "a and a are the same agent"),
        ({"hands": 0}, "must be positive"),
        ({"seeds": 0}, "--seeds must be at least 1"),
        ({"seed": 2**32 - 2, "seeds": 3}, r"card seeds 4294967294 \.\. 4294967296 go beyond"),
        ({"seed": -1}, "go beyond"),
    ],
)
def test_a_plan_that_cannot_be_played_is_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        plan(**changes)


def test_the_plan_goes_through_json_and_damaged_json_is_refused() -> None:
    p = plan(vs=True)
    assert TournamentPlan.from_json(p.to_json()) == p
    for key, bad in (
        ("agents", "a"),
        ("vs", "yes"),
        ("hands_per_half", 1.5),
        ("card_seeds", [5, 7]),
        ("card_seeds", []),
        ("game", None),
        ("big_blind", True),
        ("names", ["a", "b"]),  # fewer names than agents
    ):
        with pytest.raises(TournamentError):
            TournamentPlan.from_json({**p.to_json(), key: bad})


def test_a_folder_may_grow_agents_and_seeds_but_not_change_its_series() -> None:
    base = plan()
    assert base.same_series(plan(seeds=5, specs=("a", "c"), names=("a", "c"))) == []
    assert base.same_series(plan(hands=200, seed=1)) == [
        "hands 200, not 100",
        "first card seed 1, not 5",
    ]


def test_a_pairing_pools_every_seed_and_its_ci_is_over_all_the_pairs() -> None:
    rng = random.Random(3)
    seeds = [[rng.choice([-120.0, -5.0, 0.0, 7.5, 30.0, 240.0]) for _ in range(500)] for _ in "xyz"]
    table = pool(
        ("a", "b"), 10, [("a", "b")], [("a", "b", SampleSums.of(samples)) for samples in seeds]
    )
    cell = table.cell("a", "b")
    assert cell is not None
    everything = estimate([s for samples in seeds for s in samples], 10)
    assert cell.matches == 3 and cell.pairs == 1500 == everything.samples
    assert cell.estimate.mbb_per_game == pytest.approx(everything.mbb_per_game, abs=1e-9)
    assert cell.estimate.ci95_mbb == pytest.approx(everything.ci95_mbb, rel=1e-12)
    assert cell.estimate.sd_mbb == pytest.approx(everything.sd_mbb, rel=1e-12)
    # seen from b: the same interval, the other sign
    other = table.cell("b", "a")
    assert other is not None
    assert other.estimate.mbb_per_game == -cell.estimate.mbb_per_game
    assert other.estimate.ci95_mbb == cell.estimate.ci95_mbb
    assert table.value("a", "b") == -table.value("b", "a") == cell.chips


def test_a_pairing_without_a_finished_match_has_no_cell() -> None:
    table = pool(("a", "b", "c"), 10, [("a", "b"), ("a", "c")], [])
    assert table.cell("a", "b") is None and not table.complete and not table.round_robin
    with pytest.raises(KeyError):
        table.value("a", "b")
    one = pool(("a", "b"), 10, [("a", "b")], [("a", "b", SampleSums.of([5.0]))])
    cell = one.cell("a", "b")
    assert cell is not None and math.isinf(cell.estimate.ci95_mbb)
