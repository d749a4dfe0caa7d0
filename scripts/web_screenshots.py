"""The documentation's pictures of ``acpcbot web`` and ``acpcbot serve``'s page, taken by the
browser the tests drive (Debian's headless Chromium through Playwright).

Runs everything it shows, in a temporary folder. For ``acpcbot web`` (``--only web``): a
mosquitto broker; ``acpcbot web`` on it and on that folder; a duplicate match of plicas and
dpp (``--agents``), 2 x 100,000 hands, publishing there (Live: its curve growing; stopped
once the picture is taken); a match of the two played with ``--aivat`` (Replay: its largest
pot, each decision's probabilities, the AIVAT value); a person's seat against the first,
plicas (Play: the legal actions as buttons, the clock). Writes ``docs/web-live.png``,
``docs/web-replay.png`` and ``docs/web-play.png``. For ``acpcbot serve`` (``--only serve``):
a server with dpp and plicas as house bots, 1,000 hands a run; three users, each with a bot of
the field played by ``acpcbot connect``, a duplicate pair against each house bot (the
Leaderboard); then alice's longer request against dpp, playing while her "My matches" is
taken. Writes ``docs/serve-leaderboard.png`` and ``docs/serve-mine.png``. Both by default;
into ``--out``.
Needs the ``browser`` extra (Playwright; ``./dev.sh extras browser``).

    python scripts/web_screenshots.py [--only web|serve] [--out docs] [--hands 300]
                                      [--points 12] [--agents plicas dpp] [--chromium PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acpcbot.telemetry.localbroker import Mosquitto

if TYPE_CHECKING:
    from playwright.sync_api import Page

ACPCBOT = Path(sys.executable).with_name("acpcbot")
REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs")
    parser.add_argument("--only", choices=("web", "serve"), help="one command's pictures")
    parser.add_argument(
        "--hands", type=int, default=300, help="hands per half of the replayed match (300)"
    )
    parser.add_argument(
        "--points",
        type=int,
        default=12,
        help="points of the live curve (a second each) before its picture is taken (12)",
    )
    parser.add_argument(
        "--agents",
        nargs=2,
        default=["plicas", "dpp"],
        metavar=("A", "B"),
        help="the pictures' match, A against B; the Play seat faces A (plicas dpp)",
    )
    parser.add_argument(
        "--chromium",
        default=os.environ.get("ACPCBOT_CHROMIUM")
        or shutil.which("chromium")
        or "/usr/bin/chromium",
    )
    args = parser.parse_args(argv)
    written = []
    if args.only in (None, "web"):
        written += _web_pictures(args)
    if args.only in (None, "serve"):
        written += _serve_pictures(args)
    for path in written:
        print(path)
    return 0


def _browser_page(playwright: Any, chromium: str) -> tuple[Any, Page]:
    browser = playwright.chromium.launch(
        executable_path=chromium,
        args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
    )
    return browser, browser.new_page(viewport={"width": 1200, "height": 760})


def _web_pictures(args: argparse.Namespace) -> list[Path]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "results"
        folder.mkdir()
        replayed = folder / "-vs-".join(args.agents)
        subprocess.run(
            [
                str(ACPCBOT),
                "match",
                *args.agents,
                "--hands",
                str(args.hands),
                "--seed",
                "42",
                "--aivat",
                "--out",
                str(replayed),
                "--no-progress",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        (Path(tmp) / "broker").mkdir()
        broker = Mosquitto(Path(tmp) / "broker").start()
        processes: list[subprocess.Popen[str]] = []
        try:
            web = subprocess.Popen(
                [
                    str(ACPCBOT),
                    "web",
                    str(folder),
                    "--mqtt",
                    broker.url,
                    "--port",
                    "0",
                    "--play-dir",
                    str(folder / "played"),
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            processes.append(web)
            assert web.stdout is not None
            found = re.search(r"serving on (\S+)", web.stdout.readline())
            assert found is not None
            url = found[1]
            match = subprocess.Popen(
                [
                    str(ACPCBOT),
                    "match",
                    *args.agents,
                    "--hands",
                    "100000",
                    "--seed",
                    "7",
                    "--mqtt",
                    broker.url,
                    "--out",
                    str(folder / "long"),
                    "--no-progress",
                ],
                stdout=subprocess.DEVNULL,
                text=True,
            )
            processes.append(match)
            with sync_playwright() as playwright:
                browser, page = _browser_page(playwright, args.chromium)
                _live(page, url, args.out / "web-live.png", args.points)
                # Its picture taken, the long match has done its part: stopped now, so that
                # it does not take a core from the pictures still to take.
                _stop(match)
                _replay(page, url, replayed, args.out / "web-replay.png")
                _play(page, url, args.agents[0], args.out / "web-play.png")
                browser.close()
        finally:
            for process in processes:
                _stop(process)
            broker.stop()
    return [args.out / name for name in ("web-live.png", "web-replay.png", "web-play.png")]


def _stop(process: subprocess.Popen[str]) -> None:
    """Ctrl-C to ``process`` if it still runs, and its end (at most 30 s)."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        process.wait(30)


SERVE_CONFIG = """
game holdem.limit.2p.reverse_blinds.game {
    maxMatchRuns 4
    maxRunningJobs 2
    matchHands 1000
    bot dpp dpp
    bot plicas plicas
}
"""
USERS = {"alice": "tight-aggressive", "bob": "example", "carol": "loose-passive"}
"""Each user's bot (an agent of the field), played by acpcbot connect."""
GAME = "holdem.limit.2p.reverse_blinds.game"


def _serve_pictures(args: argparse.Namespace) -> list[Path]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config, data = folder / "bm_server.config", folder / "data"
        config.write_text(SERVE_CONFIG)
        secrets = {}
        for user in USERS:
            where = ("--config", str(config), "--data", str(data))
            added = subprocess.run(
                [str(ACPCBOT), "serve", *where, "user", "add", user],
                check=True,
                capture_output=True,
                text=True,
            )
            secrets[user] = added.stdout.rsplit(": ", 1)[1].strip()
        ports = ("--port", "0", "--http-port", "0")
        server = subprocess.Popen(
            [str(ACPCBOT), "serve", "--config", str(config), "--data", str(data), *ports],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        processes: list[subprocess.Popen[str]] = [server]
        try:
            assert server.stdout is not None
            found = re.search(
                r"listening on \S+:(\d+), .* HTTP API on (\S+?);", server.stdout.readline()
            )
            assert found is not None
            port, url = int(found[1]), found[2]
            # Each user's bot against each house bot, a duplicate pair (the users at once).
            clients = []
            for seed, (user, agent) in enumerate(USERS.items(), 1):
                asked = [
                    f"RUNMATCHES {GAME} 1 v1 {seed} LOCAL {bot} DUPLICATE"
                    for bot in ("dpp", "plicas")
                ]
                clients.append(_connect(port, user, agent, secrets[user], asked))
            processes += clients
            for client in clients:
                client.wait(3600)
            # Alice's longer request, playing while her matches are taken.
            longer = [f"RUNMATCHES {GAME} 3 v2 11 LOCAL dpp DUPLICATE"]
            alice = _connect(port, "alice", USERS["alice"], secrets["alice"], longer)
            processes.append(alice)
            with sync_playwright() as playwright:
                browser, page = _browser_page(playwright, args.chromium)
                page.goto(f"{url}#board")
                page.locator("table.board tbody tr").first.wait_for()
                page.screenshot(path=str(args.out / "serve-leaderboard.png"), full_page=True)
                _mine(page, url, secrets["alice"], args.out / "serve-mine.png")
                browser.close()
        finally:
            for process in processes:
                if process.poll() is None:
                    process.send_signal(signal.SIGINT if process is server else signal.SIGTERM)
                    process.wait(60)
    return [args.out / name for name in ("serve-leaderboard.png", "serve-mine.png")]


def _connect(
    port: int, user: str, agent: str, secret: str, runs: list[str]
) -> subprocess.Popen[str]:
    asked = [arg for run in runs for arg in ("--run", run)]
    bot = ("--user", user, "--agent", agent, "--seed", "1")
    return subprocess.Popen(
        [str(ACPCBOT), "connect", "127.0.0.1", str(port), *bot, *asked],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "ACPCBOT_PASSWORD": secret},
    )


def _mine(page: Page, url: str, secret: str, path: Path) -> None:
    page.goto(f"{url}#logon")
    page.fill("#logon-form input[name=name]", "alice")
    page.fill("#logon-form input[name=secret]", secret)
    page.click("#logon-submit")
    page.locator("#mine-in").wait_for()
    page.fill("#submit-form input[name=tag]", "v3")
    # A run playing with a few hundred hands done and a running result.
    deadline = time.monotonic() + 600
    playing = page.locator('#mine-requests tr.run[data-state="playing"]')
    while not (playing.count() and int(playing.first.get_attribute("data-hands") or 0) >= 300):
        assert time.monotonic() < deadline, "alice's run did not play"
        time.sleep(0.2)
    page.screenshot(path=str(path), full_page=True)


def _live(page: Page, url: str, path: Path, points: int) -> None:
    page.goto(f"{url}#live")
    row = page.locator('#live-sources tbody tr[data-key^="mqtt:match/"]')
    row.wait_for(timeout=60_000)
    row.click()
    # (Minutes, not seconds: on a loaded machine the match plays a few hands a second.)
    deadline = time.monotonic() + 300
    while int(page.locator("#live-chart").get_attribute("data-points") or 0) < points:
        assert time.monotonic() < deadline, "the curve did not grow"
        time.sleep(0.2)
    page.screenshot(path=str(path), full_page=True)


def _replay(page: Page, url: str, match: Path, path: Path) -> None:
    summary = json.loads((match / "summary.json").read_text())
    log = f"{match.name}/{summary['halves'][0]['log']}"
    page.goto(f"{url}#replay/results/{log}")
    page.locator("#replay-hands tbody tr").first.wait_for()
    page.locator("#replay-filter select[name=order]").select_option("pot")
    page.locator("#replay-filter button").click()
    time.sleep(0.5)
    page.locator("#replay-hands tbody tr").first.click()
    page.locator("#hand-steps li").first.wait_for()
    steps = page.locator("#hand-steps li").count()
    page.locator("#step-first").click()
    for _ in range(max(1, steps - 2)):
        page.locator("#step-next").click()
    page.screenshot(path=str(path), full_page=True)


def _play(page: Page, url: str, opponent: str, path: Path) -> None:
    page.goto(f"{url}#play")
    page.fill("#play-form input[name=opponent]", opponent)
    page.fill("#play-form input[name=hands]", "50")
    page.fill("#play-form input[name=seed]", "3")
    page.click("#play-start")
    clicks = 0
    deadline = time.monotonic() + 60
    while clicks < 5 and time.monotonic() < deadline:
        buttons = page.locator("#play-buttons button")
        if buttons.count():
            key = page.locator("#play-buttons").get_attribute("data-key")
            buttons.nth(buttons.count() - 1 if clicks % 2 else 0).click()
            clicks += 1
            while page.locator("#play-buttons").get_attribute("data-key") == key:
                time.sleep(0.05)
        time.sleep(0.05)
    page.locator("#play-buttons button").first.wait_for()
    page.screenshot(path=str(path), full_page=True)


if __name__ == "__main__":
    sys.exit(main())
