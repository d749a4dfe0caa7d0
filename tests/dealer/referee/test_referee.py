from __future__ import annotations

import io
from pathlib import Path

import pytest

from acpcbot.actions import CALL, FOLD, RAISE, Action, ActionType
from acpcbot.game import Game
from acpcbot.protocol.logfile import parse_state_line
from agents.registry import create_agent
from dealer.referee.config import MatchConfig
from dealer.referee.faults import MatchAbortedError
from dealer.referee.inprocess import play_in_process
from dealer.referee.matchlog import MatchLog
from dealer.referee.referee import Referee
from dealer.referee.tlog import Transaction, TransactionLogError, read_transactions
from dealer.referee.transcript import Transcript
from tests.dealer.conftest import DETERMINISTIC, DeterministicMatch, referee_for_log


@pytest.mark.parametrize("match", DETERMINISTIC, ids=lambda m: m.match_name)
def test_in_process_logs_are_byte_identical_to_the_reference(
    vectors: Path, limit_game: Game, match: DeterministicMatch
) -> None:
    reference = vectors / "logs" / "deterministic" / match.file
    buffer = io.BytesIO()
    config = MatchConfig(
        match.match_name, limit_game, "holdem.limit.2p.reverse_blinds.game", 1000, match.seed,
        match.names,
    )  # fmt: skip
    log = MatchLog(buffer)
    log.header(config.header)
    referee = Referee(config, log=log)
    play_in_process(referee, [create_agent(name) for name in match.agents])
    assert buffer.getvalue() == reference.read_bytes()


def _example_logs(vectors: Path) -> list[Path]:
    logs = sorted((vectors / "logs" / "example_player").glob("*.log"))
    assert len(logs) == 5
    return logs


def test_replaying_example_player_actions_reproduces_every_state_line(vectors: Path) -> None:
    for path in _example_logs(vectors):
        buffer = io.BytesIO()
        referee = referee_for_log(path, buffer)
        for line in path.read_text().splitlines()[4:-1]:
            record = parse_state_line(line)
            assert record.hand_number == referee.hand_number
            for action in (a for round_ in record.betting for a in round_):
                assert referee.take(action) == action
            assert referee.hand.finished
            referee.finish_hand()
            referee.next_hand()
        assert referee.match_over
        referee.finish_match()
        assert buffer.getvalue() == path.read_bytes(), path.name


def test_replaying_the_reference_tlog_gives_its_score(vectors: Path) -> None:
    for path in sorted((vectors / "logs" / "example_player").glob("*.tlog")):
        log_path = path.with_suffix(".log")
        buffer = io.BytesIO()
        referee = referee_for_log(log_path, buffer)
        referee.replay(read_transactions(path, is_limit=True))
        assert referee.match_over
        assert referee.finish_match() == log_path.read_text().splitlines()[-1]
        assert buffer.getvalue() == log_path.read_bytes()


def test_replay_writes_every_finished_hand(vectors: Path) -> None:
    path = vectors / "logs" / "example_player" / "limit2p.seed42.n1000.Alice-Bob.tlog"
    transactions = read_transactions(path, is_limit=True)
    buffer = io.BytesIO()
    referee = referee_for_log(path.with_suffix(".log"), buffer)
    referee.replay(transactions[:41])
    written = [parse_state_line(line).hand_number for line in buffer.getvalue().decode().split("\n")
               if line.startswith("STATE")]  # fmt: skip
    assert written == list(range(referee.hand_number))
    assert referee.hand.actions != [[]]  # stopped in the middle of a hand


def test_replay_rejects_a_tlog_of_another_match(vectors: Path, limit_game: Game) -> None:
    path = vectors / "logs" / "example_player" / "limit2p.seed42.n1000.Alice-Bob.tlog"
    referee = Referee(MatchConfig("m", limit_game, "g", 2, 42, ("A", "B")))
    with pytest.raises(TransactionLogError, match="beyond the 2 hands"):
        referee.replay(read_transactions(path, is_limit=True))
    referee = Referee(MatchConfig("m", limit_game, "g", 2, 42, ("A", "B")))
    with pytest.raises(TransactionLogError, match="handId mismatch in transaction log: c 3"):
        referee.replay([Transaction(CALL, 3, 0, 0)])


def test_illegal_actions_become_calls_with_the_reference_warnings(limit_game: Game) -> None:
    reporter = Transcript(None)
    referee = Referee(MatchConfig("m", limit_game, "g", 1, 42, ("A", "B")), reporter=reporter)
    referee.take(CALL)
    assert referee.take(FOLD) == CALL  # the big blind may check: a fold is repaired
    assert referee.take(None) == CALL
    assert referee.take(RAISE, unknown="x") == CALL
    assert reporter.messages == [
        "WARNING: invalid action, changed to call",
        "WARNING: bad action format in response, changed to call",
        "WARNING: invalid action, changed to call",
    ]


def test_strict_mode_ends_the_match_naming_the_seat_and_line(limit_game: Game) -> None:
    config = MatchConfig("m", limit_game, "g", 1, 42, ("A", "B"), strict=True)
    referee = Referee(config)
    referee.take(CALL)
    with pytest.raises(MatchAbortedError) as caught:
        referee.take(FOLD, line="MATCHSTATE:0:0:c:7d3d|:f")
    assert caught.value.seat == 0
    assert caught.value.lines == (
        "ERROR: seat 1 sent a bad reply (--strict): invalid action: 'MATCHSTATE:0:0:c:7d3d|:f'",
    )
    with pytest.raises(MatchAbortedError, match=r"seat 1 .*unexpected 'XYZ'"):
        referee.take(CALL, trailing="XYZ")


def test_nolimit_raises_are_clamped(nolimit_game: Game) -> None:
    reporter = Transcript(None)
    referee = Referee(MatchConfig("m", nolimit_game, "g", 1, 42, ("A", "B")), reporter=reporter)
    assert referee.take(Action(ActionType.RAISE, 150)) == Action(ActionType.RAISE, 200)
    assert referee.take(Action(ActionType.RAISE, 10**6)) == Action(ActionType.RAISE, 20000)
    assert reporter.messages == [
        "WARNING: raise of 150 increased to 200",
        "WARNING: raise of 1000000 decreased to 20000",
    ]


def test_seats_rotate_unless_fixed(limit_game: Game) -> None:
    rotating = Referee(MatchConfig("m", limit_game, "g", 3, 1, ("A", "B")))
    fixed = Referee(MatchConfig("m", limit_game, "g", 3, 1, ("A", "B"), fixed_seats=True))
    seen = []
    for referee in (rotating, fixed):
        positions = []
        while not referee.match_over:
            positions.append(referee.position_of(0))
            while not referee.hand.finished:
                referee.take(CALL)
            referee.finish_hand()
            referee.next_hand()
        seen.append(positions)
    assert seen == [[0, 1, 0], [0, 0, 0]]


def test_games_ranked_at_the_showdown_log_what_the_rules_say() -> None:
    # Leduc-sized hands are ranked by rank_hand when a showdown happens, not in batches;
    # every logged line must still agree with its own replay and ranking.
    from acpcbot.handeval import rank_hand
    from acpcbot.rules import replay
    from tests.dealer.conftest import LEDUC_LIKE

    buffer = io.BytesIO()
    referee = Referee(MatchConfig("l", LEDUC_LIKE, "l.game", 200, 9, ("A", "B")),
                         log=MatchLog(buffer))  # fmt: skip
    play_in_process(referee, [create_agent("example", 1), create_agent("always-call")])
    showdowns = 0
    for line in buffer.getvalue().decode().splitlines()[:-1]:
        record = parse_state_line(line, LEDUC_LIKE)
        hand = replay(LEDUC_LIKE, record.betting, record.hand_number)
        ranks = None
        if hand.is_showdown:
            showdowns += 1
            ranks = [rank_hand(h + record.board_cards) for h in record.hole_cards]
        assert hand.values(ranks) == record.values, line
    assert showdowns > 50
