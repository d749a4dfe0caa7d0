"""The queue's choice of the next run: bm_server.c's startMatchJob, and our limits."""

from __future__ import annotations

from dealer.benchmark.config import UserLimits
from dealer.benchmark.queue import Queue, QueuedRequest

G, H = "g.game", "h.game"


def request(
    id: int,
    user: int,
    *,
    game: str = G,
    jobs: int = 1,
    queued_at: float = 0.0,
    house_bots: int = 1,
    user_seats: int = 1,
    hands: int = 100,
) -> QueuedRequest:
    return QueuedRequest(
        id, user, f"u{user}", game, f"t{id}", jobs, hands, house_bots, user_seats, queued_at
    )


def queue(**limits: int) -> Queue:
    return Queue(
        {G: limits.get("jobs", 1), H: 0},
        max_running_bots=limits.get("bots", 0),
        running_per_user=limits.get("per_user", 0),
    )


def test_the_user_who_waited_longest_goes_first_then_the_oldest_request() -> None:
    q = queue(jobs=0)
    q.add(request(1, 10, queued_at=1.0), wait_start=5.0)
    q.add(request(2, 11, queued_at=2.0), wait_start=3.0)
    q.add(request(3, 11, queued_at=1.5), wait_start=3.0)
    everyone = {10, 11}
    assert q.pick(everyone) == 3  # user 11 waited longest; its older request
    q.started(3, now=6.0)  # user 11's wait starts again: user 10 has waited longest now
    assert q.pick(everyone) == 1


def test_a_users_requests_take_turns() -> None:
    q = queue()
    q.add(request(1, 10, jobs=2, queued_at=1.0), wait_start=0.0)
    q.add(request(2, 10, jobs=2, queued_at=2.0), wait_start=0.0)
    order = []
    for now in (10.0, 11.0, 12.0, 13.0):
        picked = q.pick({10})
        assert picked is not None
        order.append(picked)
        q.started(picked, now=now)
        q.ended(picked)
    assert order == [1, 2, 1, 2]
    assert q.pick({10}) is None
    assert q.entries() == []  # every run played: the requests left


def test_a_request_plays_one_run_at_a_time_and_a_game_its_max_running_jobs() -> None:
    q = queue(jobs=2)
    q.add(request(1, 10, jobs=3), wait_start=0.0)
    q.add(request(2, 11, jobs=1), wait_start=1.0)
    q.add(request(3, 12, jobs=1), wait_start=2.0)
    q.started(1, now=5.0)
    assert q.pick({10, 11, 12}) == 2  # request 1 is running
    q.started(2, now=5.0)
    assert q.pick({10, 11, 12}) is None  # the game runs its 2
    q.ended(2)
    assert q.pick({10, 11, 12}) == 3


def test_max_running_jobs_0_is_no_limit() -> None:
    q = queue()
    for i in range(5):
        q.add(request(i, i, game=H), wait_start=float(i))
        assert q.pick(range(5)) == i
        q.started(i, now=10.0)


def test_max_running_bots_holds_the_best_back_and_nothing_jumps_ahead() -> None:
    q = queue(jobs=0, bots=2)
    q.add(request(1, 10, house_bots=1), wait_start=0.0)
    q.add(request(2, 11, house_bots=2, user_seats=0), wait_start=1.0)
    q.add(request(3, 12, house_bots=1), wait_start=2.0)
    q.started(1, now=5.0)
    assert q.pick({10, 11, 12}) is None  # 2 waits for room; 3 may not pass it (as the C)
    q.ended(1)
    assert q.pick({10, 11, 12}) == 2


def test_a_request_with_a_user_seat_waits_for_its_user() -> None:
    q = queue()
    q.add(request(1, 10), wait_start=0.0)
    q.add(request(2, 11, user_seats=0, house_bots=2), wait_start=1.0)
    assert q.pick(online={11}) == 2  # house against house needs nobody
    assert [r.id for r in q.waiting_for(10)] == [1]
    assert q.pick(online=set()) == 2


def test_a_user_plays_at_most_their_running_limit() -> None:
    q = queue(jobs=0, per_user=1)
    q.add(request(1, 10), wait_start=0.0)
    q.add(request(2, 10), wait_start=0.0)
    q.started(1, now=1.0)
    assert q.pick({10}) is None
    q.ended(1)
    assert q.pick({10}) == 2


def test_limits_on_what_a_user_queues() -> None:
    q = queue()
    limits = UserLimits(requests=2, hands=1000, running=0)
    q.add(request(1, 10, jobs=5, hands=100), wait_start=0.0)
    assert q.refusal(10, jobs=5, hands=100, limits=limits) is None
    assert q.refusal(10, jobs=6, hands=100, limits=limits) == (
        "that would make 1,100 hands queued for you (at most 1,000)"
    )
    q.add(request(2, 10, jobs=1, hands=100), wait_start=0.0)
    assert q.refusal(10, jobs=1, hands=1, limits=limits) == (
        "you have 2 requests queued or playing (at most 2)"
    )
    assert q.refusal(11, jobs=10, hands=100, limits=limits) is None  # another user's room
    assert q.refusal(10, jobs=10**6, hands=100, limits=UserLimits(0, 0, 0)) is None


def test_qstat_can_hide_other_users() -> None:
    q = queue()
    q.add(request(1, 10, jobs=2), wait_start=0.0)
    q.add(request(2, 11), wait_start=0.0)
    q.started(1, now=1.0)
    shown = q.entries(viewer=11, show_others=False)
    assert [(e.user, e.tag, e.runs_left, e.running) for e in shown] == [
        ("*", "*", 1, True),
        ("u11", "t2", 1, False),
    ]
    assert [e.user for e in q.entries(viewer=11)] == ["u10", "u11"]


def test_a_removed_request_plays_no_more_runs() -> None:
    q = queue()
    q.add(request(1, 10, jobs=3), wait_start=0.0)
    q.started(1, now=1.0)
    q.remove(1)
    q.ended(1)
    assert 1 not in q and q.pick({10}) is None
