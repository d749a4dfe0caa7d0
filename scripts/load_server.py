"""Load on ``acpcbot serve``: N users, each with our client (``acpcbot connect``) starting
``acpcbot play`` for their bot, asking for matches against the house bots (dpp and PLICAS in
turn, one request at a time each, one run a request) for a while; a few of their bots killed
on purpose mid-run. Reports what a user and an operator would measure:

* matches (runs finished) per hour, hands per second summed over every run;
* the queue wait, from ``# QUEUED`` to ``# RUNNING`` as the client saw them, p50 and p99;
* the server's resident memory (its process, sampled every few seconds): at most, at the end;
* failures: requests lost (queued but never ended, or not in the database as done), runs
  failed other than those whose bot was killed on purpose (counted apart), requests refused.

Everything runs on this machine, on 127.0.0.1: the server (its data and SQLite database in a
temporary folder unless --data), its runs in local processes, or on a Dask cluster (--scheduler
ADDRESS, or --dask-workers N to start a scheduler and N one-thread workers here).

    nice -n 10 python scripts/load_server.py [--users 4] [--duration 600] [--hands 1000]
        [--kill 2] [--dask-workers 2 | --scheduler tcp://HOST:PORT] [--json FILE]

After --duration seconds no request is made any more; those under way are waited for (at most
--drain seconds), then the server is stopped (SIGTERM) and its database read. Progress every
30 s on standard error; the report on standard output (and --json). Everything it started is
stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import re
import secrets
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from dealer.benchmark import Store, database_url
from dealer.benchmark.schema import RequestState, RunState

ACPCBOT = Path(sys.executable).with_name("acpcbot")
GAME = "holdem.limit.2p.reverse_blinds.game"
_SAMPLE_S = 5.0
_PROGRESS_S = 30.0


def _local_cluster() -> Any:
    """The Dask cluster starter of ``bench_tournament.py`` (beside this script)."""
    spec = importlib.util.spec_from_file_location(
        "bench_tournament", Path(__file__).with_name("bench_tournament.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.LocalCluster


@dataclass
class Request:
    """One request as its user's client saw it."""

    user: str
    tag: str
    opponent: str
    started: float
    queued: float | None = None
    running: float | None = None
    ended: float | None = None
    status: str | None = None
    hands: int = 0
    killed: bool = False
    """Its bot was killed on purpose."""
    exit_status: int | None = None
    refused: bool = False
    cut_off: bool = False
    """Its client lost the server (killed on purpose) before the request ended."""


@dataclass
class Load:
    """What the users did, and what the server's memory did."""

    requests: list[Request] = field(default_factory=list)
    rss_kib: list[tuple[float, int]] = field(default_factory=list)
    kills_left: int = 0
    kill_every: int = 3
    server: Any = None
    """The server's process (a new one after a restart)."""
    server_down: bool = False
    """The server was killed on purpose and is not listening again yet."""
    killed_server: dict[str, Any] | None = None
    """What was recorded at the server's kill (--kill-server-at)."""


def _rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
    return int(found.group(1)) if found else 0


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _config(users: dict[str, str], hands: int, jobs: int) -> str:
    lines = [
        "port = 0",
        "startup_timeout_secs = 120",
        "response_timeout_secs = 120",
        "[limits]",
        "running = 1",
        "requests = 2",
        "[[game]]",
        f'file = "{GAME}"',
        f"max_running_jobs = {jobs}",
        f"match_hands = {hands}",
        'bots = { dpp = "dpp", plicas = "plicas" }',
    ]
    for name, password in users.items():
        lines += ["[[user]]", f'name = "{name}"', f'password = "{password}"']
    return "\n".join(lines) + "\n"


async def _kill_mid_run(client: asyncio.subprocess.Process, log: Path, request: Request) -> None:
    """Kill the bot the client started, once the run's log holds some hands."""
    while client.returncode is None:
        if log.exists() and log.read_bytes().count(b"\nSTATE:") >= 20:
            for bot in _children(client.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(bot, signal.SIGKILL)
                    request.killed = True
            return
        await asyncio.sleep(0.2)


async def _user(
    name: str, password: str, port: int, data: Path, args: argparse.Namespace, load: Load,
    until: float,
) -> None:  # fmt: skip
    """One user: a request at a time until ``until``, against dpp and plicas in turn."""
    number = 0
    while time.monotonic() < until:
        if load.server_down:
            await asyncio.sleep(0.5)
            continue
        number += 1
        opponent = ("dpp", "plicas")[number % 2]
        tag = f"n{number}"
        request = Request(name, tag, opponent, time.monotonic())
        load.requests.append(request)
        seed = secrets.randbits(32) or 1
        client = await asyncio.create_subprocess_exec(
            str(ACPCBOT), "connect", "127.0.0.1", str(port), "--agent", args.agent,
            "--seed", str(number), "--user", name,
            "--run", f"RUNMATCHES {GAME} 1 {tag} {seed} LOCAL {opponent}",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
            env={**os.environ, "ACPCBOT_PASSWORD": password},
        )  # fmt: skip
        killer = None
        if load.kills_left > 0 and len(load.requests) % load.kill_every == 2 % load.kill_every:
            load.kills_left -= 1
            log = data / "logs" / name / f"{name}.{tag}.r1.log"
            killer = asyncio.create_task(_kill_mid_run(client, log, request))
        assert client.stdout is not None
        job = f"{name}.{tag}"
        # After a restart, the runs of a request cut off by the kill that were still queued
        # start on the user's next logon: their lines name their own tag, not this one's.
        while line := await client.stdout.readline():
            text = line.decode(errors="replace")
            # The bot writes to the same standard output as its client: a line of its own
            # without its end can come before the server's line on the same line.
            text = text[text.find("# ") :] if "# " in text else text
            words = text.split()
            now = time.monotonic()
            if text.startswith(f"# QUEUED {job} "):
                request.queued = now
            elif text.startswith(f"# RUNNING {job}\n"):
                request.running = request.running or now
            elif text.startswith(f"# ENDED {job}.r"):
                request.ended, request.status, request.hands = now, words[3], int(words[4])
            elif text.startswith("BAD RUNMATCHES"):
                request.refused = True
        request.exit_status = await client.wait()
        if killer is not None:
            killer.cancel()
        if request.status is None and (load.server_down or request.exit_status != 0):
            request.cut_off = load.killed_server is not None
        if request.refused or request.queued is None:
            await asyncio.sleep(1.0)


async def _sample(load: Load, started: float, stop: asyncio.Event) -> None:
    while not stop.is_set():
        with contextlib.suppress(OSError):
            if not load.server_down:
                load.rss_kib.append((time.monotonic() - started, _rss_kib(load.server.pid)))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), _SAMPLE_S)


async def _progress(load: Load, started: float, stop: asyncio.Event) -> None:
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), _PROGRESS_S)
        done = [r for r in load.requests if r.status is not None]
        finished = sum(r.status == "finished" for r in done)
        rss = load.rss_kib[-1][1] / 1024 if load.rss_kib else 0.0
        print(
            f"load_server: {time.monotonic() - started:5.0f} s: {len(load.requests)} requests, "
            f"{finished} runs finished, {len(done) - finished} not, server RSS {rss:.0f} MiB",
            file=sys.stderr,
            flush=True,
        )


async def _run(args: argparse.Namespace, data: Path, scheduler: str | None) -> dict[str, Any]:
    users = {f"load{n + 1}": secrets.token_urlsafe(12) for n in range(args.users)}
    config = data / "server.toml"
    jobs = args.jobs or (args.dask_workers or os.cpu_count() or 2)
    config.write_text(_config(users, args.hands, jobs))
    command = [str(ACPCBOT), "serve", "--config", str(config), "--data", str(data)]
    if scheduler is not None:
        command += ["--scheduler", scheduler]
    server, port = await _start_server(command, data)
    load = Load(kills_left=args.kill, server=server)
    killing: asyncio.Task[Any] | None = None
    try:
        # The bots of the 2nd, 5th, 8th... requests are killed, until --kill were.
        load.kill_every = 3
        started = time.monotonic()
        stop = asyncio.Event()
        watchers = [
            asyncio.create_task(_sample(load, started, stop)),
            asyncio.create_task(_progress(load, started, stop)),
        ]
        until = started + args.duration
        players = [
            asyncio.create_task(_user(name, pw, port, data, args, load, until))
            for name, pw in users.items()
        ]
        if args.kill_server_at is not None:
            restart = [*command, "--port", str(port)]
            killing = asyncio.create_task(
                _kill_server(restart, data, load, started + args.kill_server_at)
            )
        done, pending = await asyncio.wait(players, timeout=args.duration + args.drain)
        drained = time.monotonic() - started
        for task in done:
            task.result()
        for task in pending:
            task.cancel()
        if killing is not None:
            await killing
        stop.set()
        await asyncio.gather(*watchers)
        load.rss_kib.append((time.monotonic() - started, _rss_kib(load.server.pid)))
    finally:
        server = load.server
        if killing is not None and not killing.done():
            killing.cancel()
        if server.returncode is None:
            server.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(server.wait(), 120)
            except TimeoutError:
                server.kill()
                await server.wait()
    return _report(args, load, data, drained, scheduler, bool(pending))


async def _start_server(command: list[str], data: Path) -> tuple[asyncio.subprocess.Process, int]:
    """The server started, once it listens, and its port."""
    with (data / "server.err").open("ab") as err:
        server = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.PIPE, stderr=err
        )
    assert server.stdout is not None
    first = (await asyncio.wait_for(server.stdout.readline(), 300)).decode()
    found = re.search(r"listening on 127\.0\.0\.1:(\d+)", first)
    if found is None:
        sys.exit(
            f"load_server: the server did not start: {first}{(data / 'server.err').read_text()}"
        )
    print(f"load_server: {first.strip()}", file=sys.stderr, flush=True)
    return server, int(found.group(1))


def _recorded(data: Path) -> dict[str, Any]:
    """What the server's database holds: the requests (``USER.TAG``: state) and the runs
    (``USER.TAG.rN``: state, hands, error)."""
    store = Store.open(database_url(None, data))
    try:
        requests, runs = {}, {}
        for user in store.users():
            for asked in store.requests_of(user.id):
                requests[f"{user.name}.{asked.tag}"] = asked.state.value
                for run in store.runs_of(asked.id):
                    runs[run.match_name] = (run.state.value, run.hands, run.error)
    finally:
        store.close()
    return {"requests": requests, "runs": runs}


async def _kill_server(command: list[str], data: Path, load: Load, when: float) -> None:
    """SIGKILL the server at ``when`` and start it again on the same data and port: what the
    clients had been told and what the database held, just before and after."""
    await asyncio.sleep(max(0.0, when - time.monotonic()))
    accepted = {f"{r.user}.{r.tag}" for r in load.requests if r.queued is not None}
    finished = {f"{r.user}.{r.tag}.r1": r.hands for r in load.requests if r.status == "finished"}
    load.server_down = True
    load.killed_server = {}
    load.server.send_signal(signal.SIGKILL)
    await load.server.wait()
    at_kill = _recorded(data)
    print(
        f"load_server: server killed (SIGKILL): {len(accepted)} requests accepted, "
        f"{len(finished)} runs finished as the clients were told; the database holds "
        f"{len(at_kill['requests'])} requests, "
        f"{sum(s == 'finished' for s, _, _ in at_kill['runs'].values())} runs finished",
        file=sys.stderr,
        flush=True,
    )
    restarted_at = time.monotonic()
    server, _ = await _start_server(command, data)
    load.server = server
    load.server_down = False
    load.killed_server = {
        "accepted": sorted(accepted),
        "finished": finished,
        "at_kill": at_kill,
        "restart_s": round(time.monotonic() - restarted_at, 1),
    }


def _after_kill(killed: dict[str, Any], data: Path) -> dict[str, Any]:
    """The kill's account: what the clients had been told before it, against the database at
    the end (every accepted request there, every finished run finished with its hands), and
    how the runs playing at the kill ended."""
    end = _recorded(data)
    before = killed["at_kill"]
    missing = [job for job in killed["accepted"] if job not in end["requests"]]
    changed = [name for name, hands in killed["finished"].items()
               if end["runs"].get(name, (None, None, None))[:2] != ("finished", hands)]  # fmt: skip
    playing = {name: end["runs"].get(name) for name, (state, _, _) in before["runs"].items()
               if not RunState(state).ended}  # fmt: skip
    return {
        "requests_accepted_before": len(killed["accepted"]),
        "runs_finished_before": len(killed["finished"]),
        "requests_in_database_at_kill": len(before["requests"]),
        "runs_finished_in_database_at_kill": sum(
            s == "finished" for s, _, _ in before["runs"].values()
        ),
        "accepted_requests_missing_after": missing,
        "finished_runs_changed_after": changed,
        "runs_playing_at_kill": {name: list(run) if run else None for name, run in playing.items()},
        "restart_s": killed["restart_s"],
    }


def _percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def _report(
    args: argparse.Namespace, load: Load, data: Path, seconds: float, scheduler: str | None,
    cut_short: bool,
) -> dict[str, Any]:  # fmt: skip
    store = Store.open(database_url(None, data))
    try:
        recorded = {}
        for user in store.users():
            for asked in store.requests_of(user.id):
                recorded[(user.name, asked.tag)] = (asked, store.runs_of(asked.id))
    finally:
        store.close()
    queued = [r for r in load.requests if r.queued is not None]
    lost = []
    for r in queued:
        found = recorded.get((r.user, r.tag))
        # A request whose client lost the killed server is not lost if the database has it
        # done (its run failed by the kill, or played after the restart).
        if (r.status is None and not r.cut_off) or found is None \
                or found[0].state is not RequestState.DONE:  # fmt: skip
            lost.append(f"{r.user}.{r.tag}")
    runs = [run for _, played in recorded.values() for run in played]
    finished = [run for run in runs if run.state is RunState.FINISHED]
    killed = {f"{r.user}.{r.tag}.r1" for r in load.requests if r.killed}
    at_kill = (load.killed_server or {}).get("at_kill", {"runs": {}})["runs"]
    by_kill = {name for name, (state, _, _) in at_kill.items()
               if not RunState(state).ended}  # fmt: skip
    failed = [run for run in runs if run.state is not RunState.FINISHED]
    failed_other = [f"{run.match_name}: {run.state.value}: {run.error}" for run in failed
                    if run.match_name not in killed | by_kill]  # fmt: skip
    waits = [r.running - r.queued for r in queued if r.running is not None and r.queued]
    hands = sum(run.hands for run in runs)
    rss = [kib / 1024 for _, kib in load.rss_kib]
    return {
        "users": args.users,
        "duration_s": args.duration,
        "seconds": round(seconds, 1),
        "hands_per_run": args.hands,
        "executor": f"Dask ({scheduler})" if scheduler else "local processes",
        "requests": len(load.requests),
        "refused": sum(r.refused for r in load.requests),
        "runs_finished": len(finished),
        "matches_per_hour": round(len(finished) / seconds * 3600, 1),
        "hands_per_s": round(hands / seconds, 1),
        "queue_wait_p50_s": _rounded(statistics.median(waits) if waits else None),
        "queue_wait_p99_s": _rounded(_percentile(waits, 99)),
        "server_rss_mib_max": round(max(rss), 1) if rss else None,
        "server_rss_mib_end": round(rss[-1], 1) if rss else None,
        "server_rss_mib": [[round(t), round(kib / 1024, 1)] for t, kib in load.rss_kib],
        "lost": lost,
        "failed": failed_other,
        "killed_on_purpose": sorted(killed),
        "failed_by_server_kill": sorted(
            run.match_name for run in failed if run.match_name in by_kill
        ),
        "server_kill": _after_kill(load.killed_server, data) if load.killed_server else None,
        "cut_short": cut_short,
        "load_average": os.getloadavg(),
        "by_request": [asdict(r) for r in load.requests],
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def _print(report: dict[str, Any]) -> None:
    print(
        f"{report['users']} users, {report['duration_s']} s of requests ({report['seconds']} s "
        f"with the last runs), runs of {report['hands_per_run']} hands on "
        f"{report['executor']}, load average {report['load_average'][0]:.1f}\n"
        f"  {report['requests']} requests ({report['refused']} refused), "
        f"{report['runs_finished']} runs finished: {report['matches_per_hour']} matches/hour, "
        f"{report['hands_per_s']} hands/s summed\n"
        f"  queue wait p50 {report['queue_wait_p50_s']} s, p99 {report['queue_wait_p99_s']} s\n"
        f"  server RSS {report['server_rss_mib_max']} MiB at most, "
        f"{report['server_rss_mib_end']} MiB at the end\n"
        f"  lost {len(report['lost'])}, failed {len(report['failed'])} (other than the "
        f"{len(report['killed_on_purpose'])} whose bot was killed on purpose)"
    )
    for line in report["lost"] + report["failed"]:
        print(f"    {line}")
    kill = report["server_kill"]
    if kill is not None:
        playing = kill["runs_playing_at_kill"]
        print(
            f"  server killed (SIGKILL) and started again in {kill['restart_s']} s: before, "
            f"{kill['requests_accepted_before']} requests accepted and "
            f"{kill['runs_finished_before']} runs finished as the clients were told (the "
            f"database: {kill['requests_in_database_at_kill']} requests, "
            f"{kill['runs_finished_in_database_at_kill']} runs finished); after, "
            f"{len(kill['accepted_requests_missing_after'])} of those requests missing, "
            f"{len(kill['finished_runs_changed_after'])} of those runs changed; "
            f"{len(playing)} runs playing at the kill:"
        )
        for name, run in playing.items():
            print(f"    {name}: {run}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
    )
    parser.add_argument("--users", type=int, default=4, help="users at once (default 4)")
    parser.add_argument(
        "--duration", type=float, default=600, help="seconds of requests (default 600)"
    )
    parser.add_argument("--hands", type=int, default=1000, help="hands a run (default 1000)")
    parser.add_argument(
        "--kill", type=int, default=2, help="bots killed on purpose mid-run (default 2)"
    )
    parser.add_argument(
        "--agent", default="example", help="the users' bot, an agent spec (default example)"
    )
    parser.add_argument(
        "--jobs", type=int, default=0,
        help="runs at once (maxRunningJobs; default: the Dask workers, or the cores)",
    )  # fmt: skip
    parser.add_argument(
        "--drain", type=float, default=600,
        help="seconds the runs under way at the end are waited for (default 600)",
    )  # fmt: skip
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", help="a Dask cluster's scheduler")
    where.add_argument(
        "--dask-workers", type=int, default=0, metavar="N",
        help="start a Dask scheduler and N one-thread workers here for the runs",
    )  # fmt: skip
    parser.add_argument(
        "--kill-server-at", type=float, metavar="SECONDS",
        help="SIGKILL the server this many seconds in and start it again on the same data "
        "and port; report what was kept",
    )  # fmt: skip
    parser.add_argument("--data", type=Path, help="the server's data folder (default: temporary)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the report as JSON")
    args = parser.parse_args(argv)
    if args.users < 1 or args.hands < 1 or args.duration <= 0:
        parser.error("--users, --hands and --duration must be positive")
    with contextlib.ExitStack() as stack:
        if args.data is None:
            data = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="load-server-")))
        else:
            data = args.data
            data.mkdir(parents=True, exist_ok=True)
        scheduler = args.scheduler
        if args.dask_workers:
            cluster = _local_cluster()(args.dask_workers, data)
            stack.callback(cluster.close)
            scheduler = cluster.address
        report = asyncio.run(_run(args, data, scheduler))
    _print(report)
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
