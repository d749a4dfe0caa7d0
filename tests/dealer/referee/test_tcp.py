"""Our dealer over real loopback sockets against the reference's recorded bytes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from acpcbot.game import LIMIT_HOLDEM, NOLIMIT_HOLDEM, Game, bundled_game
from acpcbot.protocol.logfile import parse_header, parse_score_line
from dealer.referee.config import MatchConfig
from tests.dealer.conftest import DETERMINISTIC, DeterministicMatch
from tests.dealer.referee.scripted import ScriptedClient
from tests.dealer.referee.tcp_harness import Client, run_tcp_match


@pytest.mark.parametrize(
    "spin_s",
    [
        pytest.param(0.0, id="blocking-reads"),
        pytest.param(200e-6, id="spinning-reads", marks=pytest.mark.slow),  # spins on purpose
    ],
)
async def test_scripted_clients_over_tcp_write_the_reference_log(
    vectors: Path, limit_game: Game, spin_s: float
) -> None:
    match = DETERMINISTIC[0]
    config = MatchConfig(
        match.match_name, limit_game, "holdem.limit.2p.reverse_blinds.game", 1000, match.seed,
        match.names,
    )  # fmt: skip
    clients = [ScriptedClient(limit_game, policy) for policy in match.policies]
    outcome = await run_tcp_match(config, [c.play for c in clients], spin_s=spin_s)
    assert outcome.error is None and outcome.messages == []
    assert outcome.log == (vectors / "logs" / "deterministic" / match.file).read_bytes()


class ReplayingClient:
    """Sends a recorded client's bytes back: its VERSION line, then each recorded reply as
    soon as the state it answers arrives. Keeps every byte it receives."""

    def __init__(self, recorded: bytes) -> None:
        lines = recorded.split(b"\n")
        self.version = lines[0] + b"\n"
        self.replies = [line + b"\n" for line in lines[1:] if line]
        self.received = bytearray()

    async def play(self, port: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(self.version)
        while raw := await reader.readline():
            self.received += raw
            state = raw.rstrip(b"\r\n")
            if self.replies and self.replies[0].startswith(state + b":"):
                writer.write(self.replies.pop(0))
        writer.close()


@pytest.mark.parametrize(
    "transcript",
    [
        "limit2p.seed42.n50.Alice_hash-Bob_raiser",
        "limit2p.seed42.n50.example",
        "nolimit2p.seed42.n50.example",
    ],
)
@pytest.mark.parametrize("hold_idle", [False, True], ids=["default", "hold-idle"])
async def test_every_byte_sent_equals_the_reference_transcript(
    vectors: Path, transcript: str, hold_idle: bool
) -> None:
    folder = vectors / "transcripts" / transcript
    reference_log = (folder / "dealer.log").read_text().splitlines()
    header = parse_header(reference_log[:4])
    game = bundled_game(NOLIMIT_HOLDEM if transcript.startswith("nolimit") else LIMIT_HOLDEM)
    config = MatchConfig(
        header.match_name, game, header.game_path, header.hands, header.seed,
        parse_score_line(reference_log[-1]).names,
    )  # fmt: skip
    clients = [
        ReplayingClient((folder / f"seat{seat}.player_to_dealer.bin").read_bytes())
        for seat in (1, 2)
    ]
    outcome = await run_tcp_match(config, [c.play for c in clients], hold_idle=hold_idle)
    assert outcome.error is None
    assert outcome.log == (folder / "dealer.log").read_bytes()
    assert outcome.score == (folder / "dealer.stdout.txt").read_text().strip()
    for seat, client in enumerate(clients, start=1):
        assert bytes(client.received) == (folder / f"seat{seat}.dealer_to_player.bin").read_bytes()
        assert client.replies == []


@pytest.mark.parametrize("match", [DETERMINISTIC[2], DETERMINISTIC[3]], ids=lambda m: m.file)
async def test_acpcbot_clients_over_tcp_write_the_reference_log(
    vectors: Path, limit_game: Game, match: DeterministicMatch
) -> None:
    """The real acpcbot client with our agents, against our dealer over loopback."""
    from acpcbot.client import play_match
    from agents.registry import create_agent

    config = MatchConfig(
        match.match_name, limit_game, "holdem.limit.2p.reverse_blinds.game", 1000, match.seed,
        match.names,
    )  # fmt: skip

    def client(agent: str) -> Client:
        async def play(port: int) -> None:
            await play_match("127.0.0.1", port, create_agent(agent), game=limit_game)

        return play

    outcome = await run_tcp_match(config, [client(agent) for agent in match.agents])
    assert outcome.error is None and outcome.messages == []
    assert outcome.log == (vectors / "logs" / "deterministic" / match.file).read_bytes()
