"""An import of our own modules inside a function says why it is not at the top of its module
(numba compiled when first used, an extra, ``acpcbot --help`` kept instant): a comment on its
line, or on the line before the imports it opens. Import cycles are ``lint-imports``' (its
no-cycles contract), so none of these is one."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("acpcbot", "agents", "dealer")


def _ours(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").split(".")[0] in PACKAGES
    return any(alias.name.split(".")[0] in PACKAGES for alias in node.names)


def unexplained(source: str) -> Iterator[int]:
    """The line of each import of our modules inside a function with no comment on its line,
    nor on the line before the run of imports it belongs to.

    >>> list(unexplained("def f():\\n    import acpcbot.cards\\n    import json\\n"))
    [2]
    >>> list(unexplained("def f():\\n    # numba\\n    import acpcbot.cards\\n    import agents"))
    []
    """
    lines = source.splitlines()
    # One walk of the tree, knowing whether it is inside a function (walking each function's
    # subtree in turn walked a nested function's once for each function around it).
    pending: list[tuple[ast.AST, bool]] = [(ast.parse(source), False)]
    while pending:
        node, inside = pending.pop()
        inside = inside or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        pending += [(child, inside) for child in ast.iter_child_nodes(node)]
        if not inside:
            continue
        for body in (getattr(node, field, None) for field in ("body", "orelse", "finalbody")):
            if not isinstance(body, list):
                continue
            explained = False
            for statement in body:
                if not isinstance(statement, ast.Import | ast.ImportFrom):
                    explained = False
                    continue
                line = statement.lineno
                explained = (
                    explained or "#" in lines[line - 1] or lines[line - 2].lstrip().startswith("#")
                )
                if _ours(statement) and not explained:
                    yield line


def test_every_import_inside_a_function_says_why() -> None:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            found += [f"{name}:{line}" for line in unexplained(path.read_text())]
    assert not found, "imports inside functions that do not say why: " + ", ".join(found)
