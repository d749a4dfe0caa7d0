"""The agents' package data in ``agents/data/`` and its checksum manifest ``SHA256SUMS``.

Every shipped table, strategy and opponent file has one line ``<sha256>  <file name>`` in
the manifest (the format ``sha256sum -c`` reads); the scripts that rebuild a file update
its line.

>>> manifest()["range_ev.npy"] == file_digest(DATA_DIR / "range_ev.npy")
True
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["DATA_DIR", "MANIFEST", "file_digest", "manifest", "update_manifest"]

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
"""The folder of the agents' package data."""
MANIFEST = "SHA256SUMS"
"""The manifest's file name in :data:`DATA_DIR`."""


def file_digest(path: Path) -> str:
    """The SHA-256 of a file, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest(folder: Path = DATA_DIR) -> dict[str, str]:
    """File name to digest, as listed in ``folder``'s manifest."""
    listed: dict[str, str] = {}
    for line in (folder / MANIFEST).read_text(encoding="ascii").splitlines():
        if line.strip():
            digest, name = line.split()
            listed[name] = digest
    return listed


def update_manifest(path: Path) -> None:
    """Record ``path``'s digest in the manifest of its folder (the other lines are kept,
    in file-name order)."""
    manifest_path = path.parent / MANIFEST
    listed = manifest(path.parent) if manifest_path.exists() else {}
    listed[path.name] = file_digest(path)
    lines = [f"{digest}  {name}" for name, digest in sorted(listed.items())]
    manifest_path.write_text("\n".join(lines) + "\n", encoding="ascii")
