"""The benchmark server's page in a real browser (``e2e`` and ``slow``: ``acpcbot serve`` as a
process, its users' bots by ``acpcbot connect``; Debian's headless Chromium through
Playwright): the leaderboard as the API ranks it, for anyone; "My matches" after the logon
form (a wrong secret refused), a request asked for with its form, played when the user's bot
connects, followed live to its end, a log downloaded, a request cancelled; the admin view
(users added and disabled, anyone's request cancelled) for administrators only; and each view
at 800 px wide, nothing past its right edge. The tests read the page through locators (see
``tests/dealer/web/test_browser.py``)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from acpcbot.cli import main
from tests.dealer.benchmark.server import ACPCBOT, serve_process
from tests.dealer.web.browser import wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Page

# The site is started once for the module: its tests run in one test process (--dist loadgroup).
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("benchmark-site")]


LIMIT = "holdem.limit.2p.reverse_blinds.game"
CONFIG = f"""
game {LIMIT} {{
  maxMatchRuns 3
  maxRunningJobs 2
  matchHands 100
  bot caller always-call
  bot raiser always-raise
}}
"""


@dataclass
class Site:
    url: str
    port: int
    data: Path
    secrets: dict[str, str]

    def api(self, user: str, path: str, body: Any = None) -> Any:
        """The API asked as ``user`` (a token): its JSON answer."""
        request = urllib.request.Request(
            self.url + path,
            data=None if body is None else json.dumps(body).encode(),
            headers={
                "Authorization": f"Bearer {user}:{self.secrets[user]}",
                "Content-Type": "application/json",
            },
            method="GET" if body is None else "POST",
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())

    def connect(self, user: str, *runs: str) -> subprocess.Popen[str]:
        """``acpcbot connect`` as ``user`` with the example agent (its commands ``runs``;
        none: it stays logged on while its standard input is open)."""
        asked = [arg for run in runs for arg in ("--run", run)]
        bot = ("--agent", "example", "--seed", "3")
        return subprocess.Popen(
            [ACPCBOT, "connect", "127.0.0.1", str(self.port), "--user", user, *bot, *asked],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "ACPCBOT_PASSWORD": self.secrets[user]},
        )


def add_user(config: Path, data: Path, name: str, *flags: str) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["serve", "--config", str(config), "--data", str(data),
                     "user", "add", name, *flags]) == 0  # fmt: skip
    return printed.getvalue().rsplit(": ", 1)[1].strip()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """``acpcbot serve`` with two users (ann, root the administrator), ann's duplicate pair
    against caller played (tag v1)."""
    folder = tmp_path_factory.mktemp("serve")
    config, data = folder / "bm_server.config", folder / "data"
    config.write_text(CONFIG)
    secrets = {name: add_user(config, data, name, *flags)
               for name, flags in (("ann", ()), ("root", ("--admin",)))}  # fmt: skip
    with serve_process(config, data) as (process, port, url):
        served = Site(url, port, data, secrets)
        client = served.connect("ann", f"RUNMATCHES {LIMIT} 1 v1 7 LOCAL caller DUPLICATE")
        _, err = client.communicate(timeout=300)
        assert client.returncode == 0, err
        yield served
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0


def log_on(page: Page, site: Site, user: str) -> None:
    page.goto(f"{site.url}/#logon")
    page.fill("#logon-form input[name=name]", user)
    page.fill("#logon-form input[name=secret]", site.secrets[user])
    page.click("#logon-submit")
    page.locator("#who-name", has_text=user).wait_for()


def estimate_text(mbb: float, ci: float | None) -> str:
    """As the page writes an estimate."""
    return f"{mbb:+,.1f}" + (f" ± {ci:,.1f}" if ci is not None else "")


def test_the_leaderboard_shows_each_users_best_bot_to_anyone(site: Site, page: Page) -> None:
    page.goto(f"{site.url}/")
    assert page.locator("#nav-board").get_attribute("class") == "current"  # the first view
    (caller,) = [b for b in site.api("ann", "/api/leaderboard")["boards"] if b["bot"] == "caller"]
    (row,) = caller["rows"]
    shown = page.locator('table.board[data-bot="caller"] tbody tr')
    shown.first.wait_for()
    assert shown.count() == 1
    assert (shown.get_attribute("data-user"), shown.get_attribute("data-tag")) == ("ann", "v1")
    cells = [c.text_content() for c in shown.locator("td").all()]
    assert cells == ["1", "ann", "v1", estimate_text(row["mbb"], row["ci"]), "1", "200"]
    assert page.locator('table.board[data-bot="raiser"]').count() == 0  # nobody yet
    assert page.locator("#view-board", has_text="nobody yet").count() == 1
    assert page.locator("#nav-mine").is_visible() and page.locator("#nav-logon").is_visible()
    assert page.locator("#nav-admin").is_hidden() and page.locator("#nav-play").is_hidden()


def test_my_matches_after_the_logon_ask_for_runs_follow_them_and_download_logs(
    site: Site, page: Page
) -> None:
    page.goto(f"{site.url}/#mine")
    page.locator("#mine-out").wait_for()  # not logged on: the way to log on
    page.goto(f"{site.url}/#logon")
    page.fill("#logon-form input[name=name]", "ann")
    page.fill("#logon-form input[name=secret]", "not-it")
    page.click("#logon-submit")
    page.locator("#logon-error", has_text="wrong name or secret").wait_for()
    log_on(page, site, "ann")
    wait_until(lambda: page.url.endswith("#mine"), what="My matches after the logon")
    assert page.locator("#nav-admin").is_hidden()  # ann is no administrator
    # The pair played before: its runs, its result, its logs.
    v1 = page.locator('#mine-requests tr.request[data-state="done"]')
    v1.wait_for()
    runs = page.locator('#mine-requests tr.run[data-state="finished"]')
    assert runs.count() == 2
    page.locator('#mine-results tr[data-tag="v1"][data-kind="pairs"]').wait_for()
    with page.expect_download() as download:
        runs.first.locator("a").click()
    name = download.value.suggested_filename
    assert name == "ann.v1.r1.b.log"
    got = Path(download.value.path()).read_bytes()
    assert got == (site.data / "logs/ann" / name).read_bytes()
    # A request asked for with the form: it waits for ann's bot, plays when it connects.
    page.select_option("#submit-seats select[data-seat='0']", "LOCAL")
    page.select_option("#submit-seats select[data-seat='1']", "caller")
    page.fill("#submit-form input[name=tag]", "web")
    page.fill("#submit-form input[name=seed]", "11")
    page.uncheck("#submit-form input[name=duplicate]")
    page.click("#submit-button")
    waiting = page.locator("#mine-requests tr.request", has_text="web \u00b7 LOCAL vs caller")
    waiting.locator("td", has_text="waits for your bot").wait_for()
    assert page.locator("#mine-bot").get_attribute("data-present") == "false"
    bot = site.connect("ann")
    try:
        page.locator('#mine-bot[data-present="true"]').wait_for(timeout=60_000)
        run = page.locator("#mine-requests tr.run[data-run]", has_text="ann.web.r1")
        wait_until(lambda: run.get_attribute("data-state") == "finished", 240, "the run played")
        assert run.locator("td").nth(2).text_content() == "100/100"
        assert re.fullmatch(
            r"[+-][\d,]+\.\d ± [\d,]+\.\d", run.locator("td").nth(3).text_content() or ""
        )
    finally:
        bot.stdin.close()  # type: ignore[union-attr]
        bot.wait(60)
    page.locator('#mine-bot[data-present="false"]').wait_for(timeout=60_000)
    # Another, cancelled while it waits.
    page.fill("#submit-form input[name=tag]", "later")
    page.click("#submit-button")
    later = page.locator("#mine-requests tr.request", has_text="later \u00b7 LOCAL vs caller")
    later.locator("button.cancel").click()
    wait_until(lambda: later.get_attribute("data-state") == "cancelled", what="cancelled")
    assert later.locator("button").count() == 0
    (asked,) = [r for r in site.api("ann", "/api/my/requests")["requests"] if r["tag"] == "later"]
    assert asked["state"] == "cancelled"


def test_the_admin_view_is_for_administrators_and_manages_users_and_the_queue(
    site: Site, page: Page
) -> None:
    queued = site.api(
        "ann", "/api/my/requests",
        {"game": LIMIT, "runs": 2, "tag": "queued", "players": ["LOCAL", "raiser"]},
    )  # fmt: skip
    log_on(page, site, "root")
    page.locator("#nav-admin").click()
    row = page.locator(f'#admin-queue tr[data-request="{queued["id"]}"]')
    row.wait_for()
    assert row.get_attribute("data-user") == "ann"
    assert "waits for the user's bot" in (row.text_content() or "")
    row.locator("button.cancel").click()
    row.wait_for(state="detached")
    assert site.api("ann", f"/api/my/requests/{queued['id']}")["state"] == "cancelled"
    page.fill("#user-form input[name=name]", "eve")
    page.click("#user-add")
    secret = page.locator("#admin-secret code")
    secret.wait_for()
    assert len(secret.text_content() or "") == 32
    eve = page.locator('#admin-users tr[data-user="eve"]')
    eve.locator("button[data-action=disable]").click()
    eve.locator("td", has_text="disabled").wait_for()
    assert eve.locator("button[data-action=enable]").count() == 1
    page.click("#logoff")
    page.locator("#nav-logon").wait_for()
    assert page.locator("#nav-admin").is_hidden()


def test_each_view_fits_800_px(site: Site, page: Page) -> None:
    page.set_viewport_size({"width": 800, "height": 900})
    log_on(page, site, "root")
    waiting = site.api("ann", "/api/my/requests", {"game": LIMIT, "runs": 3,
                       "tag": "a-rather-long-tag", "players": ["LOCAL", "caller"],
                       "duplicate": True})  # fmt: skip
    checks = {"board": "table.board", "admin": "#admin-users tbody tr", "mine": "#mine-in"}
    for view, shown in checks.items():
        page.goto(f"{site.url}/#{view}")
        page.locator(f"#view-{view} {shown}").first.wait_for()
        time.sleep(0.5)
        widths = page.locator("html").evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert widths[0] <= widths[1] == 800, (view, widths)
        links = [page.locator(f"#nav-{name}").bounding_box() for name in ("board", "mine", "admin")]
        assert len({round(box["y"]) for box in links if box}) == 1, (view, links)
        who = page.locator("#who").bounding_box()
        assert who is not None and who["x"] + who["width"] <= 800, (view, who)
    site.api("ann", f"/api/my/requests/{waiting['id']}/cancel", {})
