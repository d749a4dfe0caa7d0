"""The page in a real browser (``e2e`` and ``slow``): Debian's headless Chromium driven by
Playwright against ``acpcbot web`` itself. The live view follows a match publishing to a real
mosquitto until it ends; the replay shows hand 0 of the reference dealer's log and of ours as
their ``STATE`` lines say; a person clicking plays 20 hands against always-call, and only the
legal actions can be clicked; paths outside the folders are refused; the Play form says why
it refuses a name or an opponent; and what the page draws is measured (the chart's axis, the
contrast of the results on the felt, the Play end screen and the nav at 800 px).

Chromium is the system's (``./dev.sh test`` installs Debian's package; ``$ACPCBOT_CHROMIUM``
names another): Playwright never downloads a browser here. The page's scripts run under its
Content-Security-Policy, so the tests read the page through locators, never by running
script of theirs in it, except to read what the browser computed for an element (a colour,
a scroll width)."""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from acpcbot.cli import main
from acpcbot.game import bundled_game
from acpcbot.protocol.logfile import parse_state_line
from acpcbot.protocol.matchstate import parse_betting
from acpcbot.rules import HandState, replay
from dealer.web.logs import HandFilter, HandIndex
from tests.acpcbot.telemetry.sleepy import SPEC as SLEEPY
from tests.conftest import REPO, VECTORS
from tests.dealer.web.browser import wait_until
from tests.dealer.web.server import ACPCBOT, command
from tests.mqttbroker import Mosquitto

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

if TYPE_CHECKING:
    from playwright.sync_api import FloatRect, Page

REFERENCE = "logs/deterministic/limit2p.seed42.n1000.Alice_hash-Bob_raiser.log"


def test_the_live_page_follows_a_match_publishing_to_the_broker_until_it_ends(
    broker: Mosquitto, tmp_path: Path, page: Page
) -> None:
    results = tmp_path / "results"
    results.mkdir()
    with command(str(results), "--mqtt", broker.url) as (url, _):
        page.goto(f"{url}#live")
        page.locator("#live-broker", has_text="watching").wait_for()
        match = subprocess.Popen(
            [
                # A caller that sleeps 3 ms a hand, the halves in turn: the match plays for
                # some 2 x 1,000 x 3 ms = 6 s on any machine (progress is published once a
                # second, a point of the curve each), its process mostly asleep meanwhile.
                *(str(ACPCBOT), "match", "example", f"{SLEEPY}:ms=3", "--hands", "1000"),
                *("--seed", "2", "--mqtt", broker.url, "--out", str(results / "m")),
                *("--jobs", "1", "--no-progress"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(REPO)},  # (the sleepy caller's module)
        )
        try:
            row = page.locator('#live-sources tbody tr[data-key^="mqtt:match/"]')
            row.wait_for(timeout=60_000)
            assert row.get_attribute("data-status") == "running"
            row.click()
            chart = page.locator("#live-chart")
            seen: list[int] = []
            while row.get_attribute("data-status") == "running":
                points = int(chart.get_attribute("data-points") or 0)
                if not seen or points != seen[-1]:
                    seen.append(points)
                time.sleep(0.1)
            assert match.wait(120) == 0, match.stderr.read() if match.stderr else ""
        finally:
            if match.poll() is None:
                match.kill()
        # The curve gained points while the match played, then the match showed as finished.
        assert len([p for p in seen if p > 0]) >= 3 and seen == sorted(seen), seen
        wait_until(lambda: row.get_attribute("data-status") == "finished", what="finished")
        summary = json.loads((results / "m" / "summary.json").read_text())
        mbb = f"{summary['mbb_per_game']:+,.1f}"
        page.locator("#live-numbers", has_text=mbb).wait_for()
        assert page.locator("#live-sources tbody tr").count() == 1  # its folder is that match


def _shown_hand(page: Page) -> str:
    """Hand the replay shows, as a ``STATE`` line's betting and cards fields."""
    holes = []
    for position in range(2):
        cards = page.locator(f'#hand-seats .seat[data-position="{position}"] .card')
        holes.append("".join(c.get_attribute("data-card") or "?" for c in cards.all()))
    rounds: dict[int, str] = {}
    for step in page.locator("#hand-steps li").all():
        round_ = int(step.get_attribute("data-round") or 0)
        rounds[round_] = rounds.get(round_, "") + (step.get_attribute("data-action") or "?")
    groups: dict[int, str] = {}
    for group in page.locator("#hand-board .group").all():
        shown = group.locator(".card").all()
        groups[int(group.get_attribute("data-round") or 0)] = "".join(
            c.get_attribute("data-card") or "?" for c in shown
        )
    last = max(rounds)
    betting = "/".join(rounds.get(r, "") for r in range(last + 1))
    board = "".join(f"/{groups[r]}" for r in range(1, last + 1))
    return f"{betting}:{'|'.join(holes)}{board}"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, Path]]:
    """One ``acpcbot web`` for the tests that only read what it serves (its URL, its port and
    its folder): the reference dealer's log, a match of ours played with ``--aivat``, and
    beside the folder a secret that no path may reach."""
    root = tmp_path_factory.mktemp("served")
    results = root / "results"
    results.mkdir()
    shutil.copy(VECTORS / REFERENCE, results / "reference.log")
    _match(results / "m", "example", "always-call", "--hands", "30", "--seed", "8", "--aivat")
    (root / "secret.log").write_text("the-secret-text\n")
    with command(str(results)) as (url, port):
        yield url, port, results


@pytest.mark.parametrize("whose", ["reference", "ours"])
def test_hand_0_of_a_log_replays_as_its_state_line(
    whose: str, served: tuple[str, int, Path], page: Page
) -> None:
    url, _, results = served
    if whose == "reference":
        relative = "reference.log"
    else:
        summary = json.loads((results / "m" / "summary.json").read_text())
        relative = f"m/{summary['halves'][0]['log']}"
    line = next(
        text
        for text in (results / relative).read_text().splitlines()
        if text.startswith("STATE:0:")
    )
    page.goto(f"{url}#replay")
    page.locator(f'#replay-files li[data-path="{relative}"]').click()
    page.locator('#replay-hands tbody tr[data-number="0"]').click()
    page.locator("#hand-steps li").first.wait_for()
    fields = line.split(":")
    assert _shown_hand(page) == f"{fields[2]}:{fields[3]}"
    shown_log = results / relative
    steps = page.locator("#hand-steps li")
    assert steps.count() == sum(len(r) for r in parse_betting(fields[2]))
    # Step by step: back to the deal, then each action with the pot after it.
    page.locator("#step-first").click()
    assert page.locator("#step-at").text_content() == f"0/{steps.count()}"
    page.locator("#step-next").click()
    assert "now" in (steps.first.get_attribute("class") or "")
    if whose == "ours":  # the .probs beside our log: each decision's, and the AIVAT value
        assert all("fold" in (s.text_content() or "") for s in steps.all())
        assert "AIVAT value" in (page.locator("#hand-aivat").text_content() or "")
        # The other half of the pair: hand 0 again, the same cards by position.
        twin = results / "m" / summary["halves"][1]["log"]
        page.locator("#hand-twin").click()
        page.locator("#replay-title", has_text=twin.name).wait_for()
        other = next(t for t in twin.read_text().splitlines() if t.startswith("STATE:0:"))
        wanted = ":".join(other.split(":")[2:4])
        wait_until(lambda: _shown_hand(page) == wanted, 30, "the twin's hand 0")
        shown_log = twin
    else:
        assert page.locator("#hand-aivat").text_content() == ""
    # The filters: the largest pot first.
    page.locator("#replay-filter select[name=order]").select_option("pot")
    page.locator("#replay-filter button").click()
    largest = HandIndex.read(shown_log).select(HandFilter(order="pot", limit=1))

    def pots() -> list[int]:
        cells = page.locator("#replay-hands tbody td:nth-child(3)").all()
        return [int(cell.text_content() or 0) for cell in cells]

    wait_until(
        lambda: (shown := pots())[:1] == [largest[1][0].pot] and shown == sorted(shown)[::-1],
        what="the largest pots first",
    )


def _legal(betting: str, number: int) -> list[str]:
    """The legal actions at ``betting`` by the rules (not by the page)."""
    state = replay(bundled_game(), parse_betting(betting), number)
    return [kind.value for kind in state.legal_action_types()]


def test_a_person_clicking_plays_20_hands_and_the_log_has_exactly_the_clicks(
    tmp_path: Path, page: Page, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(20)
    played = tmp_path / "played"
    clicked: list[tuple[int, str, str]] = []
    with command("--play-dir", str(played), cwd=tmp_path) as (url, _):
        page.goto(f"{url}#play")
        page.fill("#play-form input[name=opponent]", "always-call")
        page.fill("#play-form input[name=hands]", "20")
        page.fill("#play-form input[name=seed]", "4")
        page.uncheck("#play-form input[name=duplicate]")
        page.click("#play-start")
        table = page.locator("#play-table")
        buttons = page.locator("#play-buttons button")
        answered = set()
        while (status := table.get_attribute("data-status")) not in ("finished", "failed"):
            key = page.locator("#play-buttons").get_attribute("data-key")
            if not key or key in answered or buttons.count() == 0:
                time.sleep(0.02)
                continue
            pot = page.locator("#play-pot")
            betting, number = (
                pot.get_attribute("data-betting") or "",
                int(pot.get_attribute("data-hand") or -1),
            )
            shown = [b.get_attribute("data-action") or "" for b in buttons.all()]
            # Only the legal actions are there to click: fold only facing a bet, no raise
            # at the cap.
            assert shown == _legal(betting, number), (number, betting, shown)
            choice = rng.randrange(len(shown))
            answered.add(key)
            clicked.append((number, betting, shown[choice]))
            buttons.nth(choice).click()
        assert status == "finished", page.locator("#play-status").text_content()
        assert page.locator("#play-result").get_attribute("data-hands") == "20"
    (folder,) = played.iterdir()
    summary = json.loads((folder / "summary.json").read_text())
    assert (summary["status"], summary["hands"]) == ("finished", 20)
    log = folder / summary["halves"][0]["log"]
    in_log = []
    game = bundled_game()
    for text in log.read_text().splitlines():
        if text.startswith("STATE:"):
            record = parse_state_line(text, game)
            position = record.names.index("person")
            state = HandState(game, record.hand_number)
            for actions in record.betting:
                for action in actions:
                    if state.current_player == position:
                        in_log.append((record.hand_number, state.betting_text(), str(action)))
                    state.apply(action)
    assert in_log == clicked and len({n for n, _, _ in clicked}) <= 20
    capsys.readouterr()
    assert main(["results", str(log), "--player", "person", "--json"]) == 0
    read = json.loads(capsys.readouterr().out)
    assert (read["player"], read["opponent"], read["hands"]) == ("person", "always-call", 20)
    assert read["mbb_per_game"] == pytest.approx(summary["mbb_per_game"], abs=0.01)
    assert "agrees with the STATE lines" in read["checks"][0]


def test_paths_outside_the_folders_are_refused_in_the_browser(
    served: tuple[str, int, Path], page: Page
) -> None:
    url, port, _ = served
    base = f"http://127.0.0.1:{port}"
    for target in (
        "/../../etc/passwd",
        "/static/..%2f..%2f..%2fetc%2fpasswd",
        "/files/results/..%2fsecret.log",
        "/files/results/%2e%2e/secret.log",
        "/api/log?root=results&path=../secret.log",
    ):
        response = page.goto(base + target)
        assert response is not None and response.status in (403, 404), target
        body = page.content()
        assert "the-secret-text" not in body and "root:" not in body, target
    response = page.goto(url)
    assert response is not None and response.status == 200


def test_the_play_form_shows_why_it_refuses_a_name_or_an_opponent(
    tmp_path: Path, page: Page
) -> None:
    # A module the server could import from its current folder: it says so if it is.
    (tmp_path / "web_probe.py").write_text(
        "from pathlib import Path\nPath('web_probe.ran').write_text('imported')\n"
        "class Bot:\n    pass\n"
    )
    before = set(tmp_path.rglob("*"))
    with command("--play-dir", str(tmp_path / "deep" / "played"), cwd=tmp_path) as (url, _):
        error = page.locator("#play-error")
        for name, opponent, why in (
            ("../../etc", "always-call", "name: 1 to 64 characters, without '/'"),
            ("a/b", "always-call", "name: 1 to 64 characters, without '/'"),
            ("x" * 65, "always-call", "name: 1 to 64 characters, without '/'"),
            ("Ann", "web_probe:Bot", "names a Python class (module:Class)"),
        ):
            page.goto(f"{url}#play")
            page.reload()  # a fresh form: no error shown yet
            # The page fills the list of opponents once it has asked the server for it.
            page.locator("#play-opponents").filter(has_text="--allow-classes").wait_for()
            page.fill("#play-form input[name=name]", name)
            page.fill("#play-form input[name=opponent]", opponent)
            page.click("#play-start")
            error.filter(has_text=why).wait_for()
            assert page.locator("#play-table").is_hidden()
    assert not (tmp_path / "web_probe.ran").exists()
    assert set(tmp_path.rglob("*")) == before  # nothing made, in --play-dir or elsewhere


def _match(out: Path, *args: str) -> dict[str, Any]:
    """``acpcbot match ARGS --out OUT``, played in this process (``--jobs 1``: the page reads
    its files, whichever process wrote them): its summary."""
    command = ["match", *args, "--out", str(out), "--jobs", "1", "--no-progress"]
    assert main(command) == 0
    summary: dict[str, Any] = json.loads((out / "summary.json").read_text())
    return summary


def _ink_runs(picture: bytes) -> list[tuple[int, int]]:
    """The runs of columns of a screenshot that hold ink (any pixel darker than light grey),
    as (first, last) column."""
    from PIL import Image

    image = Image.open(io.BytesIO(picture)).convert("L")
    width, height = image.size
    pixels = image.load()
    assert pixels is not None
    inked = [any(pixels[x, y] < 230 for y in range(height)) for x in range(width)]  # type: ignore[operator]
    runs: list[tuple[int, int]] = []
    for x, ink in enumerate(inked):
        if ink and runs and runs[-1][1] == x - 1:
            runs[-1] = (runs[-1][0], x)
        elif ink:
            runs.append((x, x))
    return runs


def _luminance(css: str) -> float:
    """The relative luminance (WCAG 2) of a CSS ``rgb(...)`` colour."""
    red, green, blue = (int(v) / 255 for v in re.findall(r"[\d.]+", css)[:3])
    linear = [
        c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (red, green, blue)
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


BACKGROUND = """element => {
    for (let at = element; at; at = at.parentElement) {
        const colour = getComputedStyle(at).backgroundColor;
        if (!/rgba\\(.*, 0\\)$/.test(colour) && colour !== "transparent") return colour;
    }
    return "rgb(255, 255, 255)";
}"""
"""The colour behind an element's text: its own background, or the first one behind it."""


def test_the_page_measured_chart_axis_chips_rows_and_the_nav_at_800_px(
    tmp_path: Path, page: Page
) -> None:
    """What the page shows, measured: the chart's y-axis title clear of its tick labels, a
    hand's results on the felt at a contrast of 4.5 at least, match folders of the same name
    told apart, a match folder given by itself listed, and the nav on one line at 800 px."""
    results = tmp_path / "the-results-of-a-long-afternoon-of-experiments"
    alone = tmp_path / "a-match-given-by-itself"
    # Wide swings (always-raise against always-call, one half): tick labels like -4,000.
    summary = _match(
        alone, "always-raise", "always-call", "--hands", "10000", "--seed", "1", "--no-duplicate"
    )
    for place in ("first", "second"):
        shutil.copytree(alone, results / place / "same-name")
    with command(str(results), str(alone)) as (url, _):
        page.goto(f"{url}#live")
        rows = page.locator("#live-sources tbody tr")
        wait_until(lambda: rows.count() == 3, what="three matches")
        names = sorted(r.locator("td.name").text_content() or "" for r in rows.all())
        assert len(set(names)) == 3, names  # the two same-name folders told apart
        # The match folder given itself is listed, and its logs open in the replay.
        row = page.locator(f'#live-sources tbody tr[data-key="dir:{alone.name}/"]')
        row.click()
        over = page.locator("#live-chart .u-over")
        over.wait_for()
        wait_until(lambda: int(page.locator("#live-chart").get_attribute("data-points") or 0))
        time.sleep(0.5)  # (the chart's first drawing settles its axes)
        canvas = page.locator("#live-chart canvas").bounding_box()
        plot = over.bounding_box()
        assert canvas is not None and plot is not None
        axis: FloatRect = {
            "x": canvas["x"],
            "y": plot["y"],
            "width": plot["x"] - canvas["x"],
            "height": plot["height"],
        }
        title, *labels = _ink_runs(page.screenshot(clip=axis))
        assert labels and labels[0][0] - title[1] > 5, (title, labels)  # a clear gap
        log = summary["halves"][0]["log"]
        page.locator("#live-links a", has_text=log).click()
        page.locator("#replay-title", has_text=log).wait_for()
        page.locator('#replay-hands tbody tr[data-number="0"]').click()
        chips = page.locator("#hand-seats .value")
        chips.first.wait_for()
        for chip in chips.all():
            text = _luminance(chip.evaluate("e => getComputedStyle(e).color"))
            behind = _luminance(chip.evaluate(BACKGROUND))
            ratio = (max(text, behind) + 0.05) / (min(text, behind) + 0.05)
            assert ratio >= 4.5, (chip.text_content(), ratio)
        # At 800 px the nav keeps its line (the folders' list gives way).
        page.set_viewport_size({"width": 800, "height": 900})
        links = [page.locator(f"#nav-{view}").bounding_box() for view in ("live", "replay", "play")]
        nav = page.locator("nav").bounding_box()
        assert nav is not None and all(link is not None for link in links)
        assert len({round(link["y"]) for link in links if link}) == 1, links
        assert nav["height"] < 1.5 * max(link["height"] for link in links if link), nav


def test_the_play_end_screen_at_800_px_fits_and_says_the_last_hand_in_words(
    tmp_path: Path, page: Page
) -> None:
    played = tmp_path / "the-matches-a-person-played-against-the-bots-this-week"
    page.set_viewport_size({"width": 800, "height": 900})
    with command("--play-dir", str(played), cwd=tmp_path) as (url, _):
        page.goto(f"{url}#play")
        page.fill("#play-form input[name=hands]", "3")
        page.fill("#play-form input[name=seed]", "4")
        page.uncheck("#play-form input[name=duplicate]")
        page.click("#play-start")
        table = page.locator("#play-table")
        answered = set()
        while table.get_attribute("data-status") not in ("finished", "failed"):
            key = page.locator("#play-buttons").get_attribute("data-key")
            if key and key not in answered and page.locator("#play-buttons button").count():
                answered.add(key)
                page.locator("#play-buttons button[data-action=c]").click()
            time.sleep(0.02)
        summary = page.locator("#play-summary")
        summary.wait_for()
        box = summary.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 800, box
        widths = summary.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert widths[0] <= widths[1], widths  # nothing hidden past its right edge
        last = page.locator("#play-last").text_content() or ""
        assert not re.search(r"\b[fcr]*/[fcr/]*\b", last), last  # no raw betting string
        assert re.search(r"^Last hand \(2\): you [+-]?\d+ chips\. preflop: .*(call|check)", last)
        assert "Cards: you " in last, last
        page.locator("#play-replay").click()
        (folder,) = played.iterdir()
        log = json.loads((folder / "summary.json").read_text())["halves"][0]["log"]
        page.locator("#replay-title", has_text=log).wait_for()
        page.locator('#replay-hands tbody tr[data-number="0"]').wait_for()
