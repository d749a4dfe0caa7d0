"""The benchmark server's line protocol over TCP (``bm_widget``'s, ``acpcbot connect``'s): a
thin asyncio layer over the codec (:mod:`.lineprotocol`) and the service (:mod:`.service`).

What a hostile client can cost is bounded. Lines are cut at the reference's 4095 bytes, so
a connection buffers at most one line's worth; it waits for its answers to be read before
its next line is taken, and a client that reads nothing for :data:`WRITE_TIMEOUT_S` while
the server has something to tell it (or lets more than :data:`MAX_PENDING_BYTES` pile up)
is dropped. A connection must log on within the configured logon timeout, and its first
line is its logon: a wrong one is answered ``BAD LOGON`` and closed, as the reference does;
no command is taken before. There are at most ``max_connections`` connections, and
``max_connections_per_address`` from one address: more are closed at once. Repeated bad
logons lock a name and an address out, for a growing time (:class:`~.passwords.Lockout`).

A logon line that goes on as ``bm_run_matches`` writes it (``NAME PW games``, ``NAME PW run
2pl SCRIPT RUNS TAG SEED P1 P2``) is answered as that client expects: the games, or the
request queued and its runs played (``RUN`` lines, ``#`` news), then ``Matches finished``,
and the connection is closed. ``2pl`` is the first game configured with limit betting for
two (``2pn``: no-limit for two, ``3pl``: limit for three).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import socket

from acpcbot.logconfig import get_logger
from acpcbot.protocol.framing import MAX_LINE_BYTES, LineBuffer
from dealer.benchmark.database import UserRecord
from dealer.benchmark.lineprotocol import (
    BAD_LOGON,
    BAD_RUNMATCHES,
    BATCH_GAMES,
    HELP,
    LOGON_OKAY,
    MATCHES_FINISHED,
    UNKNOWN,
    Batch,
    BatchKind,
    CommandKind,
    MatchSpec,
    comment,
    games_text,
    parse_batch,
    parse_command,
    parse_logon,
    parse_runmatches,
    queue_text,
    queued_text,
)
from dealer.benchmark.service import BenchmarkService, Refused
from dealer.benchmark.standings import standing_line

__all__ = ["LineServer"]

log = get_logger("serve")

WRITE_TIMEOUT_S = 60.0
"""How long a client may leave its answers unread."""
MAX_PENDING_BYTES = 1 << 20
"""Bytes waiting to be sent to one client past which it is dropped."""
_READ_BYTES = 4096


class _Connection:
    """One client's connection: what the service needs to tell it things."""

    def __init__(self, writer: asyncio.StreamWriter, address: str) -> None:
        self._writer = writer
        self._address = address
        self.user: UserRecord | None = None
        self.batch: asyncio.Task[None] | None = None
        """A ``bm_run_matches`` logon's work, under way."""

    @property
    def address(self) -> str:
        return self._address

    @property
    def closed(self) -> bool:
        return self._writer.is_closing()

    def send(self, data: bytes) -> None:
        if self._writer.is_closing():
            return
        transport = self._writer.transport
        if transport.get_write_buffer_size() + len(data) > MAX_PENDING_BYTES:
            log.info("client_dropped", address=self._address, why="it reads nothing")
            transport.abort()
            return
        self._writer.write(data)

    def abort(self) -> None:
        self._writer.transport.abort()

    def close(self) -> None:
        """Close once what was sent is written."""
        self._writer.close()

    async def drained(self) -> bool:
        """Wait for what was sent to be read (a while); false if the client was dropped."""
        try:
            await asyncio.wait_for(self._writer.drain(), WRITE_TIMEOUT_S)
        except (TimeoutError, ConnectionError):
            self._writer.transport.abort()
            return False
        return not self._writer.is_closing()


class LineServer:
    """Listens for clients and serves each (see the module)."""

    def __init__(self, service: BenchmarkService) -> None:
        self.service = service
        self._server: asyncio.Server | None = None
        self._by_address: collections.Counter[str] = collections.Counter()
        self._tasks: dict[asyncio.Task[None], _Connection] = {}

    async def start(self, host: str, port: int) -> None:
        self._server = await asyncio.start_server(
            self._serve, host, port, reuse_address=True, limit=2 * MAX_LINE_BYTES
        )

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    def stop_listening(self) -> None:
        if self._server is not None:
            self._server.close()

    async def close(self) -> None:
        """Stop listening and close every connection (each one's reading then ends: its
        task is not cancelled, which asyncio's streams of Python 3.11 would log as an
        error)."""
        self.stop_listening()
        for connection in list(self._tasks.values()):
            connection.abort()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=10)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        config = self.service.config
        if (
            len(self._tasks) >= config.max_connections
            or self._by_address[address] >= config.max_connections_per_address
            or self.service.stopping
        ):
            writer.transport.abort()
            return
        connection = _Connection(writer, address)
        self._tasks[task] = connection
        self._by_address[address] += 1
        sock = writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        try:
            await self._converse(reader, connection)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            if connection.batch is not None:
                connection.batch.cancel()  # (its request stays queued, as any other)
            if connection.user is not None:
                self.service.disconnected(connection.user.id, connection)
            self._tasks.pop(task, None)
            self._by_address[address] -= 1
            if not self._by_address[address]:
                del self._by_address[address]
            writer.close()

    async def _converse(self, reader: asyncio.StreamReader, connection: _Connection) -> None:
        lines = LineBuffer(MAX_LINE_BYTES, split_long=True)
        logon_timeout = self.service.config.logon_timeout_s
        while True:
            try:
                async with asyncio.timeout(logon_timeout if connection.user is None else None):
                    data = await reader.read(_READ_BYTES)
            except TimeoutError:
                log.info("client_dropped", address=connection.address, why="no logon")
                return
            if not data:
                return
            for line in lines.feed(data):
                if not await self._take(line, connection):
                    return
                if not await connection.drained():
                    return

    async def _take(self, line: bytes, connection: _Connection) -> bool:
        """Answer one line; false when the connection is to be closed."""
        service = self.service
        if connection.user is None:
            logon = parse_logon(line)
            user = None
            if logon is not None:
                user = await service.logon(logon.name, logon.password, connection.address)
            if user is None:
                connection.send(BAD_LOGON)
                await connection.drained()
                return False
            connection.user = user
            connection.send(LOGON_OKAY)
            for news in await service.connected(user, connection):
                connection.send(news)
            batch = parse_batch(line)
            if batch is not None:
                connection.batch = asyncio.create_task(self._batch(batch, connection))
            return True
        user = connection.user
        command = parse_command(line)
        if command.kind is CommandKind.HELP:
            connection.send(HELP)
        elif command.kind is CommandKind.GAMES:
            connection.send(games_text(service.offered_games()))
        elif command.kind is CommandKind.QSTAT:
            connection.send(queue_text(service.queue_entries(user.id)))
        elif command.kind is CommandKind.RUNMATCHES:
            await self._submit(parse_runmatches(command.rest, service.games), connection)
        elif line[:7].upper() == b"RESULTS":
            standings = await service.standings(user)
            for standing in standings:
                connection.send(comment(standing_line(standing)))
            if not standings:
                connection.send(comment("no results yet"))
        else:
            connection.send(UNKNOWN)
        return True

    async def _submit(self, spec: MatchSpec | None, connection: _Connection) -> int | None:
        """Queue a request and say so (its id), or answer why not."""
        assert connection.user is not None
        if spec is None:
            connection.send(BAD_RUNMATCHES)
            return None
        try:
            request = await self.service.submit(connection.user, spec, connection.address)
        except Refused as refused:
            if refused.why is not None:
                connection.send(comment(f"refused: {refused.why}"))
            connection.send(BAD_RUNMATCHES)
            return None
        connection.send(queued_text(f"{connection.user.name}.{request.tag}", request.jobs))
        return request.id

    async def _batch(self, batch: Batch, connection: _Connection) -> None:
        """A ``bm_run_matches`` logon's work, then ``Matches finished`` and the end."""
        service = self.service
        if batch.kind is BatchKind.GAMES:
            connection.send(games_text(service.offered_games()))
        elif batch.kind is BatchKind.RERUN:
            connection.send(comment("refused: rerun is not offered: ask for the run again"))
            connection.send(BAD_RUNMATCHES)
        else:
            wanted = BATCH_GAMES.get(batch.game.lower())
            game = next(
                (g.file for g in service.config.games
                 if (g.game.betting_type, g.game.num_players) == wanted),
                None,
            )  # fmt: skip
            if game is None:
                connection.send(comment(f"refused: no game of kind {batch.game!r} here"))
                connection.send(BAD_RUNMATCHES)
            else:
                spec = parse_runmatches(f" {game} {batch.rest}", service.games)
                request_id = await self._submit(spec, connection)
                if request_id is not None:
                    await service.request_ended(request_id)
        connection.send(MATCHES_FINISHED)
        await connection.drained()
        connection.close()
