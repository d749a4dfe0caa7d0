"""Player statistics: known answers on hand-made logs, and counts that a plain reading of the
reference dealer's logs confirms."""

from __future__ import annotations

from pathlib import Path

import pytest

from acpcbot.errors import AcpcError
from acpcbot.game import Game
from dealer.analysis.playerstats import PlayerStats, stats_json, stats_lines


def stats_of(lines: list[str], game: Game) -> PlayerStats:
    stats = PlayerStats(game)
    for line in lines:
        stats.add_line(line)
    return stats


def test_known_answers(limit_game: Game) -> None:
    lines = [
        # Position 0 (big blind) is A, position 1 (small blind, first to act) is B.
        # B raises, A re-raises (3-bet), B calls; flop: A bets, B folds.
        "STATE:0:rrc/rf:AsAd|7c2d/2h3h4h:30|-30:A|B",
        # B limps (calls the blind), A checks; every street checked down; B's kings win.
        "STATE:1:cc/cc/cc/cc:9c8d|KhKs/2h3h4h/5d/Jc:-10|10:A|B",
        # B folds its small blind.
        "STATE:2:f:9c8d|KhKs:5|-5:A|B",
        # B raises, A calls (no 3-bet); flop: A checks, B bets, A raises, B calls; turn:
        # A bets, B raises, A folds.
        "STATE:3:rc/crrc/rrf:9c8d|KhKs/2h3h4h/5d:-60|60:A|B",
    ]
    stats = stats_of(lines, limit_game)
    a, b = stats.players["A"], stats.players["B"]
    assert (a.hands, b.hands) == (4, 4)
    assert (a.vpip, b.vpip) == (2, 3)  # A: the 3-bet and the call; B: raise, limp, raise
    assert (a.pfr, b.pfr) == (1, 2)
    assert (a.three_bets, a.three_bet_chances) == (1, 2)
    assert (b.three_bets, b.three_bet_chances) == (0, 0)
    assert a.aggressive == [1, 2, 1, 0] and a.calls == [1, 0, 0, 0]
    assert b.aggressive == [2, 1, 1, 0] and b.calls == [2, 1, 0, 0]
    assert (a.saw_flop, a.showdowns, a.showdowns_won) == (3, 1, 0.0)
    assert (b.saw_flop, b.showdowns, b.showdowns_won) == (3, 1, 1.0)
    assert a.fold_to_bet.count == [0, 0, 1, 0] and a.fold_to_bet.chances == [2, 1, 1, 0]
    assert b.fold_to_bet.count == [0, 1, 0, 0] and b.fold_to_bet.chances == [1, 2, 1, 0]
    data = stats_json(stats)["players"]["A"]
    assert data["vpip"] == 50.0 and data["three_bet"] == 50.0
    assert data["aggression"]["preflop"] == 1.0 and data["aggression"]["river"] is None
    assert data["went_to_showdown"] == pytest.approx(100 / 3, abs=0.01)
    text = "\n".join(stats_lines(stats))
    assert "4 hands from 0 logs" in text
    assert "VPIP" in text and "50.0% (2/4)" in text


def test_a_split_pot_counts_half(limit_game: Game) -> None:
    stats = stats_of(["STATE:0:cc/cc/cc/cc:Ah2c|Ad2d/KsQsJs/3h/4c:0|0:A|B"], limit_game)
    assert stats.players["A"].showdowns_won == stats.players["B"].showdowns_won == 0.5


def test_an_illegal_hand_is_an_error(limit_game: Game) -> None:
    with pytest.raises(AcpcError, match="the log"):
        stats_of(["STATE:0:rrrrc:AsAd|7c2d:40|-40:A|B"], limit_game)  # four raises preflop


def test_reference_logs_agree_with_a_plain_reading(vectors: Path, limit_game: Game) -> None:
    """Counts read off the STATE lines directly (limit hold'em, heads-up: the small blind
    acts first before the flop and second after it)."""
    folder = vectors / "logs" / "example_player"
    stats = PlayerStats(limit_game)
    paths = sorted(folder.glob("limit2p.seed42.*.log"))
    for path in paths:
        stats.add_log(path)
    expected: dict[str, dict[str, int]] = {}
    hands = 0
    for path in paths:
        for line in path.read_text().splitlines():
            if not line.startswith("STATE:"):
                continue
            hands += 1
            _, _, betting, _, _, names = line.split(":")
            rounds = betting.split("/")
            for position, name in enumerate(names.split("|")):
                count = expected.setdefault(name, {"pfr": 0, "saw_flop": 0, "showdown": 0})
                first = 1 if position == 1 else 0  # the small blind (position 1) acts first
                own = rounds[0][1 - first :: 2] if position == 0 else rounds[0][0::2]
                count["pfr"] += "r" in own
                count["saw_flop"] += len(rounds) > 1
                count["showdown"] += "f" not in betting
    assert stats.hands == hands == 2000
    for name, count in expected.items():
        player = stats.players[name]
        assert player.pfr == count["pfr"]
        assert player.saw_flop == count["saw_flop"]
        assert player.showdowns == count["showdown"]
        assert player.vpip >= player.pfr
        # the example player folds 6% of the time it may (facing a bet)
        folds = sum(player.fold_to_bet.count) / sum(player.fold_to_bet.chances)
        assert folds == pytest.approx(0.06, abs=0.015)
