"""Checks of a package's public face: every name it gives is the one its module holds, each
written once (as a re-export, ``from module import name as name``, at the top or, for those
imported when first used, under ``TYPE_CHECKING``: :mod:`acpcbot.faces`)."""

from __future__ import annotations

import ast
import importlib
from collections import Counter
from pathlib import Path

from acpcbot.faces import type_checking_imports


def check_face(package: str) -> None:
    """Every name ``package`` gives is what its module holds, and no name is given twice."""
    face = importlib.import_module(package)
    assert not hasattr(face, "__all__"), f"{package}: its names listed again in __all__"
    given = reexports(face.__file__)
    twice = [name for name, count in Counter(name for name, _ in given).items() if count > 1]
    assert given and not twice, f"{package}: given twice: {twice}"
    assert type_checking_imports(package).items() <= set(given), package
    for name, module in given:
        assert getattr(face, name) is getattr(importlib.import_module(module), name), name


def reexports(path: str | None) -> list[tuple[str, str]]:
    """Each name the file re-exports (``from module import name as name``), at the top or
    under ``if TYPE_CHECKING:``, with its module; a plain import there is refused."""
    assert path is not None
    found: list[tuple[str, str]] = []
    statements: list[ast.stmt] = []
    for node in ast.parse(Path(path).read_text()).body:
        statements.extend(node.body if isinstance(node, ast.If) else [node])
    for statement in statements:
        if not isinstance(statement, ast.ImportFrom) or statement.module in (None, "__future__"):
            continue
        assert statement.module is not None
        for alias in statement.names:
            if statement.module in ("typing", "acpcbot.faces"):
                continue
            assert alias.asname == alias.name, f"{path}: {alias.name} is not `as {alias.name}`"
            found.append((alias.name, statement.module))
    return found
