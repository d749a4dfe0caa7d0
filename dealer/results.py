"""Results of matches: one player's winnings over a log, or over a duplicate pair of logs.

Works on any ACPC ``.log`` (ours or the reference's): the ``STATE`` lines give every
player's chips in every hand; the ``SCORE`` line, when there is one, is checked against
their sum. Two logs of a duplicate pair are paired by hand number, from the point of view
of player A (seat 1 of the first log).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from acpcbot.errors import AcpcError, GameDefinitionError, MatchStateError
from acpcbot.game import load_game
from acpcbot.protocol.logfile import (
    LogHeader,
    ScoreRecord,
    parse_header,
    parse_score_line,
    parse_state_outcome,
)
from dealer.stats import Estimate, estimate, pair_samples


class ResultsError(AcpcError):
    """A log that cannot give results (no hands, unknown player, ...)."""


@dataclass(frozen=True)
class PlayedLog:
    """What a ``.log`` says about a match."""

    path: Path
    header: LogHeader | None
    seat_names: tuple[str, ...]
    """Player names in seat order (seat 1 first)."""
    values: dict[str, dict[int, float]]
    """Chips won by each player in each hand, by name and hand number."""
    score: ScoreRecord | None
    """The final ``SCORE`` line, if the match finished."""

    @property
    def hands(self) -> int:
        return len(next(iter(self.values.values())))

    def totals(self) -> tuple[float, ...]:
        """Each seat's chips summed over the ``STATE`` lines."""
        return tuple(math.fsum(self.values[name].values()) for name in self.seat_names)


def read_log(path: Path) -> PlayedLog:
    """Read a log (only the values and names of the ``STATE`` lines are needed, so even
    very long logs read quickly)."""
    try:
        lines = path.read_text(encoding="latin-1").splitlines()
    except OSError as exc:
        raise ResultsError(f"cannot read {path}: {exc.strerror}") from None
    header = parse_header(lines[:4]) if lines and lines[0].startswith("# name/") else None
    values: dict[str, dict[int, float]] = {}
    first_names: list[tuple[int, tuple[str, ...]]] = []
    score = None
    for number, line in enumerate(lines, start=1):
        try:
            if line.startswith("STATE:"):
                hand, chips, names = parse_state_outcome(line)
                for name, value in zip(names, chips, strict=True):
                    values.setdefault(name, {})[hand] = value
                if len(first_names) < 2:
                    first_names.append((hand, names))
            elif line.startswith("SCORE:"):
                score = parse_score_line(line)
        except MatchStateError as exc:
            raise ResultsError(f"{path}:{number}: {exc}") from None
    if not values:
        raise ResultsError(f"{path}: no STATE lines")
    seat_names = score.names if score is not None else _seat_order(first_names)
    return PlayedLog(path, header, seat_names, values, score)


def _seat_order(first: list[tuple[int, tuple[str, ...]]]) -> tuple[str, ...]:
    """Seat order of a log without ``SCORE``: with rotation, position 0 of hand ``h`` is
    seat ``h mod n``; without it (``-f``), positions are seats."""
    hand, names = first[0]
    rotating = len(first) == 2 and first[1][1] != names
    if not rotating:
        return names
    shift = hand % len(names)
    return names[-shift:] + names[:-shift] if shift else names


@dataclass(frozen=True)
class HalfResult:
    """One player's results over one log."""

    log: str
    player: str
    opponent: str
    hands: int
    chips: float
    estimate: Estimate
    """Over hands."""


@dataclass(frozen=True)
class PairResult:
    """Player A's results over a duplicate pair of logs."""

    player: str
    opponent: str
    pairs: int
    unpaired: int
    """Hands found in only one of the two logs."""
    estimate: Estimate
    """Over pairs: each hand number's two results averaged."""
    halves: tuple[HalfResult, HalfResult]


def half_result(
    log: str, player: str, opponent: str, values: Mapping[int, float], big_blind: int
) -> HalfResult:
    samples = list(values.values())
    return HalfResult(
        log, player, opponent, len(samples), math.fsum(samples), estimate(samples, big_blind)
    )


def pair_result(first: HalfResult, second: HalfResult, paired: tuple[list[float], int],
                big_blind: int) -> PairResult:  # fmt: skip
    samples, unpaired = paired
    return PairResult(
        first.player, first.opponent, len(samples), unpaired, estimate(samples, big_blind),
        (first, second),
    )  # fmt: skip


def log_result(log: PlayedLog, big_blind: int, player: str | None = None) -> HalfResult:
    """``player``'s (default: seat 1's) results over one log."""
    name = player or log.seat_names[0]
    if name not in log.values:
        raise ResultsError(f"{log.path}: no player {name!r} (players: {', '.join(log.values)})")
    opponents = [n for n in log.seat_names if n != name]
    return half_result(str(log.path), name, ",".join(opponents), log.values[name], big_blind)


def duplicate_result(first: PlayedLog, second: PlayedLog, big_blind: int) -> PairResult:
    """Player A (seat 1 of ``first``) over a duplicate pair, paired by hand number."""
    player = first.seat_names[0]
    if player not in second.values:
        raise ResultsError(f"{second.path}: no player {player!r}; not a duplicate of {first.path}")
    halves = (log_result(first, big_blind, player), log_result(second, big_blind, player))
    paired = pair_samples(first.values[player], second.values[player])
    return pair_result(halves[0], halves[1], paired, big_blind)


def big_blind_of(log: PlayedLog) -> int:
    """The big blind of the game a log names: its game file beside the log, in the current
    folder, or one of the bundled games."""
    if log.header is None:
        raise ResultsError(f"{log.path} has no header naming its game; give --big-blind")
    name = log.header.game_path
    for candidate in (log.path.parent / name, Path(name), Path(Path(name).name)):
        try:
            return load_game(candidate).big_blind
        except GameDefinitionError:
            continue
    raise ResultsError(f"cannot read the game {name!r} of {log.path}; give --big-blind")
