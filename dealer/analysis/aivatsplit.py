"""Where a match is won and lost: a player's AIVAT estimate split by round and betting context.

A hand's AIVAT estimate is the sum of one term per event (:mod:`dealer.analysis.aivat`,
*Decision by decision*): at each decision whose probabilities ``σ`` are known, the advantage
of that decision's policy under the value function, ``Σ_a σ(a) v(h·a) − v(h)``; at a decision
without, the change of the value (luck included); at a round's cards, what the bets-to-come
term drifts by beyond its correction; at the deal, ``½·pot − spent`` and that term's part not
linear in the equity, which the two seats of a duplicate pair cancel. Those terms, for the
player under study, are summed per *spot* — a group of decisions, of both players: the
opponent's move the player's value too — and averaged over the samples (duplicate pairs, or
hands of one log), so that a spot's contribution is in mbb per hand of the match, with a
95% confidence interval over the samples, and all the spots add up to the AIVAT estimate
exactly (up to rounding).

A decision is measured without looking ahead: ``v`` at the decision and after each action is
the check-down value with its bets-to-come term. Where the value function looks ahead at an
opponent's decisions (its strategy known anywhere: ``dpp``, the styles, ...; as the match's
own AIVAT does), what that adds after a decision — the advantage of the next player's known
strategy there, weighted by the chance of getting there — is that next player's, at its
spot (:attr:`~dealer.analysis.aivat.Step.REPLY`). So both players' decisions are measured
alike, and a spot's two parts can be compared: against a static value, putting chips in
counts as partly lost until it is answered, and facing a bet as partly won until it is
paid, so each player's part is large and of the sign its spots give it; what the spot says
is in its *net*, both players' parts together: the player's decisions there against the
opponent's at the same spot (the same seat, with the same cards in the other half of a
duplicate pair). In self-play every net is zero on average.

The groupings (:class:`Grouping`): by round; by round and the round's betting before the
decision (whose turn it is, whether a bet is to be called, how many raises were made); by the
hand's whole betting before it; by round, whether a bet is to be called and the deciding
player's equity in tenths, against the other's cards (after the fact).

One duplicate pair of one hand each, A's probabilities recorded, B's not:

>>> import tempfile
>>> from pathlib import Path
>>> from acpcbot.game import bundled_game
>>> from dealer.analysis import read_log
>>> folder = tempfile.TemporaryDirectory()
>>> def write(name: str, text: str) -> Path:
...     path = Path(folder.name) / name
...     path.write_text(text)
...     return path
>>> said = "# acpcbot decision probabilities 1\\n0:"
>>> _ = write("a-b.probs", said + "- 0.2/0.8/0 0/0.6/0.4 - 0.7/0.3/0\\n")
>>> _ = write("b-a.probs", said + "0.1/0.6/0.3 - - 0.3/0.7/0 - 0.6/0.4/0\\n")
>>> first = write("a-b.log", "STATE:0:rc/crf:Ah9c|7d2s/6d7hAs:-20|20:A|B\\n")
>>> second = write("b-a.log", "STATE:0:cc/rc/rf:Ah9c|7d2s/6d7hAs/Ks:20|-20:B|A\\n")
>>> game = bundled_game()
>>> split = split_aivat([read_log(first), read_log(second)], game, "A")
>>> for row in split.rows(Grouping.ROUND):
...     print(f"{round_name(game, row.round):8} {row.step.value:7} {row.net.mbb_per_game:+7.1f}")
flop     action  -1843.4
turn     action   -165.2
preflop  action   -139.2
flop     cards    +129.2
turn     cards     +65.0
         deal       -0.0
         end        +0.0
>>> round(split.total(Grouping.CONTEXT), 6) == round(split.estimate.mbb_per_game, 6)
True
>>> folder.cleanup()
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from acpcbot.actions import Action
from acpcbot.game import HOLDEM_ROUNDS, Game
from acpcbot.rules import HandState
from dealer.analysis.aivat import (
    AivatHalf,
    CheckDownValue,
    LogCorrector,
    Oracle,
    Step,
    hands_in_step,
    pair_of,
)
from dealer.analysis.playedlog import PlayedLog
from dealer.analysis.stats import Z95, Estimate, to_mbb
from dealer.referee.decisionlog import Probabilities

__all__ = [
    "AivatSplit",
    "Grouping",
    "Part",
    "SplitRow",
    "round_name",
    "split_aivat",
    "split_csv_rows",
    "split_lines",
]

_COLUMN = {"f": 0, "c": 1, "r": 2}
PROGRESS_EVERY = 200
"""Samples between two calls of the progress callback."""


class Grouping(enum.Enum):
    """How decisions are grouped into spots (every grouping's rows add up to the same
    estimate)."""

    ROUND = "round"
    """The round."""
    CONTEXT = "context"
    """The round and its betting before the decision (whose turn it is, whether a bet is to
    be called, how many raises were made)."""
    HISTORY = "history"
    """The hand's betting before the decision (all rounds)."""
    STRENGTH = "strength"
    """The round, whether a bet is to be called, and the equity of the player deciding in
    tenths (against the other's cards: known after the fact)."""


Spot = tuple[str, int, str]
"""A row: its step's value (:attr:`Step.ACTION` for decisions; a text hashes faster than an
enum), its round (-1: none) and its context's text."""
_ACTION = Step.ACTION.value
_PLAYER, _OPPONENT, _OTHER = range(3)


@dataclass(frozen=True)
class Part:
    """One player's decisions at a spot and what they add to the estimate."""

    estimate: Estimate
    """In mbb per hand of the match, with its 95% CI over the samples."""
    chips: float
    """The sum of the terms over the samples' hands (chips)."""
    decisions: int
    known: int
    """Decisions whose probabilities were known (the others add their value's change)."""
    actions: tuple[int, int, int]
    """How many of the decisions folded, called, raised."""

    def per_decision_mbb(self, big_blind: int) -> float:
        """The average term of one decision, in mbb (``nan`` without decisions)."""
        return to_mbb(self.chips / self.decisions, big_blind) if self.decisions else math.nan

    def shares(self) -> tuple[float, float, float]:
        """The shares of fold, call and raise among the decisions (zeros without any)."""
        n = self.decisions or 1
        return (self.actions[0] / n, self.actions[1] / n, self.actions[2] / n)


@dataclass(frozen=True)
class SplitRow:
    """A spot: both players' decisions there (:attr:`Step.ACTION`), or a chance step."""

    step: Step
    round: int | None
    context: str
    """The spot's betting context as its grouping describes it (empty for a round's)."""
    net: Estimate
    """What the spot adds to the estimate: both players' decisions there (mbb per hand of
    the match, with its 95% CI over the samples)."""
    player: Part | None
    """The player's decisions there (``None`` for a chance step)."""
    opponent: Part | None


@dataclass(frozen=True)
class AivatSplit:
    """A player's AIVAT estimate and its split into spots (see the module's docstring)."""

    player: str
    opponent: str
    game: Game
    halves: tuple[AivatHalf, ...]
    estimate: Estimate
    """The AIVAT estimate, as :func:`~dealer.analysis.aivat.aivat_pair` makes it."""
    unpaired: int
    """Hands left out for want of their pair (as the estimate leaves them out)."""
    tables: Mapping[Grouping, tuple[SplitRow, ...]] = field(repr=False)
    seconds: float = 0.0

    @property
    def samples(self) -> str:
        """What a sample is: ``duplicate pairs`` or ``hands``."""
        return "duplicate pairs" if len(self.halves) == 2 else "hands"

    def rows(self, grouping: Grouping) -> tuple[SplitRow, ...]:
        """The spots, the largest net contribution (either sign) first."""
        if grouping not in self.tables:
            raise KeyError(f"not split by {grouping.value}")
        return self.tables[grouping]

    def total(self, grouping: Grouping) -> float:
        """What the spots add up to (mbb/g): the estimate, up to rounding."""
        return math.fsum(row.net.mbb_per_game for row in self.rows(grouping))


class _Sums:
    """A spot's sums over the samples for one player's decisions (or both, or chance): of
    its contribution to each sample (0 where it had no term) and its square, and its
    decisions' counts."""

    __slots__ = ("actions", "chips", "decisions", "known", "squares")

    def __init__(self) -> None:
        self.chips = 0.0
        self.squares = 0.0
        self.decisions = 0
        self.known = 0
        self.actions = [0, 0, 0]

    def add(self, value: float) -> None:
        self.chips += value
        self.squares += value * value

    def estimate(self, samples: int, big_blind: int) -> Estimate:
        if samples == 0:
            return Estimate(0, 0.0, 0.0, math.inf)
        mean = self.chips / samples
        if samples < 2:
            return Estimate(samples, to_mbb(mean, big_blind), 0.0, math.inf)
        sd = math.sqrt(max(self.squares - samples * mean * mean, 0.0) / (samples - 1))
        return Estimate(
            samples,
            to_mbb(mean, big_blind),
            to_mbb(sd, big_blind),
            to_mbb(Z95 * sd / math.sqrt(samples), big_blind),
        )

    def part(self, samples: int, big_blind: int) -> Part:
        actions = (self.actions[0], self.actions[1], self.actions[2])
        estimate = self.estimate(samples, big_blind)
        return Part(estimate, self.chips, self.decisions, self.known, actions)


class _Sample:
    """The terms of one sample (a hand number in one log, or in both halves of a pair) by
    spot, for each grouping: a :data:`~dealer.analysis.aivat.StepSink`."""

    def __init__(self, player: str, weight: float, groupings: tuple[Grouping, ...]) -> None:
        self.player = player
        self.weight = weight
        """Each half's share of a sample."""
        self.groupings = groupings
        self.names: Sequence[str] = ()
        self.position = 0
        self.values: list[dict[Spot, list[float]]] = [{} for _ in groupings]
        self.decisions: list[tuple[tuple[Spot, ...], int, int, bool]] = []

    def start(self, names: Sequence[str]) -> None:
        """The next log's record of the hand: its players in position order."""
        self.names = names
        self.position = names.index(self.player)

    def __call__(  # noqa: PLR0917
        self,
        step: Step,
        hand: HandState,
        action: Action | None,
        said: Probabilities | None,
        equity: float,
        term: float,
    ) -> None:
        if step is Step.ACTION or step is Step.REPLY:
            acting = hand.current_player
            who = _PLAYER if self.names[acting] == self.player else _OPPONENT
            spots = self._spots(hand, equity if acting == self.position else 1.0 - equity)
            if action is not None:
                column = _COLUMN[action.type._value_]
                self.decisions.append((spots, who, column, said is not None))
        else:
            who = _OTHER
            spot = (step.value, hand.round if step is Step.CARDS else -1, "")
            spots = (spot,) * len(self.groupings)
        share = term * self.weight
        for values, spot in zip(self.values, spots, strict=True):
            entry = values.get(spot)
            if entry is None:
                entry = values[spot] = [0.0, 0.0, 0.0]
            entry[who] += share

    def _spots(self, hand: HandState, equity: float) -> tuple[Spot, ...]:
        """The decision's spot in each grouping (``equity``: the deciding player's)."""
        round_ = hand.round
        spots = []
        for grouping in self.groupings:
            if grouping is Grouping.ROUND:
                context = ""
            elif grouping is Grouping.CONTEXT:
                context = "".join([a.type._value_ for a in hand.actions[round_]])
            elif grouping is Grouping.HISTORY:
                context = hand.betting_text()
            else:
                tenth = min(int(equity * 10), 9)
                facing = "bet" if hand.amount_to_call() > 0 else "no bet"
                context = f"{facing} {tenth / 10:.1f}-{(tenth + 1) / 10:.1f}"
            spots.append((_ACTION, round_, context))
        return tuple(spots)

    def add_to(self, tables: list[dict[Spot, list[_Sums]]]) -> None:
        """Add this sample to the spots' sums."""
        for values, sums in zip(self.values, tables, strict=True):
            for spot, (mine, theirs, other) in values.items():
                group = sums.get(spot)
                if group is None:
                    group = sums[spot] = [_Sums(), _Sums(), _Sums()]
                group[_PLAYER].add(mine)
                group[_OPPONENT].add(theirs)
                group[_OTHER].add(mine + theirs + other)  # the spot's net
        for spots, who, column, known in self.decisions:
            for spot, sums in zip(spots, tables, strict=True):
                part = sums[spot][who]
                part.decisions += 1
                part.known += known
                part.actions[column] += 1


def split_aivat(
    logs: Sequence[PlayedLog],
    game: Game,
    player: str | None = None,
    *,
    oracles: Mapping[str, Oracle] | None = None,
    value: CheckDownValue | None = None,
    groupings: Sequence[Grouping] = tuple(Grouping),
    progress: Callable[[int], None] | None = None,
) -> AivatSplit:
    """``player``'s AIVAT estimate over one log or a duplicate pair (default player: seat
    1 of the first log) split by spot, in each of ``groupings``. The decisions files
    beside the logs are read when there are; ``oracles``: the strategies known anywhere,
    by player name (as the match's own AIVAT had them, for the same estimate).
    ``progress`` is called now and then with the hands done."""
    if not 1 <= len(logs) <= 2:
        raise ValueError("one log, or the two logs of a duplicate pair")
    kept = tuple(dict.fromkeys(groupings))
    started = time.perf_counter()
    name = logs[0].seat_names[0] if player is None else player
    opponent = next((n for n in logs[0].seat_names if n != name), "")
    value = value or CheckDownValue(game)
    correctors = [LogCorrector(log, game, name, True, value, oracles or {}) for log in logs]
    try:
        tables: list[dict[Spot, list[_Sums]]] = [{} for _ in kept]
        samples = unpaired = done = 0
        for records in hands_in_step(correctors):
            sample = _Sample(name, 1.0 / len(logs), kept)
            for corrector, record in zip(correctors, records, strict=True):
                if record is not None:
                    sample.start(record.names)
                    corrector.correct(record, sample)
                    done += 1
            if all(r is not None for r in records):
                sample.add_to(tables)
                samples += 1
            else:
                unpaired += sum(r is not None for r in records)
            if progress is not None and samples % PROGRESS_EVERY == 0:
                progress(done)
    finally:
        for corrector in correctors:
            corrector.close()
    if progress is not None:
        progress(done)
    halves = tuple(c.half() for c in correctors)
    estimate = (
        pair_of(halves[0], halves[1], game.big_blind).estimate
        if len(halves) == 2
        else halves[0].estimate
    )
    rows = {g: _rows(t, samples, game.big_blind) for g, t in zip(kept, tables, strict=True)}
    seconds = time.perf_counter() - started
    return AivatSplit(name, opponent, game, halves, estimate, unpaired, rows, seconds)


def _rows(sums: Mapping[Spot, list[_Sums]], samples: int, big_blind: int) -> tuple[SplitRow, ...]:
    rows = []
    for (step, round_, context), (mine, theirs, net) in sums.items():
        decisions = step == _ACTION
        rows.append(
            SplitRow(
                Step(step),
                round_ if round_ >= 0 else None,
                context,
                net.estimate(samples, big_blind),
                mine.part(samples, big_blind) if decisions else None,
                theirs.part(samples, big_blind) if decisions else None,
            )
        )
    steps = list(Step)
    rows.sort(
        key=lambda r: (-abs(r.net.mbb_per_game), steps.index(r.step), r.round or 0, r.context)
    )
    return tuple(rows)


def round_name(game: Game, round_: int | None) -> str:
    """``preflop`` .. ``river`` in hold'em, ``round N`` (from 1) in other games.

    >>> from acpcbot.game import bundled_game
    >>> round_name(bundled_game(), 1)
    'flop'
    """
    if round_ is None:
        return ""
    if game.num_rounds == len(HOLDEM_ROUNDS):
        return HOLDEM_ROUNDS[round_]
    return f"round {round_ + 1}"


def _context(row: SplitRow, grouping: Grouping) -> str:
    if row.step is not Step.ACTION:
        return {Step.DEAL: "(the deal)", Step.CARDS: "(the cards)"}.get(row.step, "(the end)")
    if grouping is Grouping.ROUND:
        return ""
    return row.context or "(first)"


_HEADING = {
    Grouping.ROUND: "",
    Grouping.CONTEXT: "betting",
    Grouping.HISTORY: "betting",
    Grouping.STRENGTH: "to call, equity",
}
_DESCRIBED = {
    Grouping.ROUND: "round",
    Grouping.CONTEXT: "round and the round's betting before the decision",
    Grouping.HISTORY: "the hand's betting before the decision",
    Grouping.STRENGTH: "round, a bet to call or not, and the deciding player's equity "
    "against the other's cards",
}


def split_lines(split: AivatSplit, grouping: Grouping, top: int | None = None) -> list[str]:
    """The table for people: a heading, the spots (the ``top`` ones, largest first; the
    rest summed in one line) and what they add up to."""
    e = split.estimate
    rows = split.rows(grouping)
    shown = rows if top is None else rows[:top]
    heading = _HEADING[grouping]
    width = max([len(_context(r, grouping)) for r in shown] + [len(heading)])
    blind = split.game.big_blind
    lines = [
        f"{split.player} vs {split.opponent}: AIVAT {e.mbb_per_game:+.1f} mbb/g ± "
        f"{e.ci95_mbb:.1f} (95% CI) over {e.samples:,} {split.samples}, by {_DESCRIBED[grouping]}",
        "mbb/g ± 95% CI: what the decisions at a spot add to the estimate; each: mbb per "
        "decision; f/c/r: shares of fold/call/raise, %",
        f"{'':<8} {'':<{width}} {_centred(split.player)} {_centred(split.opponent)} {'both':^14}",
        f"{'round':<8} {heading:<{width}} {_PART_HEADING} {_PART_HEADING} {'mbb/g':>7} {'± CI':>6}",
    ]
    for row in shown:
        line = f"{round_name(split.game, row.round):<8} {_context(row, grouping):<{width}} "
        if row.player is not None and row.opponent is not None:
            line += f"{_part_text(row.player, blind)} {_part_text(row.opponent, blind)} "
        else:
            line += f"{'':<{2 * _PART_WIDTH + 1}} "
        lines.append(line + f"{_mbb(row.net.mbb_per_game):+7.1f} {_ci(row.net):>6}")
    if len(shown) < len(rows):
        rest = rows[len(shown) :]
        total = math.fsum(r.net.mbb_per_game for r in rest)
        label = f"{len(rest)} more spots"
        lines.append(f"{'':<8} {label:<{width + 2 * _PART_WIDTH + 2}} {_mbb(total):+7.1f}")
    difference = split.total(grouping) - e.mbb_per_game
    lines.append(
        f"the spots add up to {split.total(grouping):+.3f} mbb/g, the AIVAT estimate "
        f"{e.mbb_per_game:+.3f} (difference {difference:+.1e})"
    )
    actions = sum(h.actions for h in split.halves)
    known = sum(h.known for h in split.halves)
    if known < actions:
        lines.append(
            f"probabilities known at {known:,} of {actions:,} decisions: the others add "
            "the change of the value they made, luck included"
        )
    if split.unpaired:
        lines.append(f"{split.unpaired:,} hands without their pair left out (as AIVAT does)")
    return lines


_PART_HEADING = f"{'mbb/g':>7} {'± CI':>5} {'n':>7} {'each':>6} {'f/c/r':>8}"
_PART_WIDTH = len(_PART_HEADING)


def _centred(name: str) -> str:
    return f"{name[:_PART_WIDTH]:^{_PART_WIDTH}}"


def _mbb(value: float) -> float:
    """``value`` as it prints to a tenth, without the sign of a zero (``-0.0``)."""
    return round(value, 1) + 0.0


def _ci(e: Estimate) -> str:
    return f"{e.ci95_mbb:.1f}" if math.isfinite(e.ci95_mbb) else ""


def _part_text(part: Part, big_blind: int) -> str:
    e = part.estimate
    mbb = _mbb(e.mbb_per_game)
    if not part.decisions:
        # Replies credited where the player never decided (its strategy known anywhere).
        return f"{mbb:+7.1f} {_ci(e):>5} {0:>7} {'':>15}" if mbb else " " * _PART_WIDTH
    shares = "/".join(f"{100 * s:.0f}" for s in part.shares())
    each = part.per_decision_mbb(big_blind)
    return f"{mbb:+7.1f} {_ci(e):>5} {part.decisions:>7,} {each:>+6.0f} {shares:>8}"


def split_csv_rows(split: AivatSplit) -> Iterator[list[str]]:
    """Every grouping's spots for a CSV file, a header first (mbb per hand of the match;
    each player's columns empty for chance steps)."""
    per_player = ["mbb_per_game", "ci95", "decisions", "known", "fold", "call", "raise"]
    yield [
        "grouping",
        "step",
        "round",
        "context",
        "net_mbb_per_game",
        "net_ci95",
        "samples",
        *(f"player_{c}" for c in per_player),
        "player_mbb_per_decision",
        *(f"opponent_{c}" for c in per_player),
        "opponent_mbb_per_decision",
    ]
    blind = split.game.big_blind
    for grouping, rows in split.tables.items():
        for row in rows:
            parts: list[str] = []
            for part in (row.player, row.opponent):
                if part is None:
                    parts += [""] * (len(per_player) + 1)
                    continue
                parts += [
                    _number(part.estimate.mbb_per_game),
                    _number(part.estimate.ci95_mbb),
                    str(part.decisions),
                    str(part.known),
                    *(str(a) for a in part.actions),
                    _number(part.per_decision_mbb(blind)),
                ]
            yield [
                grouping.value,
                row.step.value,
                round_name(split.game, row.round),
                row.context,
                _number(row.net.mbb_per_game),
                _number(row.net.ci95_mbb),
                str(row.net.samples),
                *parts,
            ]


def _number(value: float) -> str:
    return f"{value:.4f}" if math.isfinite(value) else ""
