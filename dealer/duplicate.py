"""Duplicate matches: the same cards twice, the seats reversed, the agents fresh each time.

Half 1 seats agent A in seat 1 and B in seat 2; half 2 swaps them, with the same dealer
seed (so every hand deals the same cards to the same positions) and the same agent seeds.
Each agent therefore plays the cards its opponent had, and luck largely cancels out when
each hand number's two results are averaged: the confidence interval is computed over
those pairs.

Both halves run on one engine (:mod:`dealer.referee`) over either transport: ``inprocess``
calls the agents directly; ``tcp`` runs our TCP server on 127.0.0.1 and both agents through
the acpcbot client, exactly as against any ACPC dealer. For deterministic agents both write
byte-identical logs.
"""

from __future__ import annotations

import asyncio
import enum
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from acpcbot import eventloop
from acpcbot.errors import AcpcError
from acpcbot.game import LIMIT_HOLDEM, Game, load_game
from acpcbot.player import Player
from dealer.config import MatchConfig
from dealer.faults import MatchAbortedError
from dealer.inprocess import play_in_process
from dealer.listeners import Listeners
from dealer.matchlog import MatchLog
from dealer.progress import Progress
from dealer.referee import Referee
from dealer.results import HalfResult, PairResult, half_result, pair_result
from dealer.server import referee_over_tcp
from dealer.stats import pair_samples
from dealer.transcript import Transcript

PlayerFactory = Callable[[int, int], Player]
"""Makes a fresh player: ``(which, seed)`` with ``which`` 0 for agent A and 1 for B."""


class Transport(enum.Enum):
    """How the dealer talks to the agents."""

    TCP = "tcp"
    INPROCESS = "inprocess"


def derived_seed(seed: int, which: int) -> int:
    """The default seed of agent ``which`` (0 = A, 1 = B): a splitmix64 step of the match
    seed, so different match seeds give unrelated agent seeds.

    >>> derived_seed(42, 0), derived_seed(42, 1)
    (2853895696, 787334419)
    """
    z = (seed * 0x9E3779B97F4A7C15 + (which + 1) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    return (z ^ (z >> 31)) & 0xFFFFFFFF


@dataclass(frozen=True)
class DuplicatePlan:
    """Everything that defines a duplicate match."""

    agents: tuple[str, str]
    hands: int
    """Hands per half."""
    seed: int
    agent_seeds: tuple[int, int]
    out_dir: Path
    transport: Transport = Transport.TCP
    duplicate: bool = True
    game_path: str = LIMIT_HOLDEM

    @property
    def names(self) -> tuple[str, str]:
        """The players' names in the logs (the agent names, made distinct)."""
        a, b = self.agents
        return (f"{a}-A", f"{b}-B") if a == b else (a, b)

    @property
    def match_name(self) -> str:
        a, b = self.agents
        return f"{a}-vs-{b}.seed{self.seed}.n{self.hands}"

    def seats(self, half: int) -> tuple[int, int]:
        """Which agent (0 = A, 1 = B) sits in seats 1 and 2 in ``half`` (0 or 1)."""
        return (0, 1) if half == 0 else (1, 0)

    def half_name(self, half: int) -> str:
        first, second = (self.names[i] for i in self.seats(half))
        return f"{first}-{second}.seed{self.seed}.n{self.hands}"


@dataclass(frozen=True)
class HalfRun:
    """One half as played."""

    result: HalfResult
    """Agent A's results."""
    log: Path
    seats: tuple[str, str]
    seconds: float


@dataclass(frozen=True)
class DuplicateRun:
    """A finished (duplicate) match."""

    plan: DuplicatePlan
    big_blind: int
    halves: tuple[HalfRun, ...]
    pair: PairResult | None
    """Over the pairs; ``None`` without the second half."""

    @property
    def seconds(self) -> float:
        return sum(h.seconds for h in self.halves)

    @property
    def hands_per_second(self) -> float:
        return sum(h.result.hands for h in self.halves) / max(self.seconds, 1e-9)


def run_duplicate(plan: DuplicatePlan, make_player: PlayerFactory) -> DuplicateRun:
    """Play the match and write both ``.log`` files to ``plan.out_dir``."""
    game = load_game(plan.game_path)
    plan.out_dir.mkdir(parents=True, exist_ok=True)
    halves_wanted = 2 if plan.duplicate else 1
    progress = Progress(plan.hands * halves_wanted, game.big_blind)
    values: list[array[float]] = []
    halves = []
    try:
        for half in range(halves_wanted):
            run, recorded = _play_half(plan, half, game, make_player, progress)
            halves.append(run)
            values.append(recorded)
    finally:
        progress.clear()
    pair = None
    if plan.duplicate:
        paired = pair_samples(dict(enumerate(values[0])), dict(enumerate(values[1])))
        pair = pair_result(halves[0].result, halves[1].result, paired, game.big_blind)
    return DuplicateRun(plan, game.big_blind, tuple(halves), pair)


def _play_half(
    plan: DuplicatePlan, half: int, game: Game, make_player: PlayerFactory, progress: Progress
) -> tuple[HalfRun, array[float]]:
    seats = plan.seats(half)
    names = tuple(plan.names[i] for i in seats)
    config = MatchConfig(plan.half_name(half), game, plan.game_path, plan.hands, plan.seed, names)
    seat_a = seats.index(0)
    recorded: array[float] = array("d")
    done_before = half * plan.hands
    label = f"half {half + 1}"

    def record(engine: Referee, by_position: tuple[float, ...]) -> None:
        recorded.append(by_position[engine.position_of(seat_a)])
        progress.update(done_before + len(recorded), engine.totals[seat_a], label)

    path = plan.out_dir / f"{config.match_name}.log"
    reporter = Transcript(None)
    with path.open("wb") as file:
        # Nothing resumes an in-process match, so its log need not hit the disk every hand.
        log = MatchLog(file, flush_every=1 if plan.transport is Transport.TCP else 256)
        log.header(config.header)
        engine = Referee(config, log=log, reporter=reporter, on_hand=record)
        players = [make_player(i, plan.agent_seeds[i]) for i in seats]
        started = time.perf_counter()
        if plan.transport is Transport.INPROCESS:
            play_in_process(engine, players)
        else:
            eventloop.run(_play_over_tcp(engine, players, reporter))
        seconds = time.perf_counter() - started
    result = half_result(
        path.name, plan.names[0], plan.names[1], dict(enumerate(recorded)), game.big_blind
    )
    return HalfRun(result, path, (names[0], names[1]), seconds), recorded


async def _play_over_tcp(engine: Referee, players: list[Player], reporter: Transcript) -> None:
    from acpcbot.client import play_match

    config = engine.config
    listeners = await Listeners.open("127.0.0.1", [], config.game.num_players)
    clients = [
        asyncio.create_task(play_match("127.0.0.1", port, player, game=config.game, name=name))
        for player, port, name in zip(players, listeners.ports, config.names, strict=True)
    ]
    try:
        # Our own clients, in this process: holding idle states spares them wake-ups.
        await referee_over_tcp(engine, listeners, reporter, start_timeout_ms=30_000, hold_idle=True)
    except MatchAbortedError as exc:
        # The clients see the connections drop; what they say about it helps.
        outcomes = await asyncio.gather(*clients, return_exceptions=True)
        said = [
            f"{name}'s client: {outcome}"
            for name, outcome in zip(config.names, outcomes, strict=True)
            if isinstance(outcome, Exception)
        ]
        raise MatchAbortedError(*exc.lines, *said, seat=exc.seat) from None
    for name, outcome in zip(
        config.names, await asyncio.gather(*clients, return_exceptions=True), strict=True
    ):
        if isinstance(outcome, BaseException):
            raise AcpcError(f"{name}'s client failed after the match: {outcome}")
