"""How long ``acpcbot web`` takes to answer a page request while a long match publishes beside
it: the p50/p90/p99/max latency of page requests, before the match and while it plays.

Starts, on this machine only (127.0.0.1): a mosquitto broker; ``acpcbot web`` serving a
folder (a copy of the reference dealer's 1,000-hand log, and the match's own folder, whose
logs it reads as they grow) and hearing the broker; a page held open on the live view with
the match selected (its stream of the board and the curve, every second); then a duplicate
match of 2 x HANDS hands publishing its status, its progress and every hand (``--mqtt
--mqtt-hands``) into the served folder. One client asks for pages in turn (the page, its
script, the folder listing, the live board, a page of the log's hands, one hand step by
step), at most RATE a second, each on a new connection, timing each answer; first for
--baseline seconds with nothing else running, then for as long as the match plays.

    python scripts/bench_web.py [--hands 100000] [--agents example always-call] [--rate 20]

Prints the numbers per phase and per kind of request (--json: as JSON). Every loop is bounded
in time; everything it started is stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from acpcbot.telemetry.localbroker import Mosquitto

ACPCBOT = Path(sys.executable).with_name("acpcbot")
REPO = Path(__file__).resolve().parents[1]
REFERENCE = (
    REPO
    / "tests/data/acpc-vectors/logs/deterministic/limit2p.seed42.n1000.Alice_hash-Bob_raiser.log"
)
PAGES = (
    ("page", "/"),
    ("script", "/static/app.js"),
    ("files", "/api/files"),
    ("live", "/api/live"),
    ("hands", "/api/log?root=results&path=reference.log&order=pot&limit=100"),
    ("hand", "/api/hand?root=results&path=reference.log&number={n}"),
)


def request(port: int, target: str) -> tuple[float, int]:
    """One GET on a new connection: seconds until the whole answer was read, and its status."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", target)
        response = connection.getresponse()
        response.read()
        return time.perf_counter() - started, response.status
    finally:
        connection.close()


def ask(port: int, rate: float, until: threading.Event, limit_s: float) -> list[tuple[str, float]]:
    """Pages in turn, at most ``rate`` a second, until ``until`` is set (or ``limit_s``)."""
    timed: list[tuple[str, float]] = []
    deadline = time.monotonic() + limit_s
    n = 0
    while not until.is_set() and time.monotonic() < deadline:
        name, target = PAGES[n % len(PAGES)]
        started = time.monotonic()
        seconds, status = request(port, target.format(n=n % 1000))
        if status != 200:
            raise RuntimeError(f"{target}: HTTP {status}")
        timed.append((name, seconds))
        n += 1
        time.sleep(max(0.0, 1 / rate - (time.monotonic() - started)))
    return timed


def hold_live_view(port: int, key: str, until: threading.Event) -> None:
    """A page open on the live view: read its stream until ``until``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", f"/api/live/events?key={key}")
    response = connection.getresponse()
    while not until.is_set() and response.readline():
        pass
    connection.close()


def summary(timed: list[tuple[str, float]]) -> dict[str, Any]:
    def numbers(values: list[float]) -> dict[str, float | None]:
        ordered = sorted(values)
        if not ordered:  # none of this kind in the time given
            return {"count": 0, "p50_ms": None, "p90_ms": None, "p99_ms": None, "max_ms": None}

        def at(q: float) -> float:
            return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

        return {
            "count": len(ordered),
            "p50_ms": round(1000 * statistics.median(ordered), 2),
            "p90_ms": round(1000 * at(0.90), 2),
            "p99_ms": round(1000 * at(0.99), 2),
            "max_ms": round(1000 * ordered[-1], 2),
        }

    by_kind = {name: numbers([s for n, s in timed if n == name]) for name, _ in PAGES}
    return {"all": numbers([s for _, s in timed]), **by_kind}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100_000, help="hands per half (100000)")
    parser.add_argument("--agents", nargs=2, default=["example", "always-call"])
    parser.add_argument("--rate", type=float, default=20.0, help="requests a second (20)")
    parser.add_argument("--baseline", type=float, default=10.0, help="seconds before (10)")
    parser.add_argument("--limit", type=float, default=900.0, help="most seconds of match")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        results = root / "results"
        results.mkdir()
        shutil.copy(REFERENCE, results / "reference.log")
        (root / "broker").mkdir()
        broker = Mosquitto(root / "broker").start()
        started: list[subprocess.Popen[str]] = []
        try:
            web = subprocess.Popen(
                [str(ACPCBOT), "web", str(results), "--mqtt", broker.url, "--port", "0"],
                stdout=subprocess.PIPE,
                text=True,
            )
            started.append(web)
            assert web.stdout is not None
            found = re.search(r"127\.0\.0\.1:(\d+)/", web.stdout.readline())
            assert found is not None, "acpcbot web did not start"
            port = int(found[1])
            request(port, "/api/hand?root=results&path=reference.log&number=0")  # warm
            idle = threading.Event()
            before = ask(port, args.rate, idle, args.baseline)
            match = subprocess.Popen(
                [
                    *(str(ACPCBOT), "match", *args.agents, "--hands", str(args.hands)),
                    *("--seed", "1", "--mqtt", broker.url, "--mqtt-hands"),
                    *("--out", str(results / "match"), "--no-progress"),
                ],
                stdout=subprocess.DEVNULL,
                text=True,
            )
            started.append(match)
            played = threading.Event()

            def watch() -> None:
                match.wait()
                played.set()

            threading.Thread(target=watch, daemon=True).start()
            key = _wait_for_match(port, played)
            viewer = threading.Thread(target=hold_live_view, args=(port, key, played), daemon=True)
            viewer.start()
            during = ask(port, args.rate, played, args.limit)
            match.wait(60)
            played_summary = json.loads((results / "match" / "summary.json").read_text())
        finally:
            for process in started:
                if process.poll() is None:
                    process.send_signal(signal.SIGINT)
                    process.wait(30)
            broker.stop()
    report = {
        "match": {
            "agents": args.agents,
            "hands": played_summary["hands"],
            "status": played_summary["status"],
            "hands_per_second": played_summary["hands_per_second"],
            "seconds": played_summary["seconds"],
            "telemetry": played_summary.get("telemetry"),
        },
        "rate": args.rate,
        "before": summary(before),
        "during": summary(during),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    m = report["match"]
    told = m["telemetry"] or {}
    print(
        f"match: {' vs '.join(m['agents'])}, {m['hands']:,} hands ({m['status']}) in "
        f"{m['seconds']:.1f} s, {m['hands_per_second']:,.0f} hands/s, publishing every hand "
        f"({told.get('published', 0):,} messages published, {told.get('dropped', 0):,} dropped)"
    )
    columns = ("count", "p50 ms", "p90 ms", "p99 ms", "max ms")
    print(f"{'phase':<8} {'request':<8} " + " ".join(f"{c:>8}" for c in columns))
    for phase in ("before", "during"):
        for kind, n in report[phase].items():
            times = (n[c] for c in ("p50_ms", "p90_ms", "p99_ms", "max_ms"))
            shown = " ".join("       -" if t is None else f"{t:>8.1f}" for t in times)
            print(f"{phase:<8} {kind:<8} {n['count']:>8} {shown}")
    return 0


def _wait_for_match(port: int, played: threading.Event) -> str:
    """The match's key on the live board, once the server has heard it."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not played.is_set():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/api/live")
        sources = json.loads(connection.getresponse().read())["sources"]
        connection.close()
        for source in sources:
            if source["key"].startswith("mqtt:match/") and source["status"] == "running":
                return str(source["key"])
        time.sleep(0.1)
    raise RuntimeError("the match was not heard on the live board")


if __name__ == "__main__":
    sys.exit(main())
