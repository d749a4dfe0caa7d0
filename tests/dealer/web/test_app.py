"""The web server over real sockets: what it serves, what it refuses (paths outside the given
folders, other hosts, other origins, a missing token), and a person's play over its
WebSocket: only legal actions taken, the rematch with the seats swapped, a page that goes
away timing out as the dealer's rules say."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import random
import shutil
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from acpcbot.actions import ActionType
from acpcbot.errors import AcpcError
from acpcbot.game import bundled_game
from acpcbot.protocol.logfile import parse_state_line
from acpcbot.rules import HandState
from agents.registry import entrant
from dealer.web import WebSite, serve
from tests.dealer.web.server import raw_get, running

REFERENCE = "logs/deterministic/limit2p.seed42.n1000.Alice_hash-Bob_raiser.log"
SECRET = "the-secret-text"


@pytest.fixture
def results(tmp_path: Path, vectors: Path) -> Path:
    folder = tmp_path / "results"
    folder.mkdir()
    shutil.copy(vectors / REFERENCE, folder / "reference.log")
    (tmp_path / "secret.log").write_text(SECRET)
    (folder / "outside-link.log").symlink_to(tmp_path / "secret.log")
    return folder


@pytest.mark.parametrize(
    "target",
    [
        "/../../etc/passwd",
        "/../secret.log",
        "/static/../../../../etc/passwd",
        "/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/static/..%2f..%2f..%2f..%2fetc%2fpasswd",
        "/files/results/../secret.log",
        "/files/results/..%2fsecret.log",
        "/files/results/%2e%2e/secret.log",
        "/files/results/outside-link.log",
        "/files/results//etc/passwd",
        "/api/log?root=results&path=../secret.log",
        "/api/log?root=results&path=/etc/passwd",
        "/api/hand?root=results&path=..%2fsecret.log&number=0",
        "/api/log?root=results&path=outside-link.log",
        "/api/log?root=..&path=secret.log",
    ],
)
async def test_paths_outside_the_folders_are_refused(
    results: Path, tmp_path: Path, target: str
) -> None:
    async with running([results], tmp_path / "played") as server:
        status, body = await raw_get(server.port, target)
    assert status in (400, 403, 404), (target, status)
    assert SECRET.encode() not in body and b"root:" not in body


async def test_the_page_its_files_and_a_log_inside_are_served(
    results: Path, tmp_path: Path
) -> None:
    async with running([results], tmp_path / "played") as server:
        status, page = await raw_get(server.port, "/")
        assert status == 200 and b"/static/app.js" in page
        assert b"http" not in page.replace(b"http-equiv", b"")  # nothing from elsewhere
        status, script = await raw_get(server.port, "/static/vendor/uPlot.iife.min.js")
        assert status == 200 and b"uPlot" in script
        status, log = await raw_get(server.port, "/files/results/reference.log")
        assert status == 200 and log.startswith(b"# name/game/hands/seed")
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{server.url}/api/files") as response:
                found = await response.json()
                assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")
            assert {"kind": "log", "root": "results", "path": "reference.log"}.items() <= next(
                f for f in found if f["path"] == "reference.log"
            ).items()
            query = "root=results&path=reference.log&order=pot&limit=3"
            async with session.get(f"{server.url}/api/log?{query}") as response:
                hands = await response.json()
            assert hands["hands"] == 1000 and len(hands["rows"]) == 3
            async with session.get(f"{server.url}/api/log?{query}&offset=-1") as response:
                assert response.status == 400


async def test_a_log_given_by_itself_is_served_and_nothing_beside_it(
    results: Path, tmp_path: Path
) -> None:
    async with running([results / "reference.log"], tmp_path / "played") as server:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{server.url}/api/info") as response:
                assert (await response.json())["folders"] == [
                    {"key": "reference.log", "name": "reference.log"}
                ]
            async with session.get(f"{server.url}/api/files") as response:
                assert [(f["root"], f["path"]) for f in await response.json()] == [
                    ("reference.log", "reference.log")
                ]
            query = "root=reference.log&path=reference.log&limit=1"
            async with session.get(f"{server.url}/api/log?{query}") as response:
                assert (await response.json())["hands"] == 1000
        status, log = await raw_get(server.port, "/files/reference.log/reference.log")
        assert status == 200 and log.startswith(b"# name/game/hands/seed")
        for beside in ("outside-link.log", "", "../secret.log"):
            status, body = await raw_get(server.port, f"/files/reference.log/{beside}")
            assert status in (400, 403, 404) and SECRET.encode() not in body, beside


async def test_another_host_name_is_refused_on_loopback(results: Path, tmp_path: Path) -> None:
    async with running([results], tmp_path / "played") as server:
        assert (await raw_get(server.port, "/api/info", host="evil.example"))[0] == 421
        assert (await raw_get(server.port, "/api/info", host=f"evil.example:{server.port}"))[
            0
        ] == 421
        assert (await raw_get(server.port, "/api/info", host=f"localhost:{server.port}"))[0] == 200
        assert (await raw_get(server.port, "/api/info", host=f"[::1]:{server.port}"))[0] == 200


async def test_a_token_is_asked_for_and_taken_from_the_url_a_cookie_or_a_header(
    results: Path, tmp_path: Path
) -> None:
    async with running([results], tmp_path / "played", token="t0k3n", host="0.0.0.0") as server:
        assert (await raw_get(server.port, "/api/info"))[0] == 401
        assert (await raw_get(server.port, "/api/info?token=wrong"))[0] == 401
        assert (await raw_get(server.port, "/api/info", host="anything.example"))[0] == 401
        # A jar that keeps a cookie of an IP address, as browsers do (aiohttp's does not).
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.get(f"{server.url}/?token=t0k3n") as response:
                assert response.status == 200
            async with session.get(f"{server.url}/api/info") as response:  # the cookie
                assert response.status == 200
        bearer = {"Authorization": "Bearer t0k3n"}
        async with aiohttp.ClientSession(headers=bearer) as s, s.get(f"{server.url}/api/info") as r:
            assert r.status == 200


async def test_a_post_from_another_origin_is_refused(results: Path, tmp_path: Path) -> None:
    async with running([results], tmp_path / "played") as server, aiohttp.ClientSession() as s:
        body = {"opponent": "always-call", "hands": 1}
        headers = {"Origin": "http://evil.example"}
        async with s.post(f"{server.url}/api/play", json=body, headers=headers) as response:
            assert response.status == 403
        async with s.post(f"{server.url}/api/play", json={"opponent": "no-such-agent"}) as r:
            assert r.status == 400 and "unknown agent" in (await r.json())["error"]
    assert not (tmp_path / "played").exists()


def _everything(folder: Path) -> set[Path]:
    return set(folder.rglob("*"))


@pytest.mark.parametrize(
    "name",
    [
        "../../etc",
        "a/b",
        "/tmp/x",
        "a\\..\\..\\b",
        "..",
        "x..y",
        "nul\0byte",
        "tab\tname",
        "bell\x07",
        "x" * 65,
    ],
)
async def test_a_play_name_that_could_lead_out_of_the_play_folder_is_refused(
    results: Path, tmp_path: Path, name: str
) -> None:
    played = tmp_path / "a" / "b" / "played"
    before = _everything(tmp_path)
    async with running([results], played) as server, aiohttp.ClientSession() as s:
        body = {"opponent": "always-call", "hands": "5", "name": name}
        async with s.post(f"{server.url}/api/play", json=body) as response:
            status, said = response.status, await response.json()
    assert status == 400, said
    assert said["error"].startswith("name: 1 to 64 characters, without '/'"), said
    assert _everything(tmp_path) == before  # nothing made, in the play folder or elsewhere


async def test_a_name_of_64_characters_plays_in_the_play_folder(
    results: Path, tmp_path: Path
) -> None:
    played = tmp_path / "played"
    async with running([results], played) as server, aiohttp.ClientSession() as s:
        body = {"opponent": "always-call", "hands": "1", "name": "n" * 64, "duplicate": False}
        async with s.post(f"{server.url}/api/play", json=body) as response:
            assert response.status == 200, await response.text()
            key = (await response.json())["key"]
        for _ in range(200):
            async with s.get(f"{server.url}/api/play/{key}") as response:
                if (await response.json())["folder"] is not None:
                    break
            await asyncio.sleep(0.05)
    (folder,) = played.iterdir()
    assert folder.name.startswith("n" * 64 + "-vs-always-call.")


def _module_that_says_it_ran(folder: Path, name: str) -> Path:
    """A module ``name`` in ``folder`` that, imported, writes the file returned."""
    ran = folder / f"{name}.ran"
    (folder / f"{name}.py").write_text(
        f"from pathlib import Path\nPath({str(ran)!r}).write_text('imported')\n"
        "class Bot:\n    pass\n"
    )
    return ran


async def test_an_opponent_that_is_no_registered_agent_is_refused_before_any_import(
    results: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    modules = tmp_path / "modules"
    modules.mkdir()
    monkeypatch.syspath_prepend(str(modules))
    refused = _module_that_says_it_ran(modules, "web_probe_refused")
    async with running([results], tmp_path / "played") as server, aiohttp.ClientSession() as s:
        async with s.get(f"{server.url}/api/info") as response:
            assert (await response.json())["classes"] is False
        for spec in ("web_probe_refused:Bot", "web_probe_refused:Bot:level=2"):
            body = {"opponent": spec, "hands": "5"}
            async with s.post(f"{server.url}/api/play", json=body) as response:
                status, said = response.status, await response.json()
            assert status == 400, said
            assert "names a Python class" in said["error"], said
    assert not refused.exists() and "web_probe_refused" not in sys.modules
    assert not (tmp_path / "played").exists()
    # Started with --allow-classes, the server imports it (and finds no agent there).
    allowed = _module_that_says_it_ran(modules, "web_probe_allowed")
    async with (
        running([results], tmp_path / "played", classes=True) as server,
        aiohttp.ClientSession() as s,
    ):
        body = {"opponent": "web_probe_allowed:Bot", "hands": "5"}
        async with s.post(f"{server.url}/api/play", json=body) as response:
            status, said = response.status, await response.json()
    assert status == 400 and "is not a subclass of" in said["error"], said
    assert allowed.read_text() == "imported"
    monkeypatch.delitem(sys.modules, "web_probe_allowed")


async def test_a_port_in_use_takes_one_of_the_next_when_allowed_else_says_so(
    results: Path, tmp_path: Path
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        site = WebSite([results], entrant, port=port, next_ports=5, play_folder=tmp_path / "p")
        urls: list[str] = []
        serving = asyncio.create_task(serve(site, urls.append))
        while not urls and not serving.done():
            await asyncio.sleep(0.01)
        serving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await serving
        assert port < int(urls[0].rsplit(":", 1)[1].strip("/")) <= port + 5
        alone = dataclasses.replace(site, next_ports=0)
        with pytest.raises(AcpcError, match=f"^port {port} is in use on 127.0.0.1 .*--port N"):
            await serve(alone, urls.append)


Clicked = list[tuple[int, str, str]]


async def _play(
    socket: aiohttp.ClientWebSocketResponse,
    choose: Callable[[dict[str, Any]], str],
    *,
    rematch: bool,
    stop_after: int | None = None,
) -> tuple[dict[str, Any], Clicked, list[str]]:
    """Play the table's decisions with ``choose`` (first trying an illegal action at each),
    answering the rematch; stop answering after ``stop_after`` hands. The last snapshot,
    the actions taken (hand, betting before, action) and what was refused."""
    clicked: Clicked = []
    refused: list[str] = []
    answered: set[int] = set()
    game = bundled_game()
    while True:
        message = await asyncio.wait_for(socket.receive_json(), 60)
        if "refused" in message:
            refused.append(message["refused"])
            continue
        table = message
        if table["status"] in ("finished", "interrupted", "failed"):
            return table, clicked, refused
        if stop_after is not None and table["result"]["hands"] >= stop_after:
            return table, clicked, refused
        if table["status"] == "between":
            await socket.send_json({"type": "rematch", "wanted": rematch})
            continue
        decision = table["decision"]
        if decision is None or decision["key"] in answered:
            continue
        answered.add(decision["key"])
        hand = table["hand"]
        legal = [button["action"] for button in decision["legal"]]
        state = HandState(game, hand["number"])
        for step in hand["steps"]:
            state.apply(parse_state_line(f"STATE:0:{step['action']}:|:0|0:a|b").betting[0][0])
        assert legal == [t.value for t in state.legal_action_types()]
        illegal = (
            next(t.value for t in ActionType if t.value not in legal) if len(legal) < 3 else None
        )
        if illegal is not None:
            await socket.send_json({"type": "act", "key": decision["key"], "action": illegal})
        action = choose(decision)
        clicked.append((hand["number"], hand["betting"], action))
        await socket.send_json({"type": "act", "key": decision["key"], "action": action})


def _person_actions(log: Path, person: str) -> Clicked:
    """The person's actions in a log: (hand, betting before, action)."""
    game = bundled_game()
    found: Clicked = []
    for line in log.read_text().splitlines():
        if not line.startswith("STATE:"):
            continue
        record = parse_state_line(line, game)
        position = record.names.index(person)
        state = HandState(game, record.hand_number)
        for actions in record.betting:
            for action in actions:
                if state.current_player == position:
                    found.append((record.hand_number, state.betting_text(), str(action)))
                state.apply(action)
    return found


async def test_a_person_plays_only_legal_actions_then_the_rematch_with_the_seats_swapped(
    results: Path, tmp_path: Path
) -> None:
    rng = random.Random(5)
    async with running([results], tmp_path / "played") as server, aiohttp.ClientSession() as s:
        body = {"opponent": "always-call", "hands": 4, "seed": 11, "name": "Ann", "limit_s": 30}
        async with s.post(f"{server.url}/api/play", json=body) as response:
            started = await response.json()
        async with s.ws_connect(f"{server.url}/api/play/{started['key']}/ws") as socket:
            table, clicked, refused = await _play(
                socket, lambda d: rng.choice(d["legal"])["action"], rematch=True
            )
    assert table["status"] == "finished", table["message"]
    assert refused and all("not a legal action" in why for why in refused)
    folder = tmp_path / "played" / table["folder"]["path"]
    summary = json.loads((folder / "summary.json").read_text())
    assert (summary["status"], summary["hands"], summary["agents"]) == (
        "finished",
        8,
        ["Ann", "always-call"],
    )
    first, second = (folder / half["log"] for half in summary["halves"])
    assert first.name.startswith("Ann-always-call") and second.name.startswith("always-call-Ann")
    played = _person_actions(first, "Ann") + _person_actions(second, "Ann")
    assert played == [(n, betting.replace("", ""), a) for n, betting, a in clicked]
    assert table["result"]["pairs"]["count"] == 4


async def test_a_server_that_stops_ends_its_sessions_as_interrupted(
    results: Path, tmp_path: Path
) -> None:
    async with running([results], tmp_path / "played") as server, aiohttp.ClientSession() as s:
        body = {"opponent": "always-call", "hands": 30, "seed": 6, "limit_s": 30}
        async with s.post(f"{server.url}/api/play", json=body) as response:
            key = (await response.json())["key"]
        async with s.ws_connect(f"{server.url}/api/play/{key}/ws") as socket:
            await _play(socket, lambda d: "c", rematch=False, stop_after=3)
    (folder,) = (tmp_path / "played").iterdir()
    summary = json.loads((folder / "summary.json").read_text())
    assert (summary["status"], summary["hands"]) == ("interrupted", 3)
    assert not (folder / ".lock").exists()


@pytest.mark.slow  # the dealer's clock runs out (2 s)
async def test_a_person_who_goes_away_runs_out_of_time_and_keeps_the_hands_played(
    results: Path, tmp_path: Path
) -> None:
    async with running([results], tmp_path / "played") as server, aiohttp.ClientSession() as s:
        body = {"opponent": "always-call", "hands": 50, "seed": 3, "limit_s": 2, "duplicate": False}
        async with s.post(f"{server.url}/api/play", json=body) as response:
            key = (await response.json())["key"]
        async with s.ws_connect(f"{server.url}/api/play/{key}/ws") as socket:
            _, clicked, _ = await _play(socket, lambda d: "c", rematch=False, stop_after=2)
        for _ in range(200):  # the page is gone; the dealer's clock runs
            async with s.get(f"{server.url}/api/play/{key}") as response:
                table = await response.json()
            if not table["running"]:
                break
            await asyncio.sleep(0.05)
    assert table["status"] == "failed" and table["timed_out"]
    assert "ran out of time" in table["message"]
    folder = tmp_path / "played" / table["folder"]["path"]
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["status"] == "failed" and summary["hands"] >= 2
    log = folder / summary["halves"][0]["log"]
    hands = [line for line in log.read_text().splitlines() if line.startswith("STATE:")]
    assert len(hands) == summary["hands"]
    assert _person_actions(log, "person")[: len(clicked)] == clicked


@pytest.mark.e2e  # the dealer and the other player are processes
async def test_a_person_takes_a_seat_of_an_acpc_dealer_elsewhere(
    results: Path, tmp_path: Path
) -> None:
    dealer = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).with_name("acpc-dealer")),
        *("m", "holdem.limit.2p.reverse_blinds.game", "3", "5", "Ann", "Bot", "-q"),
        *("--start_timeout", "30000", "--host", "127.0.0.1"),
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
    )
    assert dealer.stdout is not None
    ports = [int(p) for p in (await dealer.stdout.readline()).split()]
    bot = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).with_name("acpcbot")),
        *("play", "127.0.0.1", str(ports[1]), "--agent", "always-call"),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        async with running([results], tmp_path / "played") as server, aiohttp.ClientSession() as s:
            body = {"host": "127.0.0.1", "port": ports[0], "name": "Ann", "limit_s": 30}
            async with s.post(f"{server.url}/api/play", json=body) as response:
                key = (await response.json())["key"]
            async with s.ws_connect(f"{server.url}/api/play/{key}/ws") as socket:
                table, clicked, _ = await _play(socket, lambda d: "c", rematch=False)
        assert await asyncio.wait_for(dealer.wait(), 30) == 0
    finally:
        for process in (dealer, bot):
            if process.returncode is None:
                process.kill()
                await process.wait()
    assert table["status"] == "finished" and table["result"]["hands"] == 3, table["message"]
    assert table["summary"][0].startswith("3 hands") and table["folder"] is None
    assert _person_actions(tmp_path / "m.log", "Ann") == clicked
