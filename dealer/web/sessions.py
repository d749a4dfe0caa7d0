"""Play sessions: a person against an agent on our dealer, or at a seat of any ACPC dealer.

* Against an agent (:meth:`PlaySessions.start` with ``opponent``): a duplicate match of
  ``run_match`` over TCP, the person being agent A (:class:`~dealer.web.person.PersonEntrant`)
  and the agent whatever the entrant factory makes of its spec (the command line hands
  ``agents.registry.entrant``: built-in, plug-in or ``module:Class``). Its folder is an
  ordinary match folder in the play folder (logs, ``summary.json``; ``acpcbot results``
  reads it). After the first half the person is asked for the rematch, the same cards with
  the seats swapped (the second half); without it the match ends there (interrupted, its
  first half kept).
* At a dealer (``dealer=(host, port)``): the acpcbot client plays the person's seat, as
  ``acpcbot play`` plays an agent's.

The person's time limit per action is the dealer's (ours: :func:`person_limits`); a person
who does not answer ran out of time, and the dealer ends the match as its rules say.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acpcbot.client import play_match
from acpcbot.errors import AcpcError
from acpcbot.game import LIMIT_HOLDEM, load_game
from acpcbot.player import Entrant
from acpcbot.telemetry.url import BrokerAddress
from dealer.referee import TimeLimits
from dealer.running import (
    MatchFailedError,
    MatchInterruptedError,
    MatchRequest,
    Transport,
    check_match,
    run_match,
)
from dealer.web.person import PersonAtSeat, PersonEntrant, Table
from dealer.web.roots import Roots

__all__ = [
    "MAX_RUNNING",
    "EntrantFactory",
    "PlayRequest",
    "PlaySession",
    "PlaySessions",
    "person_limits",
]

EntrantFactory = Callable[[str], Entrant]
"""Makes the entrant an agent spec names (the command line hands ``agents.registry.entrant``)."""
MAX_RUNNING = 4
"""Sessions playing at once."""
MAX_HANDS = 100_000
MAX_NAME = 64
"""The longest name a person may give (it names the match's folder and the logs)."""


def person_limits(limit_s: float) -> TimeLimits:
    """Our dealer's time limits for a match with a person: ``limit_s`` per action, ten times
    that in one hand and per hand on average over the match (a person thinks longer over
    some decisions than others; only the limit per action is meant to bind).

    >>> person_limits(60)
    TimeLimits(response_ms=60000, hand_ms=600000, per_hand_ms=600000)
    """
    response = round(limit_s * 1000)
    return TimeLimits(response_ms=response, hand_ms=10 * response, per_hand_ms=10 * response)


@dataclass(frozen=True)
class PlayRequest:
    """A session to start, as the page asks for it."""

    name: str = "person"
    """The person's name in the logs."""
    opponent: str | None = None
    """An agent spec: play it on our dealer."""
    dealer: tuple[str, int] | None = None
    """Or a dealer's host and the port of the person's seat."""
    hands: int = 100
    """Hands per half (our dealer)."""
    seed: int | None = None
    """The cards' seed (our dealer; ``None``: a random one)."""
    limit_s: float = 60.0
    """Seconds per action."""
    duplicate: bool = True
    """Offer the rematch with the seats swapped after the first half (our dealer)."""
    game: str = LIMIT_HOLDEM

    def check(self) -> None:
        """Raise :class:`AcpcError` for anything wrong, before a session starts."""
        if not name_is_safe(self.name):
            raise AcpcError(
                f"name: 1 to {MAX_NAME} characters, without '/', '\\', '..', ':', '|', "
                "spaces or control characters"
            )
        if (self.opponent is None) == (self.dealer is None):
            raise AcpcError("name an opponent (an agent spec) or a dealer (host and port)")
        if not 1 <= self.hands <= MAX_HANDS:
            raise AcpcError(f"hands: 1 .. {MAX_HANDS:,}")
        if self.seed is not None and not 0 <= self.seed < 2**32:
            raise AcpcError("seed: 0 .. 4294967295")
        if not 1 <= self.limit_s <= 3600:
            raise AcpcError("time limit: 1 .. 3600 seconds per action")
        if self.dealer is not None and not 0 < self.dealer[1] < 65536:
            raise AcpcError("port: 1 .. 65535")


def name_is_safe(name: str) -> bool:
    r"""Whether a person's ``name`` can name the match's folder (in the play folder, not a
    path that leads elsewhere) and be written to an ACPC log.

    >>> [name_is_safe(n) for n in ("Ann", "ann_2.x", "../../etc", "a/b", "a\\b", "..", "a\0")]
    [True, True, False, False, False, False, False]
    >>> name_is_safe("x" * MAX_NAME), name_is_safe("x" * (MAX_NAME + 1)), name_is_safe("")
    (True, False, False)
    """
    return (
        0 < len(name) <= MAX_NAME
        and name.isprintable()  # no NUL, no control or format characters
        and not any(c in name for c in "/\\:| ")
        and ".." not in name
    )


class PlaySession:
    """One person's session (see the module)."""

    def __init__(self, key: str, request: PlayRequest, table: Table) -> None:
        self.key = key
        self.request = request
        self.table = table
        self.started = time.time()
        self.running = True
        self.listeners: set[Callable[[], None]] = set()
        """Told (on the event loop) when the table changed."""
        self.task: asyncio.Task[None] | None = None
        """A session at a dealer elsewhere: its client, on the event loop."""

    def json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "opponent": self.table.opponent,
            "running": self.running,
            **self.table.snapshot(),
        }


class PlaySessions:
    """Every session of this server. ``entrant_of`` makes an opponent from its spec; the
    matches on our dealer go to a folder of their own in ``folder`` (created when the first
    starts); ``mqtt`` publishes them as ``acpcbot match --mqtt`` would."""

    def __init__(
        self,
        entrant_of: EntrantFactory,
        folder: Path,
        roots: Roots,
        *,
        mqtt: BrokerAddress | None = None,
    ) -> None:
        self.entrant_of = entrant_of
        self.folder = folder
        self.roots = roots
        self.mqtt = mqtt
        self.sessions: dict[str, PlaySession] = {}

    def get(self, key: str) -> PlaySession | None:
        return self.sessions.get(key)

    async def start(self, request: PlayRequest) -> PlaySession:
        """Start a session (its match runs in the background); :class:`AcpcError` for a
        request that cannot start (the match is checked first: an agent that does not
        exist or cannot play the game is said here)."""

        loop = asyncio.get_running_loop()
        request.check()
        if sum(s.running for s in self.sessions.values()) >= MAX_RUNNING:
            raise AcpcError(f"{MAX_RUNNING} sessions are playing already")
        key = secrets.token_urlsafe(9)
        halves = 2 if request.opponent is not None and request.duplicate else 1
        hands = request.hands if request.opponent is not None else None
        opponent = request.opponent or "{}:{}".format(*request.dealer or ("?", 0))
        table = Table(request.name, opponent, limit_s=request.limit_s, halves=halves, hands=hands)
        session = PlaySession(key, request, table)

        def changed() -> None:
            for listener in list(session.listeners):
                listener()

        def on_change() -> None:
            with contextlib.suppress(RuntimeError):  # the server has stopped: nobody listens
                loop.call_soon_threadsafe(changed)

        table.on_change = on_change
        if request.opponent is not None:
            match = self._match_request(request, table)
            await asyncio.to_thread(check_match, match)
            threading.Thread(
                target=self._play_here,
                args=(session, match),
                name=f"acpcbot-web-{key}",
                daemon=True,
            ).start()
        else:
            session.task = loop.create_task(self._play_at_dealer(session))
        self.sessions[key] = session
        return session

    async def stop(self, wait_s: float) -> int:
        """The server stops: end every session playing, and wait up to ``wait_s`` seconds
        for them; how many are still playing then. A match on our dealer ends as a second
        Ctrl-C ends ``acpcbot match`` (:meth:`Table.stop`: ``interrupted``, its folder
        unlocked, every hand finished in its logs and summary); a seat at a dealer
        elsewhere is left (that dealer keeps the log)."""
        for session in self.sessions.values():
            if not session.running:
                continue
            if session.task is not None:
                session.task.cancel()
            else:
                session.table.stop()
        deadline = time.monotonic() + wait_s
        while (left := sum(s.running for s in self.sessions.values())) and (
            time.monotonic() < deadline
        ):
            await asyncio.sleep(0.05)
        return left

    def _match_request(self, request: PlayRequest, table: Table) -> MatchRequest:
        assert request.opponent is not None
        bot = self.entrant_of(request.opponent)
        seed = request.seed if request.seed is not None else secrets.randbelow(2**32)
        match = MatchRequest(
            PersonEntrant(table, request.name),
            bot,
            hands=request.hands,
            seed=seed,
            game=request.game,
            transport=Transport.TCP,
            duplicate=request.duplicate,
            jobs=1,
            mqtt=self.mqtt,
            limits=person_limits(request.limit_s),
        )
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        folder = self.folder.resolve()
        name = f"{match.plan().match_name}.{stamp}"
        out, n = folder / name, 1
        while out.exists():
            n += 1
            out = folder / f"{name}-{n}"
        # The names were checked; whatever they hold, nothing is made outside the play folder.
        if out.parent != folder or out.resolve().parent != folder:
            raise AcpcError(f"the match's folder {name!r} would not be inside {self.folder}")
        return dataclasses.replace(match, out=out)

    def _play_here(self, session: PlaySession, match: MatchRequest) -> None:
        """The match on our dealer (in a thread of its own)."""

        table = session.table
        try:
            assert match.out is not None
            match.out.mkdir(parents=True, exist_ok=True)
            self.roots.add(self.folder)
            table.folder = self._named(match.out)
            if table.folder is not None:  # the replay opens the first half's log
                table.folder["log"] = match.plan().log_name(0)
            table.set_status("starting")
            played = run_match(match, before_half=table.wait_rematch)
            table.summary = played.text()
            table.finish("finished")
        except MatchInterruptedError as stopped:
            table.summary = stopped.match.text()
            why = "no rematch: the first half is the match"
            if table.stopped:
                why = "the server stopped; every hand finished is kept"
            table.finish("interrupted", why)
        except MatchFailedError as failed:
            table.summary = failed.match.text()
            why = "you ran out of time: " if table.timed_out else ""
            table.finish("failed", f"{why}{failed}")
        except AcpcError as exc:
            table.finish("failed", str(exc))
        except Exception as exc:  # a bug must reach the page, not only a thread's stderr
            table.finish("failed", f"{type(exc).__name__}: {exc}")
            raise
        finally:
            session.running = False
            table.close()

    def _named(self, path: Path) -> dict[str, str] | None:
        named = self.roots.name_of(path)
        return {"root": named[0], "path": named[1]} if named is not None else None

    async def _play_at_dealer(self, session: PlaySession) -> None:
        """The person at a seat of a dealer elsewhere, through the acpcbot client."""

        request = session.request
        table = session.table
        assert request.dealer is not None
        host, port = request.dealer
        try:
            game = load_game(request.game)
            summary = await play_match(
                host, port, PersonAtSeat(table), game=game, name=request.name
            )
            table.summary = [str(summary)]
            table.finish("finished")
        except asyncio.CancelledError:
            table.finish("interrupted", "the server stopped; the dealer keeps the log")
            raise
        except AcpcError as exc:
            why = "you ran out of time; " if table.timed_out else ""
            table.finish("failed", f"{why}{exc}")
        except Exception as exc:
            table.finish("failed", f"{type(exc).__name__}: {exc}")
            raise
        finally:
            session.running = False
            table.close()
