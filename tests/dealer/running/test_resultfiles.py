"""Taking a results folder (:mod:`dealer.running.resultfiles`): a folder that cannot be made
is one error at once, never a loop."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from acpcbot.errors import AcpcError
from dealer.running.resultfiles import FolderLock


def _at_once(take: Callable[[], FolderLock], seconds: float = 5.0) -> BaseException | None:
    """What ``take`` raised (``None``: it took the folder), failing if it has not ended
    within ``seconds`` (it spins: the thread is left to the end of the test process)."""
    ended: list[BaseException | None] = []

    def run() -> None:
        try:
            take().release()
            ended.append(None)
        except BaseException as exc:  # (what the test looks at)
            ended.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert ended, f"still trying after {seconds} s"
    return ended[0]


def test_a_folder_under_a_deleted_current_folder_is_an_error_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    error = _at_once(lambda: FolderLock.take(Path("m"), "match", AcpcError))
    assert isinstance(error, AcpcError)
    assert str(error) == (
        "cannot create --out m: the current folder no longer exists (it was deleted); "
        "cd to another folder, or give --out as an absolute path"
    )


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="a Linux /proc")
def test_a_folder_the_file_system_will_not_make_is_an_error_at_once() -> None:
    # /proc takes no new folder: mkdir says "No such file or directory" to root, and
    # "Permission denied" (found before, by the writable check) to anyone else.
    error = _at_once(lambda: FolderLock.take(Path("/proc/acpcbot-x"), "match", AcpcError))
    assert isinstance(error, AcpcError)
    expected = (
        "cannot create --out /proc/acpcbot-x: No such file or directory"
        if os.geteuid() == 0
        else "cannot create --out /proc/acpcbot-x: /proc is not writable"
    )
    assert str(error) == expected


def test_a_dangling_symbolic_link_is_named_as_one(tmp_path: Path) -> None:
    (tmp_path / "m").symlink_to(tmp_path / "nowhere" / "m")
    error = _at_once(lambda: FolderLock.take(tmp_path / "m", "match", AcpcError))
    assert isinstance(error, AcpcError)
    assert str(error) == (
        f"--out {tmp_path / 'm'} is a symbolic link to {tmp_path / 'nowhere' / 'm'}, "
        "which does not exist"
    )


def test_a_link_to_a_folder_is_taken(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "m").symlink_to(tmp_path / "real")
    assert _at_once(lambda: FolderLock.take(tmp_path / "m", "match", AcpcError)) is None
