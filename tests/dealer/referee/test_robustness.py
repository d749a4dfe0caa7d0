"""Every probe of ``robustness/probes.json`` against our dealer, with raw misbehaving clients.

Content errors must give the reference's outcome (or, with ``--strict``, end the match
naming the seat and the line); transport errors must end the match cleanly with an error
naming the seat, and every finished hand logged.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from acpcbot.game import bundled_game
from dealer.referee.config import MatchConfig, TimeLimits
from tests.dealer.referee.scripted import ScriptedClient
from tests.dealer.referee.tcp_harness import Outcome, run_tcp_match

_ABBREVIATED = re.compile(r"^(.*?)\.\.\.\[(\d+) chars total\]\.\.\.(.*)$", re.DOTALL)
TRANSPORT_PROBES = (15, 16, 17, 20, 21, 22)
"""Probes where the reference ends the match (or dies); the others are content probes."""
ACCEPTED_IN_STRICT = {"p03", "p14"}
"""Content probes the strict mode accepts: aliases and LF line endings are the protocol."""


def _expand(text: str | None) -> str | None:
    """The corpus abbreviates long payloads as ``head...[N chars total]...tail``."""
    if text is None:
        return None
    match = _ABBREVIATED.match(text)
    if match is None:
        return text
    head, total, tail = match.group(1), int(match.group(2)), match.group(3)
    return head + head[-1] * (total - len(head) - len(tail)) + tail


def _probes(vectors: Path) -> list[dict[str, Any]]:
    probes: list[dict[str, Any]] = json.loads((vectors / "robustness" / "probes.json").read_text())
    assert len(probes) == 25
    return probes


def _config(
    probe: dict[str, Any], *, strict: bool = False, hands: int | None = None
) -> MatchConfig:
    options = probe["dealer_options"]
    limits = TimeLimits()
    for flag, value in zip(options[::2], options[1::2], strict=True):
        field = {"--t_response": "response_ms", "--t_hand": "hand_ms"}[flag]
        limits = replace(limits, **{field: int(value)})
    return MatchConfig(
        probe["probe"], bundled_game(probe["game"]), probe["game"], hands or probe["hands"],
        probe["seed"], (probe["seat1"]["name"], probe["seat2"]["name"]), limits=limits,
        strict=strict,
    )  # fmt: skip


def _clients(probe: dict[str, Any]) -> list[ScriptedClient]:
    game = bundled_game(probe["game"])
    clients = []
    for seat in ("seat1", "seat2"):
        spec = probe[seat]
        raw = dict(spec["overrides"])
        sleep = float(raw.pop("sleep", 0))
        overrides = {key: _expand(value) for key, value in raw.items()}
        clients.append(ScriptedClient(game, spec["policy"], overrides, sleep=sleep))
    return clients


async def _run(probe: dict[str, Any], *, strict: bool = False) -> Outcome:
    return await run_tcp_match(_config(probe, strict=strict), [c.play for c in _clients(probe)])


@pytest.fixture(params=range(25), ids=lambda i: f"probe{i + 1:02d}")
def probe(request: pytest.FixtureRequest, vectors: Path) -> dict[str, Any]:
    probe: dict[str, Any] = _probes(vectors)[request.param]
    return probe


async def test_probe_gives_the_reference_outcome(probe: dict[str, Any], vectors: Path) -> None:
    outcome = await _run(probe)
    reference_log = (vectors / "robustness" / f"{probe['probe']}.dealer.log").read_bytes()
    expected = probe["dealer_messages"]
    if probe["dealer_exit_status"] == 0:
        assert outcome.error is None
        assert outcome.score == probe["dealer_stdout"].strip()
        assert outcome.messages == expected
        assert outcome.log == reference_log
        return
    # The reference ends the match (or dies of SIGPIPE): we end it cleanly, naming seat 2.
    assert outcome.error is not None and outcome.error.seat == 1
    assert outcome.score is None
    assert "seat 2" in outcome.messages[0]
    if expected:  # the reference's own first words, where it has any
        assert outcome.messages[0].startswith(expected[0].split(" HELLO")[0])
        assert outcome.messages[1:] == expected[1:] or probe["probe"].startswith("p21")
    if probe["dealer_killed_by_signal"] is None:
        assert outcome.log == reference_log  # header only: every probe fails in hand 0
    else:  # the reference died before flushing even its header
        assert reference_log == b"" and outcome.log.startswith(b"# name/game/hands/seed p17")


@pytest.mark.parametrize("number", [n for n in range(1, 26) if n not in TRANSPORT_PROBES])
async def test_strict_mode_ends_the_match_on_any_bad_reply(vectors: Path, number: int) -> None:
    probe = _probes(vectors)[number - 1]
    assert probe["probe"].startswith(f"p{number:02d}_")
    outcome = await _run(probe, strict=True)
    if probe["probe"][:3] in ACCEPTED_IN_STRICT:
        assert outcome.error is None and outcome.score == probe["dealer_stdout"].strip()
        return
    faulty = 0 if probe["seat1"]["overrides"] or probe["seat1"]["policy"] == "alwaysr" else 1
    assert outcome.error is not None and outcome.error.seat == faulty, outcome.messages
    assert outcome.messages == [outcome.error.lines[0]]  # no warning: the first fault ends it
    message = outcome.error.lines[0]
    assert message.startswith(f"ERROR: seat {faulty + 1} ")
    assert "(--strict)" in message or "version" in message


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ("CLOSE", "ERROR: could not get action from seat 2"),
        ("SLEEP", "ERROR: could not get action from seat 2"),
    ],
)
async def test_transport_faults_keep_every_finished_hand(
    vectors: Path, override: str, expected: str
) -> None:
    probe = _probes(vectors)[15]  # p16: caller vs caller, seed 42
    config = _config(probe, hands=5)
    config = replace(config, limits=TimeLimits(response_ms=300))
    game = config.game
    faulty = ScriptedClient(game, "caller", {"2:": override, "3:": override}, sleep=2)
    outcome = await run_tcp_match(config, [ScriptedClient(game).play, faulty.play])
    assert outcome.error is not None and outcome.messages[0] == expected
    assert [line.split(":")[1] for line in outcome.logged_hands] == ["0", "1"]


async def test_an_idle_seat_that_disconnects_ends_the_match_cleanly(vectors: Path) -> None:
    probe = _probes(vectors)[16]  # p17: the reference dies of SIGPIPE
    config = _config(probe, hands=6)
    game = config.game
    faulty = ScriptedClient(game, "caller", {"2:cc/c": "SENDCLOSE"})
    outcome = await run_tcp_match(config, [ScriptedClient(game).play, faulty.play])
    assert outcome.error is not None and outcome.error.seat == 1
    assert outcome.messages[0] in (
        "ERROR: could not get action from seat 2",
        "ERROR: could not send state to seat 2: it disconnected",
    )
    assert [line.split(":")[1] for line in outcome.logged_hands][:2] == ["0", "1"]


async def test_the_version_line_has_a_time_limit(vectors: Path) -> None:
    probe = _probes(vectors)[20]  # p21: no VERSION; the reference waits forever
    config = replace(_config(probe), limits=TimeLimits(response_ms=200))
    silent = ScriptedClient(config.game, "caller", {"version": None}, sleep=1.5)
    outcome = await run_tcp_match(config, [ScriptedClient(config.game).play, silent.play])
    assert outcome.messages[:1] == ["ERROR: could not read version string from seat 2"]
    assert outcome.messages[1].endswith("timeout 0.2")


async def test_no_connection_within_the_start_timeout(vectors: Path) -> None:
    config = _config(_probes(vectors)[0])
    outcome = await run_tcp_match(config, [_idle, _idle], start_timeout_ms=100)
    assert outcome.messages == ["ERROR: timed out waiting for seat 1 to connect"]


async def _idle(port: int) -> None:
    del port
