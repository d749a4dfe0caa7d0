"""The web server: aiohttp routes over the live board, the replay of logs and play sessions.

Pages and their data (every script and style is served from this package: no CDN):

* ``/`` the page (``static/index.html``: three views, Live, Replay and Play, in ``app.js``);
  ``/static/...`` its files, uPlot among them (``static/vendor``, with its license);
* ``/api/info`` the folders served, the broker, the agents to play;
* ``/api/live`` every source (:class:`~dealer.web.matches.LiveBoard`), ``/api/live/events``
  the same pushed every second as server-sent events, with one source's curve and crosstable
  (``?key=``);
* ``/api/files`` the logs, matches and tournaments in the folders; ``/api/log`` a log's hands
  with filters, ``/api/hand`` one hand step by step (:mod:`dealer.web.logs`); ``/files/ROOT/
  PATH`` a log, ``.probs``, JSON or picture as it is;
* ``/api/play`` (POST) starts a session, ``/api/play/KEY`` its table, ``/api/play/KEY/ws``
  its WebSocket: the table pushed as it changes, the person's clicks back
  (:mod:`dealer.web.sessions`).

Another service can extend the page on the same server (:class:`SiteExtension`: the
benchmark server's API and views, ``acpcbot serve``): its routes and middlewares join the
application's, and ``/api/info`` says which views the page shows.

Safe by default (:class:`Guard`): a file is read only inside the given folders
(:class:`~dealer.web.roots.Roots`); bound to a loopback address the server answers only
requests addressed to one (a web page elsewhere cannot reach it by renaming itself), and
bound elsewhere it asks for a token (a cookie set by the URL it prints, or ``Authorization:
Bearer``); a POST or WebSocket from a page of another origin is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hmac
import ipaddress
import json
import signal
import ssl
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

import aiohttp
from aiohttp import WSMsgType, web

from acpcbot.errors import AcpcError
from acpcbot.telemetry.url import BrokerAddress
from dealer.web.addresses import is_wildcard, local_address, machine_addresses
from dealer.web.logs import MAX_ROWS, HandFilter, HandIndex, KnownStrategies, twin_of
from dealer.web.matches import LiveBoard
from dealer.web.roots import OutsideRootsError, Roots
from dealer.web.sessions import EntrantFactory, PlayRequest, PlaySessions

__all__ = [
    "STATIC",
    "Guard",
    "SiteExtension",
    "WebSite",
    "build_app",
    "is_loopback",
    "serve",
    "start",
]

STATIC = Path(__file__).parent / "static"
"""The page's own files."""
SERVED_SUFFIXES = (".log", ".probs", ".json", ".png", ".txt", ".game")
"""What ``/files/...`` hands out as it is."""
TOKEN_COOKIE = "acpcbot_web_token"
_FOLDER_REFRESH_S = 2.0
_WATCHED_FOR_S = 15.0
"""The folders are read again while a page has asked for the live view this recently."""
_INDEXES = 4
"""Logs whose hands are kept in memory (the last ones opened)."""
_RECONNECT_S = (0.5, 1.0, 2.0, 5.0)
_SESSIONS_STOP_S = 5.0
"""How long a stopping server waits for its play sessions to record how they ended (an
agent's decision under way, the summary written)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
SESSIONS = web.AppKey("sessions", PlaySessions)
"""The application's play sessions."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is this machine's loopback.

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class SiteExtension(Protocol):
    """More of the page on the same server: views, routes and who may see them."""

    @property
    def views(self) -> tuple[str, ...]:
        """The page's views it adds (shown first)."""
        ...

    @property
    def middlewares(self) -> Sequence[Any]:
        """aiohttp middlewares, run inside the :class:`Guard` (e.g. who is logged on)."""
        ...

    def install(self, app: web.Application) -> None:
        """Add its routes (and its background work) to ``app``."""

    async def info(self, request: web.Request) -> dict[str, Any]:
        """What ``/api/info`` says more, for this request."""
        ...


@dataclass
class WebSite:
    """What ``acpcbot web`` serves, and where."""

    folders: Sequence[Path]
    entrant_of: EntrantFactory
    """Makes a play session's opponent from its spec."""
    agents: Sequence[str] = ()
    """The specs the page offers to play against."""
    classes: bool = False
    """Whether ``entrant_of`` takes ``module:Class`` too (``--allow-classes``; the page says
    which opponents it may name)."""
    strategies: KnownStrategies | None = None
    """The fixed strategies of logs' players, for a hand's AIVAT value."""
    mqtt: BrokerAddress | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    next_ports: int = 0
    """When ``port`` is in use, how many ports after it to try (the default port's)."""
    token: str | None = None
    """Required when set (always when ``host`` is not loopback)."""
    play_folder: Path = field(default_factory=lambda: Path("played"))
    play: bool = True
    """Whether the Play view is offered (and its routes served)."""
    tls: ssl.SSLContext | None = None
    """Serve HTTPS with this context."""
    extension: SiteExtension | None = None

    @property
    def views(self) -> tuple[str, ...]:
        """The page's views, the first shown by default: an extension's, then Live and
        Replay (with an extension, only when there are folders to show), then Play."""
        views = self.extension.views if self.extension is not None else ()
        if self.extension is None or self.folders:
            views += ("live", "replay")
        return views + (("play",) if self.play else ())


@dataclass
class Guard:
    """Who may ask (see the module)."""

    loopback: bool
    token: str | None

    def refusal(self, request: web.Request) -> web.Response | None:
        """Why ``request`` is refused (a response), or ``None``."""
        host = request.host.rsplit(":", 1)[0] if not request.host.endswith("]") else request.host
        if self.loopback and not is_loopback(host.strip("[]")):
            return web.Response(status=421, text="acpcbot web answers to its loopback address")
        if self.token is not None:
            given = (
                request.cookies.get(TOKEN_COOKIE)
                or request.query.get("token")
                or request.headers.get("Authorization", "").removeprefix("Bearer ")
            )
            if not given or not hmac.compare_digest(given.encode(), self.token.encode()):
                return web.Response(
                    status=401,
                    text="a token is needed: open the URL that acpcbot web printed\n",
                )
        if request.method == "POST" or request.headers.get("Upgrade", "").lower() == "websocket":
            origin = request.headers.get("Origin")
            if origin is not None and urlsplit(origin).netloc != request.host:
                return web.Response(status=403, text="not from this page")
        return None


def _read_log(path: Path) -> tuple[HandIndex, Path | None]:
    """A log's hands, and the other half of its duplicate pair if it lies beside it."""
    return HandIndex.read(path), twin_of(path)


class _Indexes:
    """The logs opened last, each read once (again when it changed on disk), with their
    twins."""

    def __init__(self) -> None:
        self._kept: dict[Path, tuple[tuple[int, int], tuple[HandIndex, Path | None]]] = {}
        self._reading: dict[Path, asyncio.Future[tuple[HandIndex, Path | None]]] = {}

    async def get(self, path: Path) -> tuple[HandIndex, Path | None]:
        stat = path.stat()
        stamp = (stat.st_size, stat.st_mtime_ns)
        kept = self._kept.get(path)
        if kept is not None and kept[0] == stamp:
            self._kept[path] = self._kept.pop(path)  # the most recent last
            return kept[1]
        reading = self._reading.get(path)
        if reading is None:
            reading = asyncio.ensure_future(asyncio.to_thread(_read_log, path))
            self._reading[path] = reading
            reading.add_done_callback(lambda _: self._reading.pop(path, None))
        index = await asyncio.shield(reading)
        self._kept[path] = (stamp, index)
        while len(self._kept) > _INDEXES:
            del self._kept[next(iter(self._kept))]
        return index


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=lambda d: json.dumps(d, allow_nan=False))


def _error(status: int, message: str) -> web.Response:
    return _json({"error": message}, status)


def _integer(query: Mapping[str, str], name: str, default: int | None = None) -> int | None:
    text = query.get(name, "")
    if text == "":
        return default
    if not (text.isascii() and text.lstrip("-").isdigit()) or len(text) > 12:
        raise AcpcError(f"{name} must be a whole number")
    return int(text)


def build_app(site: WebSite) -> web.Application:
    """The application (its background tasks start with it)."""
    roots = Roots(site.folders)
    board = LiveBoard(roots, site.mqtt.prefix if site.mqtt is not None else None)
    sessions = PlaySessions(site.entrant_of, site.play_folder, roots, mqtt=site.mqtt)
    indexes = _Indexes()
    guard = Guard(is_loopback(site.host), site.token)
    closing = asyncio.Event()
    """Set as the server shuts down: the streams it keeps open end."""
    sockets: set[web.WebSocketResponse] = set()
    watched = [0.0]
    listing: list[Any] = [0.0, []]

    @web.middleware
    async def guarded(request: web.Request, handler: Handler) -> web.StreamResponse:
        refused = guard.refusal(request)
        if refused is not None:
            return refused
        try:
            response = await handler(request)
        except OutsideRootsError as exc:
            return _error(404, str(exc))
        except AcpcError as exc:
            return _error(400, str(exc))
        if guard.token is not None and request.query.get("token") == guard.token:
            response.set_cookie(TOKEN_COOKIE, guard.token, httponly=True, samesite="Strict")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; "
            "connect-src 'self'; frame-ancestors 'none'",
        )
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    extension = site.extension
    more = list(extension.middlewares) if extension is not None else []
    app = web.Application(middlewares=[guarded, *more], client_max_size=64 * 1024)
    app[SESSIONS] = sessions

    async def page(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def info(request: web.Request) -> web.Response:
        said = {
            "views": list(site.views),
            "folders": [{"key": r.key, "name": r.only or r.path.name} for r in roots],
            "mqtt": str(site.mqtt) if site.mqtt is not None else None,
            "agents": list(site.agents) if site.play else [],
            "classes": site.classes,
            "play_folder": str(site.play_folder) if site.play else None,
        }
        if extension is not None:
            said |= await extension.info(request)
        return _json(said)

    async def files(request: web.Request) -> web.Response:
        now = time.monotonic()
        if now - listing[0] > 2.0:
            listing[1] = await asyncio.to_thread(roots.listing)
            listing[0] = now
        return _json([found.json() for found in listing[1]])

    async def raw_file(request: web.Request) -> web.StreamResponse:
        path = roots.find(request.match_info["root"], request.match_info["path"])
        if not path.is_file() or not path.name.endswith(SERVED_SUFFIXES):
            raise OutsideRootsError("only logs, .probs, JSON and pictures are served")
        kind = "text/plain; charset=latin-1" if path.suffix != ".png" else "image/png"
        if path.suffix == ".json":
            kind = "application/json"
        return web.FileResponse(path, headers={"Content-Type": kind})

    def log_of(query: Mapping[str, str]) -> Path:
        path = roots.find(query.get("root", ""), query.get("path", ""))
        if not path.name.endswith(".log") or not path.is_file():
            raise OutsideRootsError("not a .log file")
        return path

    async def log_hands(request: web.Request) -> web.Response:
        query = request.query
        index, twin = await indexes.get(log_of(query))
        named = roots.name_of(twin) if twin is not None else None
        wanted = HandFilter(
            order=query.get("order", "number"),
            showdown=query.get("showdown") in ("1", "true", "on"),
            player=query.get("player") or None,
            number=_integer(query, "number"),
            offset=_integer(query, "offset", 0) or 0,
            limit=min(MAX_ROWS, _integer(query, "limit", 100) or 100),
        )
        total, rows = index.select(wanted)
        return _json(
            {
                "hands": index.hands,
                "players": index.players(),
                "probs": index.has_decisions,
                "twin": {"root": named[0], "path": named[1]} if named is not None else None,
                "total": total,
                "rows": [row.json() for row in rows],
            }
        )

    async def log_hand(request: web.Request) -> web.Response:
        query = request.query
        index, _ = await indexes.get(log_of(query))
        number = _integer(query, "number", 0) or 0
        hand = await asyncio.to_thread(index.hand, number, site.strategies, aivat=True)
        return _json(hand)

    async def live(request: web.Request) -> web.Response:
        watched[0] = time.monotonic()
        return _json({"broker": board.broker_note, "sources": board.sources()})

    async def live_events(request: web.Request) -> web.StreamResponse:
        key = request.query.get("key") or None
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        while not closing.is_set():
            watched[0] = time.monotonic()
            data = {
                "broker": board.broker_note,
                "sources": board.sources(),
                "detail": board.detail(key) if key else None,
            }
            try:
                await response.write(f"data: {json.dumps(data)}\n\n".encode())
            except (ConnectionResetError, RuntimeError):
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(closing.wait(), 1.0)
        return response

    async def play_start(request: web.Request) -> web.Response:
        try:
            body = await request.json()
        except ValueError:
            return _error(400, "a JSON body is needed")
        if not isinstance(body, dict):
            return _error(400, "a JSON object is needed")
        play = _play_request(body)
        session = await sessions.start(play)
        return _json(session.json())

    async def play_list(request: web.Request) -> web.Response:
        return _json([s.json() for s in sessions.sessions.values()])

    async def play_table(request: web.Request) -> web.Response:
        session = sessions.get(request.match_info["key"])
        if session is None:
            return _error(404, "no such session")
        return _json(session.json())

    async def play_socket(request: web.Request) -> web.StreamResponse:
        session = sessions.get(request.match_info["key"])
        if session is None:
            return _error(404, "no such session")
        socket = web.WebSocketResponse(heartbeat=10.0)
        await socket.prepare(request)
        sockets.add(socket)
        changed = asyncio.Event()
        session.listeners.add(changed.set)

        async def push() -> None:
            while not socket.closed:
                changed.clear()
                await socket.send_json(session.json())
                await changed.wait()

        pushing = asyncio.create_task(push())
        try:
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    continue
                try:
                    said = json.loads(message.data)
                    said = said if isinstance(said, dict) else {}
                except ValueError:
                    said = {}
                why = _told(session.table, said)
                if why is not None:
                    await socket.send_json({"refused": why})
        finally:
            sockets.discard(socket)
            session.listeners.discard(changed.set)
            pushing.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionResetError):
                await pushing
        return socket

    app.router.add_get("/", page)
    app.router.add_get("/api/info", info)
    app.router.add_get("/api/files", files)
    app.router.add_get("/api/log", log_hands)
    app.router.add_get("/api/hand", log_hand)
    app.router.add_get("/api/live", live)
    app.router.add_get("/api/live/events", live_events)
    if site.play:
        app.router.add_get("/api/play", play_list)
        app.router.add_post("/api/play", play_start)
        app.router.add_get("/api/play/{key}", play_table)
        app.router.add_get("/api/play/{key}/ws", play_socket)
    app.router.add_get("/files/{root}/{path:.+}", raw_file)
    app.router.add_static("/static/", STATIC, follow_symlinks=False)
    if extension is not None:
        extension.install(app)

    async def background(app: web.Application) -> Any:
        tasks = [asyncio.create_task(_refresh_folders(board, watched))]
        if site.mqtt is not None:
            tasks.append(asyncio.create_task(_listen(board, site.mqtt)))
        yield
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def shutting_down(app: web.Application) -> None:
        closing.set()
        await sessions.stop(_SESSIONS_STOP_S)
        for socket in list(sockets):
            await socket.close(code=aiohttp.WSCloseCode.GOING_AWAY, message=b"server stopped")

    app.cleanup_ctx.append(background)
    app.on_shutdown.append(shutting_down)
    return app


def _told(table: Any, said: Mapping[str, Any]) -> str | None:
    """What the person's page said: a click (``act``) or the answer to the rematch."""
    if said.get("type") == "act":
        key, action, size = said.get("key"), said.get("action"), said.get("size")
        if not isinstance(key, int) or not isinstance(action, str):
            return "an act needs its decision's key and an action"
        if size is not None and not isinstance(size, int):
            return "a raise's size is a whole number"
        why: str | None = table.click(key, action, size)
        return why
    if said.get("type") == "rematch":
        answer: str | None = table.rematch(bool(said.get("wanted")))
        return answer
    return "unknown message"


def _play_request(body: Mapping[str, Any]) -> PlayRequest:
    """A :class:`PlayRequest` from the page's form (:class:`AcpcError` for a bad one)."""

    def text(name: str, default: str | None = None) -> str | None:
        value = body.get(name, default)
        if value is None or value == "":
            return default
        if not isinstance(value, str) or len(value) > 200:
            raise AcpcError(f"{name}: a text of at most 200 characters")
        return value.strip()

    def number(name: str, default: float | None) -> float | None:
        value = body.get(name)
        if value is None or value == "":
            return default
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise AcpcError(f"{name}: a number") from None
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise AcpcError(f"{name}: a number")
        return float(value)

    dealer = None
    host = text("host")
    if host is not None:
        port = number("port", None)
        if port is None or port != int(port):
            raise AcpcError("port: a whole number")
        dealer = (host, int(port))
    seed = number("seed", None)
    hands = number("hands", 100)
    assert hands is not None
    limit = number("limit_s", 60.0)
    assert limit is not None
    return PlayRequest(
        name=text("name", "person") or "person",
        opponent=text("opponent") if dealer is None else None,
        dealer=dealer,
        hands=int(hands),
        seed=int(seed) if seed is not None else None,
        limit_s=limit,
        duplicate=body.get("duplicate", True) is not False,
        game=text("game", "holdem.limit.2p.reverse_blinds.game") or "",
    )


async def _refresh_folders(board: LiveBoard, watched: list[float]) -> None:
    """Read the folders again every few seconds while a page looks at the live view."""
    first = True
    while True:
        if first or time.monotonic() - watched[0] < _WATCHED_FOR_S:
            first = False
            await asyncio.to_thread(board.update_folders)
        await asyncio.sleep(_FOLDER_REFRESH_S)


async def _listen(board: LiveBoard, broker: BrokerAddress) -> None:
    """Hear the broker for ever, reconnecting when it goes away (its state in
    ``board.broker_note``)."""
    # aiomqtt (the mqtt extra): only with a broker
    from acpcbot.telemetry.publisher import TelemetryError
    from acpcbot.telemetry.subscriber import listen

    failures = 0
    board.broker_note = f"connecting to {broker}"
    while True:
        try:
            async for item in listen(broker):
                if item is None:
                    failures = 0
                    board.broker_note = f"watching {broker}"
                else:
                    board.take(*item)
        except TelemetryError as exc:
            pause = _RECONNECT_S[min(failures, len(_RECONNECT_S) - 1)]
            failures += 1
            board.broker_note = f"{exc}; trying again in {pause:g} s"
            await asyncio.sleep(pause)


def page_url(host: str, port: int, token: str | None, *, tls: bool = False) -> str:
    """The URL that opens the page at ``host`` (with the token when one is needed).

    >>> page_url("::1", 8000, None), page_url("192.0.2.7", 8001, "t", tls=True)
    ('http://[::1]:8000/', 'https://192.0.2.7:8001/?token=t')
    """
    shown = f"[{host}]" if ":" in host else host
    scheme = "https" if tls else "http"
    return f"{scheme}://{shown}:{port}/" + (f"?token={token}" if token is not None else "")


def serving_lines(url: str, host: str, token: str | None) -> list[str]:
    """What ``acpcbot web`` says once it serves at ``url``: the URL, and when ``host`` is every
    address of this machine (its URL names the loopback), the URLs others may open.

    >>> serving_lines("http://127.0.0.1:8000/", "127.0.0.1", None)
    ['acpcbot web: serving on http://127.0.0.1:8000/ (Ctrl-C to stop)']
    """
    lines = [f"acpcbot web: serving on {url} (Ctrl-C to stop)"]
    port = urlsplit(url).port
    if is_wildcard(host) and port is not None:
        elsewhere = [page_url(address, port, token) for address in machine_addresses()]
        where = " or ".join(elsewhere) or "this machine's address or name in its place"
        lines.append(
            f"acpcbot web: listening on every address of this machine ({host}): from "
            f"elsewhere, {where}"
        )
    return lines


async def serve(
    site: WebSite, ready: Callable[[str], None], left: Callable[[int], None] | None = None
) -> None:
    """Serve ``site`` until cancelled (Ctrl-C) or, in the main thread, until SIGTERM;
    ``ready`` is told the URL once listening (:func:`page_url`; listening on every address,
    the loopback's: see :mod:`dealer.web.addresses` for the others). Its play
    sessions end as it stops (:meth:`PlaySessions.stop`); ``left`` is told how many were
    still playing after the wait (the process should end without waiting for them: every
    hand they finished is in their logs)."""
    runner, url = await start(site)
    try:
        ready(url)
        stopped = asyncio.Event()
        with _on_sigterm(stopped.set):
            await stopped.wait()
    finally:
        await runner.cleanup()
        if left is not None:
            sessions = runner.app[SESSIONS].sessions.values()
            left(sum(session.running for session in sessions))


async def start(site: WebSite) -> tuple[web.AppRunner, str]:
    """Serve ``site`` in the background: its runner (``await runner.cleanup()`` stops it)
    and the page's URL (:func:`page_url`)."""
    runner = web.AppRunner(
        build_app(site), access_log=None, handle_signals=False, shutdown_timeout=2.0
    )
    await runner.setup()
    try:
        tcp = await _listen_on(runner, site)
    except BaseException:
        await runner.cleanup()
        raise
    sockets = getattr(tcp._server, "sockets", None) or []
    port = sockets[0].getsockname()[1] if sockets else site.port
    return runner, page_url(local_address(site.host), port, site.token, tls=site.tls is not None)


async def _listen_on(runner: web.AppRunner, site: WebSite) -> web.TCPSite:
    """Listen on ``site.port`` (or, in use, on one of the ``site.next_ports`` after it); an
    :class:`AcpcError` of one line when it cannot."""
    last = site.port + site.next_ports if site.port else 0
    port = site.port
    while True:  # (bounded: one more port each time, up to ``last``)
        tcp = web.TCPSite(runner, site.host, port, reuse_address=True, ssl_context=site.tls)
        try:
            await tcp.start()
        except OSError as exc:
            in_use = exc.errno == errno.EADDRINUSE
            if in_use and port < last:
                port += 1
                continue
            if not in_use:
                raise AcpcError(
                    f"cannot listen on {site.host} port {port}: {exc.strerror or exc}"
                ) from None
            ports = f"ports {site.port} to {last} are" if last > site.port else f"port {port} is"
            raise AcpcError(
                f"{ports} in use on {site.host} (another acpcbot web?): choose another with "
                "--port N, or --port 0 for any free one"
            ) from None
        return tcp


@contextlib.contextmanager
def _on_sigterm(stop: Callable[[], None]) -> Iterator[None]:
    """While in the block, SIGTERM (``kill``, ``docker stop``) calls ``stop``: the server
    ends as on Ctrl-C, its sessions recorded (only the main thread's loop can do this)."""
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGTERM, stop)
    except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, Windows
        yield
        return
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
