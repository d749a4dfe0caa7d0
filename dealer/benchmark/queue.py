"""The queue of requests and which run starts next: the reference's policy, and our limits
(pure: no I/O; the service keeps it in step with the database).

As ``bm_server.c``'s ``startMatchJob`` chooses: among the requests with runs left and none
playing (a request plays one run at a time) whose game plays fewer than its
``maxRunningJobs`` runs (0: no limit), the one whose user has waited longest (the user's
*wait start*, reset whenever one of their runs starts), then the one queued longest (a
request's *queue time*, reset whenever one of its runs starts, so a user's requests take
turns). If that one's house bots would pass ``maxRunningBots`` (0: no limit), nothing
starts. Beyond the reference: a request with a user seat waits while its user has no
connection to be told ``RUN`` on, and a user may have at most ``limits.running`` runs
playing at once.

>>> queue = Queue({"g": 1}, max_running_bots=0, running_per_user=0)
>>> queue.add(QueuedRequest(1, 10, "ann", "g", "t1", jobs=2, hands=50, house_bots=1,
...                         user_seats=1, queued_at=1.0), wait_start=5.0)
>>> queue.add(QueuedRequest(2, 11, "bob", "g", "t2", jobs=1, hands=50, house_bots=1,
...                         user_seats=1, queued_at=2.0), wait_start=3.0)
>>> queue.pick(online={10, 11})  # bob has waited longer
2
>>> queue.started(2, now=6.0); queue.pick(online={10, 11})  # game g is busy
>>> queue.ended(2); queue.pick(online={10, 11}), queue.pick(online={11})
(1, None)
"""

from __future__ import annotations

import collections
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from dealer.benchmark.config import UserLimits
from dealer.benchmark.lineprotocol import QueueEntry

__all__ = ["Queue", "QueuedRequest"]


@dataclass(frozen=True, slots=True)
class QueuedRequest:
    """A request as the queue sees it."""

    id: int
    user_id: int
    user: str
    game: str
    tag: str
    jobs: int
    """Runs in all."""
    hands: int
    """Hands per run."""
    house_bots: int
    """Seats played by house bots."""
    user_seats: int
    """Seats played by the user's own bot (``LOCAL``)."""
    queued_at: float
    started: int = 0
    """Runs started."""
    running: bool = False

    @property
    def left(self) -> int:
        return self.jobs - self.started


class Queue:
    """The open requests, the runs playing, and the reference's choice among them."""

    def __init__(
        self,
        max_running_jobs: Mapping[str, int],
        *,
        max_running_bots: int,
        running_per_user: int,
    ) -> None:
        self._max_jobs = dict(max_running_jobs)
        self._max_bots = max_running_bots
        self._per_user = running_per_user
        self._requests: dict[int, QueuedRequest] = {}
        """In the order they were queued."""
        self._wait_start: dict[int, float] = {}
        self._by_game: collections.Counter[str] = collections.Counter()
        self._by_user: collections.Counter[int] = collections.Counter()
        self._bots = 0

    def add(self, request: QueuedRequest, *, wait_start: float) -> None:
        """Queue ``request`` (its user's wait start as recorded); a request already running
        counts as such."""
        self._requests[request.id] = request
        self._wait_start.setdefault(request.user_id, wait_start)
        if request.running:
            self._count(request, +1)

    def __contains__(self, request_id: int) -> bool:
        return request_id in self._requests

    def get(self, request_id: int) -> QueuedRequest | None:
        return self._requests.get(request_id)

    def requests_of(self, user_id: int | None) -> list[QueuedRequest]:
        """A user's requests (everyone's: ``None``), in the order they were queued."""
        return [r for r in self._requests.values() if user_id is None or r.user_id == user_id]

    def pick(self, online: Collection[int]) -> int | None:
        """The request whose run starts next (``None``: none now). ``online``: the users
        with a connection (a request with user seats waits for its user)."""
        best: QueuedRequest | None = None
        for request in self._requests.values():
            if request.running or request.left <= 0:
                continue
            limit = self._max_jobs.get(request.game, 1)
            if limit and self._by_game[request.game] >= limit:
                continue
            if request.user_seats and request.user_id not in online:
                continue
            if self._per_user and self._by_user[request.user_id] >= self._per_user:
                continue
            if best is None or self._before(request, best):
                best = request
        if best is None:
            return None
        if self._max_bots and self._bots + best.house_bots > self._max_bots:
            return None  # as the C: the best waits, nothing else jumps ahead of it
        return best.id

    def _before(self, a: QueuedRequest, b: QueuedRequest) -> bool:
        wait_a, wait_b = self._wait_start[a.user_id], self._wait_start[b.user_id]
        if wait_a != wait_b:
            return wait_a < wait_b
        return (a.queued_at, a.id) < (b.queued_at, b.id)

    def started(self, request_id: int, *, now: float) -> None:
        """A run of the request started (its queue time and its user's wait start reset)."""
        request = self._requests[request_id]
        request = replace(request, started=request.started + 1, running=True, queued_at=now)
        self._requests[request_id] = request
        self._wait_start[request.user_id] = now
        self._count(request, +1)

    def ended(self, request_id: int) -> None:
        """The request's run ended; a request with no run left leaves the queue."""
        request = self._requests.get(request_id)
        if request is None or not request.running:
            return
        self._count(request, -1)
        if request.left <= 0:
            del self._requests[request_id]
        else:
            self._requests[request_id] = replace(request, running=False)

    def remove(self, request_id: int) -> None:
        """Take a request out (cancelled); a run of it still playing is counted until it
        ends."""
        request = self._requests.get(request_id)
        if request is not None and not request.running:
            del self._requests[request_id]
        elif request is not None:
            self._requests[request_id] = replace(request, jobs=request.started)

    def _count(self, request: QueuedRequest, step: int) -> None:
        self._by_game[request.game] += step
        self._by_user[request.user_id] += step
        self._bots += step * request.house_bots

    def entries(self, viewer: int | None = None, *, show_others: bool = True) -> list[QueueEntry]:
        """The requests as ``QSTAT`` shows them, in the order they were queued; without
        ``show_others``, other users' than ``viewer``'s show ``*`` for name and tag."""
        shown = []
        for r in self._requests.values():
            mine = show_others or r.user_id == viewer
            shown.append(
                QueueEntry(
                    r.user if mine else "*", r.tag if mine else "*", r.game, r.left, r.running
                )
            )
        return shown

    def refusal(self, user_id: int, jobs: int, hands: int, limits: UserLimits) -> str | None:
        """Why a user may not queue a request of ``jobs`` runs of ``hands`` hands now
        (``None``: they may)."""
        mine = [r for r in self._requests.values() if r.user_id == user_id]
        if limits.requests and len(mine) + 1 > limits.requests:
            return f"you have {len(mine)} requests queued or playing (at most {limits.requests})"
        queued = sum(r.left * r.hands for r in mine)
        if limits.hands and queued + jobs * hands > limits.hands:
            return (
                f"that would make {queued + jobs * hands:,} hands queued for you (at most "
                f"{limits.hands:,})"
            )
        return None

    def waiting_for(self, user_id: int) -> list[QueuedRequest]:
        """The user's requests whose runs wait for them to connect."""
        return [
            r
            for r in self._requests.values()
            if r.user_id == user_id and r.user_seats and r.left > 0 and not r.running
        ]
