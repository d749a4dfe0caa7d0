"""A tournament's plan: which duplicate matches it plays, on which seeds.

* **Pairings.** A round robin plays every two agents once, the one given first being agent A
  (seat 1 in half 1); one agent against the rest (``vs``) plays the first agent as A against
  each other one.
* **Card seeds.** Seed ``k`` (``k = 0 .. K-1``) is ``S + k``, the same for every pairing, so
  all pairings play the same deals, and each match is the one ``acpcbot match A B --hands N
  --seed S+k`` plays (byte for byte). The agents' seeds are derived from the card seed as
  in any match (:func:`dealer.running.duplicate.derived_seed`; A's and B's differ).
* **Matches.** Each is keyed by its pairing, card seed, hands and game; its folder in the
  tournament's folder is named by the match's name (``A-vs-B.seedS.nN``: one tournament has
  one game).

>>> plan = TournamentPlan(("a", "b", "c"), ("a", "b", "c"), hands=100, seed=7, seeds=2)
>>> plan.card_seeds, plan.pairings
((7, 8), ((0, 1), (0, 2), (1, 2)))
>>> [m.name for m in plan.matches()][:3]
['a-vs-b.seed7.n100', 'a-vs-c.seed7.n100', 'b-vs-c.seed7.n100']
>>> TournamentPlan.from_json(plan.to_json()) == plan
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from acpcbot.errors import AcpcError, UsageError
from acpcbot.game import LIMIT_HOLDEM
from dealer.running.duplicate import DuplicatePlan, derived_seed, plan_json

__all__ = ["MAX_SEED", "PlannedMatch", "TournamentError", "TournamentPlan", "TournamentPlanError"]

MAX_SEED = 2**32 - 1
"""The dealer's seeds are 32-bit."""


class TournamentError(AcpcError):
    """A tournament that cannot be planned, run or read (the message says why)."""


class TournamentPlanError(TournamentError, UsageError):
    """A tournament that cannot be planned: what was asked for, not the files (a plan read
    from a folder that fails this way is a :class:`TournamentError` saying so)."""


@dataclass(frozen=True)
class PlannedMatch:
    """One duplicate match of a tournament."""

    a: int
    """Agent A's index in the plan."""
    b: int
    seed: int
    """The card seed."""
    plan: DuplicatePlan

    @property
    def name(self) -> str:
        """The match's name: its folder in the tournament's."""
        return self.plan.match_name

    @property
    def task_key(self) -> str:
        """A key naming this match and nothing else: its name and a digest of everything
        that defines it (the game included), for executors that merge equal keys."""
        identity = json.dumps(plan_json(self.plan), sort_keys=True).encode()
        return f"{self.name}-{hashlib.sha256(identity).hexdigest()[:12]}"


@dataclass(frozen=True)
class TournamentPlan:
    """The agents, the hands and the seeds of a tournament (checked when made)."""

    specs: tuple[str, ...]
    """The agents as given (agent specs)."""
    names: tuple[str, ...]
    """The agents as the logs name them, in the order of :attr:`specs`."""
    hands: int
    """Hands per half of each match."""
    seed: int = 0
    """S: the first card seed."""
    seeds: int = 1
    """K: the matches per pairing, on card seeds S .. S+K-1."""
    game: str = LIMIT_HOLDEM
    big_blind: int = 10
    vs: bool = False
    """The first agent against each of the others, instead of every pair."""

    def __post_init__(self) -> None:
        if len(self.specs) != len(self.names):
            raise TournamentPlanError("every agent needs its name")
        if len(self.specs) < 2:
            raise TournamentPlanError("a tournament needs at least two agents")
        seen: dict[str, str] = {}
        for spec, name in zip(self.specs, self.names, strict=True):
            if name in seen:
                raise TournamentPlanError(
                    f"{seen[name]} and {spec} are the same agent ({name}); name each agent once"
                )
            seen[name] = spec
        if self.hands <= 0:
            raise TournamentPlanError(f"the number of hands must be positive, not {self.hands}")
        if self.seeds <= 0:
            raise TournamentPlanError(f"--seeds must be at least 1, not {self.seeds}")
        if not 0 <= self.seed <= MAX_SEED or self.seed + self.seeds - 1 > MAX_SEED:
            raise TournamentPlanError(
                f"the card seeds {self.seed} .. {self.seed + self.seeds - 1} go beyond the "
                f"dealer's 0 .. {MAX_SEED}"
            )
        if self.big_blind <= 0:
            raise TournamentPlanError(
                f"the game's big blind must be positive, not {self.big_blind}"
            )

    @property
    def card_seeds(self) -> tuple[int, ...]:
        return tuple(range(self.seed, self.seed + self.seeds))

    @property
    def pairings(self) -> tuple[tuple[int, int], ...]:
        """(A, B) by agent index: every pair once, or the first agent against the others."""
        n = len(self.specs)
        if self.vs:
            return tuple((0, b) for b in range(1, n))
        return tuple((a, b) for a in range(n) for b in range(a + 1, n))

    def match(self, a: int, b: int, seed: int) -> PlannedMatch:
        agent_seeds = (derived_seed(seed, 0), derived_seed(seed, 1))
        plan = DuplicatePlan(
            (self.names[a], self.names[b]), self.hands, seed, agent_seeds, game_path=self.game
        )
        return PlannedMatch(a, b, seed, plan)

    def matches(self) -> list[PlannedMatch]:
        """Every match, seed by seed (a tournament stopped early has whole crosstables of
        its first seeds), each seed's pairings in order."""
        return [self.match(a, b, s) for s in self.card_seeds for a, b in self.pairings]

    def same_series(self, other: TournamentPlan) -> list[str]:
        """What keeps ``other``'s matches from being pooled with this plan's (empty: they
        may share a folder). Agents and seeds may differ: a folder's tournament may grow."""
        why = []
        for label, mine, theirs in (
            ("hands", self.hands, other.hands),
            ("first card seed", self.seed, other.seed),
            ("game", self.game, other.game),
            ("big blind", self.big_blind, other.big_blind),
        ):
            if mine != theirs:
                why.append(f"{label} {theirs}, not {mine}")
        return why

    def to_json(self) -> dict[str, Any]:
        return {
            "agents": list(self.specs),
            "names": list(self.names),
            "vs": self.vs,
            "hands_per_half": self.hands,
            "seed": self.seed,
            "card_seeds": list(self.card_seeds),
            "game": self.game,
            "big_blind": self.big_blind,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentPlan:
        """The plan :meth:`to_json` wrote; anything else is a :class:`TournamentError`."""
        specs = _strings(data, "agents")
        names = _strings(data, "names")
        vs = data.get("vs")
        if not isinstance(vs, bool):
            raise TournamentError("'vs' is not true or false")
        hands = _whole(data, "hands_per_half")
        seed = _whole(data, "seed")
        card_seeds = data.get("card_seeds")
        if not (
            isinstance(card_seeds, list)
            and card_seeds
            and all(isinstance(s, int) and not isinstance(s, bool) for s in card_seeds)
            and card_seeds == list(range(seed, seed + len(card_seeds)))
        ):
            raise TournamentError("'card_seeds' is not the seeds from 'seed' on")
        game = data.get("game")
        if not isinstance(game, str):
            raise TournamentError("'game' is not a text")
        return cls(
            specs,
            names,
            hands,
            seed,
            len(card_seeds),
            game,
            _whole(data, "big_blind"),
            vs,
        )


def _strings(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TournamentError(f"{key!r} is not a list of texts")
    return tuple(value)


def _whole(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise TournamentError(f"{key!r} is not a whole number")
    return value
