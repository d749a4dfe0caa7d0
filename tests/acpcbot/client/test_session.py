"""The asyncio client against a real TCP dealer on 127.0.0.1 that replays the reference
dealer's recorded bytes: byte-identical answers however the bytes arrive, the time budget,
and the legality guard."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from acpcbot.actions import CALL, FOLD, Action
from acpcbot.client import MatchSummary, play_match
from acpcbot.errors import BadStateError, ConnectError
from acpcbot.game import Game
from acpcbot.player import BettingView
from acpcbot.protocol.matchstate import MatchState
from agents.base import Agent
from agents.registry import create_agent
from agents.scripted import HashPlayer
from tests.acpcbot.client.replay_dealer import (
    HASH_RAISER,
    Chunking,
    ReplayDealer,
    SeatScript,
    serving,
)

AGENT_OF_SEAT = {1: "hash", 2: "always-raise"}
"""The corpus's Alice (hash) and Bob (raiser)."""
SEAT_CHIPS = {1: 1155.0, 2: -1155.0}
"""The recorded match's SCORE line."""


@pytest.fixture(scope="module")
def match_dir(vectors: Path) -> Path:
    return vectors / "transcripts" / HASH_RAISER


def _script(match_dir: Path, seat: int) -> SeatScript:
    script = SeatScript.load(match_dir, seat)
    # capture.jsonl holds exactly the bytes of the .bin files, in wire order.
    assert script.to_player == (match_dir / f"seat{seat}.dealer_to_player.bin").read_bytes()
    assert script.from_player == (match_dir / f"seat{seat}.player_to_dealer.bin").read_bytes()
    return script


async def _play(
    dealer: ReplayDealer,
    player: Agent,
    game: Game,
    budget_ms: float | None = None,
    read_timeout: float = 10,
) -> MatchSummary:
    async with serving(dealer.handle) as port:
        async with asyncio.timeout(20):
            return await play_match(
                "127.0.0.1", port, player, game=game, budget_ms=budget_ms, read_timeout=read_timeout
            )


@pytest.mark.parametrize("chunking", [Chunking.LINES, Chunking.AWKWARD])
async def test_golden_both_seats_answer_byte_identical(
    match_dir: Path, limit_game: Game, chunking: Chunking
) -> None:
    dealers = {seat: ReplayDealer(_script(match_dir, seat), chunking, seed=seat) for seat in (1, 2)}
    async with asyncio.TaskGroup() as match:
        tasks = {
            seat: match.create_task(_play(dealer, create_agent(AGENT_OF_SEAT[seat]), limit_game))
            for seat, dealer in dealers.items()
        }
    for seat, dealer in dealers.items():
        summary = tasks[seat].result()
        recorded = (match_dir / f"seat{seat}.player_to_dealer.bin").read_bytes()
        assert dealer.finished
        assert bytes(dealer.received) == recorded
        assert summary.hands == 50
        assert summary.chips == SEAT_CHIPS[seat]
        assert summary.mbb_per_game == 1000 * SEAT_CHIPS[seat] / 10 / 50
        assert summary.decisions == recorded.count(b"\n") - 1  # all but the VERSION line
        assert summary.fallback_decisions == 0


async def test_byte_at_a_time(match_dir: Path, limit_game: Game) -> None:
    script = _script(match_dir, 1).first_hands(4)
    dealer = ReplayDealer(script, Chunking.BYTES)
    summary = await _play(dealer, create_agent("hash"), limit_game)
    assert bytes(dealer.received) == script.from_player
    assert summary.hands == 4


def _lf_and_comments(line: bytes) -> bytes:
    """Every other state ends in a bare LF; comments of both kinds come in between."""
    hand = int(line.split(b":")[2])
    if hand % 2:
        line = line.replace(b"\r\n", b"\n")
    if hand % 3 == 0:
        line = b"# a comment: MATCHSTATE:0:0:x\r\n;another\n" + line
    return line


@pytest.mark.parametrize("chunking", [Chunking.LINES, Chunking.AWKWARD])
async def test_comments_and_line_ends(
    match_dir: Path, limit_game: Game, chunking: Chunking
) -> None:
    script = _script(match_dir, 2).first_hands(12)
    dealer = ReplayDealer(script, chunking, rewrite=_lf_and_comments)
    summary = await _play(dealer, create_agent("always-raise"), limit_game)
    assert bytes(dealer.received) == script.from_player
    assert summary.hands == 12


class SlowOnceHash(HashPlayer):
    """The hash policy on the worker thread, asleep for ``delay`` s on its first decision."""

    decides_instantly = False

    def __init__(self, seed: int = 0, delay: float = 0.6) -> None:
        super().__init__(seed)
        self.delay = delay
        self.acted = 0
        self.observed = 0

    def observe(self, state: MatchState, betting: BettingView) -> None:
        self.observed += 1

    def act(self, state: MatchState, betting: BettingView) -> Action:
        self.acted += 1
        if self.acted == 1:
            time.sleep(self.delay)
        return super().act(state, betting)


async def test_a_slow_decision_is_answered_with_a_call_within_the_budget(
    match_dir: Path, limit_game: Game
) -> None:
    # Hash calls at its first decision, so the fallback matches the recording; the replay
    # then pauses until the late decision is over, so exactly one decision is late.
    script = _script(match_dir, 1)
    dealer = ReplayDealer(script, pause_after_answer={1: 0.7})
    agent = SlowOnceHash(delay=0.6)
    with capture_logs() as logs:
        summary = await _play(dealer, agent, limit_game, budget_ms=100)
    events = [entry["event"] for entry in logs]
    assert events.count("decision_over_budget") == events.count("late_decision_discarded") == 1
    assert dealer.answer_delays[0] < 0.4  # 0.1 s budget, not the agent's 0.6 s
    assert summary.fallback_decisions == 1
    assert summary.hands == 50
    # The late decision was discarded (never sent) and the agent kept playing.
    assert bytes(dealer.received) == script.from_player
    assert agent.acted == summary.decisions == 310
    assert agent.observed == script.to_player.count(b"\n")


async def test_the_read_timeout_counts_only_time_spent_waiting_for_the_dealer(
    match_dir: Path, limit_game: Game
) -> None:
    """A decision that takes longer than the read timeout (no budget) is not the dealer's
    silence."""
    script = _script(match_dir, 1).first_hands(3)
    dealer = ReplayDealer(script)
    summary = await _play(dealer, SlowOnceHash(delay=0.5), limit_game, read_timeout=0.25)
    assert bytes(dealer.received) == script.from_player
    assert summary.fallback_decisions == 0


class FoldsInsteadOfChecking(HashPlayer):
    """The hash policy, except that it folds where hash would check (always illegal)."""

    name = "folds-instead-of-checking"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.illegal = 0

    def act(self, state: MatchState, betting: BettingView) -> Action:
        action = super().act(state, betting)
        if action == CALL and not betting.can_fold():
            self.illegal += 1
            return FOLD
        return action


class Crashes(Agent):
    """Raises an exception instead of deciding, on its worker thread."""

    name = "crashes"

    def act(self, state: MatchState, betting: BettingView) -> Action:
        raise RuntimeError("agent bug")


async def test_illegal_actions_are_replaced_by_a_call(match_dir: Path, limit_game: Game) -> None:
    # Each illegal fold is replaced by the check hash would have made, so the answers must
    # reproduce the recording.
    script = _script(match_dir, 1)
    dealer = ReplayDealer(script)
    agent = FoldsInsteadOfChecking()
    with capture_logs() as logs:
        summary = await _play(dealer, agent, limit_game)
    # The first one in full, then a count at the 10th (not a line each: no flood).
    replaced = [entry for entry in logs if entry["event"] == "illegal_action_replaced"]
    assert len(replaced) == 1
    assert replaced[0]["reason"] == "fold when not facing a bet" and replaced[0]["sent"] == "c"
    again = [entry for entry in logs if entry["event"] == "illegal_action_replaced_again"]
    assert [entry["times"] for entry in again] == [10]
    assert bytes(dealer.received) == script.from_player
    assert summary.fallback_decisions == summary.illegal_decisions == agent.illegal > 10
    assert summary.failed_decisions == summary.over_budget_decisions == 0
    (final,) = [entry for entry in logs if entry["event"] == "fallback_decisions"]
    assert final["illegal"] == agent.illegal and final["failed"] == 0


async def test_a_failing_agent_still_answers_legally_and_is_logged_once(
    match_dir: Path, limit_game: Game
) -> None:
    script = _script(match_dir, 1).first_hands(5)
    dealer = ReplayDealer(script)
    with capture_logs() as logs:
        summary = await _play(dealer, Crashes(), limit_game, budget_ms=1000)
    answers = bytes(dealer.received).split(b"\r\n")[1:-1]
    assert len(answers) > 10 and all(answer.endswith(b":c") for answer in answers)
    assert summary.fallback_decisions == summary.decisions == len(answers)
    assert summary.failed_decisions == len(answers) and summary.illegal_decisions == 0
    events = [entry["event"] for entry in logs]
    # once with the traceback, again as a count at the 10th, and one line at the end
    (first,) = [entry for entry in logs if entry["event"] == "agent_failed"]
    assert isinstance(first["exc_info"], RuntimeError)
    assert events.count("agent_failed_again") == 1
    (final,) = [entry for entry in logs if entry["event"] == "fallback_decisions"]
    assert final["failed"] == len(answers)
    assert "failed" in str(summary) and f"{len(answers)} failed" in str(summary)


async def test_connection_refused(limit_game: Game) -> None:
    async with serving(ReplayDealer(SeatScript(())).handle) as port:
        pass  # the port is closed again
    with pytest.raises(ConnectError, match=f"cannot connect to 127.0.0.1:{port}"):
        await play_match("127.0.0.1", port, create_agent("hash"), game=limit_game)


def test_golden_on_uvloop(match_dir: Path, limit_game: Game) -> None:
    """The same match on uvloop (the ``fast`` extra), when it is installed."""
    pytest.importorskip("uvloop")
    from acpcbot.eventloop import run

    script = _script(match_dir, 1)
    dealer = ReplayDealer(script, Chunking.AWKWARD)
    summary = run(_play(dealer, create_agent("hash"), limit_game), uvloop=True)
    assert bytes(dealer.received) == script.from_player
    assert summary.chips == SEAT_CHIPS[1]


class InstantHash(SlowOnceHash):
    decides_instantly = True


@pytest.mark.parametrize("instant", [True, False], ids=["inline", "worker-thread"])
async def test_a_bad_state_after_good_ones_ends_the_match(limit_game: Game, instant: bool) -> None:
    """Both ways of running a player (in the read callback, or on its worker thread) answer
    the states before the bad one and then stop with the decoder's error."""
    answers: list[bytes] = []

    async def dealer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()  # VERSION
        writer.write(b"MATCHSTATE:1:0::|2hAc\r\n")
        answers.append(await reader.readline())
        writer.write(b"MATCHSTATE:1:0:c:|2hAc\r\nMATCHSTATE:1:0:cx:|2hAc\r\n")
        await reader.read()
        writer.close()

    player = InstantHash() if instant else SlowOnceHash(delay=0.0)
    async with serving(dealer) as port:
        with pytest.raises(BadStateError, match="bad action 'x' in betting 'cx'"):
            await play_match("127.0.0.1", port, player, game=limit_game, read_timeout=5)
    assert answers == [b"MATCHSTATE:1:0::|2hAc:c\r\n"]
    assert player.observed == 2  # the first state and the one after its own action
