"""The web server reads only inside the folders it was given, whatever the path says."""

from __future__ import annotations

from pathlib import Path

import pytest

from acpcbot.errors import AcpcError
from dealer.web.roots import OutsideRootsError, Roots


@pytest.fixture
def served(tmp_path: Path) -> Roots:
    results = tmp_path / "results"
    (results / "m").mkdir(parents=True)
    (results / "m" / "a.log").write_text("STATE:0:rf:9h6s|3d3h:10|-10:A|B\n")
    (results / "m" / "summary.json").write_text('{"status": "finished"}')
    (results / ".hidden").mkdir()
    (results / ".hidden" / "b.log").write_text("")
    (tmp_path / "secret.log").write_text("not yours\n")
    (results / "inside-link.log").symlink_to(results / "m" / "a.log")
    (results / "outside-link.log").symlink_to(tmp_path / "secret.log")
    (results / "outside-folder").symlink_to(tmp_path, target_is_directory=True)
    return Roots([results])


@pytest.mark.parametrize(
    "path",
    [
        "../secret.log",
        "m/../../secret.log",
        "/etc/passwd",
        "//etc/passwd",
        "m/./a.log",
        "m//a.log",
        ".hidden/b.log",
        "m\\..\\..\\secret.log",
        "m/a.log\0.png",
        "outside-link.log",
        "outside-folder/secret.log",
        "no-such.log",
    ],
)
def test_a_path_outside_hidden_or_missing_is_refused(served: Roots, path: str) -> None:
    with pytest.raises(OutsideRootsError):
        served.find("results", path)


def test_paths_inside_are_found_through_links_that_stay_inside(served: Roots) -> None:
    found = served.find("results", "m/a.log")
    assert found.read_text().startswith("STATE:0")
    assert served.find("results", "inside-link.log") == found
    assert served.find("results", "") == found.parent.parent
    with pytest.raises(OutsideRootsError, match="no folder"):
        served.find("elsewhere", "m/a.log")


def test_the_listing_finds_logs_and_match_folders_but_nothing_hidden_or_outside(
    served: Roots,
) -> None:
    found = {(f.kind, f.relative) for f in served.listing()}
    assert ("match", "m") in found
    assert ("log", "m/a.log") in found and ("log", "inside-link.log") in found
    assert not any("hidden" in relative or "secret" in relative for _, relative in found)


def test_folders_get_unique_keys_and_a_missing_one_is_an_error(tmp_path: Path) -> None:
    for name in ("a/x", "b/x"):
        (tmp_path / name).mkdir(parents=True)
    roots = Roots([tmp_path / "a" / "x", tmp_path / "b" / "x", tmp_path / "a" / "x"])
    assert roots.keys() == ["x", "x-2"]
    assert roots.name_of(tmp_path / "b" / "x") == ("x-2", "")
    assert roots.name_of(tmp_path) is None
    with pytest.raises(AcpcError, match="no folder"):
        Roots([tmp_path / "gone"])
    (tmp_path / "notes.txt").write_text("")
    with pytest.raises(AcpcError, match=r"notes\.txt is neither a folder nor a \.log"):
        Roots([tmp_path / "notes.txt"])


def test_a_match_folder_given_is_listed_itself(served: Roots, tmp_path: Path) -> None:
    roots = Roots([tmp_path / "results" / "m"])
    assert {(f.kind, f.relative) for f in roots.listing()} == {("match", ""), ("log", "a.log")}
    assert roots.find("m", "") == (tmp_path / "results" / "m").resolve()
    assert roots.name_of(tmp_path / "results" / "m") == ("m", "")


def test_a_log_given_is_the_only_file_served_from_its_folder(served: Roots, tmp_path: Path) -> None:
    folder = tmp_path / "results" / "m"
    (folder / "b.log").write_text("")
    roots = Roots([folder / "a.log", folder / "a.log"])
    assert roots.keys() == ["a.log"]
    assert [(f.kind, f.root, f.relative) for f in roots.listing()] == [("log", "a.log", "a.log")]
    assert roots.find("a.log", "a.log") == (folder / "a.log").resolve()
    for other in ("b.log", "summary.json", "", "../m/b.log"):
        with pytest.raises(OutsideRootsError):
            roots.find("a.log", other)
    assert roots.name_of(folder / "a.log") == ("a.log", "a.log")
    assert roots.name_of(folder / "b.log") is None and roots.name_of(folder) is None
