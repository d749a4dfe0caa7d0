"""Duplicate matches as data: what defines one, what its halves came to, and its summary.

Half 1 seats agent A in seat 1 and B in seat 2; half 2 swaps them, with the same dealer
seed (so every hand deals the same cards to the same positions) and the same agent seeds.
Each agent therefore plays the cards its opponent had, and luck largely cancels out when
each hand number's two results are averaged: the confidence interval is computed over
those pairs.

A :class:`DuplicatePlan` is everything that defines a match; each half played
(:func:`dealer.running.halves.play_half`, in whatever process) comes to a
:class:`HalfOutcome` (plain data, so it can cross a process boundary); :func:`duplicate_run`
puts the halves together into a :class:`DuplicateRun` with agent A's results, whose summary
is ``summary.json`` (:func:`duplicate_json`, :func:`started_json` as it starts) and, for
people, :func:`duplicate_text`. The results in it (each half's and the pairs') are written as
:mod:`dealer.analysis.results` writes them for ``acpcbot results``. The transports
(:class:`Transport`): ``inprocess`` calls the agents directly; ``tcp`` runs our TCP server on
127.0.0.1 and both agents through the acpcbot client, exactly as against any ACPC dealer;
``remote`` runs the TCP server alone, on the address and ports of a :class:`Listening`, for
players that connect from elsewhere (``acpcbot play`` in other containers or on other
machines, or any ACPC client). For deterministic agents all three write byte-identical logs.
A half with an agent played in a process of its own (:mod:`dealer.running.isolation`) is
played as ``tcp``, that agent's client in its process.
"""

from __future__ import annotations

import enum
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acpcbot.client.session import fallback_kinds
from acpcbot.errors import UsageError
from acpcbot.game import LIMIT_HOLDEM, Game
from acpcbot.writing import WriteError
from dealer.analysis.results import (
    HalfResult,
    PairResult,
    ci_text,
    half_json,
    half_result,
    json_number,
    pair_result,
)
from dealer.analysis.stats import estimate, pair_samples
from dealer.referee.config import MatchConfig, TimeLimits
from dealer.referee.decisionlog import decisions_path

__all__ = [
    "DEFAULT_START_TIMEOUT_MS",
    "Decisions",
    "DuplicatePlan",
    "DuplicateRun",
    "HalfOutcome",
    "HalfRun",
    "Listening",
    "MatchStatus",
    "Transport",
    "decisions_text",
    "derived_seed",
    "duplicate_json",
    "duplicate_run",
    "duplicate_text",
    "listening_for",
    "plan_json",
    "started_json",
]


class Transport(enum.Enum):
    """How the dealer talks to the agents."""

    TCP = "tcp"
    INPROCESS = "inprocess"
    REMOTE = "remote"
    """Over TCP to players that connect from elsewhere: no agent runs with the dealer."""


DEFAULT_START_TIMEOUT_MS = 600_000
"""How long a half with remote players waits for them to connect (10 minutes)."""


@dataclass(frozen=True)
class Listening:
    """Where the halves of a match with remote players listen for them.

    ``ports`` are half 1's seats 1 and 2, then half 2's seats 1 and 2; a port that is 0 or
    not given is chosen by the operating system.

    >>> Listening("0.0.0.0", (18791, 18792, 18793)).half_ports(1, 2)
    [18793, 0]
    """

    host: str = "127.0.0.1"
    ports: tuple[int, ...] = ()
    start_timeout_ms: int = DEFAULT_START_TIMEOUT_MS
    """Negative: wait for ever."""

    def half_ports(self, half: int, seats: int) -> list[int]:
        """The ports of ``half``'s seats, in seat order (0: chosen by the system)."""
        wanted = self.ports[half * seats : (half + 1) * seats]
        return [*wanted, *[0] * (seats - len(wanted))]


def listening_for(
    transport: Transport,
    host: str | None = None,
    ports: tuple[int, ...] | None = None,
    start_timeout_s: float | None = None,
) -> Listening | None:
    """Where a match's halves listen (``--host``, ``--ports``, ``--start-timeout``, each
    ``None`` when not given): for remote players, with the defaults for what is not given
    (a negative timeout: for ever); for any other transport none, and none may be given.

    >>> listening_for(Transport.REMOTE, ports=(7000,), start_timeout_s=-1)
    Listening(host='127.0.0.1', ports=(7000,), start_timeout_ms=-1)
    >>> listening_for(Transport.TCP, host="0.0.0.0")
    Traceback (most recent call last):
    acpcbot.errors.UsageError: --host: for --transport remote only
    """
    if transport is not Transport.REMOTE:
        given = {"--host": host, "--ports": ports, "--start-timeout": start_timeout_s}
        if named := [option for option, value in given.items() if value is not None]:
            raise UsageError(f"{', '.join(named)}: for --transport remote only")
        return None
    timeout_ms = DEFAULT_START_TIMEOUT_MS
    if start_timeout_s is not None:
        timeout_ms = -1 if start_timeout_s < 0 else round(start_timeout_s * 1000)
    return Listening(host or "127.0.0.1", ports or (), timeout_ms)


class MatchStatus(enum.Enum):
    """How far a match got (``status`` in ``summary.json``)."""

    RUNNING = "running"
    FINISHED = "finished"
    INTERRUPTED = "interrupted"
    """Stopped early on purpose (Ctrl-C): the hands played so far are kept."""
    FAILED = "failed"
    """Ended by an error (a failing agent, a broken connection)."""


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
    """Everything that defines a duplicate match (and so its results).

    >>> plan = DuplicatePlan(("plicas", "dpp"), 100, 3, (derived_seed(3, 0), 7))
    >>> plan.match_name, plan.half_name(1)
    ('plicas-vs-dpp.seed3.n100.seed-b7', 'dpp-plicas.seed3.n100.seed-b7')
    """

    agents: tuple[str, str]
    """The agents' names in the logs (their specs, written as a log can hold them)."""
    hands: int
    """Hands per half."""
    seed: int
    agent_seeds: tuple[int, int]
    transport: Transport = Transport.INPROCESS
    duplicate: bool = True
    game_path: str = LIMIT_HOLDEM
    limits: TimeLimits = field(default_factory=TimeLimits)
    """The players' time limits over TCP (the reference's by default); not part of what
    defines the match (:func:`plan_json`), as the logs' header says
    which were used."""
    isolated: tuple[bool, bool] = (False, False)
    """Which agents (A, B) are played in a process of their own
    (:mod:`dealer.running.isolation`); not part of what defines the match either: the logs
    are the same."""

    @property
    def names(self) -> tuple[str, str]:
        """The players' names in the logs (the agent names, made distinct)."""
        a, b = self.agents
        return (f"{a}-A", f"{b}-B") if a == b else (a, b)

    @property
    def halves(self) -> int:
        """How many halves are played (1 without ``duplicate``)."""
        return 2 if self.duplicate else 1

    @property
    def seed_tag(self) -> str:
        """The agent seeds that are not the ones derived from :attr:`seed`, as a name
        suffix (empty for the defaults), so that matches that differ only in them do not
        share file names."""
        return "".join(
            f".seed-{which}{own}"
            for index, (which, own) in enumerate(zip("ab", self.agent_seeds, strict=True))
            if own != derived_seed(self.seed, index)
        )

    @property
    def match_name(self) -> str:
        """The match's name: the default output folder."""
        a, b = self.agents
        return f"{a}-vs-{b}.seed{self.seed}.n{self.hands}{self.seed_tag}"

    @property
    def isolated_names(self) -> tuple[str, ...]:
        """The names of the agents played in a process of their own."""
        return tuple(name for name, alone in zip(self.names, self.isolated, strict=True) if alone)

    def seats(self, half: int) -> tuple[int, int]:
        """Which agent (0 = A, 1 = B) sits in seats 1 and 2 in ``half`` (0 or 1)."""
        return (0, 1) if half == 0 else (1, 0)

    def half_name(self, half: int) -> str:
        """The name of half ``half``'s match, in its log's header and file name."""
        first, second = (self.names[i] for i in self.seats(half))
        return f"{first}-{second}.seed{self.seed}.n{self.hands}{self.seed_tag}"

    def log_name(self, half: int) -> str:
        return f"{self.half_name(half)}.log"

    def decisions_name(self, half: int) -> str:
        """The decisions file beside :meth:`log_name` (:mod:`dealer.referee.decisionlog`)."""
        return decisions_path(Path(self.log_name(half))).name

    def config(self, half: int, game: Game) -> MatchConfig:
        """The dealer's settings for ``half`` (raises :class:`AcpcError` for names a log
        cannot hold)."""
        names = tuple(self.names[i] for i in self.seats(half))
        return MatchConfig(
            self.half_name(half),
            game,
            self.game_path,
            self.hands,
            self.seed,
            names,
            limits=self.limits,
        )


@dataclass(frozen=True, slots=True)
class Decisions:
    """One agent's decisions in a half, and those made for it.

    A fallback is a check/call played instead of the agent's choice: because the agent
    raised an exception (``failed``), chose an illegal action (``illegal``; in-process the
    dealer repairs it like the reference), or ran out of its time budget (``over_budget``;
    over TCP only).

    >>> total = Decisions(10, failed=2) + Decisions(5, illegal=1)
    >>> total.decisions, total.fallbacks
    (15, 3)
    """

    decisions: int
    failed: int = 0
    illegal: int = 0
    over_budget: int = 0

    @property
    def fallbacks(self) -> int:
        return self.failed + self.illegal + self.over_budget

    def __add__(self, other: Decisions) -> Decisions:
        return Decisions(
            self.decisions + other.decisions,
            self.failed + other.failed,
            self.illegal + other.illegal,
            self.over_budget + other.over_budget,
        )


@dataclass(frozen=True)
class HalfOutcome:
    """One half as played: plain data, to be sent from the process that played it."""

    half: int
    """0 or 1."""
    log: str
    """The log's file name."""
    values: array[float]
    """Agent A's chips in each hand played, in hand order."""
    seconds: float
    decisions: tuple[Decisions | None, Decisions | None]
    """Agents A's and B's decisions; ``None`` when unknown (a client that failed)."""
    finished: bool
    """Every hand was played."""
    error: str | None = None
    """Why the half ended early, when it failed."""
    failed_writing: WriteError | None = None
    """The file that could not be written, when that is why it failed."""


@dataclass(frozen=True)
class HalfRun:
    """One half as played, with agent A's results."""

    result: HalfResult
    log: str
    """The log's file name."""
    seats: tuple[str, str]
    seconds: float
    decisions: tuple[Decisions | None, Decisions | None]
    finished: bool


@dataclass(frozen=True)
class DuplicateRun:
    """A (duplicate) match as played: finished, or stopped early (see :attr:`status`)."""

    plan: DuplicatePlan
    out_dir: Path
    big_blind: int
    halves: tuple[HalfRun, ...]
    pair: PairResult | None
    """Over the pairs; ``None`` without the second half."""
    seconds: float
    """Wall-clock time of the whole match (halves may run side by side)."""
    status: MatchStatus = MatchStatus.FINISHED
    error: str | None = None

    @property
    def hands(self) -> int:
        """Hands played, over every half."""
        return sum(h.result.hands for h in self.halves)

    @property
    def hands_per_second(self) -> float:
        return self.hands / max(self.seconds, 1e-9)

    def decisions(self, which: int) -> Decisions | None:
        """Agent ``which``'s decisions over every half (``None`` when a half's are unknown)."""
        total = Decisions(0)
        for half in self.halves:
            counted = half.decisions[which]
            if counted is None:
                return None
            total += counted
        return total


def duplicate_run(
    plan: DuplicatePlan,
    out_dir: Path,
    big_blind: int,
    outcomes: Sequence[HalfOutcome],
    *,
    seconds: float,
    status: MatchStatus,
    error: str | None = None,
) -> DuplicateRun:
    """The match from its halves' outcomes (in half order; a half never started is left
    out), with agent A's results in each and over the pairs."""
    a, b = plan.names
    halves = []
    for outcome in outcomes:
        values = dict(enumerate(outcome.values))
        first, second = (plan.names[i] for i in plan.seats(outcome.half))
        halves.append(
            HalfRun(
                half_result(outcome.log, a, b, values, big_blind),
                outcome.log,
                (first, second),
                outcome.seconds,
                outcome.decisions,
                outcome.finished,
            )
        )
    pair = None
    if plan.duplicate and len(outcomes) == 2:
        a_first, a_second = (dict(enumerate(o.values)) for o in outcomes)
        paired = pair_samples(a_first, a_second)
        pair = pair_result(halves[0].result, halves[1].result, paired, big_blind)
    return DuplicateRun(plan, out_dir, big_blind, tuple(halves), pair, seconds, status, error)


def plan_json(plan: DuplicatePlan) -> dict[str, Any]:
    """What defines a match, as ``summary.json`` holds it: two runs with the same are the
    same match (the transport is left out: both give the same logs)."""
    return {
        "agents": list(plan.agents),
        "names": list(plan.names),
        "seed": plan.seed,
        "agent_seeds": list(plan.agent_seeds),
        "game": plan.game_path,
        "duplicate": plan.duplicate,
        "hands_per_half": plan.hands,
    }


def started_json(plan: DuplicatePlan, out: str) -> dict[str, Any]:
    """The ``summary.json`` of a match that is running: what it is and where its logs go."""
    return {
        "status": MatchStatus.RUNNING.value,
        **plan_json(plan),
        "transport": plan.transport.value,
        **_isolated_json(plan),
        "halves": [
            {"log": plan.log_name(half), "seats": [plan.names[i] for i in plan.seats(half)]}
            for half in range(plan.halves)
        ],
        "out": out,
    }


def _isolated_json(plan: DuplicatePlan) -> dict[str, list[str]]:
    """The agents played in a process of their own, when there are any."""
    names = plan.isolated_names
    return {"isolated": list(names)} if names else {}


def decisions_json(decisions: Decisions | None) -> dict[str, int] | None:
    if decisions is None:
        return None
    return {
        "decisions": decisions.decisions,
        "fallbacks": decisions.fallbacks,
        "failed": decisions.failed,
        "illegal": decisions.illegal,
        "over_budget": decisions.over_budget,
    }


def duplicate_json(run: DuplicateRun) -> dict[str, Any]:
    """The ``summary.json`` of a match (what ``acpcbot match --json`` prints): finished,
    or stopped early with the hands played so far (``status``)."""
    plan = run.plan
    if run.pair is not None:
        combined = run.pair.estimate
    elif run.halves:
        combined = run.halves[0].result.estimate
    else:
        combined = estimate([], run.big_blind)
    return {
        "status": run.status.value,
        **({"error": run.error} if run.error is not None else {}),
        **plan_json(plan),
        "big_blind": run.big_blind,
        "transport": plan.transport.value,
        **_isolated_json(plan),
        "hands": run.hands,
        "samples": "pairs" if run.pair is not None else "hands",
        "mbb_per_game": json_number(combined.mbb_per_game),
        "ci95": json_number(combined.ci95_mbb),
        "pair_sd_mbb": json_number(combined.sd_mbb),
        "decisions": {
            name: decisions_json(run.decisions(which)) for which, name in enumerate(plan.names)
        },
        "halves": [
            {
                **half_json(h.result),
                "log": h.log,
                "seats": list(h.seats),
                "finished": h.finished,
                "seconds": round(h.seconds, 3),
                "hands_per_second": round(h.result.hands / max(h.seconds, 1e-9), 1),
                "decisions": {
                    name: decisions_json(h.decisions[which])
                    for which, name in enumerate(plan.names)
                },
            }
            for h in run.halves
        ],
        "seconds": round(run.seconds, 3),
        "hands_per_second": round(run.hands_per_second, 1),
        "out": str(run.out_dir),
    }


def decisions_text(name: str, decisions: Decisions | None) -> str:
    """One agent's decisions for people.

    >>> decisions_text("dpp", Decisions(1200, failed=3, over_budget=1))
    'dpp 1,200 (4 fallbacks: 3 failed, 1 over budget)'
    >>> decisions_text("dpp", Decisions(1200))
    'dpp 1,200'
    """
    if decisions is None:
        return f"{name} unknown"
    text = f"{name} {decisions.decisions:,}"
    if decisions.fallbacks:
        kinds = fallback_kinds(decisions.failed, decisions.illegal, decisions.over_budget)
        plural = "s" if decisions.fallbacks != 1 else ""
        text += f" ({decisions.fallbacks:,} fallback{plural}: {kinds})"
    return text


def duplicate_text(run: DuplicateRun) -> list[str]:
    """The readable summary of a match."""
    plan = run.plan
    a, b = plan.names
    kind = "duplicate match" if plan.duplicate else "match"
    alone = plan.isolated_names
    own = "each in a process of its own" if len(alone) > 1 else "in a process of its own"
    isolated = f" ({' and '.join(alone)} {own}, over TCP)" if alone else ""
    lines = [
        f"{a} vs {b}: {kind}, {plan.halves} × {plan.hands:,} hands, seed {plan.seed} "
        f"(agent seeds {plan.agent_seeds[0]}, {plan.agent_seeds[1]}), {plan.transport.value}"
        f"{isolated}"
    ]
    if run.status is not MatchStatus.FINISHED:
        lines.append(f"  {run.status.value.upper()} after {run.hands:,} hands: the results so far")
    for h in run.halves:
        seat1, seat2 = h.seats
        number = plan.names.index(seat1) + 1 if plan.duplicate else 1
        played = "" if h.finished else f" ({h.result.hands:,} hands)"
        lines.append(
            f"  half {number} ({seat1} in seat 1, {seat2} in seat 2){played}: {a} "
            f"{ci_text(h.result.estimate)}"
        )
    if run.pair is not None:
        e = run.pair.estimate
        lines.append(
            f"  {a}: {ci_text(e)} over {e.samples:,} duplicate pairs, "
            f"SD {e.sd_mbb:.1f} mbb per pair"
        )
    if plan.transport is Transport.REMOTE:
        lines.append("  decisions: counted by the players (remote), each in its own summary")
    else:
        decisions = [decisions_text(name, run.decisions(i)) for i, name in enumerate(plan.names)]
        lines.append(f"  decisions: {', '.join(decisions)}")
    lines.append(
        f"  {run.hands:,} hands in {run.seconds:.1f} s ({run.hands_per_second:,.0f} hands/s)"
    )
    files = ", ".join(h.log for h in run.halves)
    lines.append(f"  files in {run.out_dir}: summary.json, {files}")
    return lines
