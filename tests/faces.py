"""Checks of a package's public face (its ``__all__``): every name is there, and a face that
loads its names when first used (:func:`acpcbot.faces.lazy_names`) says the same thing in
its three lists."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path


def check_face(package: str) -> None:
    """Every name of ``package.__all__`` is what its module holds; for a lazy face, the
    ``TYPE_CHECKING`` imports, ``_NAMES`` and ``__all__`` name the same things."""
    face = importlib.import_module(package)
    public = set(face.__all__) - {"__version__"}
    assert len(face.__all__) == len(set(face.__all__)), f"{package}: a name twice in __all__"
    lazy = getattr(face, "_NAMES", None)
    if lazy is None:
        for name in public:
            assert hasattr(face, name), f"{package}.{name}"
        return
    where = {name: module for module, names in lazy.items() for name in names}
    assert where == _type_checking_imports(face.__file__), package
    assert set(where) == public - set(vars(face)), package
    for name, module in where.items():
        assert getattr(face, name) is getattr(importlib.import_module(module), name)


def _type_checking_imports(path: str | None) -> dict[str, str]:
    """Each name imported under ``if TYPE_CHECKING:`` in the file, with its module."""
    assert path is not None
    found: dict[str, str] = {}
    for node in ast.parse(Path(path).read_text()).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name):
            if node.test.id != "TYPE_CHECKING":
                continue
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module is not None
                for alias in statement.names:
                    found[alias.asname or alias.name] = statement.module
    return found
