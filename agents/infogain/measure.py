"""What the opponents' bets reveal: Saund's information-gain measure for heads-up hold'em.

Saund (§V-VI, Fig. 6) compares three observers of a game. The *omniscient* one knows every
hole card: its probability ``p`` that a player wins is the true one (here: the position-0
player's exact share of the pot over the cards to come, ties half). The *public* observer
knows only the board and estimates ``q`` two ways: from the cards alone (``q_cards``), and
from the cards plus inference from the bets (``q_bet``): a weight table over each player's
1326 holdings (:class:`~agents.common.weights.WeightTable`), re-weighted after each of the
player's actions by that action's likelihood for every holding under the player's betting
policy — Saund's eq. 4 with his factored policy (:mod:`agents.common.betpolicy`), fitted to
the player from the hands before this one (Saund's observer has a perfect model of each
player; ours learns it from the log, never from the hand it is reading). The Kullback-Leibler
divergence ``KL(p ‖ q)`` (in bits, over the outcomes "position 0 wins" and "position 1
wins") says how much information an estimate lacks; the *information gain* of bet inference
is the share of the cards-only observer's lack that it recovers,
``1 - KL(p ‖ q_bet) / KL(p ‖ q_cards)``, averaged per street.

In hold'em the board is common to both players, so the cards alone never favour either:
``q_cards`` is 1/2 at every point, and ``KL(p ‖ q_cards) = 1 - H(p)``.

Points are the *decision points* of each hand (the state before each action) and, when the
hand reaches it, the showdown. ``q_bet`` is exact before the flop (class against class, from
the shipped equity table), on the turn and the river (every runout); on the flop it sums a
seeded sample of :data:`DEFAULT_FLOP_RUNOUTS` of the 1176 runouts (all of them on request).
Confidence intervals treat hands as the independent samples (a hand's points are not).

>>> from acpcbot.game import bundled_game
>>> from acpcbot.protocol.logfile import parse_state_line
>>> gain = InfoGain(bundled_game())
>>> gain.add(parse_state_line("STATE:0:rc/crc/rc/rc:AsKs|7c2d/AhKh9s/3c/Td:-80|80:a|b"))
>>> report = gain.report()
>>> [(s.street, s.points) for s in report.streets]
[('preflop', 2), ('flop', 3), ('turn', 2), ('river', 3)]
>>> report.streets[0].kl_cards == report.streets[0].kl_cards  # a number, not NaN
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from acpcbot.actions import ActionType
from acpcbot.errors import AcpcError
from acpcbot.game import HOLDEM_ROUNDS, Game
from acpcbot.handeval.combos import CLASS_SIZES, COMBO_CARDS, COMBO_CLASS, NUM_CLASSES, combo_index
from acpcbot.protocol.logfile import StateRecord
from acpcbot.rules import replay
from acpcbot.smallfile import shown_path
from agents.common.betpolicy import PolicyFit
from agents.common.decisions import decisions
from agents.common.ranges import compatible_pairs
from agents.common.tables import class_equity_matrix
from agents.common.weights import WeightTable, holding_strengths

__all__ = [
    "DEFAULT_FLOP_RUNOUTS",
    "FLOP_RUNOUTS",
    "HiddenCardsError",
    "InfoGain",
    "InfoGainReport",
    "PointStats",
    "StreetReport",
    "binary_entropy",
    "kl_bits",
    "measure",
]

FloatArray = npt.NDArray[np.float64]

FLOP_RUNOUTS = 1176
"""Turn and river cards that can complete a flop, as the public observer sees it: C(49, 2)."""
DEFAULT_FLOP_RUNOUTS = 100
"""Flop runouts sampled for ``q_bet`` (seeded by the hand number)."""
PREFLOP_TRIALS = 20_000
"""Sampled boards for the omniscient preflop probability (its SD is below 0.004)."""
MOST_POINTS = 8
"""Decision points per street told apart in :attr:`StreetReport.by_point` (later ones
count with the last)."""
Z95 = 1.959963984540054
_LEAST = 1e-12


class HiddenCardsError(AcpcError):
    """A hand whose hole cards the log does not show."""


def binary_entropy(p: float) -> float:
    """``H(p)`` in bits.

    >>> binary_entropy(0.5), binary_entropy(1.0)
    (1.0, 0.0)
    """
    return sum(-x * math.log2(x) for x in (p, 1.0 - p) if x > 0.0)


def kl_bits(p: float, q: float) -> float:
    """``KL(p ‖ q)`` in bits for two-outcome distributions (``q`` kept off 0 and 1).

    >>> kl_bits(1.0, 0.5), round(kl_bits(0.8, 0.6), 4)
    (1.0, 0.132)
    """
    q = min(max(q, _LEAST), 1.0 - _LEAST)
    return sum(x * math.log2(x / y) for x, y in ((p, q), (1.0 - p, 1.0 - q)) if x > 0.0)


@dataclass(frozen=True, slots=True)
class PointStats:
    """The average over the points at one place in the street (the n-th decision)."""

    points: int
    entropy: float
    kl_cards: float
    kl_bet: float


@dataclass(frozen=True, slots=True)
class StreetReport:
    """One street's (or all streets') averages over its decision points, in bits."""

    street: str
    points: int
    hands: int
    entropy: float
    """Average ``H(p)``: what the omniscient observer is still unsure of."""
    kl_cards: float
    """Average ``KL(p ‖ q_cards)``."""
    kl_bet: float
    """Average ``KL(p ‖ q_bet)``."""
    gain_percent: float
    """``100 · (1 - kl_bet / kl_cards)``; NaN without points."""
    gain_ci95: float
    """Half-width of its 95% confidence interval, in percentage points (hands are the
    samples; delta method)."""
    by_point: tuple[PointStats, ...] = ()
    """Per decision point of the street in order (the last holds the showdown on the
    river)."""


@dataclass(frozen=True, slots=True)
class InfoGainReport:
    """The measure over every hand read."""

    hands: int
    players: tuple[str, ...]
    flop_runouts: int
    streets: tuple[StreetReport, ...]
    overall: StreetReport
    predictability: dict[str, tuple[float, ...]]
    """Per player, per round: how far its actions followed its cards in the fitted policy
    (0: not at all, 1: Saund's policy exactly)."""
    logs: tuple[str, ...] = ()


class _Moments:
    """Per-hand sums of (points, entropy, KL cards, KL bet), summed over hands with their
    products (for the confidence intervals)."""

    def __init__(self) -> None:
        self.sums = np.zeros(4)
        self.products = np.zeros((4, 4))
        self.hands = 0

    def add(self, hand: FloatArray) -> None:
        if hand[0] <= 0:
            return
        self.sums += hand
        self.products += np.outer(hand, hand)
        self.hands += 1

    def report(self, street: str, by_point: tuple[PointStats, ...] = ()) -> StreetReport:
        n, h, c, b = (float(x) for x in self.sums)
        if n <= 0:
            nan = math.nan
            return StreetReport(street, 0, 0, nan, nan, nan, nan, nan, by_point)
        gain, ci = math.nan, math.nan
        if c > 0:
            ratio = b / c
            gain = 100.0 * (1.0 - ratio)
            # Var(ratio) by the delta method over hands: Σ (b_h - ratio · c_h)² / c².
            p = self.products
            residual = float(p[3, 3] - 2 * ratio * p[2, 3] + ratio * ratio * p[2, 2])
            correction = self.hands / max(1, self.hands - 1)
            ci = 100.0 * Z95 * math.sqrt(max(0.0, residual * correction)) / c
        return StreetReport(street, int(n), self.hands, h / n, c / n, b / n, gain, ci, by_point)


@dataclass
class _Street:
    """What a hand's points on one street share."""

    p: float
    """The omniscient probability that position 0 wins."""
    runouts: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int8]] | None = None
    """The holdings in order of value on each runout of the street
    (:func:`~agents.infogain.kernels.runout_values`; not before the flop)."""
    points: int = 0


class InfoGain:
    """Reads hands (:meth:`add`) and reports the information gain of bet inference
    (:meth:`report`). Each player's policy is fitted, by player name, from the hands added
    before the one being read."""

    def __init__(self, game: Game, flop_runouts: int = DEFAULT_FLOP_RUNOUTS) -> None:
        holdem = (game.num_players, game.num_rounds, game.num_hole_cards) == (2, 4, 2)
        if not (holdem and game.is_limit and tuple(game.num_board_cards) == (0, 3, 1, 1)):
            raise AcpcError("infogain reads heads-up limit hold'em logs only")
        if not 1 <= flop_runouts <= FLOP_RUNOUTS:
            raise AcpcError(f"flop runouts are 1 to {FLOP_RUNOUTS}, not {flop_runouts}")
        # numba: compiled and loaded when first used
        from agents.infogain import kernels

        self._kernels = kernels
        self.game = game
        self.flop_runouts = flop_runouts
        self.fits: dict[str, PolicyFit] = {}
        self.hands = 0
        self._streets = [_Moments() for _ in HOLDEM_ROUNDS]
        self._overall = _Moments()
        self._points = np.zeros((len(HOLDEM_ROUNDS), MOST_POINTS, 4))

    # -- reading ------------------------------------------------------------------------

    def add(self, record: StateRecord) -> None:
        """Read one hand (a log's ``STATE`` record; its betting must be legal)."""
        holes = record.hole_cards
        if len(holes) != 2 or any(len(hole) != 2 for hole in holes):
            raise HiddenCardsError(
                f"hand {record.hand_number} does not show both players' hole cards; "
                "infogain needs every hand's (the logs of acpcbot's dealer and of the "
                "reference dealer show them)"
            )
        game = self.game
        if not replay(game, record.betting, record.hand_number).finished:
            raise AcpcError(f"hand {record.hand_number}'s betting stops before the hand ends")
        fits = [self.fits.setdefault(name, PolicyFit(shapes=True)) for name in record.names]
        board = record.board_cards
        tables = (WeightTable(), WeightTable())
        streets: dict[int, _Street] = {}
        hand = np.zeros((len(HOLDEM_ROUNDS), 4))
        turns = list(decisions(game, record.betting, record.hand_number))
        for turn in turns:
            shown = board[: game.board_total(turn.round)]
            self._point(record, turn.round, shown, tables, streets, hand)
            fits[turn.actor].reweight(tables[turn.actor], turn, shown)
        if turns and turns[-1].action is not ActionType.FOLD:  # the showdown
            last = turns[-1].round
            self._point(record, last, board[: game.board_total(last)], tables, streets, hand)
        for moments, row in zip(self._streets, hand, strict=True):
            moments.add(row)
        self._overall.add(hand.sum(axis=0))
        self.hands += 1
        # Only now does the fit learn from this hand: no hand is read with itself.
        for turn in turns:
            shown = board[: game.board_total(turn.round)]
            fits[turn.actor].learn(turn, float(holding_strengths(shown)[_combo(holes[turn.actor])]))

    def _point(  # noqa: PLR0917
        self,
        record: StateRecord,
        round_: int,
        shown: tuple[int, ...],
        tables: tuple[WeightTable, WeightTable],
        streets: dict[int, _Street],
        hand: FloatArray,
    ) -> None:
        """One decision point: the three observers' estimates and their divergences."""
        street = streets.get(round_)
        if street is None:
            street = streets[round_] = self._street(record, round_, shown)
        for table in tables:
            table.remove(shown)  # the public observer sees the board
        w0, w1 = tables[0].weights, tables[1].weights
        if round_ == 0:
            q = _preflop_share(w0, w1)
        else:
            assert street.runouts is not None
            q = self._kernels.runouts_share(*street.runouts, w0, w1)
        p = street.p
        point = np.array([1.0, binary_entropy(p), kl_bits(p, 0.5), kl_bits(p, q)])
        hand[round_] += point
        self._points[round_, min(street.points, MOST_POINTS - 1)] += point
        street.points += 1

    def _street(self, record: StateRecord, round_: int, shown: tuple[int, ...]) -> _Street:
        """The omniscient probability on a street, and its runouts' hand values."""
        # numba: compiled and loaded when first used
        from acpcbot.handeval.enumeration import board_counts
        from acpcbot.handeval.montecarlo import sample_counts

        holes = np.array(record.hole_cards, dtype=np.int64)
        board = np.array(shown, dtype=np.int64)
        counts = np.zeros((2, 3))
        if round_ == 0:
            seed = record.hand_number * 2654435761 % 2**61
            empty = np.zeros((0, len(COMBO_CARDS)))
            sample_counts(holes, board, empty, COMBO_CARDS, PREFLOP_TRIALS, seed, counts)
            total = float(PREFLOP_TRIALS)
        else:
            total = float(board_counts(holes, board, counts, 1.0))
        p = (counts[0, 1] + counts[0, 2] / 2) / total
        if round_ == 0:
            return _Street(p)
        boards = _runouts(shown, self.flop_runouts, record.hand_number)
        return _Street(p, self._kernels.runout_values(boards, COMBO_CARDS))

    # -- the report ---------------------------------------------------------------------

    def report(self, logs: tuple[str, ...] = ()) -> InfoGainReport:
        """The averages per street and over all, with every player's fitted
        predictability."""
        streets = []
        for index, name in enumerate(HOLDEM_ROUNDS):
            rows = self._points[index]
            by_point = tuple(
                PointStats(int(n), float(h / n), float(c / n), float(b / n))
                for n, h, c, b in rows
                if n > 0
            )
            streets.append(self._streets[index].report(name, by_point))
        overall = self._overall.report("all")
        return InfoGainReport(
            hands=self.hands,
            players=tuple(self.fits),
            flop_runouts=self.flop_runouts,
            streets=tuple(streets),
            overall=overall,
            predictability={
                name: tuple(round(w, 4) for w in fit.predictabilities())
                for name, fit in self.fits.items()
            },
            logs=logs,
        )


class LoggedHand(Protocol):
    """A hand of a log, as the dealer's reader of logs gives it (the agents do not import
    the dealer: :func:`measure` reads whatever has these)."""

    @property
    def path(self) -> Path: ...
    @property
    def game(self) -> Game: ...
    @property
    def record(self) -> StateRecord: ...
    def error(self, why: object) -> AcpcError: ...


def measure(
    hands: Iterable[LoggedHand],
    flop_runouts: int = DEFAULT_FLOP_RUNOUTS,
    *,
    read: Callable[[int], None] | None = None,
) -> InfoGain:
    """Every hand of ``hands`` (of one game: the first hand's) added to an :class:`InfoGain`
    in order; ``read`` is told the number of hands read after each. An error names the log
    and the hand; there must be a hand."""
    gain: InfoGain | None = None
    for hand in hands:
        if gain is None:
            try:
                gain = InfoGain(hand.game, flop_runouts)
            except AcpcError as exc:
                raise AcpcError(f"{shown_path(hand.path)}: {exc}") from None
        try:
            gain.add(hand.record)
        except AcpcError as exc:
            raise hand.error(exc) from None
        if read is not None:
            read(gain.hands)
    if gain is None:
        raise AcpcError("no hand to read")
    return gain


def _combo(hole: tuple[int, ...]) -> int:
    return combo_index(hole[0], hole[1])


def _runouts(shown: tuple[int, ...], flop_runouts: int, hand_number: int) -> npt.NDArray[np.int64]:
    """The five-card boards that complete ``shown``: all of them after the flop, and on it
    all or a sample of ``flop_runouts`` seeded by the hand number."""
    rest = [c for c in range(52) if c not in shown]
    missing = 5 - len(shown)
    completions = np.array(list(itertools.combinations(rest, missing)), dtype=np.int64)
    if missing == 2 and flop_runouts < len(completions):
        rng = np.random.default_rng(hand_number)
        completions = completions[rng.choice(len(completions), flop_runouts, replace=False)]
    boards = np.empty((len(completions), 5), dtype=np.int64)
    boards[:, : len(shown)] = shown
    boards[:, len(shown) :] = completions
    return boards


def _preflop_share(w0: FloatArray, w1: FloatArray) -> float:
    """Position 0's chance to win, class against class, before the flop (every combo of a
    class weighs the same then: the observer knows no card)."""
    matrix, pairs = _class_tables()
    a = np.bincount(COMBO_CLASS, weights=w0, minlength=NUM_CLASSES) / CLASS_SIZES
    b = np.bincount(COMBO_CLASS, weights=w1, minlength=NUM_CLASSES) / CLASS_SIZES
    both = np.outer(a, b) * pairs
    total = float(both.sum())
    return float((both * matrix).sum()) / total if total > 0 else 0.5


_CLASS_TABLES: list[tuple[FloatArray, FloatArray]] = []


def _class_tables() -> tuple[FloatArray, FloatArray]:
    """The class-against-class equity matrix and the disjoint combo pairs of each two
    classes (computed once)."""
    if not _CLASS_TABLES:
        _CLASS_TABLES.append((class_equity_matrix(), compatible_pairs().astype(np.float64)))
    return _CLASS_TABLES[0]
