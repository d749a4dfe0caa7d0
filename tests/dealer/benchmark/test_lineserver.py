"""The benchmark server's line protocol over real sockets, with its real database file: the
reference's answers byte for byte, nothing queued by a request it refuses, and what hostile
clients are allowed. No run starts here (see ``server.CONFIG``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dealer.benchmark.lineprotocol import (
    BAD_RUNMATCHES,
    HELP,
    LOGON_OKAY,
    MATCHES_FINISHED,
)
from dealer.benchmark.schema import RequestState
from tests.dealer.benchmark.server import CONFIG, LIMIT, LineClient, config, running

GAMES = f"\n{LIMIT}\n raiser\n caller\n".encode()


async def test_a_logon_then_help_games_and_qstat_answer_as_the_reference(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        client = await LineClient.open(server.port, "neil test")
        assert await client.logged_on() == b"LOGON OKAY - type help for commands\n"
        client.send("help", "GAMES", "qstat", "nonsense", "")
        expected = HELP + GAMES + b"Queue empty\n" + b"UNKNOWN\n" * 2
        assert await client.reader.readexactly(len(expected)) == expected
        client.close()


async def test_a_wrong_logon_is_refused_and_closed(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        for logon in ("neil wrong", "nobody test", "neil", ""):
            client = await LineClient.open(server.port, logon, "HELP")
            assert await client.read_to_close() == b"BAD LOGON\n"


async def test_no_command_is_taken_before_the_logon(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        for first in ("HELP", "QSTAT", f"RUNMATCHES {LIMIT} 1 t1 7 caller raiser"):
            client = await LineClient.open(server.port, first, "neil test", "QSTAT")
            assert await client.read_to_close() == b"BAD LOGON\n"  # the first line was the logon
        assert server.store().open_requests() == []


async def test_a_bad_runmatches_is_refused_and_nothing_queued(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        client = await LineClient.open(server.port, "neil test")
        await client.logged_on()
        for bad in (
            "RUNMATCHES",
            f"RUNMATCHES {LIMIT}",
            "RUNMATCHES no-such.game 1 t1 7 LOCAL caller",
            f"RUNMATCHES {LIMIT} 1 t1 7 LOCAL nobody",  # an unknown bot
            f"RUNMATCHES {LIMIT} 1 a/b 7 LOCAL caller",  # a tag with /
            f"RUNMATCHES {LIMIT} 4 t1 7 LOCAL caller",  # more runs than maxMatchRuns (3)
            f"RUNMATCHES {LIMIT} -1 t1 7 LOCAL caller",
            f"RUNMATCHES {LIMIT} 1 t1 7 LOCAL",
        ):
            assert await client.answer(bad) == b"BAD RUNMATCHES COMMAND\n", bad
        assert await client.answer("QSTAT") == b"Queue empty\n"
        client.close()
        assert server.store().open_requests() == []


async def test_a_request_is_committed_before_it_is_answered(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        client = await LineClient.open(server.port, "neil test")
        await client.logged_on()
        client.send(f"RUNMATCHES {LIMIT} 2 t1 7 caller raiser")
        assert await client.read_until(b"\n") == b"# QUEUED neil.t1 2 runs\n"
        (request,) = server.store().open_requests()  # in the file, as the answer came
        assert (request.user, request.tag, request.runs, request.players) == (
            "neil", "t1", 2, ("caller", "raiser")
        )  # fmt: skip
        assert (request.rng_seed, request.seed, request.duplicate) == (7, 7, False)
        assert await client.answer("QSTAT") == f"neil t1 {LIMIT} * 2 Q\n".encode()
        client.send(f"RUNMATCHES {LIMIT} 1 t2 0 raiser caller")
        await client.read_until(b"\n")
        drawn = server.store().open_requests()[1]
        assert drawn.rng_seed == 0 and 0 < drawn.seed < 2**32  # the server's seed, recorded
        client.close()


async def test_the_queue_survives_a_restart(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        client = await LineClient.open(
            server.port, "ann pw", f"RUNMATCHES {LIMIT} 3 t9 5 caller raiser"
        )
        await client.read_until(b"# QUEUED ann.t9 3 runs\n")
        client.close()
    async with running(tmp_path) as server:
        client = await LineClient.open(server.port, "neil test", "QSTAT")
        await client.logged_on()
        assert await client.read_until(b"Q\n") == f"ann t9 {LIMIT} * 3 Q\n".encode()
        client.close()


async def test_a_request_the_configuration_no_longer_offers_is_cancelled(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        client = await LineClient.open(server.port, "ann pw")
        client.send(f"RUNMATCHES {LIMIT} 3 t9 5 caller raiser")
        await client.read_until(b"# QUEUED ann.t9 3 runs\n")
        client.close()
    without_raiser = CONFIG.replace("  bot raiser always-raise\n", "")
    async with running(tmp_path, config(without_raiser)) as server:
        client = await LineClient.open(server.port, "neil test", "QSTAT")
        await client.logged_on()
        assert await client.read_until(b"\n") == b"Queue empty\n"
        client.close()
        store = server.store()
        ann = store.user("ann")
        assert ann is not None
        (request,) = store.requests_of(ann.id)
        assert request.state is RequestState.CANCELLED


async def test_other_users_can_be_hidden_in_the_queue(tmp_path: Path) -> None:
    async with running(tmp_path, config(queue_shows_others=False)) as server:
        ann = await LineClient.open(
            server.port, "ann pw", f"RUNMATCHES {LIMIT} 1 mine 5 caller raiser"
        )
        await ann.read_until(b"# QUEUED ann.mine 1 run\n")
        neil = await LineClient.open(server.port, "neil test")
        await neil.logged_on()
        assert await neil.answer("QSTAT") == f"* * {LIMIT} * 1 Q\n".encode()
        assert await ann.answer("QSTAT") == f"ann mine {LIMIT} * 1 Q\n".encode()
        ann.close()
        neil.close()


async def test_a_user_may_queue_no_more_than_the_limits_say(tmp_path: Path) -> None:
    from dealer.benchmark.config import UserLimits

    async with running(tmp_path, config(limits=UserLimits(requests=1, hands=120))) as server:
        client = await LineClient.open(server.port, "neil test")
        await client.logged_on()
        assert await client.answer(f"RUNMATCHES {LIMIT} 3 big 5 caller raiser") == (
            b"# refused: that would make 150 hands queued for you (at most 120)\n"
            b"BAD RUNMATCHES COMMAND\n"
        )
        assert await client.answer(f"RUNMATCHES {LIMIT} 1 t1 5 caller raiser") == (
            b"# QUEUED neil.t1 1 run\n"
        )
        assert await client.answer(f"RUNMATCHES {LIMIT} 1 t2 5 caller raiser") == (
            b"# refused: you have 1 requests queued or playing (at most 1)\n"
            b"BAD RUNMATCHES COMMAND\n"
        )
        assert len(server.store().open_requests()) == 1
        client.close()


async def test_repeated_bad_logons_lock_the_name_out(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        for _ in range(6):
            client = await LineClient.open(server.port, "neil guess")
            assert await client.read_to_close() == b"BAD LOGON\n"
        client = await LineClient.open(server.port, "neil test")  # right, but locked out
        assert await client.read_to_close() == b"BAD LOGON\n"


async def test_a_connection_that_does_not_log_on_is_dropped(tmp_path: Path) -> None:
    async with running(tmp_path, config(logon_timeout_s=0.3)) as server:
        client = await LineClient.open(server.port)
        assert await client.read_to_close(timeout=5) == b""
        client = await LineClient.open(server.port, "neil test")
        await client.logged_on()
        await asyncio.sleep(0.5)  # logged on: it may stay as long as it likes
        assert await client.answer("QSTAT") == b"Queue empty\n"
        client.close()


async def test_connections_from_one_address_are_capped(tmp_path: Path) -> None:
    async with running(tmp_path, config(max_connections_per_address=3)) as server:
        kept = [await LineClient.open(server.port) for _ in range(3)]
        await asyncio.sleep(0.1)
        extra = await LineClient.open(server.port, "neil test")
        assert await extra.dropped()  # at once, unanswered
        for client in kept:
            client.close()
        await asyncio.sleep(0.1)
        again = await LineClient.open(server.port, "neil test")
        assert await again.logged_on()
        again.close()


async def test_a_long_line_is_cut_as_the_reference_cuts_it(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        client = await LineClient.open(server.port, "neil test")
        await client.logged_on()
        # 10,000 bytes: pieces of 4,095, 4,095 and the rest, each a command of its own.
        assert await client.answer("x" * 9_999) == b"UNKNOWN\n" * 3
        client.close()


async def test_bm_run_matches_asks_for_the_games_on_its_logon_line(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        client = await LineClient.open(server.port, "neil test games")
        assert await client.read_to_close() == LOGON_OKAY + GAMES + MATCHES_FINISHED


async def test_bm_run_matches_asking_for_what_is_not_here_is_refused(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        for asked, why in (
            ("run 2pn ./bot.sh 1 t1 7 local caller", b"# refused: no game of kind '2pn' here\n"),
            ("run 2pl ./bot.sh 1 a/b 7 local caller", b""),
            ("rerun 2pl ./bot.sh 0 t1 7 local caller",
             b"# refused: rerun is not offered: ask for the run again\n"),
        ):  # fmt: skip
            client = await LineClient.open(server.port, f"neil test {asked}")
            assert await client.read_to_close() == (
                LOGON_OKAY + why + BAD_RUNMATCHES + MATCHES_FINISHED
            ), asked
        assert server.store().open_requests() == []
