"""The benchmark server's HTTP API and its views, on ``acpcbot web``'s page and server (one
application: :class:`BenchmarkSite` is a :class:`dealer.web.app.SiteExtension`).

Every route is in :data:`.webroutes.ROUTES` with who may ask (anyone, a user, an
administrator) and what it does; the routes are added from it and ``/api/openapi.json``
describes them from it. Who a request comes from is worked out
once, by a middleware (:mod:`.webaccess`: a bearer token ``NAME:SECRET``, HTTP Basic, or the
page's session cookie); a route for users answers 401 without one, a route for
administrators 403 to a user who is not one.

A user sees only their own: their requests and runs, their logs, their results. Whatever
names another user's request or run (its number in a URL) is answered 404, as a number that
names nothing is, so the answers do not tell which numbers exist. The public leaderboard
shows each user's best tag per house bot and its result, nothing more (no other tag, no
seed, no log, no time). Another user's requests show in the queue only as the server's
``queue_shows_others`` says (as ``QSTAT``).

A request with a seat for the user's own bot (``LOCAL``) starts when the user is *present*:
a line client logged on (``bm_widget``, ``acpcbot connect``), or the API's bot stream open
(``GET /api/my/bot``: server-sent events, one a line of what a line client is told, ``RUN
HOST PORT`` among them). The run's seat takes its connection from the address of the
connection that was told, within the startup timeout; the host and port also show in the
run, in ``GET /api/my/requests``, while it waits for the bot.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import math
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from aiohttp import web

from acpcbot.errors import AcpcError
from acpcbot.logconfig import get_logger
from dealer.analysis.stats import Estimate, SampleSums, estimate
from dealer.benchmark.config import LOCAL, check_name
from dealer.benchmark.database import (
    DatabaseError,
    RequestRecord,
    ResultRecord,
    RunRecord,
    UserRecord,
)
from dealer.benchmark.lineprotocol import MatchSpecError, match_spec
from dealer.benchmark.passwords import hash_password, new_secret
from dealer.benchmark.queue import QueuedRequest
from dealer.benchmark.schema import RequestState, ResultKind, RunState
from dealer.benchmark.service import BenchmarkService, PlayingRun, Refused
from dealer.benchmark.standings import Board, Standing
from dealer.benchmark.webaccess import (
    SESSION_COOKIE,
    VerifiedSecrets,
    WebSessions,
    credentials,
)
from dealer.benchmark.webroutes import ROUTES, Access, openapi
from dealer.web.logs import LogTail

__all__ = ["BenchmarkSite"]

log = get_logger("serve")

USER = web.RequestKey("user", UserRecord)
"""The user a request comes from (absent: nobody logged on)."""

RECENT_REQUESTS = 50
"""Requests listed in "my matches" (the latest)."""
RECENT_RUNS = 500
"""Runs listed with them, at most (the latest)."""
STREAMS_PER_USER = 8
"""Event streams one user may hold open at once (more are refused, 429)."""
STREAMS = 1024
"""Event streams open at once, in all."""
PUSH_S = 1.0
"""How often an event stream looks for news."""
KEEPALIVE_S = 10.0
"""A stream with no news says ``: keepalive`` this often (so that proxies keep it open)."""
RECHECK_S = 30.0
"""An event stream checks its user again (disabled, reset) this often."""
BOARD_FOR_S = 5.0
"""The leaderboard is computed at most this often (anyone may ask for it)."""
BOT_LINES = 1000
"""Lines a bot stream keeps for a peer that does not read them, before it is closed."""

_FOLDER_ROUTES = ("/api/files", "/api/log", "/api/hand", "/api/live", "/files/")
"""The page's Live and Replay routes: with the operator's folders (``--web-folder``), for
users logged on only."""


class _BotStream:
    """A user's bot stream as the service sees a client: told what a line client is told
    (:class:`~.service.Client`), one line at a time for the stream to send."""

    def __init__(self, address: str) -> None:
        self._address = address
        self.lines: collections.deque[str] = collections.deque()
        self.news = asyncio.Event()
        self.gone = False

    @property
    def address(self) -> str:
        return self._address

    @property
    def closed(self) -> bool:
        return self.gone

    def send(self, data: bytes) -> None:
        if self.gone:
            return
        self.lines.extend(data.decode("utf-8", "replace").splitlines())
        if len(self.lines) > BOT_LINES:  # a peer that reads nothing is dropped
            self.gone = True
        self.news.set()


def _estimate_json(e: Estimate) -> dict[str, Any]:
    return {
        "mbb": round(e.mbb_per_game, 1),
        "ci": round(e.ci95_mbb, 1) if math.isfinite(e.ci95_mbb) else None,
        "samples": e.samples,
    }


def _sums(result: ResultRecord) -> SampleSums:
    return SampleSums(result.samples, Fraction(result.total), Fraction(result.squares))


def _standing_json(s: Standing) -> dict[str, Any]:
    return {
        "tag": s.tag,
        "opponent": s.opponent,
        "kind": s.kind.value,
        "runs": s.runs,
        **_estimate_json(s.sums.estimate(s.big_blind)),
    }


def _board_json(board: Board) -> dict[str, Any]:
    rows = []
    for rank, row in enumerate(board.rows, 1):
        rows.append(
            {
                "rank": rank,
                "user": row.user,
                "tag": row.tag,
                "pairs": row.pairs,
                "hands": row.hands,
                **_estimate_json(row.sums.estimate(row.big_blind)),
            }
        )
    return {"game": board.game, "bot": board.bot, "rows": rows}


def _user_json(user: UserRecord) -> dict[str, Any]:
    return {
        "name": user.name,
        "admin": user.admin,
        "disabled": user.disabled,
        "source": user.source,
        "created": user.created,
    }


def _error(status: int, message: str, **headers: str) -> web.Response:
    return web.json_response({"error": message}, status=status, headers=headers or None)


def _identifier(request: web.Request) -> int:
    """The ``{id}`` of the URL (a number that cannot name anything: 404, as any other)."""
    text = request.match_info["id"]
    if not text.isascii() or not text.isdigit() or len(text) > 12:
        raise web.HTTPNotFound(text='{"error": "no such request or run"}',
                               content_type="application/json")  # fmt: skip
    return int(text)


def _not_found(what: str = "request") -> web.Response:
    return _error(404, f"no such {what} of yours")


class BenchmarkSite:
    """The benchmark server's part of the page and its API (see the module)."""

    def __init__(self, service: BenchmarkService, *, secure: bool = False) -> None:
        """``secure``: the page is served over TLS (its cookie then says ``Secure``)."""
        self.service = service
        self.secure = secure
        self.line_port: int | None = None
        """Where the line protocol listens (set once it does)."""
        self.verified = VerifiedSecrets()
        self.sessions = WebSessions()
        self._access = {(r.method, r.path): r.access for r in ROUTES}
        self._streams: collections.Counter[int] = collections.Counter()
        self._closing = asyncio.Event()
        self._board: tuple[float, list[dict[str, Any]]] = (-math.inf, [])
        self._tails: dict[int, tuple[LogTail, float]] = {}
        """Logs of the runs playing, read as they grow (for their running mbb/g)."""
        self._reading_tails = asyncio.Lock()
        """Held while they are read (on a thread): one reader at a time."""
        games = service.config.games
        self._big_blind = {g.file: g.game.big_blind for g in games}
        self._hands = {g.file: g.match_hands for g in games}

    # -- the extension -----------------------------------------------------------------

    @property
    def views(self) -> tuple[str, ...]:
        return ("board", "mine", "admin")

    @property
    def middlewares(self) -> Sequence[Any]:
        return (self._who,)

    def install(self, app: web.Application) -> None:
        for route in ROUTES:
            app.router.add_route(route.method, route.path, getattr(self, route.handler))

        async def closing(app: web.Application) -> None:
            self._closing.set()

        app.on_shutdown.insert(0, closing)

    async def info(self, request: web.Request) -> dict[str, Any]:
        user = request.get(USER)
        return {
            "server": {
                "user": None if user is None else {"name": user.name, "admin": user.admin},
                "host": self.service.public_host,
                "port": self.line_port,
            }
        }

    # -- who is asking -----------------------------------------------------------------

    @web.middleware
    async def _who(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.path.startswith("/static/"):
            return await handler(request)
        route = request.match_info.route.resource
        path = route.canonical if route is not None else request.path
        method = "GET" if request.method == "HEAD" else request.method
        access = self._access.get((method, path))
        if access is None:
            folders = request.path.startswith(_FOLDER_ROUTES)
            access = Access.USER if folders else Access.PUBLIC
        user = await self._user_of(request)
        if user is not None:
            request[USER] = user
        if access is not Access.PUBLIC and user is None:
            return _error(
                401,
                "log on first: a token (Authorization: Bearer NAME:SECRET) or the page's form",
                **{"WWW-Authenticate": 'Bearer realm="acpcbot serve"'},
            )
        if access is Access.ADMIN and user is not None and not user.admin:
            return _error(403, "for administrators only")
        if request.method == "POST" and route is not None and self._body_of(request) is not None:
            kind = request.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if kind != "application/json":  # (a form of another site cannot send JSON)
                return _error(415, "send the body as application/json")
        return await handler(request)

    def _body_of(self, request: web.Request) -> Mapping[str, Any] | None:
        resource = request.match_info.route.resource
        path = resource.canonical if resource is not None else ""
        return next((r.body for r in ROUTES if r.method == request.method and r.path == path), None)

    async def _user_of(self, request: web.Request) -> UserRecord | None:
        """The user the request's token or cookie names, if it is right (see
        :mod:`.webaccess`)."""
        service = self.service
        header = request.headers.get("Authorization")
        if header is not None:
            given = credentials(header)
            if given is None:
                return None
            user = await service.query(service.store.user, given.name)
            now = time.time()
            if (
                user is not None
                and not user.disabled
                and self.verified.known(given.name, given.secret, user.password_hash, now=now)
            ):
                return user
            user = await service.logon(given.name, given.secret, request.remote or "?")
            if user is not None:
                self.verified.remember(user.name, given.secret, user.password_hash, now=now)
            return user
        key = request.cookies.get(SESSION_COOKIE)
        if key is None:
            return None
        session = self.sessions.get(key, now=time.time())
        if session is None:
            return None
        user = await service.query(service.store.user, session.name)
        if (
            user is None
            or user.id != session.user_id
            or user.disabled
            or user.password_hash != session.password_hash
        ):
            self.sessions.end(key)
            return None
        return user

    async def _still(self, user: UserRecord) -> bool:
        """Whether ``user`` may still ask (not disabled, not reset): a long stream's
        check."""
        now = await self.service.query(self.service.store.user, user.name)
        return now is not None and not now.disabled and now.password_hash == user.password_hash

    # -- public ------------------------------------------------------------------------

    async def describe(self, request: web.Request) -> web.Response:
        return web.json_response(openapi())

    async def games(self, request: web.Request) -> web.Response:
        config = self.service.config
        return web.json_response(
            {
                "duplicate": config.duplicate,
                "games": [
                    {
                        "game": g.file,
                        "players": g.game.num_players,
                        "bots": [b.name for b in g.bots],
                        "max_runs": g.max_match_runs,
                        "hands": g.match_hands,
                    }
                    for g in config.games
                ],
            }
        )

    async def leaderboard(self, request: web.Request) -> web.Response:
        when, boards = self._board
        now = time.monotonic()
        if now - when > BOARD_FOR_S:
            boards = [_board_json(b) for b in await self.service.leaderboard()]
            self._board = (now, boards)
        return web.json_response({"boards": boards})

    async def logon(self, request: web.Request) -> web.Response:
        body = await _body(request)
        name, secret = body.get("name"), body.get("secret")
        if not isinstance(name, str) or not isinstance(secret, str):
            return _error(400, "a name and a secret are needed")
        user = None
        if 0 < len(name) <= 64 and 0 < len(secret) <= 256:
            user = await self.service.logon(name, secret, request.remote or "?")
        if user is None:
            return _error(401, "wrong name or secret (or too many tries: wait a while)")
        key = self.sessions.start(user.id, user.name, user.password_hash, now=time.time())
        response = web.json_response({"name": user.name, "admin": user.admin})
        response.set_cookie(
            SESSION_COOKIE, key, httponly=True, samesite="Strict", secure=self.secure, path="/"
        )
        log.info("web_logon", user=user.name, address=request.remote)
        return response

    async def logoff(self, request: web.Request) -> web.Response:
        key = request.cookies.get(SESSION_COOKIE)
        if key is not None:
            self.sessions.end(key)
        response = web.json_response({"done": True})
        response.del_cookie(SESSION_COOKIE, path="/")
        return response

    # -- a user's own ------------------------------------------------------------------

    async def me(self, request: web.Request) -> web.Response:
        user = request[USER]
        return web.json_response(
            {"name": user.name, "admin": user.admin, "present": self.service.present(user.id)}
        )

    async def queue(self, request: web.Request) -> web.Response:
        entries = self.service.queue_entries(request[USER].id)
        return web.json_response(
            {
                "queue": [
                    {
                        "user": e.user,
                        "tag": e.tag,
                        "game": e.game,
                        "runs_left": e.runs_left,
                        "running": e.running,
                    }
                    for e in entries
                ]
            }
        )

    async def my_requests(self, request: web.Request) -> web.Response:
        return web.json_response(await self._matches(request[USER]))

    async def my_request(self, request: web.Request) -> web.Response:
        user = request[USER]
        found = await self.service.query(self.service.store.find_request, _identifier(request))
        if found is None or found.user_id != user.id:
            return _not_found()
        (shown,) = await self._requests_json(user, [found], mine=True)
        return web.json_response(shown)

    async def submit(self, request: web.Request) -> web.Response:
        user = request[USER]
        body = await _body(request)
        try:
            spec = match_spec(
                self.service.games,
                game=_field(body, "game", str),
                runs=_field(body, "runs", int),
                tag=_field(body, "tag", str),
                rng_seed=_field(body, "seed", int, 0),
                players=_players(body),
                duplicate=_field(body, "duplicate", bool, None),
            )
        except MatchSpecError as exc:
            return _error(400, str(exc))
        try:
            made = await self.service.submit(user, spec, request.remote or "?")
        except Refused as refused:
            return _error(409, refused.why or "refused")
        (shown,) = await self._requests_json(user, [made], mine=True)
        return web.json_response(shown, status=201)

    async def cancel(self, request: web.Request) -> web.Response:
        user = request[USER]
        found = await self.service.query(self.service.store.find_request, _identifier(request))
        if found is None or found.user_id != user.id:
            return _not_found()
        return await self._cancelled(user, found, "cancelled by its user")

    async def _cancelled(self, user: UserRecord, found: RequestRecord, why: str) -> web.Response:
        if found.state is not RequestState.QUEUED:
            return _error(409, f"request {found.id} is {found.state.value} already")
        cancelled = await self.service.cancel(found.id, why)
        assert cancelled is not None
        (shown,) = await self._requests_json(user, [cancelled], mine=cancelled.user_id == user.id)
        return web.json_response(shown)

    async def my_log(self, request: web.Request) -> web.StreamResponse:
        user = request[USER]
        found = await self.service.query(self.service.store.find_run, _identifier(request))
        if found is None or found[1].user_id != user.id:
            return _not_found("run")
        run = found[0]
        path = self.service.data / run.log
        if not await asyncio.to_thread(path.is_file):
            return _not_found("run")
        return web.FileResponse(
            path,
            headers={
                "Content-Type": "text/plain; charset=latin-1",
                "Content-Disposition": f'attachment; filename="{Path(run.log).name}"',
            },
        )

    async def my_results(self, request: web.Request) -> web.Response:
        standings = await self.service.standings(request[USER])
        return web.json_response({"results": [_standing_json(s) for s in standings]})

    async def my_events(self, request: web.Request) -> web.StreamResponse:
        user = request[USER]
        refused = self._stream_refusal(user)
        if refused is not None:
            return refused
        response = await _event_stream(request)
        self._streams[user.id] += 1
        try:
            last: object = None
            said = ""
            checked = keepalive = time.monotonic()
            while not (self._closing.is_set() or _hung_up(request)):
                now = time.monotonic()
                if now - checked > RECHECK_S:
                    if not await self._still(user):
                        break
                    checked = now
                state = self._fingerprint(user)
                if state != last:  # (something changed: read the database again)
                    last = state
                    text = json.dumps(await self._matches(user))
                    if text != said:
                        said = text
                        await response.write(f"data: {text}\n\n".encode())
                        keepalive = now
                if now - keepalive > KEEPALIVE_S:
                    await response.write(b": keepalive\n\n")
                    keepalive = now
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._closing.wait(), PUSH_S)
        except (ConnectionResetError, RuntimeError):
            pass
        finally:
            self._streams[user.id] -= 1
        return response

    def _fingerprint(self, user: UserRecord) -> object:
        """What "my matches" shows, in so far as the service knows it without the database:
        when it changes, the database has changed too."""
        mine = tuple(self.service.queue.requests_of(user.id))
        playing = tuple(
            (p.run.id, p.hands, p.ports, self._tail_hands(p))
            for p in self.service.playing_runs()
            if p.request.user_id == user.id
        )
        return (mine, playing, self.service.present(user.id))

    async def my_bot(self, request: web.Request) -> web.StreamResponse:
        user = request[USER]
        refused = self._stream_refusal(user)
        if refused is not None:
            return refused
        response = await _event_stream(request)
        stream = _BotStream(request.remote or "?")
        self._streams[user.id] += 1
        try:
            for news in await self.service.connected(user, stream):
                stream.send(news)
            checked, keepalive = time.monotonic(), -math.inf
            while not (self._closing.is_set() or stream.gone or _hung_up(request)):
                now = time.monotonic()
                if now - checked > RECHECK_S:
                    if not await self._still(user):
                        break
                    checked = now
                if stream.lines:
                    text = "".join(f"data: {line}\n\n" for line in stream.lines)
                    stream.lines.clear()
                    await response.write(text.encode())
                    keepalive = now
                elif now - keepalive > KEEPALIVE_S:
                    await response.write(b": keepalive\n\n")
                    keepalive = now
                stream.news.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stream.news.wait(), PUSH_S)
        except (ConnectionResetError, RuntimeError):
            pass
        finally:
            stream.gone = True
            self.service.disconnected(user.id, stream)
            self._streams[user.id] -= 1
        return response

    def _stream_refusal(self, user: UserRecord) -> web.Response | None:
        if self._streams[user.id] >= STREAMS_PER_USER or sum(self._streams.values()) >= STREAMS:
            return _error(429, "too many streams open: close one")
        return None

    # -- what "my matches" shows ---------------------------------------------------------

    async def _matches(self, user: UserRecord) -> dict[str, Any]:
        service = self.service
        requests = await service.query(service.store.recent_requests, user.id, RECENT_REQUESTS)
        standings = await service.standings(user)
        return {
            "user": user.name,
            "present": service.present(user.id),
            "requests": await self._requests_json(user, requests, mine=True),
            "results": [_standing_json(s) for s in standings],
        }

    async def _requests_json(
        self, viewer: UserRecord, requests: Sequence[RequestRecord], *, mine: bool
    ) -> list[dict[str, Any]]:
        """The requests with their runs (latest first), as their user sees them."""
        service = self.service
        runs = await service.query(
            service.store.runs_of_requests, [r.id for r in requests], RECENT_RUNS
        )
        results = await service.query(service.store.results_of_runs, [r.id for r in runs])
        playing = {p.run.id: p for p in service.playing_runs()}
        async with self._reading_tails:
            await asyncio.to_thread(self._read_tails, list(playing.values()))
        by_request: dict[int, list[RunRecord]] = collections.defaultdict(list)
        for run in runs:
            by_request[run.request_id].append(run)
        shown = []
        for request in requests:
            queued = service.queue.get(request.id)
            shown.append(
                self._request_json(request, queued, mine)
                | {
                    "runs_detail": [
                        self._run_json(run, request, playing.get(run.id), results[run.id])
                        for run in by_request[request.id]
                    ]
                }
            )
        return shown

    def _request_json(
        self, request: RequestRecord, queued: QueuedRequest | None, mine: bool
    ) -> dict[str, Any]:
        waits = (
            queued is not None
            and LOCAL in request.players
            and queued.left > 0
            and not queued.running
            and not self.service.present(request.user_id)
        )
        return {
            "id": request.id,
            "user": request.user,
            "game": request.game,
            "tag": request.tag,
            "runs": request.runs,
            "duplicate": request.duplicate,
            "players": list(request.players),
            "rng_seed": request.rng_seed,
            "seed": request.seed,
            "state": request.state.value,
            "jobs": request.jobs,
            "started": request.started,
            "left": queued.left if queued is not None else 0,
            "running": bool(queued is not None and queued.running),
            "waits_for_bot": waits,
            "queued_at": request.queued_at,
            "created": request.created,
            "mine": mine,
        }

    def _run_json(
        self,
        run: RunRecord,
        request: RequestRecord,
        playing: PlayingRun | None,
        results: Sequence[ResultRecord],
    ) -> dict[str, Any]:
        big_blind = self._big_blind.get(request.game, 10)
        shown: dict[str, Any] = {
            "id": run.id,
            "name": run.match_name,
            "half": run.half,
            "seed": run.seed,
            "seats": list(run.seats),
            "state": run.state.value,
            "hands": run.hands,
            "hands_total": self._hands.get(request.game),
            "error": run.error,
            "started": run.started,
            "ended": run.ended,
            "log": f"/api/my/runs/{run.id}/log",
            "result": None,
            "pair": None,
            "connect": [],
        }
        for result in results:
            if result.user_id != request.user_id:
                continue
            key = "pair" if result.kind is ResultKind.PAIRS else "result"
            shown[key] = _estimate_json(_sums(result).estimate(big_blind))
        if playing is not None:
            shown["hands"] = playing.hands
            shown["state"] = (RunState.PLAYING if playing.hands else RunState.STARTING).value
            tail = self._tails.get(run.id)
            if tail is not None and request.user in tail[0].chips:
                chips = tail[0].chips[request.user]
                shown["hands"] = max(playing.hands, len(chips))
                if chips:
                    shown["result"] = _estimate_json(estimate(chips, big_blind))
            if playing.ports and not playing.hands:
                shown["connect"] = [
                    {"seat": seat, "host": self.service.public_host, "port": port}
                    for seat, (name, port) in enumerate(zip(run.seats, playing.ports, strict=False))
                    if name == request.user and LOCAL in request.players
                ]
        return shown

    def _tail_hands(self, playing: PlayingRun) -> int:
        tail = self._tails.get(playing.run.id)
        return tail[0].hands if tail is not None else 0

    def _read_tails(self, playing: Sequence[PlayingRun]) -> None:
        """Read the logs of the runs playing as far as they have grown (at most once a
        second each); forget the runs that ended."""
        now = time.monotonic()
        alive = {p.run.id for p in playing}
        for run_id in [r for r in self._tails if r not in alive]:
            del self._tails[run_id]
        for p in playing:
            tail, when = self._tails.get(p.run.id, (None, -math.inf))
            if tail is None:
                tail = LogTail(self.service.data / p.run.log)
            if now - when >= PUSH_S:
                tail.update()
                when = now
            self._tails[p.run.id] = (tail, when)

    # -- administrators ------------------------------------------------------------------

    async def users(self, request: web.Request) -> web.Response:
        users = await self.service.query(self.service.store.users)
        return web.json_response({"users": [_user_json(u) for u in users]})

    async def add_user(self, request: web.Request) -> web.Response:
        body = await _body(request)
        name = check_name(_field(body, "name", str), "user")
        admin = _field(body, "admin", bool, False)
        secret = new_secret()
        hashed = await asyncio.to_thread(hash_password, secret)
        try:
            user = await self.service.query(
                self.service.store.add_user, name, hashed, source="web", now=time.time(),
                admin=bool(admin),
            )  # fmt: skip
        except DatabaseError as exc:
            return _error(409, str(exc))
        log.info("user_added", user=name, by=request[USER].name)
        return web.json_response(_user_json(user) | {"secret": secret}, status=201)

    async def disable_user(self, request: web.Request) -> web.Response:
        return await self._set_disabled(request, disabled=True)

    async def enable_user(self, request: web.Request) -> web.Response:
        return await self._set_disabled(request, disabled=False)

    async def _set_disabled(self, request: web.Request, *, disabled: bool) -> web.Response:
        name = request.match_info["name"]
        try:
            await self.service.query(self.service.store.set_disabled, name, disabled)
        except DatabaseError as exc:
            return _error(404, str(exc))
        self.verified.forget(name)
        log.info("user_disabled" if disabled else "user_enabled", user=name,
                 by=request[USER].name)  # fmt: skip
        return web.json_response({"name": name, "disabled": disabled})

    async def reset_user(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        secret = new_secret()
        hashed = await asyncio.to_thread(hash_password, secret)
        try:
            await self.service.query(self.service.store.set_password, name, hashed)
        except DatabaseError as exc:
            return _error(404, str(exc))
        self.verified.forget(name)
        log.info("user_reset", user=name, by=request[USER].name)
        return web.json_response({"name": name, "secret": secret})

    async def all_requests(self, request: web.Request) -> web.Response:
        service = self.service
        open_requests = await service.query(service.store.open_requests)
        shown = await self._requests_json(request[USER], open_requests, mine=False)
        playing = [
            {
                "run": p.run.match_name,
                "user": p.request.user,
                "request": p.request.id,
                "hands": p.hands,
                "ports": list(p.ports),
                "admit": p.admit,
            }
            for p in service.playing_runs()
        ]
        return web.json_response({"requests": shown, "playing": playing})

    async def cancel_any(self, request: web.Request) -> web.Response:
        user = request[USER]
        found = await self.service.query(self.service.store.find_request, _identifier(request))
        if found is None:
            return _error(404, "no such request")
        why = (
            "cancelled by its user"
            if found.user_id == user.id
            else f"cancelled by the administrator {user.name}"
        )
        return await self._cancelled(user, found, why)


def _hung_up(request: web.Request) -> bool:
    """Whether the peer of a stream has closed its connection."""
    transport = request.transport
    return transport is None or transport.is_closing()


async def _event_stream(request: web.Request) -> web.StreamResponse:
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
    )
    await response.prepare(request)
    return response


async def _body(request: web.Request) -> dict[str, Any]:
    """The request's JSON object (:class:`AcpcError`, a 400, for anything else)."""
    try:
        body = await request.json()
    except ValueError:
        raise AcpcError("the body is not JSON") from None
    if not isinstance(body, dict):
        raise AcpcError("the body must be a JSON object")
    return body


def _field(body: Mapping[str, Any], name: str, kind: type, *default: Any) -> Any:
    """``body[name]``, of type ``kind`` (``default`` when it is absent or null, if given)."""
    value = body.get(name)
    if value is None and default:
        return default[0]
    if kind is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind is not int and isinstance(value, kind):
        return value
    what = {str: "a string", int: "a whole number", bool: "true or false"}[kind]
    raise AcpcError(f"{name}: {what}")


def _players(body: Mapping[str, Any]) -> list[str]:
    players = body.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise AcpcError("players: a list of names, one a seat (LOCAL for your bot)")
    if len(players) > 16:
        raise AcpcError("players: one a seat")
    return players
