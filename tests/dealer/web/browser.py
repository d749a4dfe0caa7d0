"""The page's browser for the tests: Debian's headless Chromium driven by Playwright (the
``browser`` and ``page`` fixtures, shared through ``tests/dealer/conftest.py``), and waiting
for what it shows.

Chromium is the system's (``./dev.sh test`` installs Debian's package; ``$ACPCBOT_CHROMIUM``
names another): Playwright never downloads a browser here."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]
"""As root (CI) Chromium needs --no-sandbox; /dev/shm may be small in a container."""


def chromium_path() -> str:
    """Debian's chromium (or ``$ACPCBOT_CHROMIUM``); a clear failure when there is none."""
    path = os.environ.get("ACPCBOT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail("no chromium: ./dev.sh test installs Debian's (apt-get install chromium)")
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # (the fast tier's environment does without it)
        pytest.fail("no playwright: ./dev.sh test installs it (the browser extra)")

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium_path(), args=CHROMIUM_FLAGS, headless=True
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield opened
    finally:
        context.close()
    assert not errors, errors


def wait_until(check: Callable[[], Any], timeout: float = 60.0, what: str = "") -> Any:
    """``check()`` once it is true (polled), or a failure after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"not within {timeout} s: {what}")
        time.sleep(0.05)
