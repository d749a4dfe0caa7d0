"""The usual player statistics from ACPC logs: how loose, how aggressive, how stubborn.

Every hand of every log is replayed under the rules of the log's game
(:class:`acpcbot.rules.HandState`) and counted for each player, by name (so the logs of a
duplicate pair add up):

* **VPIP** — hands in which the player put chips in voluntarily before the flop: a call of a
  bet (not the big blind's free check) or a raise;
* **PFR** — hands in which it raised before the flop;
* **3-bet** — of the times it faced exactly one raise before the flop (the blinds being the
  first bet) and could raise, how often it re-raised;
* **aggression factor** per round — its bets and raises over its calls of a bet (checks are
  not calls); ``None`` without a call;
* **went to showdown** — of the hands in which it saw the flop, how many it took to a
  showdown; **won at showdown** — of those, how many it won (a split pot counts half);
* **fold to a bet** per round — of the times it faced a bet or raise (before the flop, a
  raise: the blinds are not counted), how often it folded.

Percentages come with the counts they are made of, so a hand count checks them.

>>> from acpcbot.game import bundled_game
>>> lines = ["STATE:0:rc/crf:AsKs|7c2d/2h3h4h:-20|20:A|B", "STATE:1:f:AsKs|7c2d:5|-5:B|A"]
>>> stats = PlayerStats(bundled_game())
>>> for line in lines:
...     stats.add_line(line)
>>> a, b = stats.players["A"], stats.players["B"]
>>> a.hands, a.vpip, a.pfr, a.fold_to_bet.count[1], a.fold_to_bet.chances[1]
(2, 1, 0, 1, 1)
>>> b.vpip, b.pfr, b.aggressive[:2], b.calls[:2]
(1, 1, [1, 1], [0, 0])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acpcbot.actions import ActionType
from acpcbot.errors import AcpcError
from acpcbot.game import HOLDEM_ROUNDS, Game
from acpcbot.protocol.logfile import StateRecord, parse_state_line
from acpcbot.rules import HandState
from dealer.analysis.loghands import LoggedHand, logged_hands

__all__ = [
    "Player",
    "PlayerStats",
    "Rate",
    "log_stats",
    "stats_json",
    "stats_lines",
]


@dataclass
class Rate:
    """How often something happened, out of its chances, per round."""

    count: list[int] = field(default_factory=lambda: [0] * 4)
    chances: list[int] = field(default_factory=lambda: [0] * 4)

    def share(self, round_: int) -> float | None:
        return self.count[round_] / self.chances[round_] if self.chances[round_] else None


@dataclass
class Player:
    """One player's counts over every hand read."""

    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bets: int = 0
    three_bet_chances: int = 0
    aggressive: list[int] = field(default_factory=lambda: [0] * 4)
    """Bets and raises, per round."""
    calls: list[int] = field(default_factory=lambda: [0] * 4)
    """Calls of a bet (not checks), per round."""
    saw_flop: int = 0
    showdowns: int = 0
    showdowns_won: float = 0.0
    fold_to_bet: Rate = field(default_factory=Rate)

    def aggression(self, round_: int) -> float | None:
        return self.aggressive[round_] / self.calls[round_] if self.calls[round_] else None


class PlayerStats:
    """Counts every player's statistics over the hands given to it (see the module)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players: dict[str, Player] = {}
        self.hands = 0
        self.logs: list[str] = []

    def add_line(self, line: str, where: str = "the log") -> None:
        """Count the hand of one ``STATE`` line."""
        try:
            self.add(parse_state_line(line))
        except AcpcError as exc:
            raise AcpcError(f"{where}: {exc}") from None

    def add(self, record: StateRecord) -> None:
        """Count one hand (replayed under the game's rules: an illegal one is an error)."""
        self._add(record.hand_number, record.betting, record.names, record.values)

    def _add(
        self,
        number: int,
        betting: tuple[tuple[Any, ...], ...],
        names: tuple[str, ...],
        values: tuple[float, ...],
    ) -> None:
        game = self.game
        if len(names) != game.num_players:
            raise AcpcError(f"hand {number} has {len(names)} players, the game {game.num_players}")
        players = [self.players.setdefault(name, Player()) for name in names]
        hand = HandState(game, number)
        voluntary = [False] * len(names)
        raised = [False] * len(names)
        for round_, actions in enumerate(betting):
            column = min(round_, 3)
            if round_ == 1:
                for position, player in enumerate(players):
                    if not hand.folded[position]:
                        player.saw_flop += 1
            for action in actions:
                position = hand.current_player
                player = players[position]
                to_call = hand.amount_to_call()
                facing = to_call > 0 and (round_ > 0 or hand.num_raises > 0)
                if facing:
                    player.fold_to_bet.chances[column] += 1
                    if action.type is ActionType.FOLD:
                        player.fold_to_bet.count[column] += 1
                if round_ == 0 and hand.num_raises == 1 and hand.can_raise():
                    player.three_bet_chances += 1
                    if action.type is ActionType.RAISE:
                        player.three_bets += 1
                if action.type is ActionType.RAISE:
                    player.aggressive[column] += 1
                    if round_ == 0:
                        voluntary[position] = raised[position] = True
                elif action.type is ActionType.CALL and to_call > 0:
                    player.calls[column] += 1
                    if round_ == 0:
                        voluntary[position] = True
                hand.apply(action)
        if not hand.finished:
            raise AcpcError(f"hand {number} is not finished")
        showdown = hand.is_showdown
        for position, player in enumerate(players):
            player.hands += 1
            player.vpip += voluntary[position]
            player.pfr += raised[position]
            if showdown and not hand.folded[position]:
                player.showdowns += 1
                value = values[position]
                player.showdowns_won += 1.0 if value > 0 else 0.5 if value == 0 else 0.0
        self.hands += 1

    def add_log(self, path: Path) -> None:
        """Count every hand of the log ``path`` (of this game: see
        :func:`dealer.analysis.loghands.logged_hands`)."""
        self.logs.append(str(path))
        for hand in logged_hands([path], self.game):
            self.add_hand(hand)

    def add_hand(self, hand: LoggedHand) -> None:
        """Count a hand of a log (one that is not legal is an error naming the log and the
        line)."""
        try:
            self.add(hand.record)
        except AcpcError as exc:
            raise hand.error(exc) from None


def log_stats(paths: Sequence[Path], game: Game | None = None) -> PlayerStats:
    """The statistics of every hand of the logs at ``paths``, each read once: of ``game``,
    else of the game the first log's header names (every log must be of that game)."""
    stats: PlayerStats | None = None
    # Each hand is replayed once, by the statistics (which refuse one that is not legal).
    for hand in logged_hands(paths, game):
        if stats is None:
            stats = PlayerStats(hand.game)
        stats.add_hand(hand)
    assert stats is not None  # a log without a hand is an error
    stats.logs.extend(str(path) for path in paths)
    return stats


def _percent(part: float, whole: int) -> float | None:
    return round(100 * part / whole, 2) if whole else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def stats_json(stats: PlayerStats) -> dict[str, Any]:
    """The statistics as JSON: percentages with the counts they come from."""
    rounds = HOLDEM_ROUNDS[: min(stats.game.num_rounds, 4)]
    players: dict[str, Any] = {}
    for name, p in stats.players.items():
        players[name] = {
            "hands": p.hands,
            "vpip": _percent(p.vpip, p.hands),
            "pfr": _percent(p.pfr, p.hands),
            "three_bet": _percent(p.three_bets, p.three_bet_chances),
            "aggression": {r: _round(p.aggression(i)) for i, r in enumerate(rounds)},
            "went_to_showdown": _percent(p.showdowns, p.saw_flop),
            "won_at_showdown": _percent(p.showdowns_won, p.showdowns),
            "fold_to_bet": {
                r: _percent(p.fold_to_bet.count[i], p.fold_to_bet.chances[i])
                for i, r in enumerate(rounds)
            },
            "counts": {
                "vpip": p.vpip,
                "pfr": p.pfr,
                "three_bets": p.three_bets,
                "three_bet_chances": p.three_bet_chances,
                "bets_and_raises": dict(zip(rounds, p.aggressive, strict=False)),
                "calls": dict(zip(rounds, p.calls, strict=False)),
                "saw_flop": p.saw_flop,
                "showdowns": p.showdowns,
                "showdowns_won": p.showdowns_won,
                "folds_to_a_bet": dict(zip(rounds, p.fold_to_bet.count, strict=False)),
                "faced_a_bet": dict(zip(rounds, p.fold_to_bet.chances, strict=False)),
            },
        }
    return {"logs": stats.logs, "hands": stats.hands, "players": players}


def _cell(value: float | None, suffix: str = "%") -> str:
    return "-" if value is None else f"{value:.1f}{suffix}"


def stats_lines(stats: PlayerStats) -> list[str]:
    """The statistics as a table: a row per statistic, a column per player."""
    data = stats_json(stats)
    names = list(data["players"])
    rounds = HOLDEM_ROUNDS[: min(stats.game.num_rounds, 4)]
    logs = len(stats.logs)
    lines = [f"{stats.hands:,} hands from {logs} log{'s' if logs != 1 else ''}"]
    rows: list[tuple[str, list[str]]] = [("", names)]

    def row(label: str, key: str, what: str, count: str, chances: str | None = None) -> None:
        cells = []
        for name in names:
            p = data["players"][name]
            whole = p["hands"] if chances is None else p["counts"][chances]
            cells.append(f"{_cell(p[key])} ({p['counts'][count]:g}/{whole})")
        rows.append((f"{label} {what}".rstrip(), cells))

    rows.append(("hands", [str(data["players"][n]["hands"]) for n in names]))
    row("VPIP", "vpip", "", "vpip")
    row("PFR", "pfr", "", "pfr")
    row("3-bet", "three_bet", "", "three_bets", "three_bet_chances")
    for r in rounds:
        cells = []
        for name in names:
            p = data["players"][name]
            value = p["aggression"][r]
            counts = f"{p['counts']['bets_and_raises'][r]}/{p['counts']['calls'][r]}"
            cells.append(f"{'-' if value is None else f'{value:.2f}'} ({counts})")
        rows.append((f"aggression {r}", cells))
    row("went to showdown", "went_to_showdown", "", "showdowns", "saw_flop")
    row("won at showdown", "won_at_showdown", "", "showdowns_won", "showdowns")
    for r in rounds:
        cells = []
        for name in names:
            p = data["players"][name]
            folds = p["counts"]["folds_to_a_bet"][r]
            faced = p["counts"]["faced_a_bet"][r]
            cells.append(f"{_cell(p['fold_to_bet'][r])} ({folds}/{faced})")
        rows.append((f"fold to a bet {r}", cells))
    width = max(len(label) for label, _ in rows)
    widths = [max(len(cells[i]) for _, cells in rows) for i in range(len(names))]
    for label, cells in rows:
        text = "  ".join(cell.rjust(w) for cell, w in zip(cells, widths, strict=True))
        lines.append(f"{label.ljust(width)}  {text}".rstrip())
    return lines
