"""Places where writing fails, for the tests that every write failure is one line: a
read-only folder, an immutable file, a full file system.

The tests run as root, whom permission bits do not stop, so the failures are made for real
where the machine allows it: a tmpfs remounted read-only, ``chattr +i``, a small tmpfs filled
up (root with ``CAP_SYS_ADMIN`` and ``CAP_LINUX_IMMUTABLE``, as on a CI machine or a
privileged container). Where it does not (a container without those capabilities), the same
failures come from the system by other means, with nothing of the project's replaced: the
command runs as the ``nobody`` user, whom a folder of mode 555 and a file of mode 444 stop
(``EACCES`` instead of ``EROFS`` and ``EPERM``), and a full disk is a file size limit
(``RLIMIT_FSIZE``: ``EFBIG``, "File too large", once a file grows past it). :data:`HOW`
says which is used here.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

NOBODY = 65534
ROOM = 16 * 1024
"""What a full file system has left (or the file size limit): a few small files fit."""


def _can(*command: str) -> bool:
    return shutil.which(command[0]) is not None and (
        subprocess.run(command, capture_output=True, check=False).returncode == 0
    )


def _mounts() -> bool:
    """Whether a tmpfs can be mounted here (and unmounted)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return False
    with tempfile.TemporaryDirectory() as where:
        if not _can("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", where):
            return False
        try:
            probe = Path(where) / "probe"
            probe.touch()
            return _can("chattr", "+i", str(probe)) and _can("chattr", "-i", str(probe))
        finally:
            subprocess.run(["umount", where], check=True)


HOW = os.environ.get("ACPCBOT_TEST_FAULTS") or ("mounts" if _mounts() else "nobody")
"""``mounts``: real read-only and full file systems and immutable files; ``nobody``: the
command runs as the nobody user (permission bits) under a file size limit."""


@dataclass
class Faults:
    """Makes the places, and undoes them when the test ends."""

    root: Path
    _undo: list[Callable[[], object]] = field(default_factory=list)

    def read_only(self, name: str, fill: Callable[[Path], object] = lambda _: None) -> Path:
        """A folder that cannot be written to, holding what ``fill`` put in it."""
        folder = self.root / name
        folder.mkdir()
        if HOW == "mounts":
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", folder], check=True)
            self._undo.append(lambda: subprocess.run(["umount", folder], check=True))
            fill(folder)
            subprocess.run(["mount", "-o", "remount,ro", folder], check=True)
        else:
            fill(folder)
            for path in [folder, *folder.rglob("*")]:
                os.chown(path, 0, 0)
            folder.chmod(0o555)
            self._undo.append(lambda: folder.chmod(0o755))
        return folder

    def immutable(self, path: Path) -> None:
        """The file ``path`` can no longer be changed or replaced."""
        if HOW == "mounts":
            subprocess.run(["chattr", "+i", path], check=True)
            self._undo.append(lambda: subprocess.run(["chattr", "-i", path], check=True))
        else:
            os.chown(path, 0, 0)
            path.chmod(0o444)
            # A sticky folder: the nobody user may add files but not replace root's.
            path.parent.chmod(0o1777)

    def full(self, name: str) -> Path:
        """A folder on a file system with :data:`ROOM` left."""
        folder = self.root / name
        folder.mkdir()
        if HOW == "mounts":
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", folder], check=True)
            self._undo.append(lambda: subprocess.run(["umount", folder], check=True))
            room = os.statvfs(folder)
            filler = room.f_bavail * room.f_frsize - ROOM
            (folder / ".filler").write_bytes(b"\0" * filler)
        else:
            folder.chmod(0o777)
        return folder

    def undo(self) -> None:
        while self._undo:
            with contextlib.suppress(subprocess.CalledProcessError, OSError):
                self._undo.pop()()


@contextlib.contextmanager
def faults(root: Path) -> Iterator[Faults]:
    made = Faults(root)
    if HOW == "nobody":
        root.chmod(0o777)  # the nobody user writes its own files
    try:
        yield made
    finally:
        made.undo()


def run(
    args: list[str], cwd: Path, *, full: bool = False, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``acpcbot ARGS`` in ``cwd``, as :data:`HOW` says (``full``: where a full file system
    is a file size limit, under it)."""
    acpcbot = Path(sys.executable).with_name("acpcbot")
    command = [str(acpcbot), *args]
    preexec = None
    if HOW == "nobody":
        command = [
            *("setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"),
            *("--inh-caps=-all", *command),
        ]
        if full:

            def preexec() -> None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (ROOM, ROOM))

    return subprocess.run(
        command,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
        preexec_fn=preexec,
    )


def one_error_line(stderr: str) -> str:
    """The one line of an error (notices of kernels compiled on a first run aside, and as
    the nobody user, the warning that numba caches them elsewhere)."""
    lines = [
        line
        for line in stderr.splitlines()
        if not line.startswith("acpcbot: compil") and "component=numba" not in line
    ]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("acpcbot: error: cannot "), stderr
    assert "Traceback" not in stderr
    return lines[0]


def temporary_files(root: Path) -> list[Path]:
    """What a write left half-done under ``root``."""
    return sorted(p for p in root.rglob("*") if p.name.endswith(".tmp") or ".partial" in p.parts)
