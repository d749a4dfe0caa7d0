"""The documentation's pictures of ``acpcbot web``: its three views, taken by the browser the
tests drive (Debian's headless Chromium through Playwright).

Runs everything it shows, in a temporary folder: a mosquitto broker; ``acpcbot web`` on it
and on that folder; a duplicate match of plicas and dpp, 2 x 100,000 hands, publishing there
(Live: its curve growing; stopped once the picture is taken); a match played with
``--aivat`` (Replay: its largest pot, each decision's probabilities, the AIVAT value); a
person's seat against plicas (Play: the legal actions as buttons, the clock). Writes
``docs/web-live.png``, ``docs/web-replay.png`` and ``docs/web-play.png`` (or into ``--out``).
Needs the ``browser`` extra (Playwright; ``./dev.sh extras browser``).

    python scripts/web_screenshots.py [--out docs] [--hands 300] [--chromium /usr/bin/chromium]
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
from typing import TYPE_CHECKING

from acpcbot.telemetry.localbroker import Mosquitto

if TYPE_CHECKING:
    from playwright.sync_api import Page

ACPCBOT = Path(sys.executable).with_name("acpcbot")
REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs")
    parser.add_argument(
        "--hands", type=int, default=300, help="hands per half of the replayed match (300)"
    )
    parser.add_argument(
        "--chromium",
        default=os.environ.get("ACPCBOT_CHROMIUM")
        or shutil.which("chromium")
        or "/usr/bin/chromium",
    )
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "results"
        folder.mkdir()
        subprocess.run(
            [
                str(ACPCBOT),
                "match",
                "plicas",
                "dpp",
                "--hands",
                str(args.hands),
                "--seed",
                "42",
                "--aivat",
                "--out",
                str(folder / "plicas-vs-dpp"),
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
                    "plicas",
                    "dpp",
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
                browser = playwright.chromium.launch(
                    executable_path=args.chromium,
                    args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
                )
                page = browser.new_page(viewport={"width": 1200, "height": 760})
                _live(page, url, args.out / "web-live.png")
                _replay(page, url, folder, args.out / "web-replay.png")
                _play(page, url, args.out / "web-play.png")
                browser.close()
        finally:
            for process in processes:
                if process.poll() is None:
                    process.send_signal(signal.SIGINT)
                    process.wait(30)
            broker.stop()
    for name in ("web-live.png", "web-replay.png", "web-play.png"):
        print(args.out / name)
    return 0


def _live(page: Page, url: str, path: Path) -> None:
    page.goto(f"{url}#live")
    row = page.locator('#live-sources tbody tr[data-key^="mqtt:match/"]')
    row.wait_for(timeout=60_000)
    row.click()
    deadline = time.monotonic() + 60
    while int(page.locator("#live-chart").get_attribute("data-points") or 0) < 12:
        assert time.monotonic() < deadline, "the curve did not grow"
        time.sleep(0.2)
    page.screenshot(path=str(path), full_page=True)


def _replay(page: Page, url: str, folder: Path, path: Path) -> None:
    summary = json.loads((folder / "plicas-vs-dpp" / "summary.json").read_text())
    log = f"plicas-vs-dpp/{summary['halves'][0]['log']}"
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


def _play(page: Page, url: str, path: Path) -> None:
    page.goto(f"{url}#play")
    page.fill("#play-form input[name=opponent]", "plicas")
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
