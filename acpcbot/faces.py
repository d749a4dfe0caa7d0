"""A package's public names, each imported from its module when first used.

A package lists its names in ``__all__``, imports them under ``TYPE_CHECKING`` (so that the
type checker knows each one, and a misspelt one is an error) and, only when not type checking,
sets ``__getattr__ = lazy_names(__name__, _NAMES)`` with ``_NAMES`` saying which module gives
which names. Importing the package, or any module under it, then costs nothing more (numpy,
numba and the client are loaded by what uses them), while ``from package import name`` works
as with an import at the top; ``tests/faces.py`` checks that the three lists agree.

>>> getattr_ = lazy_names("demo", {"math": ("sqrt",)})
>>> getattr_("sqrt")(9.0)
3.0
>>> getattr_("cbrt")
Traceback (most recent call last):
AttributeError: module 'demo' has no attribute 'cbrt'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, modules: Mapping[str, Iterable[str]]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package`` whose names live in ``modules`` (each
    module's full name, with the names it gives)."""
    where = {name: module for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module hook's own name
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return __getattr__
