"""The folders the web server was given, and the only files it will read: those inside them.

A folder given may be a folder of results, a match folder or a tournament folder itself (as
``acpcbot results DIR`` takes them), or a single ``.log``: then that log is the only file
served from its folder.

A page names a file by its folder's key and a path relative to that folder
(``results/plicas-vs-dpp.seed42.n1000/plicas-dpp.seed42.n1000.log``; the empty path is the
folder itself). :meth:`Roots.find`
turns that into a file, or refuses it with :class:`OutsideRootsError`: an absolute path,
``..`` or ``.`` parts, a hidden part (``.lock``), a NUL, backslashes, and anything whose real
path (symbolic links followed) is not inside the folder it was named under. Whatever the URL
says, nothing outside the given folders is read.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     (Path(tmp) / "m.log").write_text("")
...     roots = Roots([Path(tmp)])
...     found = roots.find(roots.keys()[0], "m.log").name
...     refused = [why for why in ("../etc/passwd", "/etc/passwd", "a/../../x", ".lock")
...                if not roots.allowed(roots.keys()[0], why)]
0
>>> found, len(refused)
('m.log', 4)
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acpcbot.errors import AcpcError
from acpcbot.smallfile import FileRefusedError, read_small_file

__all__ = [
    "MAX_DEPTH",
    "MAX_ENTRIES",
    "Found",
    "OutsideRootsError",
    "Root",
    "Roots",
    "read_json",
]

MAX_DEPTH = 4
"""How deep below a given folder the listing looks for logs and match folders."""
MAX_ENTRIES = 20_000
"""The most directory entries one listing looks at (a folder of millions is not walked)."""
MAX_JSON_BYTES = 4 << 20
"""The largest ``summary.json`` or ``tournament.json`` read."""

_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class OutsideRootsError(AcpcError):
    """A path the server will not read (outside the given folders, hidden, or absent)."""


@dataclass(frozen=True, slots=True)
class Root:
    """One given folder."""

    key: str
    """Its name in URLs: the folder's name (or the log's), made unique."""
    path: Path
    """Its real path (a log's: the folder the log is in)."""
    only: str | None = None
    """A log given by itself: its name, the only file of ``path`` served."""


@dataclass(frozen=True, slots=True)
class Found:
    """Something the listing found in a folder: a log, a match or a tournament."""

    kind: str
    """``log``, ``match`` (a folder with ``summary.json``) or ``tournament`` (one with
    ``tournament.json``)."""
    root: str
    relative: str
    """Its path inside the root, with ``/``."""
    size: int
    mtime: float

    def json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "root": self.root,
            "path": self.relative,
            "size": self.size,
            "mtime": round(self.mtime, 3),
        }


class Roots:
    """The given folders (each resolved to its real path; a missing one is an error)."""

    def __init__(self, folders: Sequence[Path]) -> None:
        self._roots: dict[str, Root] = {}
        for folder in folders:
            self.add(folder)

    def add(self, folder: Path) -> Root:
        """Serve ``folder`` (or a ``.log``) too (once: given twice, it keeps its first key)."""
        try:
            real = folder.resolve(strict=True)
        except (OSError, RuntimeError):
            raise AcpcError(f"no folder {folder}") from None
        path, only = real, None
        if real.is_file() and real.name.endswith(".log"):
            path, only = real.parent, real.name
        elif not real.is_dir():
            raise AcpcError(f"{folder} is neither a folder nor a .log")
        for root in self._roots.values():
            if (root.path, root.only) == (path, only):
                return root
        base = _KEY_UNSAFE.sub("-", real.name).strip(".-") or "folder"
        key, n = base, 1
        while key in self._roots:
            n += 1
            key = f"{base}-{n}"
        root = self._roots[key] = Root(key, path, only)
        return root

    def keys(self) -> list[str]:
        return list(self._roots)

    def __iter__(self) -> Iterator[Root]:
        return iter(self._roots.values())

    def __len__(self) -> int:
        return len(self._roots)

    def find(self, key: str, relative: str) -> Path:
        """The real path of ``relative`` in the folder ``key``; :class:`OutsideRootsError`
        for anything outside it (see the module) or missing."""
        root = self._roots.get(key)
        if root is None:
            raise OutsideRootsError(f"no folder {key!r} is served")
        parts = relative.split("/") if relative else []
        if (
            "\0" in relative
            or "\\" in relative
            or relative.startswith("/")
            or any(not part or part in (".", "..") or part.startswith(".") for part in parts)
        ):
            raise OutsideRootsError(f"{relative!r} is not a path inside {key}")
        if root.only is not None and relative != root.only:
            raise OutsideRootsError(f"only {root.only} is served as {key}")
        try:
            real = root.path.joinpath(*parts).resolve(strict=True)
        except (OSError, RuntimeError):
            raise OutsideRootsError(f"no {relative!r} in {key}") from None
        if not real.is_relative_to(root.path):
            raise OutsideRootsError(f"{relative!r} leads outside {key}")
        return real

    def allowed(self, key: str, relative: str) -> bool:
        """Whether :meth:`find` finds ``relative`` in ``key``."""
        try:
            self.find(key, relative)
        except OutsideRootsError:
            return False
        return True

    def name_of(self, path: Path) -> tuple[str, str] | None:
        """``(key, relative)`` of a path inside one of the folders (``""``: the folder
        itself), or ``None``."""
        try:
            real = path.resolve(strict=True)
        except (OSError, RuntimeError):
            return None
        for root in self._roots.values():
            if root.only is not None:
                if real == root.path / root.only:
                    return root.key, root.only
            elif real.is_relative_to(root.path):
                relative = real.relative_to(root.path).as_posix()
                return root.key, "" if relative == "." else relative
        return None

    def listing(self) -> list[Found]:
        """The logs, match folders and tournament folders in every folder (hidden entries
        skipped; at most :data:`MAX_DEPTH` levels and :data:`MAX_ENTRIES` entries), newest
        first."""
        found: list[Found] = []
        budget = [MAX_ENTRIES]
        for root in list(self._roots.values()):
            if root.only is None:
                self._walk(root, root.path, 0, found, budget)
                continue
            try:
                info = (root.path / root.only).stat()
            except OSError:
                continue
            found.append(Found("log", root.key, root.only, info.st_size, info.st_mtime))
        return sorted(found, key=lambda f: (-f.mtime, f.root, f.relative))

    def _walk(
        self, root: Root, folder: Path, depth: int, found: list[Found], budget: list[int]
    ) -> None:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        names = {entry.name for entry in entries}
        relative = "" if folder == root.path else folder.relative_to(root.path).as_posix()
        for marker, kind in (("summary.json", "match"), ("tournament.json", "tournament")):
            if marker in names:  # (the folder given may be a match or a tournament itself)
                stamp = _mtime(folder / marker)
                found.append(Found(kind, root.key, relative, 0, stamp))
        for entry in entries:
            budget[0] -= 1
            if budget[0] < 0:
                return
            if entry.name.startswith("."):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if depth < MAX_DEPTH:
                        self._walk(root, Path(entry.path), depth + 1, found, budget)
                elif entry.name.endswith(".log") and entry.is_file():
                    info = entry.stat()
                    path = f"{relative}/{entry.name}" if relative else entry.name
                    found.append(Found("log", root.key, path, info.st_size, info.st_mtime))
            except OSError:
                continue


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def read_json(path: Path) -> dict[str, Any] | None:
    """A small JSON object (``summary.json``, ``tournament.json``), or ``None`` for anything
    else (missing, too large, not an object, half-written)."""
    try:
        data = json.loads(read_small_file(path, limit=MAX_JSON_BYTES))
    except (FileRefusedError, ValueError):
        return None
    return data if isinstance(data, dict) else None
