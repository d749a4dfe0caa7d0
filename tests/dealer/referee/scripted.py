"""Scripted raw-socket clients for the dealer tests: the corpus's policies and its probes.

A :class:`ScriptedClient` speaks the protocol with plain asyncio streams (no acpcbot
client), so it can misbehave exactly as ``robustness/probes.json`` describes: overrides
keyed by ``"<hand>:<betting>"`` replace the normal reply with raw bytes (``{STATE}`` is the
received state, ``{LSTATE}`` that state in lower case), or with ``CLOSE`` (disconnect
instead of replying), ``SENDCLOSE`` (reply, then disconnect) and ``SLEEP`` (reply late).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from acpcbot.game import Game
from acpcbot.protocol.matchstate import decode_match_state
from acpcbot.rules import HandState


def policy_action(policy: str, text: str, hand_number: int, position: int, hand: HandState) -> str:
    """The corpus README's scripted policies."""
    if policy == "caller":
        return "c"
    if policy == "alwaysr":
        return "r"
    if policy == "raiser":
        return "r" if hand.can_raise() else "c"
    if policy == "hash":
        betting = text.split(":")[3]
        v = (hand_number * 7 + len(betting) * 3 + position * 5) % 10
        if v == 0 and hand.can_fold():
            return "f"
        if v >= 6 and hand.can_raise():
            return "r"
        return "c"
    raise ValueError(f"unknown policy {policy}")


@dataclass
class ScriptedClient:
    """One seat's scripted player."""

    game: Game
    policy: str = "caller"
    overrides: dict[str, str | None] = field(default_factory=dict)
    version: bytes | None = b"VERSION:2.0.0\r\n"
    sleep: float = 0.0
    received: list[bytes] = field(default_factory=list)
    """Every line received, without its line ending."""

    async def play(self, port: int, host: str = "127.0.0.1") -> None:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            await self._play(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    async def _play(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if "version" in self.overrides and self.overrides["version"] is None:
            await asyncio.sleep(self.sleep)
            return
        version = self.overrides.get("version")
        writer.write(version.encode() if isinstance(version, str) else (self.version or b""))
        while True:
            raw = await reader.readline()
            if not raw:
                return
            text = raw.decode("latin-1").rstrip("\r\n")
            self.received.append(text.encode("latin-1"))
            state, hand = decode_match_state(text, self.game)
            if hand.finished or hand.current_player != state.position:
                continue
            key = f"{state.hand_number}:{text.split(':')[3]}"
            override = self.overrides.get(key)
            if override == "CLOSE":
                return
            if override == "SLEEP":
                await asyncio.sleep(self.sleep)
                override = None
            if override is not None and override != "SENDCLOSE":
                payload = override.replace("{STATE}", text).replace("{LSTATE}", text.lower())
                writer.write(payload.encode("latin-1"))
                continue
            action = policy_action(self.policy, text, state.hand_number, state.position, hand)
            writer.write(f"{text}:{action}\r\n".encode())
            if override == "SENDCLOSE":
                await writer.drain()
                return
