"""The benchmark server's HTTP API over real HTTP (aiohttp on 127.0.0.1, a free port), with
its real SQLite file: who may ask what (401 without a user, 403 for a user who is not an
administrator), one user's requests, runs and logs invisible to another (404, the same
answer as for a number that names nothing), the leaderboard showing only what it should,
tokens checked and remembered (and forgotten on a reset or a disable), the page's logon
cookie, requests checked as RUNMATCHES checks them. No run starts here (see
``server.CONFIG``): the runs and results the tests need are recorded in the database as the
service records them."""

from __future__ import annotations

import asyncio
import base64
import json
import shutil
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from dealer.benchmark.database import RequestRecord, ResultRecord, RunRecord, Store
from dealer.benchmark.schema import RequestState, ResultKind, RunState
from dealer.benchmark.webroutes import ROUTES, Access
from tests.dealer.benchmark.server import LIMIT, LineClient, Server, cheap_hash, running

REFERENCE = "logs/deterministic/limit2p.seed42.n1000.Alice_hash-Bob_raiser.log"
NEIL = {"Authorization": "Bearer neil:test"}
ANN = {"Authorization": "Bearer ann:pw"}
ROOT = {"Authorization": "Bearer root:rootpw"}
JSON = {"Content-Type": "application/json"}


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    async with running(tmp_path, web=True) as server:
        store = server.store()
        store.add_user("root", cheap_hash("rootpw"), source="command", now=0.0, admin=True)
        store.close()
        yield server


async def call(
    server: Server,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    body: Any = None,
) -> tuple[int, Any]:
    """One request over a fresh connection: the status and the JSON (or bytes) answered."""
    async with aiohttp.ClientSession() as session:
        data = None if body is None else json.dumps(body)
        sent = {**(headers or {}), **(JSON if body is not None else {})}
        async with session.request(method, server.url + path, headers=sent, data=data) as got:
            raw = await got.read()
            if got.content_type == "application/json":
                return got.status, json.loads(raw)
            return got.status, raw


def played(
    store: Store,
    data: Path,
    source: Path,
    user: str,
    tag: str,
    *,
    pair: tuple[int, float, float] | None = None,
    opponent: str = "caller",
) -> tuple[RequestRecord, list[RunRecord]]:
    """A duplicate request of one pair (``user``'s bot against ``opponent``) recorded as the
    service records one played: two finished runs whose logs are copies of ``source``, and
    with ``pair`` (samples, total, squares), the user's result over the pair."""
    who = store.user(user)
    assert who is not None
    request = store.add_request(
        who.id, game=LIMIT, tag=tag, runs=1, rng_seed=5, seed=5, players=["LOCAL", opponent],
        duplicate=True, now=time.time(), address="127.0.0.1",
    )  # fmt: skip
    runs: list[RunRecord] = []
    for half, seats in enumerate([(user, opponent), (opponent, user)]):
        (data / f"logs/{user}").mkdir(parents=True, exist_ok=True)
        run = store.start_run(
            request.id, seed=5, seats=seats, half=half, now=time.time(),
            log_folder=f"logs/{user}",
        )  # fmt: skip
        shutil.copy(source, data / run.log)
        rows = []
        if half == 1 and pair is not None:
            samples, total, squares = pair
            others = opponent
            rows.append(
                ResultRecord(
                    ResultKind.PAIRS, user, who.id, others, samples, total, squares, 0, runs[0].id
                )
            )
        store.end_run(run.id, RunState.FINISHED, hands=1000, error=None, now=time.time(),
                      results_of_run=rows, told=True)  # fmt: skip
        runs.append(run)
    return store.request(request.id), runs


def path_of(route: str, number: int = 1) -> str:
    return route.replace("{id}", str(number)).replace("{name}", "neil")


async def test_private_routes_answer_401_without_a_user(server: Server) -> None:
    private = [r for r in ROUTES if r.access is not Access.PUBLIC]
    assert len(private) > 15
    for route in private:
        for headers in (
            {},
            {"Authorization": "Bearer neil:wrong"},
            {"Authorization": "Bearer test"},  # no name
            {"Authorization": "Basic " + base64.b64encode(b"nobody:test").decode()},
            {"Cookie": "acpcbot_session=forged"},
        ):
            body: dict[str, Any] | None = {} if route.body else None
            status, answer = await call(server, route.method, path_of(route.path), headers, body)
            assert status == 401, (route.path, headers, answer)
            assert "log on" in answer["error"]
        server.service.lockout.succeeded("neil", "127.0.0.1")  # (the wrong tokens count)


async def test_administrators_routes_refuse_a_user_who_is_not_one(server: Server) -> None:
    for route in [r for r in ROUTES if r.access is Access.ADMIN]:
        body = {"name": "eve"} if route.body else None
        status, answer = await call(server, route.method, path_of(route.path), NEIL, body)
        assert (status, answer) == (403, {"error": "for administrators only"}), route.path
    assert server.store().user("eve") is None
    assert server.store().user("neil").disabled is False  # type: ignore[union-attr]


async def test_public_routes_answer_anyone(server: Server) -> None:
    for route in ROUTES:
        if route.access is Access.PUBLIC and route.method == "GET":
            status, _ = await call(server, "GET", route.path)
            assert status == 200, route.path
    status, described = await call(server, "GET", "/api/openapi.json")
    assert set(described["paths"]) == {r.path for r in ROUTES}


async def test_user_b_can_neither_list_nor_download_nor_cancel_user_a_matches(
    server: Server, vectors: Path
) -> None:
    store = server.store()
    request, runs = played(store, server.data, vectors / REFERENCE, "ann", "secret-tag")
    status, queued = await call(
        server, "POST", "/api/my/requests", ANN,
        {"game": LIMIT, "runs": 2, "tag": "queued-tag", "seed": 3, "players": ["caller", "raiser"]},
    )  # fmt: skip
    assert status == 201 and queued["state"] == "queued"
    # Neil sees none of Ann's: not in his list, and by number, as if it did not exist.
    status, his = await call(server, "GET", "/api/my/requests", NEIL)
    assert status == 200 and his["requests"] == [] and his["results"] == []
    assert "secret-tag" not in json.dumps(his) and "queued-tag" not in json.dumps(his)
    nothing = (404, {"error": "no such request of yours"})
    for number in (request.id, queued["id"]):
        assert await call(server, "GET", f"/api/my/requests/{number}", NEIL) == nothing
        assert await call(server, "POST", f"/api/my/requests/{number}/cancel", NEIL) == nothing
        assert await call(server, "GET", f"/api/my/requests/{number + 100}", NEIL) == nothing
    for run in runs:
        assert await call(server, "GET", f"/api/my/runs/{run.id}/log", NEIL) == (
            404, {"error": "no such run of yours"}
        )  # fmt: skip
    assert await call(server, "GET", "/api/my/runs/999/log", NEIL) == (
        404, {"error": "no such run of yours"}
    )  # fmt: skip
    assert server.store().request(queued["id"]).state is RequestState.QUEUED  # not cancelled
    # Ann sees hers, downloads her logs, cancels her request.
    status, hers = await call(server, "GET", "/api/my/requests", ANN)
    assert [r["tag"] for r in hers["requests"]] == ["queued-tag", "secret-tag"]
    assert [r["name"] for r in hers["requests"][1]["runs_detail"]] == [
        "ann.secret-tag.r1.b", "ann.secret-tag.r1.a"
    ]  # fmt: skip
    status, log = await call(server, "GET", f"/api/my/runs/{runs[0].id}/log", ANN)
    assert status == 200 and log == (vectors / REFERENCE).read_bytes()
    status, cancelled = await call(server, "POST", f"/api/my/requests/{queued['id']}/cancel", ANN)
    assert status == 200 and cancelled["state"] == "cancelled"
    assert server.store().request(queued["id"]).state is RequestState.CANCELLED
    assert (await call(server, "POST", f"/api/my/requests/{queued['id']}/cancel", ANN))[0] == 409


async def test_an_administrator_sees_everyone_and_cancels_any_request(server: Server) -> None:
    status, queued = await call(
        server, "POST", "/api/my/requests", ANN,
        {"game": LIMIT, "runs": 1, "tag": "t", "players": ["caller", "raiser"]},
    )  # fmt: skip
    status, everyone = await call(server, "GET", "/api/admin/queue", ROOT)
    assert status == 200 and [r["user"] for r in everyone["requests"]] == ["ann"]
    status, cancelled = await call(
        server, "POST", f"/api/admin/requests/{queued['id']}/cancel", ROOT
    )
    assert status == 200 and cancelled["state"] == "cancelled"
    assert (await call(server, "GET", "/api/admin/queue", ROOT))[1]["requests"] == []
    # Users: added (the secret shown once works at once), disabled, reset.
    status, added = await call(server, "POST", "/api/admin/users", ROOT, {"name": "eve"})
    assert status == 201 and added["name"] == "eve" and len(added["secret"]) == 32
    eve = {"Authorization": f"Bearer eve:{added['secret']}"}
    assert (await call(server, "GET", "/api/me", eve))[1]["name"] == "eve"
    assert (await call(server, "POST", "/api/admin/users", ROOT, {"name": "eve"}))[0] == 409
    assert (await call(server, "POST", "/api/admin/users", ROOT, {"name": "../x"}))[0] == 400
    assert (await call(server, "POST", "/api/admin/users/eve/disable", ROOT))[0] == 200
    assert (await call(server, "GET", "/api/me", eve))[0] == 401
    assert (await call(server, "POST", "/api/admin/users/eve/enable", ROOT))[0] == 200
    status, reset = await call(server, "POST", "/api/admin/users/eve/reset", ROOT)
    assert (await call(server, "GET", "/api/me", eve))[0] == 401  # the old secret
    again = {"Authorization": f"Bearer eve:{reset['secret']}"}
    assert (await call(server, "GET", "/api/me", again))[0] == 200
    status, users = await call(server, "GET", "/api/admin/users", ROOT)
    assert [u["name"] for u in users["users"]] == ["ann", "eve", "neil", "root"]
    assert all("hash" not in json.dumps(u) and "password" not in u for u in users["users"])


async def test_the_leaderboard_shows_each_users_best_tag_and_nothing_more(
    server: Server, vectors: Path
) -> None:
    store = server.store()
    log = vectors / REFERENCE
    # Ann: a lucky tag (2 pairs of hands, +1,500 mbb/g, a wide CI) and a steady one.
    played(store, server.data, log, "ann", "ann-lucky", pair=(2, 30.0, 1700.0))
    played(store, server.data, log, "ann", "ann-steady", pair=(900, 900.0, 9000.0))
    played(store, server.data, log, "ann", "ann-steady", pair=(100, 100.0, 1000.0))
    played(store, server.data, log, "neil", "neil-v1", pair=(1000, 2000.0, 40000.0))
    played(store, server.data, log, "neil", "neil-raiser", pair=(10, -5.0, 50.0), opponent="raiser")
    played(store, server.data, log, "neil", "neil-nopair")  # (no pair result: not shown)
    store.add_user("gone", cheap_hash("x"), source="command", now=0.0)
    played(store, server.data, log, "gone", "gone-v1", pair=(1000, 9000.0, 90000.0))
    store.set_disabled("gone", True)
    status, board = await call(server, "GET", "/api/leaderboard")
    assert status == 200
    caller, raiser = board["boards"]
    assert (caller["bot"], raiser["bot"]) == ("caller", "raiser")
    assert [(r["rank"], r["user"], r["tag"]) for r in caller["rows"]] == [
        (1, "neil", "neil-v1"), (2, "ann", "ann-steady")
    ]  # fmt: skip
    steady = caller["rows"][1]
    assert (steady["pairs"], steady["hands"], steady["samples"], steady["mbb"]) == (
        2, 2000, 1000, 100.0
    )  # fmt: skip
    assert [(r["user"], r["tag"]) for r in raiser["rows"]] == [("neil", "neil-raiser")]
    # Nothing else: no other tag, no disabled user, no seed, log or time; the same to a user.
    assert all(set(r) == {"rank", "user", "tag", "mbb", "ci", "pairs", "hands", "samples"}
               for b in board["boards"] for r in b["rows"])  # fmt: skip
    text = json.dumps(board)
    for hidden in ("ann-lucky", "neil-nopair", "gone", ".log", "seed"):
        assert hidden not in text, hidden
    assert (await call(server, "GET", "/api/leaderboard", ANN))[1] == board


async def test_a_token_is_checked_once_then_remembered_until_a_reset(server: Server) -> None:
    assert (await call(server, "GET", "/api/me", NEIL))[0] == 200  # checked (argon2) once
    # Wrong tokens lock the name and the address out, as bad line logons do: a right token
    # not checked before is refused while it lasts, and the line logon too.
    for _ in range(6):
        assert (await call(server, "GET", "/api/me", {"Authorization": "Bearer ann:no"}))[0] == 401
    assert (await call(server, "GET", "/api/me", ANN))[0] == 401
    client = await LineClient.open(server.port, "ann pw")
    assert await client.read_to_close() == b"BAD LOGON\n"
    # Neil's token, checked once, is remembered: it goes on working.
    assert (await call(server, "GET", "/api/me", NEIL))[1]["name"] == "neil"
    # A reset from another process (acpcbot serve user reset): the old token is refused at
    # the next request; a disable, the same.
    server.service.lockout.succeeded("ann", "127.0.0.1")
    store = server.store()
    store.set_password("neil", cheap_hash("new"))
    assert (await call(server, "GET", "/api/me", NEIL))[0] == 401
    assert (await call(server, "GET", "/api/me", {"Authorization": "Bearer neil:new"}))[0] == 200
    store.set_disabled("neil", True)
    assert (await call(server, "GET", "/api/me", {"Authorization": "Bearer neil:new"}))[0] == 401


async def test_the_page_logs_on_with_a_session_cookie(server: Server) -> None:
    jar = aiohttp.CookieJar(unsafe=True)  # (127.0.0.1 is an address: keep its cookies)
    async with aiohttp.ClientSession(cookie_jar=jar) as session:
        url = server.url
        async with session.post(url + "/api/logon", json={"name": "ann", "secret": "no"}) as got:
            assert got.status == 401
        async with session.post(url + "/api/logon", json={"name": "ann", "secret": "pw"}) as got:
            assert got.status == 200
            cookie = got.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
        assert "expires" not in cookie.lower() and "max-age" not in cookie.lower()
        async with session.get(url + "/api/me") as got:
            assert (await got.json())["name"] == "ann"
        async with session.get(url + "/api/info") as got:
            assert (await got.json())["server"]["user"] == {"name": "ann", "admin": False}
        # A POST from another site's page is refused, and a body that is not JSON.
        body = {"game": LIMIT, "runs": 1, "tag": "x", "players": ["caller", "raiser"]}
        async with session.post(
            url + "/api/my/requests", json=body, headers={"Origin": "http://evil.example"}
        ) as got:
            assert got.status == 403
        async with session.post(
            url + "/api/my/requests", data="tag=x", headers={"Content-Type": "text/plain"}
        ) as got:
            assert got.status == 415
        assert server.store().open_requests() == []
        async with session.post(url + "/api/logoff") as got:
            assert got.status == 200
        async with session.get(url + "/api/me") as got:
            assert got.status == 401


async def test_a_request_over_http_is_checked_as_runmatches_is(server: Server) -> None:
    good: dict[str, Any] = {
        "game": LIMIT, "runs": 1, "tag": "t1", "seed": 7, "players": ["LOCAL", "caller"]
    }  # fmt: skip
    for change, why in (
        ({"game": "no.game"}, "game: not one of"),
        ({"runs": 4}, "runs: 0 to 3"),
        ({"runs": -1}, "runs: 0 to 3"),
        ({"tag": "a/b"}, "tag: 1 to 64"),
        ({"tag": "x" * 65}, "tag: 1 to 64"),
        ({"seed": 2**32}, "seed: 0 to 4294967295"),
        ({"players": ["LOCAL", "nobody"]}, "players: 'nobody' is not one of LOCAL, caller, raiser"),
        ({"players": ["LOCAL"]}, "players: one a seat, 2"),
        ({"players": "LOCAL caller"}, "players: a list"),
        ({"runs": "1"}, "runs: a whole number"),
        ({"duplicate": "yes"}, "duplicate: true or false"),
    ):
        status, answer = await call(server, "POST", "/api/my/requests", NEIL, good | change)
        assert status == 400 and answer["error"].startswith(why), (change, answer)
    assert server.store().open_requests() == []
    status, made = await call(server, "POST", "/api/my/requests", NEIL, good)
    assert status == 201 and (made["seed"], made["duplicate"]) == (7, False)
    assert made["waits_for_bot"] is True  # (no line client, no bot stream)
    await call(server, "POST", f"/api/my/requests/{made['id']}/cancel", NEIL)
    # The same queue as RUNMATCHES' (two house bots: it never starts here).
    house = good | {"tag": "t2", "players": ["caller", "raiser"], "duplicate": True}
    assert (await call(server, "POST", "/api/my/requests", NEIL, house))[0] == 201
    client = await LineClient.open(server.port, "neil test")
    await client.logged_on()
    assert await client.answer("QSTAT") == f"neil t2 {LIMIT} * 2 Q\n".encode()
    client.close()


async def test_the_limits_of_runmatches_hold_over_http(tmp_path: Path) -> None:
    from dealer.benchmark.config import UserLimits
    from tests.dealer.benchmark.server import config

    async with running(tmp_path, config(limits=UserLimits(requests=1)), web=True) as server:
        body = {"game": LIMIT, "runs": 1, "tag": "t1", "players": ["caller", "raiser"]}
        assert (await call(server, "POST", "/api/my/requests", NEIL, body))[0] == 201
        status, answer = await call(server, "POST", "/api/my/requests", NEIL, body)
        assert status == 409
        assert answer["error"] == "you have 1 requests queued or playing (at most 1)"


async def test_the_queue_over_http_hides_other_users_as_qstat_does(tmp_path: Path) -> None:
    from tests.dealer.benchmark.server import config

    async with running(tmp_path, config(queue_shows_others=False), web=True) as server:
        body = {"game": LIMIT, "runs": 1, "tag": "secret-tag", "players": ["caller", "raiser"]}
        assert (await call(server, "POST", "/api/my/requests", ANN, body))[0] == 201
        hidden = {"user": "*", "tag": "*", "game": LIMIT, "runs_left": 1, "running": False}
        assert await call(server, "GET", "/api/queue", NEIL) == (200, {"queue": [hidden]})
        mine = hidden | {"user": "ann", "tag": "secret-tag"}
        assert await call(server, "GET", "/api/queue", ANN) == (200, {"queue": [mine]})


async def test_the_bot_stream_makes_its_user_present_while_it_is_open(server: Server) -> None:
    assert (await call(server, "GET", "/api/me", NEIL))[1]["present"] is False
    neil = server.store().user("neil")
    assert neil is not None
    async with (
        aiohttp.ClientSession() as session,
        session.get(server.url + "/api/my/bot", headers=NEIL) as stream,
    ):
        assert stream.headers["Content-Type"] == "text/event-stream"
        first = await asyncio.wait_for(stream.content.readline(), 15)
        assert first.startswith((b":", b"data: "))
        assert (await call(server, "GET", "/api/me", NEIL))[1]["present"] is True
        assert server.service.present(neil.id)
    for _ in range(100):  # the server sees the stream closed
        if not (await call(server, "GET", "/api/me", NEIL))[1]["present"]:
            break
        await asyncio.sleep(0.1)
    assert (await call(server, "GET", "/api/me", NEIL))[1]["present"] is False


async def test_my_matches_are_pushed_as_they_change(server: Server) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(server.url + "/api/my/events", headers=NEIL) as stream,
    ):

        async def event() -> dict[str, Any]:
            while True:
                line = await asyncio.wait_for(stream.content.readline(), 15)
                if line.startswith(b"data: "):
                    said: dict[str, Any] = json.loads(line[6:])
                    return said

        assert (await event())["requests"] == []
        body = {"game": LIMIT, "runs": 2, "tag": "t1", "players": ["caller", "raiser"]}
        await call(server, "POST", "/api/my/requests", NEIL, body)
        (request,) = (await event())["requests"]
        assert (request["tag"], request["state"], request["left"]) == ("t1", "queued", 2)
        await call(server, "POST", f"/api/my/requests/{request['id']}/cancel", NEIL)
        assert (await event())["requests"][0]["state"] == "cancelled"
