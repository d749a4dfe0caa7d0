"""A log's hands for the replay: the reference dealer's logs and ours, with the decisions'
probabilities and the AIVAT value of a match played with --aivat; a growing log read as it
grows."""

from __future__ import annotations

from pathlib import Path

import pytest

from acpcbot.errors import AcpcError
from acpcbot.game import bundled_game
from acpcbot.protocol.logfile import parse_state_line
from acpcbot.rules import replay
from agents.registry import entrant, known_strategies
from dealer.analysis import read_log
from dealer.analysis.aivat import aivat_half
from dealer.running import MatchRequest, run_match
from dealer.web.logs import HandFilter, HandIndex, LogTail, curve, twin_of

REFERENCE = "logs/deterministic/limit2p.seed42.n1000.Alice_hash-Bob_raiser.log"


def _state_lines(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.startswith("STATE:")]


def test_every_hand_of_a_reference_log_is_its_state_line_step_by_step(vectors: Path) -> None:
    path = vectors / REFERENCE
    index = HandIndex.read(path)
    lines = _state_lines(path)
    assert index.hands == len(lines) == 1000
    assert index.players() == ["Alice", "Bob"] and not index.has_decisions
    game = bundled_game()
    for number in (0, 1, 3, 999):
        hand = index.hand(number)
        record = parse_state_line(lines[number], game)
        assert hand["line"] == lines[number]
        cards = "|".join("".join(h) for h in hand["holes"])
        cards += "".join("/" + "".join(group) for group in hand["board"][1:])
        rounds: dict[int, str] = {}
        for step in hand["steps"]:
            rounds[step["round"]] = rounds.get(step["round"], "") + step["action"]
        betting = "/".join(rounds.get(r, "") for r in range(len(record.betting)))
        assert f"STATE:{number}:{betting}:{cards}:" in lines[number]
        state = replay(game, record.betting, number)
        assert hand["pot"] == state.pot == hand["steps"][-1]["pot"]
        assert hand["aivat"] is None


def test_filters_largest_pots_showdowns_losses_and_a_number(vectors: Path) -> None:
    index = HandIndex.read(vectors / REFERENCE)
    total, by_pot = index.select(HandFilter(order="pot", limit=50))
    assert total == 1000 and len(by_pot) == 50
    assert [r.pot for r in by_pot] == sorted((r.pot for r in by_pot), reverse=True)
    everything = (
        index.select(HandFilter(limit=500))[1] + index.select(HandFilter(offset=500, limit=500))[1]
    )
    assert by_pot[0].pot == max(r.pot for r in everything)
    showdowns, rows = index.select(HandFilter(showdown=True, limit=500))
    assert all(r.showdown for r in rows)
    assert showdowns == sum(r.showdown for r in everything)
    lost, rows = index.select(HandFilter(order="loss", player="Bob", limit=500))
    values = [r.values[r.names.index("Bob")] for r in rows]
    assert lost == sum(r.values[r.names.index("Bob")] < 0 for r in everything)
    assert values == sorted(values) and all(v < 0 for v in values)
    assert [r.number for r in index.select(HandFilter(number=777))[1]] == [777]
    assert index.select(HandFilter(number=5000)) == (0, [])
    with pytest.raises(AcpcError):
        HandFilter(order="loss")
    with pytest.raises(AcpcError, match="no hand"):
        index.hand(5000)


def test_our_log_with_its_probs_gives_every_decision_and_the_aivat_value(
    tmp_path: Path,
) -> None:
    request = MatchRequest(
        entrant("example"), entrant("always-call"), hands=40, seed=9, aivat=True,
        out=tmp_path / "m", jobs=1,
    )  # fmt: skip
    run_match(request)
    path = tmp_path / "m" / request.plan().log_name(0)
    index = HandIndex.read(path)
    assert index.has_decisions
    game = bundled_game()
    whole = aivat_half(
        read_log(path), game, "example", oracles=known_strategies(["always-call"], game)
    )
    expected = dict(zip(whole.hand_numbers, whole.values, strict=True))
    for number in (0, 17, 39):
        hand = index.hand(number, known_strategies, aivat=True)
        said = [step["probabilities"] for step in hand["steps"]]
        assert all(p is not None and abs(sum(p) - 1) < 1e-9 for p in said)
        caller = [p for p, s in zip(said, hand["steps"], strict=True) if s["name"] == "always-call"]
        assert all(p == [0.0, 1.0, 0.0] for p in caller)
        position = hand["names"].index("example")
        assert hand["aivat"][position] == pytest.approx(expected[number], abs=1e-3)
        assert hand["aivat"][0] == -hand["aivat"][1]


def test_the_game_a_header_names_is_read_beside_the_log_only(vectors: Path, tmp_path: Path) -> None:
    """The replay reads a log's game as every reader does (acpcbot.logreader.game_of_log):
    by the file name its header gives, beside the log, never where the header points."""
    (tmp_path / "logs").mkdir()
    (tmp_path / "games").mkdir()
    log = tmp_path / "logs" / "l.log"
    text = (vectors / REFERENCE).read_text()
    log.write_text(text.replace("holdem.limit.2p.reverse_blinds.game", "../games/mine.game", 1))
    (tmp_path / "games" / "mine.game").write_text(bundled_game().to_text())
    with pytest.raises(AcpcError, match=r"no mine\.game beside it, nor a bundled game"):
        HandIndex.read(log)  # not looked for where the header points
    (tmp_path / "logs" / "mine.game").write_text(bundled_game().to_text())
    assert HandIndex.read(log).hands == 1000  # beside the log: read


def test_a_growing_log_is_read_as_it_grows(vectors: Path, tmp_path: Path) -> None:
    source = (vectors / REFERENCE).read_bytes()
    log = tmp_path / "g.log"
    log.write_bytes(b"")
    tail = LogTail(log)
    assert not tail.update() and tail.hands == 0
    cut = source.index(b"STATE:10:") + 7  # in the middle of hand 10's line
    log.write_bytes(source[:cut])
    assert tail.update() and tail.hands == 10 and tail.names == ("Alice", "Bob")
    assert tail.game == bundled_game()
    log.write_bytes(source)
    assert tail.update() and tail.hands == 1000 and tail.score
    whole = read_log(log)
    assert list(tail.chips["Alice"]) == list(whole.chips["Alice"])
    assert not tail.update()


def test_a_curve_has_its_points_thinned_and_its_band_around_it() -> None:
    shown = curve([10.0] * 1000 + [-10.0] * 1000, 10, points=100)
    assert len(shown["hands"]) == 100 and shown["hands"][-1] == 2000
    assert shown["bb"][49] == 1000 * 10 / 10 and shown["bb"][-1] == 0
    assert all(
        lo <= bb <= hi for lo, bb, hi in zip(shown["low"], shown["bb"], shown["high"], strict=True)
    )


def test_the_other_half_of_a_duplicate_pair_is_found_beside_a_log(vectors: Path) -> None:
    folder = vectors / "logs" / "deterministic"
    first = folder / "limit2p.seed42.n1000.Alice_hash-Bob_raiser.log"
    second = folder / "limit2p.seed42.n1000.Bob_raiser-Alice_hash.log"
    assert twin_of(first) == second and twin_of(second) == first
    assert twin_of(folder / "limit2p.seed1.n1000.Alice_caller-Bob_caller.log") is None
