"""The page's files: the vendored chart library is the release its checksums name (with its
license), and the page loads nothing from elsewhere."""

from __future__ import annotations

import hashlib
import re

from dealer.web.app import STATIC


def test_the_vendored_files_are_those_their_checksums_name() -> None:
    vendor = STATIC / "vendor"
    sums = {}
    for line in (vendor / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split("  ", 1)
        sums[name] = digest
    assert set(sums) == {"uPlot.iife.min.js", "uPlot.min.css", "uPlot.LICENSE"}
    for name, digest in sums.items():
        assert hashlib.sha256((vendor / name).read_bytes()).hexdigest() == digest, name
    assert "MIT License" in (vendor / "uPlot.LICENSE").read_text()


def test_the_page_loads_only_its_own_files() -> None:
    page = (STATIC / "index.html").read_text()
    loaded = re.findall(r'(?:src|href)="([^"#]+)"', page)
    assert loaded and all(url.startswith("/static/") or url == "data:," for url in loaded)
    for name in ("app.js", "style.css"):
        text = (STATIC / name).read_text()
        assert not re.search(r"https?://", text), name
        assert "innerHTML" not in text and "eval(" not in text, name
