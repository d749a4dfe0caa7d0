"""The benchmark server as a service: users and logons, requests and the queue, runs started
and recorded, clients told. The line server (:mod:`.lineserver`) is one face of it; an HTTP
API can be another, on the same methods.

State lives in the database (:mod:`.database`), called on one thread of the service's own
so that the event loop never waits on it; what the scheduler needs at once (the queue, the
runs playing, who is connected) is kept beside it, in step: every change is committed
first, then made here, then answered. Runs play elsewhere (a :class:`~.pool.RunExecutor`).

Nothing is lost on a stop or a crash. :meth:`BenchmarkService.start` marks each run that was
playing when the server last died as failed, with the hands its log holds, and the user is
told when they next log on; the queue is read back as it was. :meth:`BenchmarkService.stop`
(SIGTERM) stops the runs after their hand, records them as interrupted, and leaves the
queue in the database for the next start.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import ParamSpec, Protocol, TypeVar

from acpcbot.logconfig import get_logger
from acpcbot.player import Entrant
from dealer.analysis.playedlog import read_log
from dealer.analysis.stats import SampleSums
from dealer.benchmark.config import LOCAL, ConfigError, ServerConfig, check_name
from dealer.benchmark.database import (
    RequestRecord,
    ResultRecord,
    RunRecord,
    Store,
    UserRecord,
)
from dealer.benchmark.lineprotocol import (
    MatchSpec,
    OfferedGame,
    QueueEntry,
    comment,
    ended_text,
    running_text,
)
from dealer.benchmark.passwords import Lockout, verify_password
from dealer.benchmark.pool import RunExecutor, RunStopped
from dealer.benchmark.queue import Queue, QueuedRequest
from dealer.benchmark.runs import RunOrder, RunOutcome, RunSeat, RunStatus, SeatKind
from dealer.benchmark.schema import RequestState, ResultKind, RunState
from dealer.benchmark.seeds import agent_seed, draw_request_seed, run_seed
from dealer.benchmark.standings import (
    Board,
    Standing,
    leaderboard,
    pair_results,
    reference_partner,
    standings,
)
from dealer.referee.config import TimeLimits

__all__ = ["CANCELLED", "BenchmarkService", "Client", "HouseBot", "PlayingRun", "Refused"]

log = get_logger("serve")

P = ParamSpec("P")
T = TypeVar("T")

CANCELLED = "cancelled by its user"
"""Why a run stopped when its request was cancelled (unless told another reason)."""

_VERIFIES_AT_ONCE = 2
"""Password checks run at once (each takes tens of milliseconds and 64 MiB)."""
_FIRST_CHECK_S = 0.1
"""How long a password check is taken to last until one has been timed."""
_CHECK_WEIGHT = 0.2
"""The weight of the latest check in the moving average of their times."""


@dataclass(frozen=True)
class HouseBot:
    """A house bot as the service plays it: an agent (an entrant) or a startup script."""

    name: str
    entrant: Entrant | None = None
    script: Path | None = None


class Client(Protocol):
    """A connection that can be told things (a line-protocol client)."""

    @property
    def address(self) -> str: ...

    @property
    def closed(self) -> bool: ...

    def send(self, data: bytes) -> None:
        """Queue ``data`` to be written (dropping the connection if it reads too slowly)."""


class Refused(Exception):  # noqa: N818 (a request refused, not a failure of ours)
    """A request the service will not queue; ``why`` is for the user (``None``: the
    reference's answer alone)."""

    def __init__(self, why: str | None = None) -> None:
        super().__init__(why or "refused")
        self.why = why


@dataclass
class _Playing:
    run: RunRecord
    request: RequestRecord
    task: asyncio.Task[None]
    client: Client | None
    hands: int = 0
    ports: tuple[int, ...] = ()
    """The seats' ports, once they listen."""
    stop_why: str | None = None
    """Why it was asked to stop (a cancelled request), if it was."""


@dataclass(frozen=True)
class PlayingRun:
    """A run playing, as a view of the service shows it."""

    run: RunRecord
    request: RequestRecord
    hands: int
    """Hands played so far."""
    ports: tuple[int, ...]
    """The seats' ports in seat order, once they listen (empty before)."""
    admit: str | None
    """The address the user's seats take a connection from (``None``: the run had no
    client to tell)."""


@dataclass
class _Turn:
    """An address's logons: the one under way holds the lock, the others wait for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    waiting: int = 0


@dataclass
class _Online:
    """A user's live connections, the latest logged on last."""

    clients: list[Client] = field(default_factory=list)

    def latest(self) -> Client | None:
        live = [c for c in self.clients if not c.closed]
        self.clients = live
        return live[-1] if live else None


class BenchmarkService:
    """The benchmark server's state and what can be asked of it."""

    def __init__(
        self,
        config: ServerConfig,
        store: Store,
        bots: Mapping[str, Mapping[str, HouseBot]],
        executor: RunExecutor,
        *,
        data: Path,
        user_host: str,
        public_host: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``bots``: each game file's house bots by name. ``user_host``: where user seats
        listen; ``public_host``: the host name ``RUN`` lines give."""
        self.config = config
        self.store = store
        self.bots = bots
        self.executor = executor
        self.data = data.resolve()
        """(Absolute: a run's process may not share this one's working folder.)"""
        self.user_host = user_host
        self.public_host = public_host
        self.clock = clock
        self.games: dict[str, OfferedGame] = {
            g.file: OfferedGame(g.game.num_players, tuple(b.name for b in g.bots), g.max_match_runs)
            for g in config.games
        }
        self.queue = Queue(
            {g.file: g.max_running_jobs for g in config.games},
            max_running_bots=config.max_running_bots,
            running_per_user=config.limits.running,
        )
        self.lockout = Lockout()
        self._requests: dict[int, RequestRecord] = {}
        """The open requests (queued or playing)."""
        self._playing: dict[int, _Playing] = {}
        """By run id."""
        self._online: dict[int, _Online] = {}
        self._db_thread = concurrent.futures.ThreadPoolExecutor(1, "acpcbot-db")
        self._verifying = asyncio.Semaphore(_VERIFIES_AT_ONCE)
        self._check_s = _FIRST_CHECK_S
        """How long a password check takes (a moving average)."""
        self._logons_from: dict[str, _Turn] = {}
        """The addresses with a logon under way (see :meth:`_one_logon_from`)."""
        self._ending: dict[int, list[asyncio.Future[None]]] = {}
        """Who waits for each open request to end (:meth:`request_ended`)."""
        self._wake = asyncio.Event()
        self._pairing = asyncio.Lock()
        """Held while a finished run looks for its partner and records their pair."""
        self._stopping = False
        self._scheduler: asyncio.Task[None] | None = None

    # -- life ----------------------------------------------------------------------

    async def _db(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a database call on the service's database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_thread, functools.partial(call, *args, **kwargs))

    async def start(self) -> list[RunRecord]:
        """Take up where the last server left off: the runs it was playing marked failed
        (returned), the queue read back; then start scheduling."""
        lost = await self._db(self._fail_lost_runs)
        for request in await self._db(self.store.open_requests):
            if not self._playable(request):
                # Its game or a bot of it is no longer offered: it could never start.
                await self._db(self.store.cancel_request, request.id)
                log.warning("request_cancelled", user=request.user, tag=request.tag,
                            why="its game or a bot of it is no longer configured")  # fmt: skip
                continue
            user = await self._db(self.store.user, request.user)
            self._queue(request, user.wait_start if user else request.queued_at)
        self._scheduler = asyncio.create_task(self._schedule())
        self._wake.set()
        return lost

    def _playable(self, request: RequestRecord) -> bool:
        bots = self.bots.get(request.game)
        return (
            bots is not None
            and self.config.game(request.game) is not None
            and all(p == LOCAL or p in bots for p in request.players)
        )

    def _fail_lost_runs(self) -> list[RunRecord]:
        return self._end_unended_runs(
            RunState.FAILED, "the server stopped while it played ({hands} hands in its log)"
        )

    def _end_unended_runs(self, state: RunState, why: str) -> list[RunRecord]:
        """End every run the database holds as starting or playing, with the hands its log
        holds (``why`` may name them: ``{hands}``)."""
        ended = []
        for run in self.store.unended_runs():
            try:
                hands = read_log(self.data / run.log).hands
            except Exception:  # a log that is missing or unreadable holds no hand
                hands = 0
            error = why.format(hands=hands)
            self.store.end_run(run.id, state, hands=hands, error=error, now=self.clock())
            ended.append(self.store.run(run.id))
        return ended

    async def stop(self) -> None:
        """Stop: no run starts; those playing stop after their hand and are recorded."""
        self._stopping = True
        if self._scheduler is not None:
            self._scheduler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._scheduler
        for online in self._online.values():
            for client in online.clients:
                if self._playing:
                    client.send(comment("the server is stopping: runs stop after their hand"))
        tasks = [p.task for p in self._playing.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.executor.close()
        # A run the scheduler was starting when it was cancelled is recorded as starting
        # by the database thread all the same, and never played: it ends here, not as a
        # run lost to a crash at the next start.
        for run in await self._db(
            self._end_unended_runs, RunState.INTERRUPTED, "the server stopped as it started"
        ):
            log.info("run_ended", run=run.match_name, state=run.state.value, hands=run.hands)

    async def close(self) -> None:
        """Close the database (after :meth:`stop`, once nothing can ask anything more)."""
        await self._db(self.store.close)
        self._db_thread.shutdown(wait=True)

    # -- users ---------------------------------------------------------------------

    async def logon(self, name: str, password: str, address: str) -> UserRecord | None:
        """The user, when ``password`` is theirs, they are enabled, and neither their name
        nor ``address`` is locked out after bad logons; else ``None``."""
        async with self._one_logon_from(address):
            # (Looked at once its turn has come: the logons before it may have locked it.)
            if self.lockout.locked(name, address, now=self.clock()):
                log.info("logon_locked", user=_shown_name(name), address=address)
                return None
            user = await self._db(self.store.user, name)
            if user is None:
                # Nothing to check (a flood of made-up names costs no memory-hard hash),
                # but the answer takes as long as a check does, so it does not tell which
                # names exist.
                await asyncio.sleep(self._check_s)
                right = False
            else:
                async with self._verifying:
                    started = time.perf_counter()
                    right = await asyncio.to_thread(verify_password, user.password_hash, password)
                    took = time.perf_counter() - started
                    self._check_s = _CHECK_WEIGHT * took + (1 - _CHECK_WEIGHT) * self._check_s
        if not right or user is None or user.disabled:
            self.lockout.failed(name, address, now=self.clock())
            log.info("logon_refused", user=_shown_name(name), address=address)
            return None
        self.lockout.succeeded(name, address)
        return user

    @contextlib.asynccontextmanager
    async def _one_logon_from(self, address: str) -> AsyncIterator[None]:
        """One logon at a time from an address: the password checks (a few at once for
        the whole server, each costly) are shared out between the addresses that ask, so
        a flood of logons from a few places cannot keep everyone else waiting, and it is
        locked out after its first bad logons instead of queueing hundreds."""
        turn = self._logons_from.setdefault(address, _Turn())
        turn.waiting += 1
        try:
            async with turn.lock:
                yield
        finally:
            turn.waiting -= 1
            if not turn.waiting:
                del self._logons_from[address]

    async def connected(self, user: UserRecord, client: Client) -> list[bytes]:
        """``client`` logged on as ``user``: the news to send them (runs lost or stopped
        since they were last told, requests waiting for their bot)."""
        self._online.setdefault(user.id, _Online()).clients.append(client)
        news = []
        untold = await self._db(self.store.untold_runs, user.id)
        for run in untold:
            news.append(ended_text(run.match_name, run.state.value, run.hands, run.error))
        await self._db(self.store.mark_told, [run.id for run in untold])
        for request in self.queue.waiting_for(user.id):
            news.append(
                comment(
                    f"request {request.tag} ({request.game}) waits for your bot: "
                    f"{request.left} run{'s' if request.left != 1 else ''} left"
                )
            )
        self._wake.set()
        return news

    def disconnected(self, user_id: int, client: Client) -> None:
        online = self._online.get(user_id)
        if online is not None and client in online.clients:
            online.clients.remove(client)

    # -- requests ------------------------------------------------------------------

    async def submit(self, user: UserRecord, spec: MatchSpec, address: str) -> RequestRecord:
        """Queue ``spec`` for ``user`` (committed when this returns), or :class:`Refused`."""
        if self._stopping:
            raise Refused("the server is stopping")
        game = next(g for g in self.config.games if g.file == spec.game)
        duplicate = self.config.duplicate if spec.duplicate is None else spec.duplicate
        if duplicate and game.game.num_players != 2:
            raise Refused("duplicate runs are for two-player games")
        jobs = spec.runs * (2 if duplicate else 1)
        why = self.queue.refusal(user.id, jobs, game.match_hands, self.config.limits)
        if why is not None:
            raise Refused(why)
        seed = spec.rng_seed or draw_request_seed()
        request = await self._db(
            self.store.add_request,
            user.id,
            game=spec.game,
            tag=spec.tag,
            runs=spec.runs,
            rng_seed=spec.rng_seed,
            seed=seed,
            players=spec.players,
            duplicate=duplicate,
            now=self.clock(),
            address=address,
        )
        if request.state is RequestState.QUEUED:
            self._queue(request, user.wait_start)
            self._wake.set()
        log.info("request_queued", user=user.name, tag=spec.tag, runs=spec.runs, id=request.id)
        return request

    def _queue(self, request: RequestRecord, wait_start: float) -> None:
        game = self.config.game(request.game)
        hands = game.match_hands if game is not None else 0
        self._requests[request.id] = request
        self.queue.add(
            QueuedRequest(
                request.id,
                request.user_id,
                request.user,
                request.game,
                request.tag,
                request.jobs,
                hands,
                house_bots=sum(p != LOCAL for p in request.players),
                user_seats=sum(p == LOCAL for p in request.players),
                queued_at=request.queued_at,
                started=request.started,
            ),
            wait_start=wait_start,
        )

    async def request_ended(self, request_id: int) -> None:
        """Return once the request has no run left to start or playing."""
        if request_id not in self._requests:
            return
        waiter = asyncio.get_running_loop().create_future()
        self._ending.setdefault(request_id, []).append(waiter)
        try:
            await waiter
        finally:
            waiting = self._ending.get(request_id, [])
            if waiter in waiting:
                waiting.remove(waiter)
                if not waiting:
                    del self._ending[request_id]

    def queue_entries(self, viewer: int | None) -> list[QueueEntry]:
        return self.queue.entries(viewer, show_others=self.config.queue_shows_others)

    def offered_games(self) -> list[tuple[str, tuple[str, ...]]]:
        return [(g.file, tuple(b.name for b in g.bots)) for g in self.config.games]

    async def standings(self, user: UserRecord) -> list[Standing]:
        rows = await self._db(self.store.results_of, user.id)
        blinds = {g.file: g.game.big_blind for g in self.config.games}
        return standings(rows, blinds)

    # -- runs ----------------------------------------------------------------------

    def _online_users(self) -> set[int]:
        return {user for user, online in self._online.items() if online.latest() is not None}

    async def _schedule(self) -> None:
        while not self._stopping:
            await self._wake.wait()
            self._wake.clear()
            while not self._stopping:
                picked = self.queue.pick(self._online_users())
                if picked is None:
                    break
                try:
                    await self._start_run(picked)
                except Exception:
                    # (the database or the data folder failing): it stays queued in the
                    # database for the next start, not here, where it would be picked again
                    # at once.
                    log.exception("run_not_started", request=picked)
                    self.queue.ended(picked)
                    self.queue.remove(picked)

    async def _start_run(self, request_id: int) -> None:
        request = self._requests[request_id]
        job = request.started
        pair, half = (job // 2, job % 2) if request.duplicate else (job, None)
        seed = run_seed(request.seed, request.runs, pair)
        order = list(range(len(request.players)))
        if half == 1:
            order.reverse()
        seats_names = [
            request.user if request.players[i] == LOCAL else request.players[i] for i in order
        ]
        now = self.clock()
        folder = f"logs/{request.user}"
        await asyncio.to_thread((self.data / folder).mkdir, parents=True, exist_ok=True)
        run = await self._db(
            self.store.start_run,
            request.id,
            seed=seed,
            seats=seats_names,
            half=half,
            now=now,
            log_folder=folder,
        )
        if request.id not in self.queue:  # cancelled while its run was being recorded
            await self._db(
                self.store.end_run, run.id, RunState.INTERRUPTED, hands=0,
                error=CANCELLED, now=self.clock(), told=True,
            )  # fmt: skip
            return
        self.queue.started(request.id, now=now)
        self._requests[request.id] = await self._db(self.store.request, request.id)
        client = self._online[request.user_id].latest() if request.user_id in self._online else None
        run_order = self._order(request, run, order, client)
        task = asyncio.create_task(self._play(run, request, run_order, client))
        self._playing[run.id] = _Playing(run, request, task, client)
        log.info("run_started", run=run.match_name, seed=seed)

    def _order(
        self, request: RequestRecord, run: RunRecord, order: list[int], client: Client | None
    ) -> RunOrder:
        game = self.config.game(request.game)
        assert game is not None
        seats = []
        position = 0
        for player in order:
            name = request.players[player]
            if name == LOCAL:
                seats.append(RunSeat(request.user, SeatKind.USER))
                continue
            bot = self.bots[request.game][name]
            if bot.script is not None:
                seats.append(RunSeat(name, SeatKind.SCRIPT, script=bot.script, position=position))
            else:
                seed = agent_seed(run.seed, player)
                seats.append(RunSeat(name, SeatKind.AGENT, entrant=bot.entrant, agent_seed=seed))
            position += 1
        config = self.config
        return RunOrder(
            run.id,
            run.match_name,
            game.game,
            game.file,
            game.match_hands,
            run.seed,
            tuple(seats),
            self.data / run.log,
            TimeLimits(
                config.response_timeout_s * 1000,
                config.hand_timeout_s * 1000,
                config.avg_hand_time_s * 1000,
            ),
            config.startup_timeout_s * 1000 if config.startup_timeout_s else -1,
            self.user_host,
            client.address if client is not None else "0.0.0.0",  # a peer that never is
        )

    async def _play(
        self, run: RunRecord, request: RequestRecord, order: RunOrder, client: Client | None
    ) -> None:
        job_tag = f"{request.user}.{request.tag}"

        def listening(ports: list[int], host: str | None = None) -> None:
            # ``host``: the run plays on another machine (a Dask worker), which names itself.
            playing = self._playing.get(run.id)
            if playing is not None:
                playing.ports = tuple(ports)
                if playing.stop_why is not None:  # cancelled before its seats listened
                    playing.task.cancel()
            if client is not None:
                for seat, port in zip(order.seats, ports, strict=True):
                    if seat.kind is SeatKind.USER:
                        client.send(running_text(job_tag, host or self.public_host, port))
            # On the database thread, before the run's end is recorded there (in order).
            self._db_thread.submit(self.store.run_playing, run.id)

        def hands(played: int) -> None:
            playing = self._playing.get(run.id)
            if playing is not None:
                playing.hands = played

        try:
            outcome = await self.executor.play(order, listening, hands)
        except RunStopped as stopped:
            outcome = stopped.outcome
        except Exception as exc:
            log.exception("run_crashed", run=run.match_name)
            outcome = RunOutcome(
                run.id, RunStatus.FAILED, 0, (), 0.0, f"{type(exc).__name__}: {exc}"
            )
        try:
            await self._record(run, request, order, outcome)
        finally:
            self._playing.pop(run.id, None)
            self.queue.ended(request.id)
            if request.id not in self.queue:
                self._requests.pop(request.id, None)
                for waiter in self._ending.pop(request.id, []):
                    if not waiter.done():
                        waiter.set_result(None)
            self._wake.set()

    async def _record(
        self, run: RunRecord, request: RequestRecord, order: RunOrder, outcome: RunOutcome
    ) -> None:
        state = RunState(outcome.status.value)
        names = order.names
        rows: list[ResultRecord] = []
        for seat, sums in enumerate(outcome.sums):
            if not sums.count:
                continue
            others = ",".join(n for i, n in enumerate(names) if i != seat)
            user_id = request.user_id if order.seats[seat].kind is SeatKind.USER else None
            rows.append(
                ResultRecord(
                    ResultKind.HANDS,
                    names[seat],
                    user_id,
                    others,
                    sums.count,
                    float(sums.total),
                    float(sums.squares),
                )
            )
        if run.half == 1 and state is RunState.FINISHED:
            rows += await self._pair_rows(run, request, order)
        client = self._online[request.user_id].latest() if request.user_id in self._online else None
        told = client is not None
        playing = self._playing.get(run.id)
        error = outcome.error
        if playing is not None and playing.stop_why is not None and state is RunState.INTERRUPTED:
            error = playing.stop_why
        ended = await self._db(
            self.store.end_run,
            run.id,
            state,
            hands=outcome.hands,
            error=error,
            now=self.clock(),
            results_of_run=rows,
            told=told or state is RunState.FINISHED,
        )
        self._requests[request.id] = ended
        if state is RunState.FINISHED and run.half is None:
            await self._reference_pair(run, request)
        if client is not None:
            client.send(ended_text(run.match_name, state.value, outcome.hands, error))
        log.info(
            "run_ended",
            run=run.match_name,
            state=state.value,
            hands=outcome.hands,
            error=error,
        )

    async def _pair_rows(
        self, run: RunRecord, request: RequestRecord, order: RunOrder
    ) -> list[ResultRecord]:
        """The results over a finished pair (``run`` its second half), when its first half
        finished too."""
        runs = await self._db(self.store.runs_of, request.id)
        first = next((r for r in runs if r.job == run.job - 1), None)
        if first is None or first.state is not RunState.FINISHED:
            return []
        players = first.seats  # in the request's order
        paired = await asyncio.to_thread(
            pair_results, self.data / first.log, self.data / run.log, players
        )
        return _pair_rows(request, first, players, paired)

    async def _reference_pair(self, run: RunRecord, request: RequestRecord) -> None:
        """Record the pair a finished single run makes the reference's way with an earlier
        one (:func:`~.standings.reference_partner`), if it makes one."""
        async with self._pairing:  # (two partners ending at once: one pair, not two)
            candidates = await self._db(self.store.pair_candidates, run)
            first = reference_partner(run, candidates)
            if first is None:
                return
            paired = await asyncio.to_thread(
                pair_results, self.data / first.log, self.data / run.log, first.seats
            )
            rows = _pair_rows(request, first, first.seats, paired)
            await self._db(self.store.add_results, run.id, rows)
        log.info("runs_paired", first=first.match_name, second=run.match_name)

    # -- for a view of it ------------------------------------------------------------

    def playing(self) -> list[tuple[RunRecord, int]]:
        """The runs playing, with the hands each has played so far."""
        return [(p.run, p.hands) for p in self._playing.values()]

    async def query(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a :class:`~.database.Store` call on the database thread (for a view)."""
        return await self._db(call, *args, **kwargs)

    def playing_runs(self) -> list[PlayingRun]:
        """The runs playing, with their hands so far and their seats' ports."""
        return [
            PlayingRun(
                p.run,
                p.request,
                p.hands,
                p.ports,
                p.client.address if p.client is not None else None,
            )
            for p in self._playing.values()
        ]

    def present(self, user_id: int) -> bool:
        """Whether the user has a connection that is told when their runs start (so that
        their requests with seats for their own bot may start)."""
        online = self._online.get(user_id)
        return online is not None and online.latest() is not None

    async def cancel(self, request_id: int, why: str = CANCELLED) -> RequestRecord | None:
        """Cancel a request (who may is the caller's to check): none of its runs starts
        any more, and a run of it playing stops after its hand (recorded ``interrupted``,
        ``why`` its error). ``None``: no such request."""
        request = await self._db(self.store.find_request, request_id)
        if request is None or request.state is not RequestState.QUEUED:
            return request
        await self._db(self.store.cancel_request, request_id)
        self.queue.remove(request_id)
        if request_id not in self.queue:
            self._requests.pop(request_id, None)
        for playing in self._playing.values():
            if playing.request.id == request_id and playing.stop_why is None:
                playing.stop_why = why
                if playing.ports:  # (else it stops as its seats listen: see _play)
                    playing.task.cancel()
        log.info("request_cancelled", user=request.user, tag=request.tag, why=why)
        self._wake.set()
        return await self._db(self.store.request, request_id)

    async def leaderboard(self) -> list[Board]:
        """The public leaderboard: one board per house bot of each game."""
        totals = await self._db(self.store.pair_totals)
        blinds = {g.file: g.game.big_blind for g in self.config.games}
        return leaderboard(totals, self.offered_games(), blinds)

    @property
    def stopping(self) -> bool:
        return self._stopping


def _pair_rows(
    request: RequestRecord,
    first: RunRecord,
    players: tuple[str, ...],
    paired: list[tuple[str, SampleSums, int]],
) -> list[ResultRecord]:
    """The results of a pair of runs (``first`` its first half), one a player; a player is
    the request's user when its seat is theirs (the names are distinct: see
    :func:`~.standings.pair_results`)."""
    rows = []
    for name, sums, unpaired in paired:
        others = ",".join(n for n in players if n != name)
        is_user = name == request.user and LOCAL in request.players
        rows.append(
            ResultRecord(
                ResultKind.PAIRS,
                name,
                request.user_id if is_user else None,
                others,
                sums.count,
                float(sums.total),
                float(sums.squares),
                unpaired,
                first.id,
            )
        )
    return rows


def _shown_name(name: str) -> str:
    r"""A name a client logged on with, for a log line: as it is when it could be a user's,
    else quoted, cut, its control characters escaped (a client chooses what it sends: it
    must not write into the operator's terminal).

    >>> _shown_name("ann"), _shown_name("\x1b[2Jx")
    ('ann', "'\\x1b[2Jx'")
    """
    try:
        return check_name(name, "user")
    except ConfigError:
        return repr(name[:32] + ("..." if len(name) > 32 else ""))
