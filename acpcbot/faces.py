"""A package's public names, each written once, some imported from their module when first used.

A package's face gives its names by importing them with the explicit re-export form
(``from acpcbot.actions import Action as Action``, which ``mypy --strict`` and ruff read as a
re-export): at the top where the modules behind are cheap to load, and under ``if
TYPE_CHECKING:`` where loading them would cost every importer of the package (numpy, numba,
asyncio, an extra), with ``__getattr__ = lazy_names(__name__)`` in its ``else:``. That block
is the only list of the lazy names: the type checker reads it (a misspelt name is an error),
and :func:`lazy_names` reads it from the package's source when a name is first asked for.

>>> getattr_ = lazy_names("acpcbot.client")
>>> getattr_("play_match").__module__
'acpcbot.client.session'
>>> getattr_("play")
Traceback (most recent call last):
AttributeError: module 'acpcbot.client' has no attribute 'play'
>>> type_checking_imports("acpcbot.client")
{'MatchSummary': 'acpcbot.client.session', 'play_match': 'acpcbot.client.session'}
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any

__all__ = ["lazy_names", "type_checking_imports"]


def lazy_names(package: str) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package``: its names are those it imports under ``if
    TYPE_CHECKING:``, read from its source on the first name asked for."""
    where: dict[str, str] | None = None

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module hook's own name
        nonlocal where
        if where is None:
            where = type_checking_imports(package)
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return __getattr__


def type_checking_imports(package: str) -> dict[str, str]:
    """Each name ``package`` imports under ``if TYPE_CHECKING:``, with its module's full name
    (read from the package's source, which is not run: nothing is imported)."""
    import ast  # here: ``import acpcbot`` (every command's start) needs no parser

    spec = importlib.util.find_spec(package)
    loader = spec.loader if spec is not None else None
    source = loader.get_source(package) if loader is not None else None  # type: ignore[attr-defined]
    if source is None:
        raise ImportError(f"the source of {package!r} is needed for its lazy names")
    found: dict[str, str] = {}
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"):
            continue
        for statement in node.body:
            if isinstance(statement, ast.ImportFrom) and statement.module and not statement.level:
                for alias in statement.names:
                    found[alias.asname or alias.name] = statement.module
    return found
