"""Reading the logs the pages show: every read of a ``.log`` by the web server is here, through
the analysis of logs (:mod:`dealer.analysis`) and the referee's decisions files.

* :class:`HandIndex` — a log's hands for the replay: each hand's pot, whether it went to a
  showdown and what each player won (for the list and its filters), and any hand step by
  step (:meth:`HandIndex.hand`: cards, board, every action with the pot after it and, from
  the ``.probs`` beside the log, the probabilities the player drew it from; the hand's
  AIVAT value).
* :class:`LogTail` — a log that may still be growing (a running match's): each player's
  chips hand by hand, reading only what was added since the last look.

Both block (a 100,000-hand log takes seconds): the server calls them in a worker thread.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     log = Path(tmp) / "m.log"
...     _ = log.write_text("STATE:0:rc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:20|-20:A|B\\n"
...                        "STATE:1:rf:9h6s|3d3h:-10|10:B|A\\n")
...     index = HandIndex.read(log)
...     total, rows = index.select(HandFilter(order="pot"))
...     hand = index.hand(0)
>>> total, [(row.number, row.pot, row.showdown) for row in rows]
(2, [(0, 40, True), (1, 30, False)])
>>> [step["label"] for step in hand["steps"]][:3], hand["betting"]
(['raise 10', 'call 10', 'check'], 'rc/cc/cc/cc')
"""

from __future__ import annotations

import io
import math
import os
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acpcbot.cards import card_text
from acpcbot.errors import AcpcError
from acpcbot.game import Game, bundled_game
from acpcbot.logreader import game_of_log
from acpcbot.player import Strategy
from acpcbot.protocol.logfile import (
    StateRecord,
    format_state_line,
    parse_state_line,
)
from acpcbot.rules import HandState, replay
from dealer.analysis import LogError, logged_hands, read_log, read_log_stream, twin_differences
from dealer.referee import decisions_path, read_decisions
from dealer.web.labels import action_label

__all__ = [
    "MAX_ROWS",
    "HandFilter",
    "HandIndex",
    "HandRow",
    "KnownStrategies",
    "LogTail",
    "curve",
    "twin_of",
]

MAX_TWIN_CANDIDATES = 16
"""The most other logs of a folder looked at for a log's duplicate twin."""

MAX_ROWS = 500
"""The most hands one request lists."""

KnownStrategies = Callable[[Sequence[str], Game], Mapping[str, Strategy]]
"""The fixed strategies of a log's players by name (the command line hands
``agents.registry.known_strategies``): AIVAT looks one action ahead at their decisions."""

Probabilities = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class HandRow:
    """One hand as the list shows it."""

    index: int
    """Its place in the log (0 for the first hand)."""
    number: int
    pot: int
    showdown: bool
    values: tuple[float, ...]
    """Chips won, by position."""
    names: tuple[str, ...]
    """Players, by position."""

    def json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "number": self.number,
            "pot": self.pot,
            "showdown": self.showdown,
            "values": list(self.values),
            "names": list(self.names),
        }


@dataclass(frozen=True, slots=True)
class HandFilter:
    """Which hands to list, in which order (see :meth:`HandIndex.select`)."""

    order: str = "number"
    """``number`` (as played), ``pot`` (largest first) or ``loss`` (``player``'s largest
    losses first: only the hands it lost)."""
    showdown: bool = False
    """Only hands that went to a showdown."""
    player: str | None = None
    number: int | None = None
    """Only this hand number."""
    offset: int = 0
    limit: int = 100

    def __post_init__(self) -> None:
        if self.order not in ("number", "pot", "loss"):
            raise AcpcError(f"unknown order {self.order!r}: number, pot or loss")
        if self.order == "loss" and not self.player:
            raise AcpcError("a player's losses need the player")
        if self.offset < 0 or not 0 < self.limit <= MAX_ROWS:
            raise AcpcError(f"offset >= 0 and 1 <= limit <= {MAX_ROWS}")


class HandIndex:
    """The hands of one log (read whole: :meth:`read`)."""

    def __init__(  # noqa: PLR0917 - made by read()
        self,
        path: Path,
        game: Game,
        lines: list[str],
        pots: array[int],
        showdowns: bytearray,
        decisions: dict[int, tuple[Probabilities | None, ...]] | None,
    ) -> None:
        self.path = path
        self.game = game
        self._lines = lines
        """Each hand's ``STATE`` line, in log order (parsed again when the hand is shown)."""
        self._pots = pots
        self._showdowns = showdowns
        self._decisions = decisions
        self._numbers = {self._number(i): i for i in range(len(lines))}
        self._records: list[StateRecord] = []

    @classmethod
    def read(cls, path: Path) -> HandIndex:
        """Read every hand of the log at ``path`` (and the ``.probs`` beside it, if any);
        a log that cannot be read raises :class:`~dealer.analysis.LogError`."""
        lines: list[str] = []
        pots: array[int] = array("q")
        showdowns = bytearray()
        game: Game | None = None
        for hand in logged_hands([path], advice=""):
            game = hand.game
            record = hand.record
            state = replay(game, record.betting, record.hand_number)
            lines.append(format_state_line(record))
            pots.append(state.pot)
            showdowns.append(not any(state.folded))
        if game is None:
            raise LogError(f"{path.name}: no hands")
        side = decisions_path(path)
        decisions = dict(read_decisions(side)) if side.is_file() else None
        return cls(path, game, lines, pots, showdowns, decisions)

    @property
    def hands(self) -> int:
        return len(self._lines)

    @property
    def has_decisions(self) -> bool:
        """Whether a ``.probs`` file lies beside the log."""
        return self._decisions is not None

    def players(self) -> list[str]:
        """The players, in the seats of the first hand."""
        return list(self._row(0).names) if self._lines else []

    def _number(self, index: int) -> int:
        line = self._lines[index]
        return int(line[6 : line.index(":", 6)])

    def _row(self, index: int) -> HandRow:
        line = self._lines[index]
        fields = line.split(":")
        return HandRow(
            index,
            int(fields[1]),
            self._pots[index],
            bool(self._showdowns[index]),
            tuple(float(v) for v in fields[4].split("|")),
            tuple(fields[5].split("|")),
        )

    def select(self, wanted: HandFilter) -> tuple[int, list[HandRow]]:
        """How many hands ``wanted`` matches, and one page of them (``offset``, ``limit``)."""
        if wanted.number is not None:
            index = self._numbers.get(wanted.number)
            candidates: Sequence[int] = [] if index is None else [index]
        else:
            candidates = range(len(self._lines))
        if wanted.showdown:
            candidates = [i for i in candidates if self._showdowns[i]]
        if wanted.order == "pot":
            candidates = sorted(candidates, key=lambda i: (-self._pots[i], i))
        elif wanted.order == "loss":
            player = wanted.player
            lost = []
            for i in candidates:
                row = self._row(i)
                if player in row.names and (value := row.values[row.names.index(player)]) < 0:
                    lost.append((value, i))
            candidates = [i for _, i in sorted(lost)]
        page = candidates[wanted.offset : wanted.offset + wanted.limit]
        return len(candidates), [self._row(i) for i in page]

    def hand(
        self, number: int, strategies: KnownStrategies | None = None, *, aivat: bool = False
    ) -> dict[str, Any]:
        """Hand ``number`` step by step (see the module); with ``aivat`` (and a ``.probs``
        beside the log) its AIVAT value for each player, with the fixed strategies
        ``strategies`` finds."""
        index = self._numbers.get(number)
        if index is None:
            raise AcpcError(f"{self.path.name} has no hand {number}")
        line = self._lines[index]
        record = parse_state_line(line, self.game)
        said = self._decisions.get(number, ()) if self._decisions is not None else ()
        steps = []
        state = HandState(self.game, number)
        at = 0
        for round_, actions in enumerate(record.betting):
            for action in actions:
                position = state.current_player
                label = action_label(state, action)
                state.apply(action)
                probabilities = said[at] if at < len(said) else None
                at += 1
                steps.append(
                    {
                        "round": round_,
                        "position": position,
                        "name": record.names[position],
                        "action": str(action),
                        "label": label,
                        "pot": state.pot,
                        "probabilities": list(probabilities) if probabilities else None,
                    }
                )
        shown = {
            "number": number,
            "index": index,
            "line": line,
            "betting": line.split(":")[2],
            "names": list(record.names),
            "holes": [[card_text(c) for c in hole] for hole in record.hole_cards],
            "board": [[card_text(c) for c in group] for group in record.board],
            "values": list(record.values),
            "blinds": list(self.game.blind),
            "pot": state.pot,
            "showdown": not any(state.folded),
            "steps": steps,
            "aivat": None,
        }
        if aivat and self._decisions is not None:
            shown["aivat"] = self.aivat(record, said, strategies)
        return shown

    def aivat(
        self,
        record: StateRecord,
        said: Sequence[Probabilities | None],
        strategies: KnownStrategies | None,
    ) -> list[float] | None:
        """The hand's AIVAT value for each position (chips; zero-sum), or ``None`` where the
        game is not one AIVAT is computed for."""
        # numba (AIVAT's equities): only a replay that shows AIVAT loads it
        from dealer.analysis.aivat import AivatError, CheckDownValue, correct_hand

        try:
            value = CheckDownValue(self.game)
        except AivatError:
            return None
        known = strategies(record.names, self.game) if strategies is not None else {}
        oracles = [known.get(name) for name in record.names]
        estimate, _ = correct_hand(self.game, record, 0, said, value, oracles)
        return [round(estimate, 3), round(-estimate, 3)]


def twin_of(path: Path) -> Path | None:
    """The other half of the duplicate pair ``path`` belongs to: another log in its folder of
    the same deal with the seats reversed (:func:`~dealer.analysis.twin_differences`), or
    ``None``. Looks at the logs whose name has the same seed and hands first, at most
    :data:`MAX_TWIN_CANDIDATES` of them."""
    try:
        others = [p for p in path.parent.iterdir() if p.suffix == ".log" and p != path]
    except OSError:
        return None
    tag = path.name.split(".", 1)[-1]  # "seed42.n1000.log" of "A-B.seed42.n1000.log"
    others.sort(key=lambda p: (p.name.split(".", 1)[-1] != tag, p.name))
    try:
        log = read_log(path)
    except AcpcError:
        return None
    for other in others[:MAX_TWIN_CANDIDATES]:
        try:
            if not twin_differences(log, read_log(other)):
                return other
        except AcpcError:
            continue
    return None


class LogTail:
    """A log that may still be growing: each player's chips in each hand so far, read
    incrementally (only the lines added since the last :meth:`update`, and only whole
    lines)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.names: tuple[str, ...] = ()
        """The players in seat order (once a hand was read)."""
        self.chips: dict[str, array[float]] = {}
        self.numbers: array[int] = array("q")
        self.score = False
        """Whether its ``SCORE`` line was read (the match ended)."""
        self.game: Game | None = None
        """The log's game (once its first lines were read)."""

    def update(self) -> bool:
        """Read what was added; whether anything was."""
        try:
            with self.path.open("rb") as file:
                if os.fstat(file.fileno()).st_size <= self.offset:
                    return False
                file.seek(self.offset)
                data = file.read()
        except OSError:
            return False
        end = data.rfind(b"\n") + 1
        if end == 0:
            return False
        try:
            log = read_log_stream(self.path, io.BytesIO(data[:end]))
        except LogError:
            return False
        if self.game is None:  # the first reading, from the top: its header is the log's
            try:
                self.game = game_of_log(self.path, log.header)
            except AcpcError:
                self.game = bundled_game()
        self.offset += end
        if log.hands:
            if not self.names:
                self.names = log.seat_names
                self.chips = {name: array("d") for name in self.names}
            for name, values in log.chips.items():
                self.chips.setdefault(name, array("d")).extend(values)
            self.numbers.extend(log.hand_numbers)
        self.score = self.score or log.score is not None
        return True

    @property
    def hands(self) -> int:
        return len(self.numbers)


def curve(values: Sequence[float], big_blind: int, points: int = 400) -> dict[str, list[float]]:
    """A bankroll curve for the page: at most ``points`` points of (hands, big blinds won so
    far, and the 95% band of that sum: ± 1.96 × the SD of a hand so far × √hands).

    >>> curve([10.0, -10.0, 20.0, 0.0], 10, points=2)
    {'hands': [2, 4], 'bb': [0.0, 2.0], 'low': [-3.92, -3.061], 'high': [3.92, 7.061]}
    """
    hands: list[float] = []
    won: list[float] = []
    low: list[float] = []
    high: list[float] = []
    total = squares = 0.0
    count = len(values)
    step = max(1, math.ceil(count / points))
    for n, value in enumerate(values, 1):
        total += value
        squares += value * value
        if n % step and n != count:
            continue
        mean = total / n
        sd = math.sqrt(max(0.0, squares / n - mean * mean) * n / (n - 1)) if n > 1 else 0.0
        half = 1.96 * sd * math.sqrt(n) / big_blind
        bb = total / big_blind
        hands.append(n)
        won.append(round(bb, 3))
        low.append(round(bb - half, 3))
        high.append(round(bb + half, 3))
    return {"hands": hands, "bb": won, "low": low, "high": high}
