from __future__ import annotations

from dealer.referee.config import TimeLimits
from dealer.referee.timing import TimeBudget


def test_the_three_limits_of_the_reference() -> None:
    limits = TimeLimits(response_ms=100, hand_ms=150, per_hand_ms=100)
    budget = TimeBudget(limits, hands=3)  # match budget: 300 ms
    assert not budget.charge(0, 0, 100_001)  # one reply over t_response
    budget = TimeBudget(limits, hands=3)
    assert budget.charge(0, 0, 80_000) and not budget.charge(0, 0, 80_000)  # hand: 160 > 150
    budget = TimeBudget(limits, hands=3)
    for _ in range(3):
        assert budget.charge(1, 0, 90_000)
        budget.new_hand()  # the hand budget restarts, the match budget does not
    assert budget.charge(1, 0, 30_000) and not budget.charge(1, 0, 1)  # 300 ms used, then over
    assert budget.charge(0, 0, 90_000)  # seats are separate
    assert budget.charge(0, 500, 400)  # a clock going backwards is not charged
    assert budget.match_used == [90_000, 300_001]
