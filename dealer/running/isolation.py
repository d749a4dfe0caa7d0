"""Agents played in a process of their own: how the dealer plays code it does not trust.

In-process code is trusted Python: the dealer hands an in-process player only what the wire
would show it (:mod:`dealer.referee.views`), but a determined plug-in can reach anything in
the interpreter it runs in. An entrant wrapped by :func:`isolated` is played out of process
instead: the half it plays is played over loopback TCP, as with the ``tcp`` transport, and
the agent runs in a fresh Python interpreter (``python -m dealer.running.isolation``,
started afresh rather than forked, so that it inherits nothing of the dealer's memory)
that plays through the acpcbot client, exactly as ``acpcbot play`` against any ACPC
dealer. All it is given is its spec, its seed, the game, its name and the port. The other
agent plays as over ``--transport tcp``; for deterministic agents the logs are
byte-identical to playing both in-process.

Nothing of an isolated agent runs in the dealer's process: the entrant creates an
:class:`IsolatedPlayer`, a stand-in that plays nowhere (a match's checks start and stop
it), and it has no strategy to ask (:meth:`IsolatedEntrant.strategy`: AIVAT does not
query it at histories that did not happen).

Its decisions' probabilities are recorded all the same (``--aivat``): before the isolated
process sends an action, it writes on a pipe to the dealer which decision it is and the
probabilities its agent said it drew it from (:func:`acpcbot.player.decision_probabilities`,
printed exactly as the decisions file prints them); the stand-in reads them when the dealer
records the decision, by then already there, so the ``.probs`` file is byte-identical too.
What the process writes there and on stderr is read as untrusted text: bounded, parsed, and
shown, never executed.

A process is no sandbox: it runs as the same user, may read what the user may read (the
match's logs as they are written; ``/proc``, with the dealer's command line and its seed)
and use the network. For a bot you do not trust at all, run it as another user or in a
container of its own and play it with ``--transport remote``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import pickle
import signal
import sys
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any, NoReturn, cast

from acpcbot import eventloop
from acpcbot.actions import Action
from acpcbot.client.session import MatchSummary, play_match
from acpcbot.errors import AcpcError
from acpcbot.game import Game
from acpcbot.logconfig import configure_logging, get_logger
from acpcbot.player import (
    BettingView,
    Entrant,
    HandResult,
    MatchInfo,
    Player,
    Strategy,
    decision_key,
    decision_probabilities,
)
from acpcbot.protocol.matchstate import MatchState
from dealer.referee.decisionlog import format_decision, parse_decisions_line
from dealer.running.childprocess import die_with_parent

__all__ = ["IsolatedEntrant", "IsolatedPlayer", "isolated"]

log = get_logger("isolation")

MAX_REPORT_LINE = 1024
"""The longest line the isolated process may write on its pipe (a decision's line is about
60 bytes, its summary at the end about 300)."""
_READS_AT_ONCE = 16
"""Reads of the pipe at most each time it is read (whatever else waits, a flood waits)."""
MAX_STDERR_LINES = 1000
"""Lines of an isolated process's stderr shown at most (then counted)."""


@dataclass(frozen=True, slots=True)
class IsolatedEntrant:
    """An :class:`~acpcbot.player.Entrant` played in a process of its own (see the module)."""

    entrant: Entrant
    """The agent, as it would be played here (it must pickle: it is sent to the process)."""

    @property
    def spec(self) -> str:
        return self.entrant.spec

    @property
    def name(self) -> str:
        return self.entrant.name

    def create(self, seed: int) -> IsolatedPlayer:
        """The stand-in of a player with ``seed``: nothing of the agent runs here."""
        return IsolatedPlayer(self.entrant, seed)

    def check(self, game: Game) -> None:
        """Nothing is checked here: checking a plug-in runs its code (its module's, its
        constructor's). Its own process says what is wrong as the match begins."""
        del game

    def strategy(self, game: Game) -> Strategy | None:
        """None: asking an agent for its strategy runs its code."""
        del game
        return None


def isolated(entrant: Entrant) -> IsolatedEntrant:
    """``entrant``, played in a process of its own wherever the dealer plays it.

    >>> from agents.registry import entrant
    >>> bot = isolated(entrant("agents.simple:ExamplePlayer"))
    >>> bot.name, bot.create(7).seed, bot.strategy(None)
    ('agents.simple.ExamplePlayer', 7, None)
    """
    return entrant if isinstance(entrant, IsolatedEntrant) else IsolatedEntrant(entrant)


class _Probabilities:
    """The probabilities an isolated agent said, as :func:`decision_probabilities` reads
    them (``fold``, ``call``, ``raise_``)."""

    __slots__ = ("call", "fold", "raise_")

    def __init__(self, fold: float, call: float, raise_: float) -> None:
        self.fold, self.call, self.raise_ = fold, call, raise_


class IsolatedPlayer:
    """An isolated agent's stand-in in the dealer's process: :meth:`play` starts the agent's
    own process and plays its seat through it; the dealer reads the probabilities its
    decisions were drawn from in :attr:`last_triple` and :attr:`last_triple_at`, as from
    any player (see :mod:`acpcbot.player`)."""

    decides_instantly = False

    def __init__(self, entrant: Entrant, seed: int) -> None:
        self.entrant = entrant
        self.seed = seed
        self.pid: int | None = None
        """The process playing the agent, once started."""
        self._lock = threading.Lock()
        self._reports: int | None = None
        """The read end of the process's pipe (non-blocking), while it is open."""
        self._pending = b""
        self._said: tuple[tuple[int, int], _Probabilities | None] | None = None
        self._summary: dict[str, int | float] | None = None

    # -- the Player protocol: nothing is played here -------------------------------------

    def begin_match(self, info: MatchInfo) -> None:
        """Nothing: the agent begins its match in its own process."""

    def observe(self, state: MatchState, betting: BettingView) -> None:
        self._elsewhere()

    def act(self, state: MatchState, betting: BettingView) -> Action:
        self._elsewhere()

    def end_hand(self, result: HandResult) -> None:
        self._elsewhere()

    def _elsewhere(self) -> NoReturn:
        raise AcpcError(f"{self.entrant.name} plays in a process of its own, not here")

    # -- what it said --------------------------------------------------------------------

    @property
    def last_triple_at(self) -> tuple[int, int] | None:
        """The last decision whose probabilities the agent's process reported."""
        self._read_reports()
        return None if self._said is None else self._said[0]

    @property
    def last_triple(self) -> _Probabilities | None:
        self._read_reports()
        return None if self._said is None else self._said[1]

    def _read_reports(self) -> bool:
        """Take in what the process wrote on its pipe so far, without waiting; false once
        the pipe is at its end. (The event loop calls it whenever there is something to
        read, so that the process never blocks on a full pipe; the dealer calls it when it
        records a decision, on its own thread.)"""
        with self._lock:
            fd = self._reports
            for _ in range(_READS_AT_ONCE):  # a flood waits for the next call
                if fd is None:
                    return False
                try:
                    data = os.read(fd, 65536)
                except BlockingIOError:
                    return True
                except OSError:
                    data = b""
                if not data:
                    return False
                lines = (self._pending + data).split(b"\n")
                self._pending = lines.pop()
                if len(self._pending) > MAX_REPORT_LINE:
                    self._pending = b""  # not a line of ours: dropped
                for line in lines:
                    self._take(line)
            return True

    def _take(self, line: bytes) -> None:
        """One line from the process: a decision, or its summary at the end."""
        if len(line) > MAX_REPORT_LINE or not line.isascii():
            return
        text = line.decode("ascii")
        kind, _, rest = text.partition(" ")
        try:
            if kind == "said":
                count_text, _, decision = rest.partition(" ")
                if not count_text.isdigit() or len(count_text) > 6:
                    return
                hand, (probabilities,) = parse_decisions_line(decision)
                said = None if probabilities is None else _Probabilities(*probabilities)
                self._said = ((hand, int(count_text)), said)
            elif kind == "summary":
                summary = json.loads(rest)
                if isinstance(summary, dict) and all(
                    type(value) in (int, float) for value in summary.values()
                ):
                    self._summary = summary
        except ValueError:  # not a line of ours: dropped
            return

    # -- playing -------------------------------------------------------------------------

    async def play(self, host: str, port: int, *, game: Game, name: str) -> MatchSummary:
        """Play the agent's seat: start its process, connected to the dealer at
        ``host:port``, and wait for it to end; the :class:`~acpcbot.client.MatchSummary` it
        reports. Raises :class:`~acpcbot.errors.AcpcError` with the process's last line on
        stderr when it fails; cancelled, the process is killed."""
        # Where to import from first (the agent's module is found as it is here), then the
        # job, whose unpickling imports the entrant's class.
        job = pickle.dumps(list(sys.path)) + pickle.dumps(
            _Job(self.entrant, self.seed, host, port, game, name, os.getpid())
        )
        read_end, write_end = os.pipe()
        os.set_blocking(read_end, False)
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                __name__,
                stdin=asyncio.subprocess.PIPE,
                stdout=write_end,
                stderr=asyncio.subprocess.PIPE,
            )
        except BaseException:
            os.close(read_end)
            raise
        finally:
            os.close(write_end)
        with self._lock:
            self._reports = read_end
        loop = asyncio.get_running_loop()

        def readable() -> None:
            if not self._read_reports():
                loop.remove_reader(read_end)

        loop.add_reader(read_end, readable)
        self.pid = process.pid
        said: deque[str] = deque(maxlen=1)
        try:
            assert process.stdin is not None and process.stderr is not None
            process.stdin.write(job)
            with contextlib.suppress(ConnectionError):
                await process.stdin.drain()
            process.stdin.close()
            await _relay(process.stderr, self.entrant.name, said)
            status = await process.wait()
        finally:
            if process.returncode is None:  # cancelled (the half ended another way)
                process.kill()
                await process.wait()
            loop.remove_reader(read_end)
            self._read_reports()
            with self._lock:
                self._reports = None
                os.close(read_end)
        if status != 0:
            why = said[0].removeprefix("error: ") if said else f"exit status {status}"
            raise AcpcError(f"the process playing it failed: {why}")
        summary = _summary_of(self._summary or {})
        if summary is None:
            raise AcpcError(f"{self.entrant.name}'s process did not say how it played")
        return summary


def _summary_of(said: dict[str, int | float]) -> MatchSummary | None:
    """The summary an isolated process reported, when it is one: every field of a
    :class:`MatchSummary`, each a number of its type.

    >>> _summary_of({"hands": 2, "chips": 5.0}) is None
    True
    """
    fields = {field.name: field.type for field in dataclasses.fields(MatchSummary)}
    if set(said) != set(fields) or not all(
        type(said[name]) is int or (kind == "float" and type(said[name]) is float)
        for name, kind in fields.items()
    ):
        return None
    return MatchSummary(**cast(dict[str, Any], said))


async def _relay(stream: asyncio.StreamReader, name: str, last: deque[str]) -> None:
    """Show what the process writes on stderr, line by line (bounded), keeping the last."""
    shown = 0
    while True:
        try:
            raw = await stream.readline()
        except ValueError:  # a line over the stream's limit: the rest of it is dropped
            raw = b"(a line too long)\n"
        if not raw:
            break
        text = raw.decode("utf-8", "replace").rstrip()[:500]
        if not text:
            continue
        last.append(text)
        if text.startswith("error: "):  # its last words: the failure says them
            continue
        shown += 1
        if shown <= MAX_STDERR_LINES:
            log.warning("isolated_agent_said", agent=name, line=text)
    if shown > MAX_STDERR_LINES:
        log.warning("isolated_agent_said_more", agent=name, lines=shown - MAX_STDERR_LINES)


@dataclass(frozen=True)
class _Job:
    """What the isolated process is given (pickled on its stdin)."""

    entrant: Entrant
    seed: int
    host: str
    port: int
    game: Game
    name: str
    dealer: int
    """The dealer's process id (this process's parent)."""


class _Reporting:
    """The agent, as the isolated process's client plays it: each decision's probabilities
    are written on the pipe to the dealer before the action is sent."""

    def __init__(self, player: Player, out: int) -> None:
        self.player = player
        self._out = out

    @property
    def decides_instantly(self) -> bool:
        return bool(getattr(self.player, "decides_instantly", False))

    def begin_match(self, info: MatchInfo) -> None:
        self.player.begin_match(info)

    def observe(self, state: MatchState, betting: BettingView) -> None:
        self.player.observe(state, betting)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        action = self.player.act(state, betting)
        hand, count = decision_key(betting)
        said = format_decision(decision_probabilities(self.player, betting))
        os.write(self._out, f"said {count} {hand}:{said}\n".encode("ascii"))
        return action

    def end_hand(self, result: HandResult) -> None:
        self.player.end_hand(result)


def main() -> int:
    """The isolated process: play the job read from stdin; report on stdout (the pipe)."""
    # Ctrl-C reaches the whole process group: the dealer decides (it stops after the hand,
    # and this process ends with the connection).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.path[:] = pickle.load(sys.stdin.buffer)
    job: _Job = pickle.load(sys.stdin.buffer)
    die_with_parent(job.dealer)
    reports = os.dup(1)
    os.dup2(2, 1)  # what the agent prints goes to stderr, not on the pipe
    configure_logging(level="warning")
    try:
        player = _Reporting(job.entrant.create(job.seed), reports)
        summary = eventloop.run(
            play_match(job.host, job.port, player, game=job.game, name=job.name)
        )
    except Exception as exc:  # one line, as the dealer shows it
        what = str(exc) if isinstance(exc, AcpcError) else f"{type(exc).__name__}: {exc}"
        print(f"error: {' '.join(what.split())}", file=sys.stderr)
        return 1
    fields = {name: getattr(summary, name) for name in summary.__dataclass_fields__}
    os.write(reports, f"summary {json.dumps(fields)}\n".encode("ascii"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
