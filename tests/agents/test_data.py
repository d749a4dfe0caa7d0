"""The agents' package data: every file has its checksum and is installed with the package."""

from __future__ import annotations

import fnmatch
import tomllib

from agents.common.manifest import DATA_DIR, MANIFEST, file_digest, manifest
from tests.conftest import REPO


def data_files() -> list[str]:
    return sorted(p.name for p in DATA_DIR.iterdir() if p.is_file() and p.name != MANIFEST)


def test_every_data_file_has_its_checksum_in_the_manifest() -> None:
    listed = manifest()
    assert sorted(listed) == data_files()
    for name, digest in listed.items():
        assert file_digest(DATA_DIR / name) == digest, name


def test_every_data_file_is_package_data() -> None:
    # A wheel (a non-editable install) holds only what package-data names.
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["agents"]
    for name in [*data_files(), MANIFEST]:
        assert any(fnmatch.fnmatch(f"data/{name}", p) for p in patterns), name
