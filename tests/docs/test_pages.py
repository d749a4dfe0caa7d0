"""The documentation holds together where mkdocs' strict build cannot see: the README and
CONTRIBUTING.md (outside the site) link only to files and headings that exist, every command
has its page in the site's nav and its row in the README, and the README stays the front door
(the quick start's two commands, a few hundred lines)."""

from __future__ import annotations

import re
import tomllib
import unicodedata
from pathlib import Path

import pytest

from acpcbot.cli import COMMANDS
from tests.conftest import REPO

DOCS = REPO / "docs"
FRONT_PAGES = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)


def slug(heading: str) -> str:
    """A heading's anchor as mkdocs' toc extension makes it.

    >>> slug("The case base's blind spot")
    'the-case-bases-blind-spot'
    >>> slug("5. The agent")
    '5-the-agent'
    >>> slug("`acpcbot watch`")
    'acpcbot-watch'
    """
    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page: its headings' slugs and its explicit ids."""
    text = _FENCE.sub("", page.read_text())
    found = {slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.MULTILINE)}
    return found | set(re.findall(r'id="([^"]+)"', text))


def relative_links(page: Path) -> list[str]:
    """The targets of the page's Markdown links that stay in the repository."""
    text = _FENCE.sub("", page.read_text())
    return [t for t in _LINK.findall(text) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("name", FRONT_PAGES)
def test_front_pages_link_to_files_and_headings_that_exist(name: str) -> None:
    page = REPO / name
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading '{anchor}'")
    assert not broken, f"{name}: {broken}"


def test_a_broken_link_and_a_missing_heading_are_found(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("# There\n\n## A heading\n")
    page = tmp_path / "page.md"
    page.write_text("[a](there.md#a-heading) [b](gone.md) [c](there.md#nope)\n")
    assert relative_links(page) == ["there.md#a-heading", "gone.md", "there.md#nope"]
    assert "a-heading" in anchors(tmp_path / "there.md")
    assert "nope" not in anchors(tmp_path / "there.md")


def programs() -> list[str]:
    """Every command a user runs: each ``acpcbot`` subcommand and the other console scripts."""
    with (REPO / "pyproject.toml").open("rb") as f:
        scripts = tomllib.load(f)["project"]["scripts"]
    return [*COMMANDS, *(name for name in scripts if name != "acpcbot")]


@pytest.mark.parametrize("command", programs())
def test_every_command_has_a_page_in_the_nav_and_a_row_in_the_readme(command: str) -> None:
    page = f"commands/{command}.md"
    assert (DOCS / page).is_file()
    assert f": {page}\n" in (REPO / "mkdocs.yml").read_text()
    rows = [line for line in (REPO / "README.md").read_text().splitlines() if line.startswith("|")]
    assert any(f"(docs/{page})" in row for row in rows)


def test_the_readme_is_the_front_door() -> None:
    readme = (REPO / "README.md").read_text()
    assert len(readme.splitlines()) <= 300
    # The quick start's two commands, each in a block of its own; CI runs the second.
    assert "```sh\n./dev.sh match\n```" in readme
    assert "```sh\n./dev.sh test\n```" in readme
    assert "./dev.sh test" in (REPO / ".ci" / "run").read_text().splitlines()
